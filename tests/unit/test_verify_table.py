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
