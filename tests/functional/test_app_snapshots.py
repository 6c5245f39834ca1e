"""Snapshots of the home and lesson screens in English and Japanese, narrow (80×24) and wide (120×36).

They use fixture lessons (tests/functional/fixtures/lessons) and a fake worker client with a fixed hello, so
neither lesson edits nor the worker's start-up time change them. Update with `pytest --snapshot-update`.
"""

from __future__ import annotations

import pytest
from app_helpers import FakeClient, fixture_catalog, settle, wait_until

from tritonlab.app.app import TritonLabApp

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]
LANGS = ["en", "ja"]


async def _ready(pilot) -> None:
    await settle(pilot)
    # The lesson text is built just after the first frame (blocks mounted then): wait for it, never sleep.
    for _ in range(50):
        bodies = pilot.app.screen.query("#explanation-body")
        if not bodies or bodies.first().children:
            break
        await pilot.pause()
    await pilot.pause()
    for editor in pilot.app.screen.query("#editor"):
        editor.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_home(snap_compare, lang, size):
    app = TritonLabApp(lang=lang, backend="interpreter", client=FakeClient(), catalog=fixture_catalog())
    assert snap_compare(app, terminal_size=size, run_before=_ready)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_lesson(snap_compare, lang, size):
    app = TritonLabApp(
        exercise_ref="5/add", lang=lang, backend="interpreter", client=FakeClient(), catalog=fixture_catalog()
    )
    assert snap_compare(app, terminal_size=size, run_before=_ready)


QUIZ_SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]


async def _quiz_answered(pilot) -> None:
    """The quiz tab of lesson 1 with the first question answered wrongly (feedback shown) and the long second
    question in view: every choice must be readable in full."""
    await _ready(pilot)
    screen = pilot.app.screen
    screen.results.show_tab("quiz")
    if screen.has_class("-narrow"):
        screen.show_pane("results")
    await pilot.pause()
    await pilot.pause()
    screen.query_one("#quiz-0").focus()
    await pilot.pause()
    await pilot.press("b")
    await pilot.press("down")
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", QUIZ_SIZES)
def test_quiz(snap_compare, lang, size):
    app = TritonLabApp(
        exercise_ref="1", lang=lang, backend="interpreter", client=FakeClient(), catalog=fixture_catalog()
    )
    assert snap_compare(app, terminal_size=size, run_before=_quiz_answered)


IR = {
    "text": "tt.func public @add_kernel(%x_ptr: !tt.ptr<f32>) {\n  tt.return\n}\n",
    "header": ["add_kernel · ttir"],
}
PANELS = ["verify", "bench", "ir"]


def _panel_shown(panel: str):
    """After the job that fills `panel` (canned engine facts from the Japanese results test), with its tab
    shown."""

    async def run_before(pilot) -> None:
        await _ready(pilot)
        screen = pilot.app.screen
        if panel == "verify":
            await pilot.press("f6")
        elif panel == "bench":
            await pilot.press("f7")
        else:
            screen.start_job("ir", {"stage": "ttir", "arch": None})
        await settle(pilot)
        screen.results.show_tab(panel)
        # The panels fill in over a few refreshes (tables, the case detail): let every one of them land.
        for _ in range(6):
            await settle(pilot)
        if panel == "verify":
            # The cases table sizes itself on an idle refresh, which a loaded machine can put off past the settles
            # above (CI once drew the panel without it): wait for the table itself to be laid out.
            from textual.widgets import DataTable

            table = screen.query_one("#verify-cases", DataTable)

            def table_laid_out() -> bool:
                """the verify cases table shown with every row laid out"""
                return table.display and table.row_count > 0 and table.region.height >= table.row_count + 1

            await wait_until(pilot, table_laid_out)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", QUIZ_SIZES)
@pytest.mark.parametrize("panel", PANELS)
def test_result_panel(snap_compare, panel, lang, size):
    from test_app_japanese_results import BENCH, VERIFY

    client = FakeClient(results={"verify": VERIFY, "bench": BENCH, "ir": IR})
    app = TritonLabApp(
        exercise_ref="5/add", lang=lang, backend="interpreter", client=client, catalog=fixture_catalog()
    )
    assert snap_compare(app, terminal_size=size, run_before=_panel_shown(panel))
