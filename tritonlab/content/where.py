"""A position inside one parsed TOML file, to raise a problem at a key without threading path/lines/root
around."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tritonlab.content.model import Problem
from tritonlab.content.schema import shown_key
from tritonlab.content.toml_source import FileProblem, KeyLines


@dataclass(frozen=True)
class Where:
    path: Path
    lines: KeyLines
    root: dict
    at: tuple = ()

    def __truediv__(self, part) -> Where:
        return Where(self.path, self.lines, self.root, (*self.at, part))

    @property
    def line(self) -> int | None:
        return self.lines.line_of(self.at)

    @property
    def key(self) -> str:
        return shown_key(self.at, self.root) or "(file)"

    def fail(self, code: str, **values) -> FileProblem:
        """The problem at this key, ready to raise; `key` (the shown key path) is added to the values."""
        return FileProblem(Problem(self.path, self.line, code, {"key": self.key, **values}))
