"""docs/json.md lists every `cause` the lab sets or words: each one in the first column of a cause table (a
table whose header starts with `| cause |`), and nothing there that the code does not know.

The causes are read from the code with `ast`, never by running it:

- worded: the strings `tritonlab/present/diagnoses.py` and `present/doctor.py` compare a cause with
  (`f["cause"] == "permuted"`, `cause in ("broken-check", "refused-with")`, `check.get("cause")` …);
- set: `cause="..."` keywords, `"cause": "..."` dict entries and assignments to `x["cause"]` or to a name
  `cause` (a conditional expression gives both its branches) in `tritonlab/engine/**.py` and
  `tritonlab/doctor.py`."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "json.md"
PRESENT = [ROOT / "tritonlab" / "present" / "diagnoses.py", ROOT / "tritonlab" / "present" / "doctor.py"]


def _setters() -> list[Path]:
    return sorted((ROOT / "tritonlab" / "engine").rglob("*.py")) + [ROOT / "tritonlab" / "doctor.py"]


def _strings(node: ast.AST | None) -> Iterator[str]:
    """The string constants a value can be: a literal, a tuple/list/set of them, either branch of an if."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for element in node.elts:
            yield from _strings(element)
    elif isinstance(node, ast.IfExp):
        yield from _strings(node.body)
        yield from _strings(node.orelse)


def _key(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _names_cause(node: ast.AST) -> bool:
    """`cause`, `x.cause`, `f["cause"]`, `d.get("cause")`: an expression that reads a cause."""
    if isinstance(node, ast.Name):
        return "cause" in node.id
    if isinstance(node, ast.Attribute):
        return "cause" in node.attr
    if isinstance(node, ast.Subscript):
        return "cause" in (_key(node.slice) or "")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and "cause" in (_key(node.args[0]) or "")
    return False


def worded_in(source: str) -> set[str]:
    """The strings a cause is compared with (==, !=, in, not in) in this source."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_names_cause(o) for o in operands):
                for operand in operands:
                    found.update(_strings(operand))
    return found


def set_in(source: str) -> set[str]:
    """The strings this source gives a cause: `cause=`, `"cause": `, `x["cause"] = `, `cause = `."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.keyword) and node.arg == "cause":
            found.update(_strings(node.value))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is not None and _key(key) == "cause":
                    found.update(_strings(value))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                named = isinstance(target, ast.Name) and target.id == "cause"
                keyed = isinstance(target, ast.Subscript) and _key(target.slice) == "cause"
                if named or keyed:
                    found.update(_strings(node.value))
    return found


def worded() -> set[str]:
    return set().union(*(worded_in(p.read_text(encoding="utf-8")) for p in PRESENT))


def set_by_the_lab() -> set[str]:
    return set().union(*(set_in(p.read_text(encoding="utf-8")) for p in _setters()))


def documented(text: str) -> dict[str, int]:
    """Backticked names in the first column of every table whose header's first cell is `cause`, with the line
    each is on."""
    lines = text.splitlines()
    found: dict[str, int] = {}
    index = 0
    while index < len(lines) - 1:
        header, rule = lines[index], lines[index + 1]
        cells = [c.strip() for c in header.strip().strip("|").split("|")]
        if (
            header.startswith("|")
            and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", rule.strip())
            and cells[0] == "cause"
        ):
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                first = lines[index].strip().strip("|").split("|")[0]
                for name in re.findall(r"`([^`]+)`", first):
                    found.setdefault(name, index + 1)
                index += 1
            continue
        index += 1
    return found


def test_the_collectors_see_every_form_they_claim_to():
    worded_src = (
        'if f["cause"] == "a":\n    pass\nif cause in ("b", "c"):\n    pass\n'
        'if d.get("cause") != "d":\n    pass\nif check.cause == "e":\n    pass\n'
        'if kind == "not-a-cause":\n    pass\n'
    )
    assert worded_in(worded_src) == {"a", "b", "c", "d", "e"}
    set_src = (
        'error("runtime", "m", cause="a")\nx = {"cause": "b", "kind": "not-a-cause"}\n'
        'diag["cause"] = "c"\ncause = "d" if s else "e" if t else "f"\n'
        'diag.update(cause="g", kind="not-a-cause")\nother = "not-a-cause"\n'
    )
    assert set_in(set_src) == {"a", "b", "c", "d", "e", "f", "g"}


def test_the_collectors_find_known_causes():
    """Guards against a vacuous pass: a collector that found nothing would leave nothing to look up."""
    said, made = worded(), set_by_the_lab()
    assert {"permuted", "k-steps", "all-wrong", "broken-check", "tail-masked", "sandbox-on"} <= said
    # keyword, dict entry, subscript assignment, a name assigned from a conditional, tritonlab/doctor.py
    assert {"permuted", "k-steps", "internal", "all-wrong", "sandbox-on", "worker-failed"} <= made
    assert len(said) >= 70 and len(made) >= 70
    doc = documented(DOC.read_text(encoding="utf-8"))
    assert {"permuted", "none-written", "accepted", "internal", "sandbox-off"} <= set(doc)


def test_every_worded_cause_is_documented():
    doc = documented(DOC.read_text(encoding="utf-8"))
    assert sorted(worded() - set(doc)) == []


def test_every_cause_the_lab_sets_is_documented():
    doc = documented(DOC.read_text(encoding="utf-8"))
    assert sorted(set_by_the_lab() - set(doc)) == []


def test_every_documented_cause_exists_in_the_code():
    doc = documented(DOC.read_text(encoding="utf-8"))
    known = worded() | set_by_the_lab()
    assert sorted(f"{name} (docs/json.md:{line})" for name, line in doc.items() if name not in known) == []
