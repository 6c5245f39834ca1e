"""docs/json.md's Kinds table names every `Kind` the engine reports, and nothing else.

The table is the one under `## Kinds` whose header's first cell is `kind`; each row's first cell lists one or
more backticked kinds (`` `shape`, `dtype`, `type` ``). Errors and diagnoses share the table: error kinds are
`Kind` values too (`Kind.is_error`), so both sides are compared with the enum. The errors come first, as the
section's text says ("the rows from `syntax` to `tampered`")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tritonlab.engine.results import Kind

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "json.md"

_RULE = re.compile(r"\|(\s*:?-+:?\s*\|)+")
_FIRST_CELL = re.compile(r"`[^`]+`(, `[^`]+`)*")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def kinds_table(text: str) -> list[tuple[int, list[str]]]:
    """(line number, the backticked names of the first cell) for each row of the `kind` table under
    `## Kinds`. Raises AssertionError when the section, the table or a row's first cell is not as expected."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == "## Kinds"]
    assert len(starts) == 1, "docs/json.md needs exactly one `## Kinds` heading"
    end = next((i for i in range(starts[0] + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    tables = [
        i
        for i in range(starts[0] + 1, end - 1)
        if lines[i].startswith("|")
        and _RULE.fullmatch(lines[i + 1].strip())
        and _cells(lines[i])[0] == "kind"
    ]
    assert len(tables) == 1, "the Kinds section needs exactly one table whose first column is `kind`"
    rows: list[tuple[int, list[str]]] = []
    index = tables[0] + 2
    while index < end and lines[index].startswith("|"):
        first = _cells(lines[index])[0]
        assert _FIRST_CELL.fullmatch(first), f"docs/json.md:{index + 1}: first cell {first!r} is not `a`, `b`"
        rows.append((index + 1, re.findall(r"`([^`]+)`", first)))
        index += 1
    return rows


def documented() -> dict[str, int]:
    found: dict[str, int] = {}
    for line, names in kinds_table(DOC.read_text(encoding="utf-8")):
        for name in names:
            found.setdefault(name, line)
    return found


def test_the_parser_reads_only_the_kinds_table():
    text = (
        "# doc\n\n## Kinds\n\nSome `prose` with `ticks`.\n\n"
        "| other | what |\n| --- | --- |\n| `not-this` | a table of another column |\n\n"
        "| kind | what | facts |\n| :--- | --- | ---: |\n"
        "| `syntax`, `compile` | stopped | `line` |\n| `oob` | out of bounds | `detail` {`access`} |\n"
        "\nafter the table\n| `outside` | a row after a gap |\n\n"
        "## Causes\n\n| kind | what |\n| --- | --- |\n| `later` | another section |\n"
    )
    assert kinds_table(text) == [(13, ["syntax", "compile"]), (14, ["oob"])]
    with pytest.raises(AssertionError, match="first cell"):
        kinds_table("## Kinds\n\n| kind | what |\n| --- | --- |\n| `a` (b) | c |\n")
    with pytest.raises(AssertionError, match="exactly one table"):
        kinds_table("## Kinds\n\n| cause | what |\n| --- | --- |\n| `a` | c |\n")


def test_the_parser_finds_known_kinds():
    """Guards against a vacuous pass: a parser that found nothing would leave nothing to compare."""
    doc = documented()
    assert {"mismatch", "oob", "unwritten", "syntax", "no-kernel-launched", "error"} <= set(doc)
    assert len(doc) >= 40
    # the Causes tables below the Kinds section are not read: `grid-fewer-programs` is a cause only
    assert "grid-fewer-programs" not in doc


def test_every_kind_is_documented():
    doc = documented()
    assert sorted(k.value for k in Kind if k.value not in doc) == []


def test_every_documented_kind_exists():
    values = {k.value for k in Kind}
    assert (
        sorted(f"{name} (docs/json.md:{line})" for name, line in documented().items() if name not in values)
        == []
    )


def test_each_kind_is_documented_once():
    names = [name for _, row in kinds_table(DOC.read_text(encoding="utf-8")) for name in row]
    assert sorted({name for name in names if names.count(name) > 1}) == []


def test_the_error_kinds_come_first():
    """The rows of error kinds (`Kind.is_error`) form the top of the table, no row mixes errors and
    diagnoses, and every error kind is among them."""
    rows = kinds_table(DOC.read_text(encoding="utf-8"))
    flags = [{Kind(name).is_error for name in names if name in {k.value for k in Kind}} for _, names in rows]
    assert [line for (line, _), flag in zip(rows, flags, strict=True) if len(flag) > 1] == []
    errors = [True in flag for flag in flags]
    assert errors == sorted(errors, reverse=True), "an error kind's row follows a diagnosis's"
    top = {name for (_, names), error in zip(rows, errors, strict=True) if error for name in names}
    assert top == {k.value for k in Kind if k.is_error}
