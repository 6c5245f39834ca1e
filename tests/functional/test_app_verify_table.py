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


LONG_REJECT = {
    "name": "rejects y broadcasts",
    "kind": "reject",
    "passed": False,
    "why": {
        "en": "x has 100 elements, y has 1: torch would broadcast y (x + y adds y[0] to every element), but the "
        "kernel reads 100 elements of y, 99 of them past its end",
        "ja": "x は 100 要素、y は 1 要素。torch なら y をブロードキャストする(x + y は全要素に y[0] を足す)が、"
        "カーネルは y を 100 要素読み、そのうち 99 要素は末尾の先になる",
    },
    "diagnoses": [{"kind": "validation", "cause": "accepted"}],
}


@pytest.mark.parametrize(("lang", "head"), [("en", "rejects: x has 100"), ("ja", "拒否: x は 100 要素")])
def test_a_long_case_name_is_cut_and_the_numbers_stay_in_view_at_80_columns(lang, head):
    """A reject case is named by its sentence: the case column took all of 80 columns and the error columns
    were off the screen. The name is cut at CASE_WIDTH cells; the detail below heads with the whole name."""
    from app_helpers import screen_text
    from rich.cells import cell_len

    from tritonlab.app.strings import t
    from tritonlab.present.verify import CASE_WIDTH

    rows: list[list[str]] = []
    shown: list[str] = []

    async def main() -> None:
        result = dict(VERIFY, cases=[LONG_REJECT, *VERIFY["cases"]])
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
            shown.append(screen_text(app))
            shown.append(str(app.screen.query_one("#verify-detail-body").render()))

    asyncio.run(main())
    name = rows[0][1]
    assert name.startswith(head) and name.endswith("…") and cell_len(name) <= CASE_WIDTH, name
    text = shown[0]
    for key in ("col_abs", "col_rel", "col_mismatch"):  # the headers of the numbers are on the screen
        assert t(key, lang) in text, text
    assert LONG_REJECT["why"][lang] in shown[1], shown[1]  # the whole name heads the detail below the table
