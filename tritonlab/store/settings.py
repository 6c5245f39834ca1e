"""Settings: a value of the wrong type or out of range falls back to its default, with a notice."""

from __future__ import annotations

from tritonlab.store.files import data_dir, read_json, write_json
from tritonlab.store.notices import Notice, report

SETTINGS_FILE = "settings-v1.json"
DEFAULT_SETTINGS: dict = {"lang": None, "backend": "auto", "theme": None}
_VALID = {
    "lang": lambda v: v is None or v in ("en", "ja"),
    "backend": lambda v: v in ("auto", "gpu", "interpreter"),
    "theme": lambda v: v is None or (isinstance(v, str) and 0 < len(v) < 100),
}


def load_settings() -> dict:
    settings = dict(DEFAULT_SETTINGS)
    saved = read_json(SETTINGS_FILE, DEFAULT_SETTINGS, lost="settings")
    for key, value in saved.items():
        valid = _VALID.get(key)
        if valid is None or _safe(valid, value):
            settings[key] = value
        else:
            report(
                Notice(
                    "settings-value",
                    str(data_dir() / SETTINGS_FILE),
                    key=key,
                    value=_short(value),
                    default=_short(DEFAULT_SETTINGS[key]),
                )
            )
    return settings


def save_settings(settings: dict) -> bool:
    return write_json(SETTINGS_FILE, settings)


def _safe(valid, value) -> bool:
    try:
        return bool(valid(value))
    except TypeError:  # an unhashable value (a list) tested with `in`
        return False


def _short(value) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"
