"""The app against the REAL worker on Triton's interpreter: verify fails, fix, verify passes, reset, crash, cancel.

Every wait is on the app's own workers (`settle`), never a blind sleep.
"""

from __future__ import annotations

import asyncio
import re

from app_helpers import ROOT, settle

from tritonlab import store
from tritonlab.app.app import TritonLabApp
from tritonlab.app.screens.confirm import ConfirmScreen
from tritonlab.app.screens.lesson import LessonScreen
from tritonlab.app.widgets.verify_panel import VerifyPanel

KEY = "05-vector-add/add"
SOLUTION = (ROOT / "kernels" / "vector_add.py").read_text(encoding="utf-8")


def _starter() -> str:
    from tritonlab.content.loader import load_catalog

    return load_catalog().exercise(KEY).starter.read_text(encoding="utf-8")


def _with_line_in_wrapper(code: str, statement: str) -> tuple[str, int]:
    """Put `statement` as the first line of the host wrapper `add`; return the code and that line's number."""
    lines = code.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("def add("))
    lines.insert(header + 1, f"    {statement}")
    return "\n".join(lines) + "\n", header + 2


async def _verify(pilot, screen: LessonScreen) -> dict:
    await pilot.press("f6")
    await settle(pilot)
    assert not screen.busy
    return screen.query_one(VerifyPanel)._result


def in_lesson5(scenario):
    """Run `scenario(app, pilot, screen)` in the app opened at 5/add, once the worker has said hello."""

    async def main():
        app = TritonLabApp(exercise_ref="5/add", lang="en", backend="interpreter")
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            await scenario(app, pilot, app.screen)

    asyncio.run(main())


def test_verify_fails_then_passes_then_reset():
    in_lesson5(_verify_fails_then_passes_then_reset)


def test_crash_is_survived_and_errors_point_at_the_line():
    in_lesson5(_crash_is_survived_and_errors_point_at_the_line)


def test_run_shows_output_and_cancel_stops_a_stuck_kernel():
    in_lesson5(_run_shows_output_and_cancel_stops_a_stuck_kernel)


async def _verify_fails_then_passes_then_reset(app, pilot, screen):
    assert isinstance(screen, LessonScreen)
    assert app.worker_info["backend"] == "interpreter"
    editor = screen.editor
    assert editor.is_syntax_aware, "tree-sitter highlighting is off: install textual[syntax]"
    assert editor.text == _starter()

    editor.focus()
    editor.move_cursor((0, 0))
    await pilot.press(*"# first try", "enter")
    assert editor.text.startswith("# first try\n")

    await pilot.press("f6")
    assert screen.busy and screen.query_one("#action-bar").has_class("-busy")
    assert screen.check_action("cancel_job", ()) and not screen.check_action("verify", ())
    await settle(pilot)
    result = screen.query_one(VerifyPanel)._result
    assert result["passed"] is False and result["cases"]
    assert store.draft_path(KEY).read_text(encoding="utf-8").startswith("# first try")
    assert store.exercise_state(KEY) == store.IN_PROGRESS
    assert not screen.busy and screen.check_action("verify", ())

    editor.load_text(SOLUTION)
    result = await _verify(pilot, screen)
    assert result["passed"] is True, result.get("summary")
    assert store.exercise_state(KEY) == store.VERIFIED
    assert "PASSED" in str(screen.query_one("#status").render())

    await pilot.press("ctrl+r")
    await pilot.pause()
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("y")
    await pilot.pause()
    assert app.screen is screen
    assert editor.text == _starter()
    assert not store.draft_path(KEY).exists()


async def _crash_is_survived_and_errors_point_at_the_line(app, pilot, screen):
    editor = screen.editor

    crashing, _ = _with_line_in_wrapper(SOLUTION, "import os; os._exit(3)")
    editor.load_text(crashing)
    result = await _verify(pilot, screen)
    assert (result["error"]["kind"], result["error"]["cause"]) == ("crash", "runner")
    status = str(screen.query_one("#status").render())
    # the runner died, not the worker: no "worker restarted" (it never was), the exit status in the sentence
    assert "worker restarted" not in status and "crash" in status, status
    assert "exit code 3" in str(screen.query_one("#verify-summary").render())

    broken, line = _with_line_in_wrapper(SOLUTION, "raise RuntimeError('boom from the wrapper')")
    editor.load_text(broken)
    result = await _verify(pilot, screen)
    assert result["error"]["kind"] == "runtime" and result["error"]["line"] == line
    assert editor.error_line == line and editor.cursor_location[0] == line - 1
    assert "boom from the wrapper" in str(screen.query_one("#verify-summary").render())

    editor.load_text(SOLUTION)  # editing clears the mark; the worker restarted and verifies again
    await pilot.pause()
    assert editor.error_line is None
    result = await _verify(pilot, screen)
    assert result["passed"] is True


async def _run_shows_output_and_cancel_stops_a_stuck_kernel(app, pilot, screen):
    editor = screen.editor
    printing, _ = _with_line_in_wrapper(SOLUTION, "print('hello from add')")
    editor.load_text(printing)
    await pilot.press("f5")
    await settle(pilot)
    output = str(screen.query_one("#output-body").render())
    assert "hello from add" in output
    assert screen.results.active == "output"

    stuck, _ = _with_line_in_wrapper(SOLUTION, "while True: pass")
    editor.load_text(stuck)
    await pilot.press("f6")
    assert screen.busy
    await pilot.pause()
    await pilot.press("escape")
    await settle(pilot)
    assert not screen.busy
    assert re.search("cancel", str(screen.query_one("#status").render()))
    assert screen.query_one(VerifyPanel)._result["error"]["kind"] == "cancelled"
