"""`tritonlab verify`'s case table in the terminal: what its cells say and how it fits 80 columns.

A case whose kernel left its output unwritten showed max abs err 0 and max rel err 0 (the engine measures them
over the elements written), which reads as a perfect answer."""

from __future__ import annotations

import pytest
from rich.console import Console

from tritonlab.present.cli import print_verify
from tritonlab.present.verify import error_cells

UNWRITTEN = {"kind": "unwritten", "count": 96, "numel": 97, "start": 1, "block": 1024, "cause": "part-block"}
MISMATCH = {"kind": "mismatch", "count": 3, "numel": 97, "atol": 1e-5, "rtol": 1e-5, "max_abs_err": 0.5}


def _case(name: str, passed: bool, abs_err, rel_err, mismatches, *diagnoses: dict) -> dict:
    return {
        "name": name,
        "passed": passed,
        "max_abs_err": abs_err,
        "max_rel_err": rel_err,
        "mismatches": mismatches,
        "diagnoses": list(diagnoses),
    }


def _result(*cases: dict) -> dict:
    return {"exercise": "05-vector-add/add", "backend": "interpreter", "passed": False, "cases": list(cases)}


def _printed(result: dict, lang: str, width: int = 120) -> list[str]:
    console = Console(record=True, width=width)
    print_verify(console, result, lang)
    return console.export_text().splitlines()


def _row(lines: list[str], name: str) -> str:
    return next(line for line in lines if name in line)


@pytest.mark.parametrize(("lang", "said"), [("en", "not written"), ("ja", "未書き込み")])
def test_an_unwritten_case_does_not_show_a_zero_error(lang, said):
    written_none = _case("n=97 · float32", False, 0.0, 0.0, 97, dict(UNWRITTEN, count=97, start=0))
    written_right_part = _case("n=1023 · float32", False, 0.0, 0.0, 1022, dict(UNWRITTEN, count=1022))
    for case in (written_none, written_right_part):
        assert error_cells(case, lang) == (said, "—")
        cells = _row(_printed(_result(case), lang), case["name"]).split()
        assert said.split()[0] in cells and "—" in cells and "0" not in cells, cells


def test_measured_errors_are_still_numbers():
    right = _case("n=1 · float32", True, 0.0, 0.0, 0)
    wrong = _case("n=97 · float32", False, 0.5, 0.25, 3, MISMATCH)
    # some elements unwritten, some written wrong: the error of the written ones is worth showing
    both = _case("n=98 · float32", False, 0.5, 0.25, 99, MISMATCH, UNWRITTEN)
    reject = {"name": "rejects device mismatch", "kind": "reject", "passed": True, "diagnoses": []}
    assert error_cells(right, "en") == ("0", "0")
    assert error_cells(wrong, "ja") == ("0.5", "0.25")
    assert error_cells(both, "en") == ("0.5", "0.25")
    assert error_cells(reject, "en") == ("—", "—")


#: lesson 5's add-checked reject cases are named by their sentence (as the engine sends them)
LONG_REJECT = {
    "name": "rejects y broadcasts",
    "kind": "reject",
    "passed": False,
    "why": {
        "en": "x has 100 elements, y has 1: torch would broadcast y (x + y adds y[0] to every element), but the "
        "kernel reads 100 elements of y, 99 of them past its end; compare the shapes with ==, not by "
        "broadcasting rules",
        "ja": "x は 100 要素、y は 1 要素。torch なら y をブロードキャストする(x + y は全要素に y[0] を足す)が、"
        "カーネルは y を 100 要素読み、そのうち 99 要素は末尾の先になる。形状はブロードキャストの規則ではなく == "
        "で比べること",
    },
    "diagnoses": [{"kind": "validation", "cause": "accepted"}],
}
SHORT_REJECT = dict(
    LONG_REJECT, name="rejects device mismatch", why={"en": "x and y differ", "ja": "デバイス違い"}
)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_long_case_name_wraps_in_a_narrow_column_and_the_table_fits_80_columns(lang):
    from rich.cells import cell_len

    from tritonlab.present.verify import CASE_LINES, CASE_WIDTH, column_headers

    cases = [_case("n=97 · float32", False, 0.5, 0.25, 3, MISMATCH), LONG_REJECT, SHORT_REJECT]
    lines = _printed(_result(*cases), lang, width=80)
    assert all(cell_len(line) <= 80 for line in lines), lines
    headers = column_headers(lang)
    head = next(line for line in lines if headers[1] in line)
    for header in headers[2:]:  # every header on one line, none wrapped
        assert header in head, head
    # the numbers start right after a case column of at most CASE_WIDTH cells (it was ~45 at 80 columns)
    assert cell_len(head[: head.index(headers[2])]) <= 3 + CASE_WIDTH + 2, head
    start = next(i for i, line in enumerate(lines) if line.startswith("✗") and "100" in line)
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith(("✓", "✗")))
    row = lines[start:end]  # the long reject case's lines: its name wrapped in the case column
    assert len(row) <= CASE_LINES, row  # the sentence took ten lines of the table
    assert row[-1].rstrip().endswith("…"), row
    assert "—" in row[0] and ("input check" if lang == "en" else "入力チェック") in row[0], row
    # a short name is left whole, on one line
    short = next(
        i for i, line in enumerate(lines) if ("x and y differ" if lang == "en" else "デバイス違い") in line
    )
    assert "—" in lines[short], lines[short]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_long_reason_wraps_whole_at_80_columns(lang):
    """The reason column wraps at 16 cells; a Japanese label has no space to break at, and was cut with "…"
    ("カーネルの仕事 …" for "カーネルの仕事を torch が計算"). Every character of it is printed now."""
    from tritonlab.present.diagnoses import label

    faked = {"kind": "torch-work", "found": [{"op": "aten.softmax", "line": 12}], "message": "x"}
    case = _case("M=1, N=1 · float32 · seed 1", False, 0.0, 0.0, 0, faked)
    lines = _printed(_result(case), lang, width=80)
    assert all(len(line) <= 80 for line in lines)
    start = next(i for i, line in enumerate(lines) if "M=1, N=1" in line)
    column = "".join(line[62:].strip() for line in lines[start : start + 3])
    assert "…" not in column
    assert label("torch-work", lang).replace(" ", "") in column.replace(" ", ""), column
