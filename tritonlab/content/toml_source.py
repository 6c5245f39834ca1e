"""Reading lesson files as UTF-8 and TOML, and finding the line a TOML key was written on.

tomllib returns plain dicts without positions, so problems could not point at a line. KeyLines scans the text
once and maps each key path it can see (table headers, `[[array]]` entries, `key = ` assignments, dotted keys)
to its line; a value inside an inline table or array is placed on the line of the nearest key that holds it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from tritonlab.content.model import Problem

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column \d+\)|\s*\(at end of document\)")
_TOML_LINE = re.compile(r"at line (\d+)")
_BARE_OR_QUOTED = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_DOTTED = rf"{_BARE_OR_QUOTED}(?:\s*\.\s*{_BARE_OR_QUOTED})*"
_ASSIGN = re.compile(rf"^\s*({_DOTTED})\s*=")
_ARRAY_HEADER = re.compile(rf"^\s*\[\[\s*({_DOTTED})\s*\]\]")
_TABLE_HEADER = re.compile(rf"^\s*\[\s*({_DOTTED})\s*\]")
_PART = re.compile(_BARE_OR_QUOTED)

Path_ = tuple  # a key path: str keys and int list indices, e.g. ("exercise", 0, "verify", "dtypes")


class FileProblem(Exception):
    """Problems that stop one lesson from loading (raised inside the loader, caught per lesson)."""

    def __init__(self, *problems: Problem):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = list(problems)


def split_key(dotted: str) -> list[str]:
    parts = []
    for match in _PART.finditer(dotted):
        part = match.group(0)
        parts.append(part[1:-1] if part[:1] in "\"'" else part)
    return parts


class KeyLines:
    """Key path -> line number, from the TOML text."""

    def __init__(self, text: str):
        self.lines: dict[Path_, int] = {}
        self._arrays: dict[Path_, int] = {}  # array-of-tables path -> entries seen so far
        table: Path_ = ()
        in_multiline = None
        for number, line in enumerate(text.splitlines(), 1):
            if in_multiline:
                if line.count(in_multiline) % 2 == 1:
                    in_multiline = None
                continue
            if match := _ARRAY_HEADER.match(line):
                parent = self._resolve(split_key(match.group(1))[:-1])
                array = (*parent, split_key(match.group(1))[-1])
                self._arrays[array] = self._arrays.get(array, 0) + 1
                table = (*array, self._arrays[array] - 1)
                self._note(array, number)
                self._note(table, number)
            elif match := _TABLE_HEADER.match(line):
                table = self._resolve(split_key(match.group(1)))
                self._note(table, number)
            elif match := _ASSIGN.match(line):
                parts = split_key(match.group(1))
                for end in range(1, len(parts) + 1):
                    self._note((*table, *parts[:end]), number)
            for quote in ('"""', "'''"):
                if line.count(quote) % 2 == 1:
                    in_multiline = quote

    def _note(self, path: Path_, number: int) -> None:
        self.lines.setdefault(path, number)

    def _resolve(self, parts: list[str]) -> Path_:
        """A header's dotted name as a key path: each array-of-tables on the way means its latest entry."""
        path: Path_ = ()
        for part in parts:
            path = (*path, part)
            if path in self._arrays:
                path = (*path, self._arrays[path] - 1)
        return path

    def line_of(self, path: Path_) -> int | None:
        """The line of `path`, else of its nearest written ancestor (an inline table or array holding it)."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None


def read_text(path: Path) -> str:
    """The file as UTF-8 text; FileProblem (with the line of the first bad byte) when it cannot be."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FileProblem(Problem(path, None, "cannot-read", {"reason": exc.strerror or str(exc)})) from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FileProblem(Problem(path, line, "not-utf8", {"offset": exc.start})) from exc


def read_toml(path: Path) -> tuple[dict, KeyLines]:
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = _TOML_LINE.search(str(exc))
        detail = _TOML_POSITION.sub("", str(exc)).strip()
        raise FileProblem(
            Problem(path, int(match.group(1)) if match else None, "bad-toml", {"detail": detail})
        ) from exc
    return data, KeyLines(text)
