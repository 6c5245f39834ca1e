"""Entry point for `tritonlab` / `tritonlab open`: resolve language and backend, then run the app.

The app runs with signal handlers that save every open draft on SIGHUP (an SSH link that drops), SIGTERM and
SIGINT before it exits (tritonlab/app/drafts.py).
"""

from __future__ import annotations


def resolve_lang(lang: str | None) -> str:
    from tritonlab import store
    from tritonlab.i18n import detect_lang

    if lang in ("en", "ja"):
        return lang
    saved = store.load_settings().get("lang")
    return saved if saved in ("en", "ja") else detect_lang()


def resolve_backend(backend: str | None) -> str:
    from tritonlab import store

    if backend and backend != "auto":
        return backend
    saved = store.load_settings().get("backend")
    return saved if saved in ("auto", "gpu", "interpreter") else "auto"


def run_app(
    exercise: str | None = None, lang: str | None = None, backend: str | None = "auto", catalog=None
) -> int:
    """`catalog`: the lessons already loaded (the CLI loads them to refuse an unknown exercise first)."""
    from tritonlab.app.app import TritonLabApp
    from tritonlab.app.drafts import install_signal_handlers

    app = TritonLabApp(
        exercise_ref=exercise, lang=resolve_lang(lang), backend=resolve_backend(backend), catalog=catalog
    )
    restore = install_signal_handlers(app)
    try:
        app.run()
    finally:
        restore()
    return app.return_code or 0
