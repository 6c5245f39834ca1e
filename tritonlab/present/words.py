"""A sentence in both languages, and the helpers every presenter shares to pick one."""

from __future__ import annotations

from dataclasses import dataclass

LANGS = ("en", "ja")


@dataclass(frozen=True)
class Said:
    """One thing the lab says, written in every language at once so neither can be forgotten."""

    en: str
    ja: str

    def in_(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    def __add__(self, other: Said) -> Said:
        return Said(self.en + other.en, self.ja + other.ja)


def pick(lang: str, en: str, ja: str) -> str:
    """Inline choice for short phrases: `pick(lang, "case", "ケース")`."""
    return ja if lang == "ja" else en


def join(lang: str, parts: list[str]) -> str:
    """A list in running text: "a, b, c" / "a、b、c"."""
    return ("、" if lang == "ja" else ", ").join(parts)
