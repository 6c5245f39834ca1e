"""The app's screens with a fake worker client: navigation, language, drafts, hints, quiz, dialogs, layout.

The fake client answers instantly with canned results, so these tests are about the UI, not the kernels
(tests/functional/test_app_workflow.py runs the real worker).
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

from app_helpers import FakeClient, fixture_catalog, screen_text, settle
from textual.widgets import OptionList

from tritonlab import store
from tritonlab.app.app import TritonLabApp
from tritonlab.app.screens.confirm import ConfirmScreen
from tritonlab.app.screens.help import HelpScreen
from tritonlab.app.screens.home import HomeScreen
from tritonlab.app.screens.lesson import LessonScreen
from tritonlab.app.screens.solution import SolutionScreen
from tritonlab.app.widgets.editor import CodeEditor
from tritonlab.app.widgets.hints_panel import HintsPanel
from tritonlab.app.widgets.quiz_panel import QuizChoices
from tritonlab.app.widgets.verify_panel import VerifyPanel

KEY = "05-vector-add/add"

FAILED_VERIFY = {
    "exercise": KEY,
    "backend": "interpreter",
    "passed": False,
    "error": None,
    "summary": "1/2 cases pass — first failure, n=97 · float32: elements 1–96 were never written",
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
            "max_abs_err": 1.5,
            "max_rel_err": 1.0,
            "mismatches": 96,
            "diagnoses": [
                {
                    "kind": "unwritten",
                    "count": 96,
                    "ranges": [[1, 96]],
                    "numel": 97,
                    "start": 1,
                    "cause": "grid-short",
                    "message": "(the engine's old English, never shown)",
                }
            ],
            "first": [{"index": [1], "got": "nan", "expected": 0.25}],
            "map": "✓✗✗✗✗✗✗✗",
            "map_grid": {"dims": 1, "numel": 97, "cells": 8, "elements_per_cell": 13, "rows": ["✓✗✗✗✗✗✗✗"]},
        },
    ],
    "output": "debug print from the kernel file\n",
}


def run(scenario, size=(80, 24), client=None, **app_args):
    async def main():
        app = TritonLabApp(
            lang=app_args.pop("lang", "en"),
            backend="interpreter",
            client=client or FakeClient(),
            catalog=fixture_catalog(),
            **app_args,
        )
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await scenario(app, pilot)

    asyncio.run(main())


def test_home_lists_lessons_states_and_problems():
    async def scenario(app, pilot):
        assert isinstance(app.screen, HomeScreen)
        text = screen_text(app)
        assert "First steps" in text and "Vector addition, the whole life cycle" in text
        assert "Vector add" in text and "not started" in text
        assert "03-broken/lesson.toml:1: missing text.ja.md" in text  # listed, not hidden
        assert "CPU interpreter — timings are not GPU timings" in str(app.screen.query_one("#badge").render())
        await pilot.press("ctrl+l")
        await pilot.pause()
        text = screen_text(app)
        assert "ベクトル加算：実装から検証まで" in text and "未着手" in text
        assert (
            store.load_settings().get("lang") is None
        )  # ctrl+l is for this session; the locale decides next time

    run(scenario)


def footer_keys(app) -> set:
    return {key for key, active in app.screen.active_bindings.items() if active.enabled}


def test_open_exercise_from_home_and_come_back():
    async def scenario(app, pilot):
        assert not app.screen.query_one("#resume").display
        assert "r" not in footer_keys(app), "nothing to resume yet: no 'r Resume' in the footer"
        how = str(app.screen.query_one("#home-how").render())
        assert "Enter opens" in how and "resume" not in how, "nor in the line that says the keys"
        options = app.screen.query_one(OptionList)
        options.focus()
        ids = [o.id for o in options.options]
        options.highlighted = ids.index(f"exercise:{KEY}")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LessonScreen) and app.screen.exercise.key == KEY
        assert store.load_progress()["last"] == KEY
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.screen.query_one("#resume").display
        assert "r" in footer_keys(app)
        assert "r resumes" in str(app.screen.query_one("#home-how").render())
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, LessonScreen)
        await pilot.press("ctrl+b")  # previous exercise: lesson 2's
        await pilot.pause()
        assert app.screen.exercise.key == "02-environment/add"

    run(scenario)


def test_draft_is_saved_while_typing_and_restored_after_a_restart():
    async def type_something(app, pilot):
        editor = app.screen.query_one(CodeEditor)
        editor.focus()
        editor.move_cursor((0, 0))
        await pilot.press(*"# mine", "enter")
        path = store.draft_path(KEY)
        for _ in range(100):  # the debounced save, polled (not a blind sleep): on a loaded machine the keys
            # arrive slowly and a save may land after "#" alone (CI, eleventh session); the next one catches up
            if path.exists() and path.read_text(encoding="utf-8").startswith("# mine\n"):
                break
            await pilot.pause(0.05)
        assert path.read_text(encoding="utf-8").startswith("# mine\n")
        await pilot.press(*"# unsaved until exit")

    async def check_restored(app, pilot):
        assert app.screen.query_one(CodeEditor).text.startswith("# mine\n# unsaved until exit")
        assert store.exercise_state(KEY) == store.IN_PROGRESS

    run(type_something, exercise_ref="5/add")
    run(check_restored, exercise_ref="5/add")


def test_the_interpreters_own_warnings_are_said_apart_from_what_the_program_printed():
    """Probe round 15: numpy's 'overflow encountered in cast' inside Triton's interpreter was shown as the
    learner's output; the runner records it apart (case `interpreter_warnings`), the Output tab says whose."""
    warned = json.loads(json.dumps(FAILED_VERIFY))
    warned["cases"][1]["interpreter_warnings"] = [
        {"line": 15, "category": "RuntimeWarning", "message": "overflow encountered in cast"}
    ]
    client = FakeClient(results={"verify": warned})

    async def scenario(app, pilot):
        await pilot.press("f6")
        await settle(pilot)
        body = str(app.screen.query_one("#output-body").render())
        printed, _, rest = body.partition("Triton's interpreter warned")
        assert "debug print" in printed and "overflow" not in printed, body
        assert "line 15: RuntimeWarning: overflow encountered in cast" in rest, body

    run(scenario, client=client, exercise_ref=KEY)


def test_untouched_starter_is_not_saved():
    async def scenario(app, pilot):
        assert app.screen.query_one(CodeEditor).text.startswith('"""Lesson 5')

    run(scenario, exercise_ref="5/add")
    assert not store.draft_path(KEY).exists()
    assert store.exercise_state(KEY) == store.NOT_STARTED


def test_verify_result_shows_cases_and_narrow_layout_switches_to_results():
    client = FakeClient(results={"verify": FAILED_VERIFY})

    async def scenario(app, pilot):
        screen = app.screen
        assert screen.has_class("-narrow") and screen.has_class("-show-code")
        await pilot.press("f6")
        await settle(pilot)
        op, args = client.requests[-1]
        assert op == "verify" and set(args) == {"exercise", "file"} and args["exercise"] == KEY
        # what this window shows, in a per-window file (another window may change the draft meanwhile)
        assert Path(args["file"]).read_text(encoding="utf-8") == screen.editor.text
        assert store.draft_path(KEY).exists()  # saved before the request
        assert screen.has_class("-show-results") and screen.results.active == "verify"
        panel = screen.query_one(VerifyPanel)
        assert panel.query_one("#verify-cases").row_count == 2
        detail = str(panel.query_one("#verify-detail-body").render())
        assert "n=97" in detail and "never written" in detail and "expected 0.25" in detail
        assert "✓✗✗" in detail  # the mismatch map
        assert "debug print" in str(screen.query_one("#output-body").render())
        assert (
            screen.focused is not None and screen.focused is not screen.editor
        )  # no typing into a hidden pane
        await pilot.press("escape")  # back to the code
        assert screen.has_class("-show-code") and screen.focused is screen.editor
        await pilot.press("ctrl+t")
        assert screen.has_class("-show-results")

    run(scenario, client=client, exercise_ref="5/add")


def test_wide_layout_is_side_by_side():
    async def scenario(app, pilot):
        screen = app.screen
        assert screen.has_class("-wide")
        text, code, results = (screen.query_one(f"#{p}-pane") for p in ("text", "code", "results"))
        assert text.region.x < code.region.x and code.region.y < results.region.y
        # ctrl+t means the same in both layouts: focus moves to the next pane (here the results).
        assert screen.focused is screen.editor
        await pilot.press("ctrl+t")
        assert screen.focused is not None and results in screen.focused.ancestors

    run(scenario, size=(160, 48), exercise_ref="5/add")


def test_hints_are_revealed_one_at_a_time():
    async def scenario(app, pilot):
        hints = app.screen.query_one(HintsPanel)
        assert hints.revealed == 0
        await pilot.press("f2")
        await pilot.pause()
        assert hints.revealed == 1 and app.screen.results.active == "hints"
        body = str(hints.query_one("#hints-body").render())
        assert "Hint 1 of 2" in body and "Hint 2" not in body
        await pilot.press("f2")
        await pilot.press("f2")
        assert hints.revealed == 2

    run(scenario, exercise_ref="5/add")


def test_quiz_answers_are_graded_and_recorded():
    async def scenario(app, pilot):
        screen = app.screen
        assert screen.exercise is None  # lesson 1 has only text and a quiz
        screen.results.show_tab("quiz")
        await pilot.pause()
        choices = screen.query_one("#quiz-0", QuizChoices)
        choices.focus()
        await pilot.pause()
        await pilot.press("enter")  # the first choice, the right one
        await pilot.pause()
        assert "correct" in str(screen.query_one("#quiz-feedback-0").render())
        assert store.load_progress()["quiz"]["01-first-steps"]["what"]["correct"] is True

    run(scenario, exercise_ref="1")


def test_reset_and_solution_ask_first():
    async def scenario(app, pilot):
        screen = app.screen
        editor = screen.editor
        editor.load_text("mine = 1\n")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert editor.text == "mine = 1\n"
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, SolutionScreen)
        assert "-mine = 1" in app.screen.diff and "+def add(" in app.screen.diff
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen

    run(scenario, exercise_ref="5/add")


def test_help_language_and_editor_fallbacks(monkeypatch):
    monkeypatch.setenv("EDITOR", "true")

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert "ベクトル加算" in str(screen.query_one("#lesson-title").render())
        assert any(b.description == "検証" for b in screen._bindings.key_to_bindings["f6"])
        await pilot.press("f4")  # headless: the terminal cannot be handed over; a notice, not a crash
        await pilot.pause()
        assert any("外部エディタ" in n.message for n in app._notifications)
        store.save_draft(KEY, "edited elsewhere = True\n")
        screen.reload_from_disk()
        assert screen.editor.text == "edited elsewhere = True\n"

    run(scenario, exercise_ref="5/add")


def test_environment_panel_runs_the_doctor_in_the_background(monkeypatch):
    import tritonlab.doctor

    report = {
        "ok": True,
        "backend": "interpreter",
        "checks": [
            {"name": "torch", "status": "ok", "value": "2.13"},
            {
                "name": "cuda",
                "status": "warn",
                "value": "no GPU",
                "fix": "use the interpreter",
                "cause": "no-cuda",
            },
        ],
    }
    monkeypatch.setattr(tritonlab.doctor, "run_doctor", lambda lab=None, **_: report)

    async def scenario(app, pilot):
        screen = app.screen
        assert screen.results.active == "env"
        await settle(pilot)
        await pilot.pause()
        shown = screen_text(app)
        assert "torch" in shown and "fix: kernels run on Triton's CPU interpreter" in shown
        assert "can run kernels" in shown

    run(scenario, size=(120, 36), exercise_ref="2")


def test_corrupt_user_files_are_set_aside_with_a_notice(isolated_home):
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / store.PROGRESS_FILE).write_text("{not json", encoding="utf-8")
    (isolated_home / store.SETTINGS_FILE).write_text(json.dumps([1, 2]), encoding="utf-8")

    async def scenario(app, pilot):
        messages = [n.message for n in app._notifications]
        assert any(store.PROGRESS_FILE in m and "moved to" in m for m in messages), messages
        assert isinstance(app.screen, HomeScreen)

    run(scenario)
    assert list(isolated_home.glob(f"{store.PROGRESS_FILE}.corrupt-*"))


GPU_BENCH = {
    "exercise": KEY,
    "backend": "gpu",
    "device": "NVIDIA H200",
    "verified": True,
    "verify": {"passed": True, "cases": 4},
    "error": None,
    "rows": [
        {"label": "n=1M", "ms": 0.01, "gbps": 1200.0, "torch_ms": 0.011, "torch_gbps": 1100.0, "tflops": 0.1},
        {"label": "n=16M", "ms": 0.05, "gbps": 3000.0, "torch_ms": 0.05, "torch_gbps": 2900.0, "tflops": 0.3},
    ],
    "sweep": {
        "keys": ["BLOCK_SIZE"],
        "rows": [
            {"label": "BLOCK_SIZE=128", "gbps": 1000.0},
            {"label": "BLOCK_SIZE=1024", "gbps": 3000.0},
            {"label": "BLOCK_SIZE=8192", "gbps": None, "status": "error"},
        ],
    },
    "roofline": {
        "bandwidth_gbps": 4000.0,
        "peak_tflops": 60.0,
        "points": [
            {"who": "yours", "ai": 0.083, "tflops": 0.3},
            {"who": "torch", "ai": 0.083, "tflops": 0.29},
        ],
    },
}


def test_ir_stage_buttons_and_bench_charts():
    client = FakeClient(
        results={
            "ir": {
                "text": "tt.func public @add_kernel() {\n  tt.return\n}\n",
                "header": ["add_kernel · ptx · sm_90"],
            },
            "bench": GPU_BENCH,
        }
    )

    async def scenario(app, pilot):
        screen = app.screen
        screen.results.show_tab("ir")
        await pilot.pause()
        await pilot.click("#ir-ptx")
        await settle(pilot)
        assert client.requests[-1][0] == "ir" and client.requests[-1][1]["stage"] == "ptx"
        shown = screen_text(app)
        assert "add_kernel · ptx · sm_90" in shown and "tt.func public @add_kernel" in shown
        await pilot.press("f7")
        await settle(pilot)
        assert screen.results.active == "bench"
        assert len(screen.query(".bench-chart")) == 3  # yours vs torch, the sweep, the roofline
        assert "NVIDIA H200" in screen_text(app)

    run(scenario, size=(120, 48), client=client, exercise_ref="5/add")


OOB_VERIFY = {
    "exercise": KEY,
    "backend": "interpreter",
    "passed": False,
    "error": {
        "kind": "oob",
        "message": "load from x_ptr out of bounds in program 0 — mask the load (offsets < n_elements)",
        "line": 3,
        "case": "n=1 · float32",
        "detail": {"access": "load", "arg": "x_ptr", "offsets": [1, 2, 3]},
    },
    "cases": [
        {
            "name": "n=1 · float32",
            "passed": False,
            "diagnoses": [{"kind": "oob", "message": "load from x_ptr out of bounds", "line": 3}],
        }
    ],
}


def test_verify_error_reads_as_words_and_points_at_the_line():
    client = FakeClient(results={"verify": OOB_VERIFY})

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("f6")
        await settle(pilot)
        summary = str(screen.query_one("#verify-summary").render())
        assert "out-of-bounds access at line 3" in summary
        assert "'access'" not in summary  # the worker's structured detail is not dumped as a dict
        assert "out-of-bounds access" in str(screen.query_one("#status").render())
        assert screen.editor.error_line == 3 and screen.editor.cursor_location == (2, 0)

    run(scenario, client=client, exercise_ref="5/add")


def test_failed_verify_summary_leaves_the_diagnosis_to_the_selected_case():
    client = FakeClient(results={"verify": FAILED_VERIFY})

    async def scenario(app, pilot):
        await pilot.press("f6")
        await settle(pilot)
        summary = str(app.screen.query_one("#verify-summary").render())
        assert "1/2 cases pass" in summary and "never written" not in summary
        detail = str(app.screen.query_one("#verify-detail-body").render())
        assert detail.index("mismatch map") < detail.index("first mismatches")

    run(scenario, client=client, exercise_ref="5/add")


def test_cancelled_verify_is_not_a_failure_and_keeps_the_code_in_view():
    cancelled = {
        "passed": False,
        "error": {"kind": "cancelled", "message": "cancelled: the worker was stopped"},
    }
    client = FakeClient(results={"verify": cancelled})

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("f6")
        await settle(pilot)
        summary = str(screen.query_one("#verify-summary").render())
        assert "FAILED" not in summary and "cancelled" in summary
        assert not screen.query_one("#verify-detail").display  # no empty case area
        assert screen.has_class("-show-code")

    run(scenario, client=client, exercise_ref="5/add")


_FRAMES = "\n".join(
    f'  File "/work/main/tritonlab/engine/runner.py", line {n} in step_{n}' for n in range(20)
)
CRASH_TAIL = (
    "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007ffb3d058b80 (most recent call first):\n"
    f'  File "/tmp/tritonlab-window/add.py", line 32 in add\n{_FRAMES}\n  File "<frozen runpy>", line 88 in '
    "_run_code"
)
CRASHED = {
    "passed": False,
    "cases": [],
    "error": {
        "kind": "crash",
        "message": "the worker process died",
        "signal": "SIGSEGV",
        "exit_code": -11,
        "line": 32,
        "stderr_tail": CRASH_TAIL,
    },
}


async def _scroll_to_the_end(app, pilot, panel_id: str) -> None:
    for scroll in app.screen.query_one(panel_id).query("VerticalScroll, ScrollableContainer"):
        scroll.scroll_end(animate=False)
    await pilot.pause()


def test_a_long_traceback_can_be_read_to_its_end_at_80x24():
    """A crash's traceback sat in the verify summary (at most 8 lines, not scrollable) above an empty case
    area: at 80×24 it stopped at 'Current thread … (most recent call first):', never reaching the learner's
    line or the last frame. The same in the IR tab's header. It now goes where the panel scrolls."""

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("f6")
        await settle(pilot)
        await _scroll_to_the_end(app, pilot, "#verify-panel")
        shown = screen_text(app)
        assert "line 88 in _run_code" in shown, shown
        assert "crash at line 32" in str(screen.query_one("#verify-summary").render())
        screen.results.show_tab("ir")
        await pilot.pause()
        await pilot.click("#ir-ptx")
        await settle(pilot)
        await _scroll_to_the_end(app, pilot, "#ir-panel")
        shown = screen_text(app)
        assert "line 88 in _run_code" in shown and "crash at line 32" in shown, shown

    client = FakeClient(results={"verify": CRASHED, "ir": CRASHED})
    run(scenario, client=client, exercise_ref="5/add")


class SlowStartClient(FakeClient):
    """A worker that takes its time to start (torch imports): cancel() while it starts kills it, as the real
    client's cancel kills the starting process."""

    def __init__(self):
        super().__init__()
        self.stop = threading.Event()
        self.starts = 0

    def start(self, timeout: float = 0) -> dict:
        from tritonlab.engine.client import WorkerStartError

        self.starts += 1
        if self.starts == 1 and self.stop.wait(10):
            raise WorkerStartError("the worker did not start")
        return self.info

    def request(self, op, args=None, timeout=60.0, on_event=None) -> dict:
        self.stop.wait(10)
        return {"error": {"kind": "cancelled", "message": "cancelled before it started"}}

    def cancel(self) -> None:
        self.stop.set()


def test_esc_while_the_worker_starts_is_a_cancel_not_a_worker_failure():
    """F6 then Esc in the first seconds (the worker still importing torch) showed a red badge and a 20-second
    error, 'the kernel worker could not start: the worker did not start': the cancel had stopped it, and the
    app starts it again."""
    client = SlowStartClient()

    async def scenario(app, pilot):
        await pilot.press("f6")
        await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        await settle(pilot)
        assert client.starts == 2, "the worker is started again after the cancel"
        assert app.worker_problem == "" and app.worker_info is not None
        assert not any("could not start" in n.message for n in app._notifications)
        assert "cancelled" in str(app.screen.query_one("#status").render())

    async def main():
        app = TritonLabApp(
            lang="en", backend="interpreter", client=client, catalog=fixture_catalog(), exercise_ref="5/add"
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


def test_gpu_verifies_are_replayed_on_one_warm_interpreter_worker():
    passed_on_gpu = {
        "exercise": KEY,
        "backend": "gpu",
        "passed": True,
        "error": None,
        "summary": "all pass",
        "cases": [
            {
                "name": "n=1000",
                "params": {"n": 1000},
                "dtype": "float32",
                "seed": 0,
                "kwargs": {},
                "passed": True,
                "diagnoses": [],
            }
        ],
    }
    oob = {
        "backend": "interpreter",
        "passed": False,
        "cases": [],
        "error": {"kind": "oob", "line": 11, "message": "load of 'x_ptr' out of bounds"},
    }
    replays = FakeClient(results={"verify": oob})

    async def scenario(app, pilot):
        for _ in range(2):
            await pilot.press("f6")
            await settle(pilot)
        assert [op for op, _ in replays.requests] == ["verify", "verify"], (
            "both GPU passes audited, one worker"
        )
        assert app.lab.replay_worker is replays
        summary = str(app.screen.query_one("#verify-summary").render())
        assert "line 11" in summary  # the audit's finding replaces the GPU pass

    run(
        scenario,
        client=FakeClient(results={"verify": passed_on_gpu}),
        exercise_ref="5/add",
        replay_client=replays,
    )


def test_narrow_title_keeps_the_exercise_name_and_buttons_fit_after_a_language_switch():
    async def scenario(app, pilot):
        screen = app.screen
        assert str(screen.query_one("#lesson-title").render()).startswith("5. Vector add")
        await pilot.press("ctrl+l")
        await pilot.pause()
        await pilot.press("ctrl+l")
        await pilot.pause()
        bar = screen_text(app).splitlines()[-2]
        assert "Verify F6" in bar and "Benchmark F7" in bar

    run(scenario, exercise_ref="5/add")


def test_ir_text_hides_source_locations():
    from tritonlab.app.widgets.ir_panel import without_locations

    ttir = (
        '#loc = loc("/tmp/add.py":13:1)\n'
        "module {\n"
        '  tt.func public @k(%x_ptr: !tt.ptr<f32> loc("x_ptr"(#loc))) {\n'
        "    %pid = tt.get_program_id x : i32 loc(#loc17)\n"
        "  } loc(#loc)\n"
        "} loc(#loc)\n"
        '#loc17 = loc("/tmp/add.py":20:10)\n'
    )
    shown = without_locations(ttir, "ttir")
    assert "loc" not in shown
    assert "%pid = tt.get_program_id x : i32" in shown and "@k(%x_ptr: !tt.ptr<f32>)" in shown
    assert without_locations("  %7 = add i32 %3, %4, !dbg !12", "llir") == "  %7 = add i32 %3, %4"
    assert without_locations("ld.global.b32 ...", "ptx") == "ld.global.b32 ..."


class GatedReplays(FakeClient):
    """An interpreter worker that answers the audit only when the test opens the gate."""

    def __init__(self, results: dict):
        import threading

        super().__init__(results=results)
        self.gate = threading.Event()

    def request(self, op, args=None, timeout=60.0, on_event=None) -> dict:
        assert self.gate.wait(10), "the audit was never let through"
        return super().request(op, args, timeout, on_event)


def _gpu_pass_and_oob():
    passed_on_gpu = {
        "exercise": KEY,
        "backend": "gpu",
        "passed": True,
        "error": None,
        "cases": [
            {
                "name": "n=1000",
                "params": {"n": 1000},
                "dtype": "float32",
                "seed": 0,
                "kwargs": {},
                "passed": True,
                "diagnoses": [],
            }
        ],
    }
    oob = {
        "backend": "interpreter",
        "passed": False,
        "cases": [],
        "error": {"kind": "oob", "line": 11, "message": "load of 'x_ptr' out of bounds"},
    }
    return passed_on_gpu, oob


def _run_gated_audit(lang: str, checks_before, checks_after):
    passed_on_gpu, oob = _gpu_pass_and_oob()
    replays = GatedReplays(results={"verify": oob})

    async def scenario(app, pilot):
        await pilot.press("f6")
        for _ in range(200):  # the kernel job alone: the audit is held at the gate
            await pilot.pause()
            if (
                not app.screen.busy
                and "verify-summary" in {w.id for w in app.screen.query("Static")}
                and str(app.screen.query_one("#verify-summary").render()).strip()
            ):
                break
        assert not app.screen.busy, "the GPU verdict waited for the audit"
        assert replays.requests == []
        checks_before(app)
        replays.gate.set()
        await settle(pilot)
        assert [op for op, _ in replays.requests] == ["verify"]
        checks_after(app)

    run(
        scenario,
        client=FakeClient(results={"verify": passed_on_gpu}),
        exercise_ref="5/add",
        replay_client=replays,
        lang=lang,
    )


def test_a_gpu_pass_shows_at_once_and_the_audit_finding_follows_and_unmarks_progress():
    def before(app):
        summary = str(app.screen.query_one("#verify-summary").render())
        assert "PASSED" in summary and "auditing on the interpreter" in summary
        assert "auditing on the interpreter" in screen_text(app)  # the status line says so too
        assert store.is_verified(KEY, store.load_progress())

    def after(app):
        summary = str(app.screen.query_one("#verify-summary").render())
        assert "FAILED" in summary and "line 11" in summary and "withdrew" in summary
        assert "withdrew" in screen_text(app)
        assert not store.is_verified(KEY, store.load_progress())

    _run_gated_audit("en", before, after)


def test_the_audit_follow_up_is_worded_in_japanese():
    def before(app):
        assert "インタプリタで監査中" in str(app.screen.query_one("#verify-summary").render())

    def after(app):
        summary = str(app.screen.query_one("#verify-summary").render())
        assert "合格を取り消しました" in summary and "withdrew" not in summary
        assert not store.is_verified(KEY, store.load_progress())

    _run_gated_audit("ja", before, after)


def test_an_unknown_exercise_is_named_in_the_apps_language():
    """`open 5/zz` in Japanese: the notice said "lesson 05-vector-add has no exercise 'zz' …" in English."""

    async def scenario(app, pilot):
        messages = [n.message for n in app._notifications]
        assert any("演習 'zz' はありません" in m for m in messages), messages
        assert not any("has no exercise" in m for m in messages), messages

    run(scenario, exercise_ref="5/zz", lang="ja")


def test_open_on_an_exercise_builds_no_home_screen_until_f9(isolated_home):
    """`open 5/add` built the home screen under the lesson (its list, its footer) before the first paint, for
    a learner who may never press F9. The lesson is alone on the stack now; F9 builds the home screen in its
    place, the draft is kept, and a notice about a user file (which the home screen used to say on its mount)
    is still said."""
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / store.PROGRESS_FILE).write_text("{not json", encoding="utf-8")

    async def scenario(app, pilot):
        assert isinstance(app.screen, LessonScreen)
        assert not any(isinstance(s, HomeScreen) for s in app.screen_stack), app.screen_stack
        messages = [n.message for n in app._notifications]
        assert any(store.PROGRESS_FILE in m and "moved to" in m for m in messages), messages
        app.screen.editor.insert("# kept\n", (0, 0))
        await pilot.press("f9")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen) and len(app.screen_stack) == 2, app.screen_stack
        assert "Vector add" in screen_text(app)
        assert (store.load_draft(KEY) or "").startswith("# kept\n")
        await pilot.press("r")  # back to the exercise just left
        await settle(pilot)
        assert isinstance(app.screen, LessonScreen) and app.screen.editor.text.startswith("# kept\n")
        await pilot.press("f9")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen) and len(app.screen_stack) == 2, app.screen_stack

    run(scenario, exercise_ref="5/add")
