"""Language choice. Lesson text carries its own en/ja; this holds the few shared UI/CLI words."""

from __future__ import annotations

import locale
import os


def detect_lang() -> str:
    """'ja' when the locale says Japanese, else 'en'. Settings or --lang override this."""
    for var in ("TRITONLAB_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "ja" if loc.lower().startswith("ja") else "en"


STRINGS = {
    "en": {
        "passed": "PASSED",
        "failed": "FAILED",
        "skipped": "SKIPPED",
        "case": "case",
        "interpreter_badge": "CPU interpreter — timings are not GPU timings",
        "verify_hint_next": "Next: tritonlab bench {ref} to time it",
    },
    "ja": {
        "passed": "合格",
        "failed": "不合格",
        "skipped": "スキップ",
        "case": "ケース",
        "interpreter_badge": "CPU インタプリタ — 計測値は GPU の時間ではありません",
        "verify_hint_next": "次は tritonlab bench {ref} で計測してみましょう",
    },
}


def t(key: str, lang: str = "en", **fmt) -> str:
    text = STRINGS.get(lang, STRINGS["en"]).get(key) or STRINGS["en"].get(key, key)
    return text.format(**fmt) if fmt else text
