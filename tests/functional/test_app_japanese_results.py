"""The app in Japanese: verify, bench and run results (engine facts, as the worker sends them) read without
English prose in the result panels and the status line, at 80×24. The code editor (the learner's Python) is
not read."""

from __future__ import annotations

import asyncio

from app_helpers import FakeClient, fixture_catalog, settle
from textual.widgets import DataTable

from tests.integration.test_japanese_output import english_runs
from tritonlab.app.app import TritonLabApp

KEY = "05-vector-add/add"

UNWRITTEN = {
    "kind": "unwritten",
    "count": 1,
    "ranges": [[96, 96]],
    "numel": 97,
    "start": 96,
    "block": 32,
    "runs": 1,
    "cause": "grid-floor",
    "message": "element 96 were never written: the last program was not launched",
}
VERIFY = {
    "exercise": KEY,
    "backend": "interpreter",
    "passed": False,
    "error": None,
    "summary": "1/3 cases pass — first failure (English, from the engine)",
    "cases": [
        {
            "name": "n=1 · float32",
            "passed": True,
            "max_abs_err": 0.0,
            "max_rel_err": 0.0,
            "mismatches": 0,
            "diagnoses": [],
        },
        {
            "name": "n=97 · float32",
            "passed": False,
            "max_abs_err": 0.0,
            "max_rel_err": 0.0,
            "mismatches": 1,
            "diagnoses": [UNWRITTEN],
            "first": [{"index": [96], "got": "nan", "expected": 0.5, "kind": "unwritten"}],
            "map": "elements 0–96, 4 cells (one per program)\n...u\nlegend: . ok   x wrong   n inf/NaN   u "
            "never written",
            "map_grid": {"dims": 1, "numel": 97, "cells": 4, "programs_per_cell": 1, "rows": ["...u"]},
            # as the engine sends them today: English text (engine.inputs.describe), for --json readers
            "inputs": {"x": "(97,) float32 on cpu", "y": "(64,) float32 on cpu, strides (2,)"},
        },
        {
            "name": "rejects mismatched lengths",
            "kind": "reject",
            "passed": False,
            "diagnoses": [
                {
                    "kind": "validation",
                    "cause": "accepted",
                    "why": {"en": "x and y differ in length", "ja": "x と y の長さが違う"},
                    "case_name": "mismatched lengths",
                    "message": "the wrapper accepted input it must reject",
                }
            ],
            "why": {"en": "x and y differ in length", "ja": "x と y の長さが違う"},
        },
    ],
}
OOB_VERIFY = {
    "exercise": KEY,
    "backend": "interpreter",
    "passed": False,
    "cases": [],
    "error": {
        "kind": "oob",
        "line": 13,
        "case": "n=1 · float32",
        "message": "store to out_ptr out of bounds …",
        "detail": {
            "access": "store",
            "op": "store",
            "arg": "out_ptr",
            "program_id": [0, 0, 0],
            "lanes": 127,
            "span": [1, 127],
            "extent": 1,
            "numel": 1,
            "reason": "past_end",
        },
    },
}
BENCH = {
    "exercise": KEY,
    "backend": "interpreter",
    "verified": True,
    "verify": {"passed": True, "cases": 13},
    "error": None,
    "note": "No times on the interpreter: (English, from the engine)",
    "rows": [
        {
            "label": "n=4096",
            "programs": 4,
            "bytes_loaded": 32768,
            "bytes_stored": 16384,
            "bytes_moved": 49152,
            "bytes": 49152,
            "arithmetic_intensity": 0.0833,
        }
    ],
}


def run(scenario, results: dict) -> None:
    async def main():
        app = TritonLabApp(
            lang="ja",
            backend="interpreter",
            client=FakeClient(results=results),
            catalog=fixture_catalog(),
            exercise_ref="5/add",
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await scenario(app, pilot)

    asyncio.run(main())


def shown(app, *selectors: str) -> str:
    return "\n".join(str(app.screen.query_one(s).render()) for s in selectors)


def table_text(app) -> str:
    table = app.screen.query_one("#verify-cases", DataTable)
    return "\n".join(" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count))


def test_a_failed_verify_in_japanese_has_no_english_prose():
    async def scenario(app, pilot):
        await pilot.press("f6")
        await settle(pilot)
        text = shown(app, "#verify-summary", "#verify-detail-body", "#status") + "\n" + table_text(app)
        assert "未書き込み" in text or "書き込まれていません" in text, text
        assert "x と y の長さが違う" in text  # the reject case is named in Japanese
        assert "凡例" in text  # the map's legend
        # the inputs in Japanese words, not "(97,) float32 on cpu" (three words too few for english_runs)
        assert "x: (97,) float32(cpu 上)" in text and "y: (64,) float32(cpu 上)、ストライド (2,)" in text, (
            text
        )
        assert " on cpu" not in text and "strides" not in text, text
        assert english_runs(text) == [], text

    run(scenario, {"verify": VERIFY})


def test_an_out_of_bounds_error_in_japanese_points_at_the_line_in_japanese():
    async def scenario(app, pilot):
        await pilot.press("f6")
        await settle(pilot)
        text = shown(app, "#verify-summary", "#status")
        assert "範囲外アクセス(13 行目)" in text and "out_ptr" in text
        assert english_runs(text) == [], text
        assert app.screen.editor.error_line == 13

    run(scenario, {"verify": OOB_VERIFY})


def test_a_bench_report_in_japanese_has_no_english_prose():
    async def scenario(app, pilot):
        await pilot.press("f7")
        await settle(pilot)
        panel = app.screen.query_one("#bench-report")
        text = (
            "\n".join(str(child.render()) for child in panel.query("Static")) + "\n" + shown(app, "#status")
        )
        assert "インタプリタでは時間を計りません" in text and "32,768" in text, text
        assert english_runs(text) == [], text

    run(scenario, {"bench": BENCH})


PROFILE = {
    "exercise": KEY,
    "backend": "gpu",
    "verified": True,
    "method": "torch.profiler",
    "params": {"n": 16777216},
    "label": "n=16777216",
    "dtype": "float32",
    "calls": 10,
    "kernels": [
        {
            "name": "add_kernel",
            "yours": True,
            "launches": 10,
            "per_call": 1.0,
            "us_per_call": 48.2,
            "share": 0.8,
        },
        {
            "name": "elementwise_copy",
            "yours": False,
            "launches": 10,
            "per_call": 1.0,
            "us_per_call": 12.0,
            "share": 0.2,
        },
    ],
    "launches": [],
    "wall_us": 75.0,
    "device_us": 60.2,
    "events_us": 61.0,
    "host_us": 14.8,
    "profiler_error": None,
    "error": None,
}


def test_shift_f7_profiles_one_call_in_the_bench_tab_in_japanese():
    async def scenario(app, pilot):
        await pilot.press("shift+f7")
        await settle(pilot)
        text = str(app.screen.query_one("#bench-profile").render())
        assert "add_kernel" in text and "elementwise_copy" in text and "48.2" in text, text
        assert "あなたのファイル以外のカーネル 1 個" in text, text
        assert english_runs(text.replace("add_kernel", "").replace("elementwise_copy", "")) == [], text
        assert "プロファイル" in shown(app, "#status"), shown(app, "#status")

    run(scenario, {"profile": PROFILE})
