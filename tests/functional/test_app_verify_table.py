"""The verify tab's case table at 80×24: what its cells say and how wide its case column is."""

from __future__ import annotations

import asyncio

import pytest
from app_helpers import FakeClient, fixture_catalog, settle
from textual.widgets import DataTable

from tritonlab.app.app import TritonLabApp

UNWRITTEN = {"kind": "unwritten", "count": 97, "numel": 97, "start": 0, "block": 128, "cause": "part-block"}
VERIFY = {
    "exercise": "05-vector-add/add",
    "backend": "interpreter",
    "passed": False,
    "error": None,
    "cases": [
        {"name": "n=1 · float32", "passed": True, "max_abs_err": 0.0, "max_rel_err": 0.0, "mismatches": 0},
        {
            "name": "n=97 · float32",
            "passed": False,
            "max_abs_err": 0.0,  # measured over the elements written: none
            "max_rel_err": 0.0,
            "mismatches": 97,
            "diagnoses": [UNWRITTEN],
        },
    ],
}


def _rows(lang: str, result: dict) -> list[list[str]]:
    rows: list[list[str]] = []

    async def main() -> None:
        app = TritonLabApp(
            lang=lang,
            backend="interpreter",
            client=FakeClient(results={"verify": result}),
            catalog=fixture_catalog(),
            exercise_ref="5/add",
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("f6")
            await settle(pilot)
            table = app.screen.query_one("#verify-cases", DataTable)
            rows.extend([str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count))

    asyncio.run(main())
    return rows


@pytest.mark.parametrize(("lang", "said"), [("en", "not written"), ("ja", "未書き込み")])
def test_a_case_the_kernel_did_not_write_shows_no_zero_error(lang, said):
    right, unwritten = _rows(lang, VERIFY)
    assert right[2:4] == ["0", "0"], right
    assert unwritten[2:5] == [said, "—", "97"], unwritten
