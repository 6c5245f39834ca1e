"""Issue 16: the screen a learner lives in — editor keys, one key map in both layouts, help made from the live
bindings, text that fits, and a status line that tells the truth. Fake worker client; no kernels run."""

from __future__ import annotations

import asyncio
import io
import threading

from app_helpers import FakeClient, fixture_catalog, screen_text, settle
from rich.console import Console

from tritonlab.app.app import TritonLabApp
from tritonlab.app.code_location import locate
from tritonlab.app.screens.confirm import ConfirmScreen
from tritonlab.app.screens.goto_line import GoToLineScreen
from tritonlab.app.screens.help import FOCUS_NAMES, HelpScreen
from tritonlab.app.screens.solution import DiffView, solution_diff
from tritonlab.app.widgets.explanation import join_cjk_soft_breaks, split_blocks
from tritonlab.app.widgets.quiz_panel import QuizChoices

NARROW, WIDE = (80, 24), (160, 48)
PASSED = {"passed": True, "summary": "2/2 cases pass", "cases": [], "backend": "interpreter"}


def run(scenario, size=NARROW, client=None, **app_args):
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


def status(screen) -> str:
    return screen.query_one("#action-bar").status_text


# ---- 1. the editor ---------------------------------------------------------------------------------------


def test_enter_keeps_and_adds_indentation_and_backspace_dedents():
    async def scenario(app, pilot):
        editor = app.screen.editor
        editor.load_text("def f(x):\n    y = 1")
        editor.move_cursor((0, 9))
        await pilot.press("enter")  # after ':' one level more
        assert editor.document.get_line(1) == "    " and editor.cursor_location == (1, 4)
        await pilot.press("enter")  # an indented line keeps its indent (no ':' here)
        assert editor.document.get_line(2) == "    "
        await pilot.press("backspace")  # in the indentation: back one level, not one space
        assert editor.cursor_location == (2, 0) and editor.document.get_line(2) == ""
        editor.load_text("x = 1  # not a block:")
        editor.move_cursor((0, 21))
        await pilot.press("enter")  # a ':' inside a comment does not open a block
        assert editor.document.get_line(1) == ""
        editor.load_text("    ab")
        editor.move_cursor((0, 6))
        await pilot.press("backspace")  # outside the indentation Backspace deletes one character
        assert editor.text == "    a"

    run(scenario, exercise_ref="5/add")


def test_tab_indents_selection_home_end_and_go_to_line():
    async def scenario(app, pilot):
        screen = app.screen
        editor = screen.editor
        editor.load_text("a = 1\nb = 2\nc = 3")
        editor.select_all()
        await pilot.press("tab")
        assert editor.text == "    a = 1\n    b = 2\n    c = 3" and screen.focused is editor
        await pilot.press("shift+tab")
        assert editor.text == "a = 1\nb = 2\nc = 3" and screen.focused is editor  # not a focus move
        editor.move_cursor((0, 0))
        await pilot.press("tab")  # no selection: spaces to the next tab stop, one line only
        assert editor.text.startswith("    a = 1\nb = 2")
        await pilot.press("ctrl+end")
        assert editor.cursor_location == (2, 5)
        await pilot.press("ctrl+home")
        assert editor.cursor_location == (0, 0)
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert isinstance(app.screen, GoToLineScreen)
        await pilot.press("3", "enter")
        await pilot.pause()
        assert app.screen is screen and editor.cursor_location[0] == 2 and screen.focused is editor

    run(scenario, exercise_ref="5/add")


def test_alt_z_or_f12_toggles_soft_wrap():
    async def scenario(app, pilot):
        editor = app.screen.editor
        assert not editor.soft_wrap
        await pilot.press("alt+z")
        assert editor.soft_wrap
        await pilot.press("f12")
        assert not editor.soft_wrap

    run(scenario, exercise_ref="5/add")


# ---- 2. one key map ------------------------------------------------------------------------------------


async def _esc_round_trip(app, pilot):
    screen = app.screen
    assert screen.focused is screen.editor
    await pilot.press("escape")  # leaves the editor…
    await pilot.pause()
    left_to = screen.focused
    assert left_to is not None and left_to is not screen.editor
    await pilot.press("escape")  # …and comes back
    await pilot.pause()
    assert screen.focused is screen.editor
    return left_to


def test_esc_leaves_the_editor_and_comes_back_in_both_layouts():
    async def narrow(app, pilot):
        left_to = await _esc_round_trip(app, pilot)
        assert left_to.id == "pane-tabs"

    async def wide(app, pilot):
        left_to = await _esc_round_trip(app, pilot)
        assert app.screen.results in left_to.ancestors

    run(narrow, size=NARROW, exercise_ref="5/add")
    run(wide, size=WIDE, exercise_ref="5/add")


def _enabled_screen_actions(screen) -> set[str]:
    return {
        binding.action
        for _key, binding in screen._bindings
        if screen.check_action(binding.action, ()) is not False
    }


def test_the_same_keys_work_in_the_narrow_and_the_wide_layout():
    seen = {}

    def keep(name):
        async def scenario(app, pilot):
            seen[name] = _enabled_screen_actions(app.screen)
            await pilot.press("ctrl+t")  # ctrl+t moves on in both layouts
            assert app.screen.focused is not app.screen.editor

        return scenario

    run(keep("narrow"), size=NARROW, exercise_ref="5/add")
    run(keep("wide"), size=WIDE, exercise_ref="5/add")
    assert seen["narrow"] == seen["wide"]
    assert {"cycle_pane", "leave_editor", "goto_line", "verify"} <= seen["wide"]


def test_f_keys_work_inside_the_editor():
    client = FakeClient(results={"verify": PASSED})

    async def scenario(app, pilot):
        assert app.screen.focused is app.screen.editor
        await pilot.press("f6")
        await settle(pilot)
        assert [op for op, _ in client.requests] == ["verify"]

    run(scenario, client=client, exercise_ref="5/add")


# ---- help from the live bindings ---------------------------------------------------------------------------


def _help_text(app) -> str:
    assert isinstance(app.screen, HelpScreen)
    return screen_text(app)


def test_help_lists_the_live_keys_of_the_focused_screen():
    async def in_editor(app, pilot):
        await pilot.press("f1")
        await pilot.pause()
        rows = {row.label_key for row in app.screen.rows}
        assert {"key_goto_line", "key_indent", "verify", "key_leave_editor"} <= rows
        assert "cancel" not in rows  # idle: Esc does not cancel anything
        assert "ctrl+g" in _help_text(app)
        await pilot.press("escape")

    async def on_home(app, pilot):
        app.screen.query_one(
            "#lessons"
        ).focus()  # (the Resume button has focus when there is something to resume)
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        rows = {row.label_key for row in app.screen.rows}
        assert {"key_open", "key_move", "help"} <= rows
        assert not rows & {"verify", "run", "key_goto_line"}  # no exercise keys where there is no exercise

    run(in_editor, size=WIDE, exercise_ref="5/add")
    run(on_home)


def _help_body(app) -> str:
    """The help's whole text (it scrolls at 80×24), rendered at the dialog's width."""
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(app.screen.query_one("#help-body").visual._renderable)
    return console.export_text()


def test_help_names_the_focused_part_in_words_and_each_key_for_what_it_does():
    """The help said 'In the focused part (ContentTabs)' on the results' tabs and '(Button)' on a button:
    Textual class names. In the go-to-line box it listed 'Home / ctrl+a / shift+home  Lessons' (the Input's
    cursor action is also called 'home'), and it wrote 'shift+f7' where the README writes shift+F7."""

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("ctrl+t")  # the results: focus on their tab row
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        body = _help_body(app)
        assert "In the focused part (tab row)" in body and "ContentTabs" not in body, body
        assert "shift+F7" in body and "shift+f7" not in body, body
        await pilot.press("escape")
        await pilot.pause()
        screen.query_one("#act-run").focus()
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        body = _help_body(app)
        assert "In the focused part (button)" in body and "Button" not in body, body
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+g")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        body = _help_body(app)
        assert "Lessons" not in body and "Input" not in body, body

    async def ja(app, pilot):
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert "フォーカス中の部分 (タブ列)" in _help_body(app)

    run(scenario, exercise_ref="5/add")
    run(ja, exercise_ref="5/add", lang="ja")


def test_help_follows_a_changed_binding():
    """Made from the bindings, not a list: a binding that is switched off disappears from the help."""

    async def scenario(app, pilot):
        screen = app.screen
        screen.busy = True  # as while a job runs: F5–F7 off, Esc cancels
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        rows = {row.label_key for row in app.screen.rows}
        assert "cancel" in rows and "verify" not in rows and "key_leave_editor" not in rows
        await pilot.press("escape")
        screen.busy = False

    run(scenario, exercise_ref="5/add")


# ---- home ------------------------------------------------------------------------------------------------


def test_home_says_how_to_start_and_shows_summaries():
    async def scenario(app, pilot):
        text = screen_text(app)
        assert "Enter opens" in text and "↑ ↓" in text
        assert "Kernel, host wrapper and verification." in text

    async def ja(app, pilot):
        text = screen_text(app)
        assert "Enter で開く" in text and "カーネル、ホスト側ラッパー、検証。" in text

    run(scenario)
    run(ja, lang="ja")


# ---- quiz ------------------------------------------------------------------------------------------------


async def _open_quiz(app, pilot):
    screen = app.screen
    screen.results.show_tab("quiz")
    if screen.has_class("-narrow"):
        screen.show_pane("results")
    await pilot.pause()
    await pilot.pause()
    return screen


LONG_EN = (
    "Both loads and the store, because the tail lanes of the last program point past the end of x, y "
    "and output alike"
)
LONG_JA = (
    "2 つのロードとストアのすべて。最後の program の末尾レーンは x・y・output のどれでも"
    "末尾を越えた位置を指すから"
)


def _squash(text: str) -> str:
    return "".join(text.split())


def test_quiz_choices_wrap_instead_of_being_cut():
    async def scenario(app, pilot):
        screen = await _open_quiz(app, pilot)
        choices = screen.query_one("#quiz-1", QuizChoices)
        choices.focus()
        await pilot.pause()
        text = screen_text(app)
        assert "…" not in text
        assert _squash(LONG_EN) in _squash(text)  # every word shown, over several lines

    async def ja(app, pilot):
        screen = await _open_quiz(app, pilot)
        screen.query_one("#quiz-1", QuizChoices).focus()
        await pilot.pause()
        text = screen_text(app)
        assert "…" not in text and _squash(LONG_JA) in _squash(text)

    run(scenario, exercise_ref="1")
    run(ja, exercise_ref="1", lang="ja")


def test_quiz_is_answered_with_arrows_enter_and_letters():
    async def scenario(app, pilot):
        screen = await _open_quiz(app, pilot)
        screen.results.query_one("#results-tabs Tabs").focus()
        await pilot.press("tab")  # from the results' tabs, one Tab: the panel is no tab stop of its own
        await pilot.pause()
        first = screen.query_one("#quiz-0", QuizChoices)
        assert screen.focused is first and first.highlighted == 0
        await pilot.press("down")  # ↓ moves the choice, it does not scroll
        assert first.highlighted == 1
        await pilot.press("enter")
        await pilot.pause()
        assert "not quite" in str(screen.query_one("#quiz-feedback-0").render())
        await pilot.press("down")  # past the last choice: on to the next question
        second = screen.query_one("#quiz-1", QuizChoices)
        assert screen.focused is second
        await pilot.press("b")
        await pilot.pause()
        assert "correct" in str(screen.query_one("#quiz-feedback-1").render())
        await pilot.press("d")  # there is no d): nothing happens
        await pilot.pause()
        assert "correct" in str(screen.query_one("#quiz-feedback-1").render())

    run(scenario, exercise_ref="1")


# ---- 3/4. the status line --------------------------------------------------------------------------------


def test_reset_after_a_pass_clears_the_verdict():
    client = FakeClient(results={"verify": PASSED})

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("f6")
        await settle(pilot)
        assert "PASSED" in status(screen)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert "PASSED" not in status(screen) and "reset" in status(screen)
        # and the footer is the idle one
        assert screen.check_action("verify", ()) and not screen.check_action("cancel_job", ())

    run(scenario, client=client, exercise_ref="5/add")


def test_reset_declined_keeps_the_verdict():
    client = FakeClient(results={"verify": PASSED})

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("f6")
        await settle(pilot)
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert "PASSED" in status(screen)

    run(scenario, client=client, exercise_ref="5/add")


class BlockingClient(FakeClient):
    """request() waits until released: a job that is still running."""

    def __init__(self, result):
        super().__init__(results={"verify": result})
        self.release = threading.Event()

    def request(self, op, args=None, timeout=60.0, on_event=None):
        self.release.wait(10)
        return super().request(op, args, timeout, on_event)


def test_a_running_job_shows_elapsed_time_and_the_footer_follows_it():
    client = BlockingClient(PASSED)

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("f6")
        await pilot.pause()
        assert screen.busy and "0 s" in status(screen)
        assert screen.check_action("cancel_job", ()) and not screen.check_action("verify", ())
        await asyncio.sleep(1.2)
        await pilot.pause()
        assert "1 s" in status(screen) or "2 s" in status(screen)
        client.release.set()
        await settle(pilot)
        assert not screen.busy and "PASSED" in status(screen)
        assert not screen.check_action("cancel_job", ()) and screen.check_action("verify", ())

    run(scenario, client=client, exercise_ref="5/add")


def _timeout_at(line: int) -> dict:
    return {"error": {"kind": "timeout", "message": "no answer within 120 s", "line": line}, "output": ""}


def test_a_hang_names_the_wrapper_or_the_kernel():
    starter = (fixture_catalog().exercise("5/add").starter).read_text(encoding="utf-8").splitlines()
    wrapper_line = next(i for i, text in enumerate(starter, 1) if "empty_like" in text)
    kernel_line = next(i for i, text in enumerate(starter, 1) if "tl.load(x_ptr" in text)

    def scenario_for(line, expected, absent):
        async def scenario(app, pilot):
            screen = app.screen
            await pilot.press("f6")
            await settle(pilot)
            text = status(screen)
            assert expected in text and absent not in text and f"line {line}" in text

        return scenario

    run(
        scenario_for(wrapper_line, "wrapper add()", "in the kernel"),
        size=WIDE,
        client=FakeClient(results={"verify": _timeout_at(wrapper_line)}),
        exercise_ref="5/add",
    )
    run(
        scenario_for(kernel_line, "in the kernel add_kernel()", "wrapper"),
        size=WIDE,
        client=FakeClient(results={"verify": _timeout_at(kernel_line)}),
        exercise_ref="5/add",
    )


def test_code_location_finds_the_innermost_function():
    source = (
        "import triton\n\n@triton.jit\ndef k(x):\n    y = x\n\ndef host():\n    while True:\n        pass\n"
    )
    assert locate(source, 5).in_kernel and locate(source, 5).function == "k"
    assert not locate(source, 8).in_kernel and locate(source, 8).function == "host"
    assert locate(source, 1).function is None
    assert locate("def broken(:\n", 1).function is None  # a syntax error is no crash


def test_status_line_has_a_short_form_at_80_columns():
    message = "unexpected indent — the line must line up with the one above it"
    client = FakeClient(results={"verify": {"error": {"kind": "syntax", "message": message, "line": 26}}})

    async def narrow(app, pilot):
        await pilot.press("f6")
        await settle(pilot)
        text = status(app.screen)
        assert "syntax error at line 26" in text and "line must line up" not in text
        shown = _status_row(app)  # what the terminal shows: the short form in full, not cut
        assert "syntax error at line 26" in shown and "…" not in shown
        assert app.screen.has_class("-show-results")  # where the whole message is

    async def wide(app, pilot):
        await pilot.press("f6")
        await settle(pilot)
        assert "line must line up" in status(app.screen)

    run(narrow, size=NARROW, client=client, exercise_ref="5/add")
    run(wide, size=(200, 48), client=client, exercise_ref="5/add")


def _status_row(app) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-2]


def test_a_hang_is_named_in_full_at_80_columns():
    starter = fixture_catalog().exercise("5/add").starter.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(starter, 1) if "empty_like" in text)

    async def scenario(app, pilot):
        await pilot.press("f6")
        await settle(pilot)
        shown = _status_row(app)
        assert f"wrapper add(), line {line}" in shown and "…" not in shown

    async def ja(app, pilot):
        await pilot.press("f6")
        await settle(pilot)
        shown = _status_row(app)
        assert f"ラッパー add() {line} 行目" in shown and "…" not in shown

    run(scenario, client=FakeClient(results={"verify": _timeout_at(line)}), exercise_ref="5/add")
    run(ja, client=FakeClient(results={"verify": _timeout_at(line)}), exercise_ref="5/add", lang="ja")


def test_a_cancel_and_a_worker_crash_are_said_whole_at_80_columns():
    """A cancelled job and a crash that restarted the worker had no short form: at 80 columns the status line
    showed 'cancelled — the worker was stopped and…' and 'worker restarted after a crash: SIGSEGV (segm…'."""
    cancelled = {"passed": False, "error": {"kind": "cancelled", "message": "cancelled"}}
    crashed = {
        "passed": False,
        "cases": [],
        "error": {"kind": "crash", "message": "died", "signal": "SIGSEGV", "exit_code": -11, "line": 32},
    }

    def scenario_for(expected: str):
        async def scenario(app, pilot):
            await pilot.press("f6")
            await settle(pilot)
            shown = _status_row(app)
            # the form chosen is on the screen whole (a cut line ends without "…": Textual drops it)
            assert expected in status(app.screen) and status(app.screen) in shown, shown

        return scenario

    for lang, result, expected in (
        ("en", cancelled, "cancelled"),
        ("ja", cancelled, "中止しました"),
        ("en", crashed, "Verify: crash at line 32"),
        ("ja", crashed, "検証: クラッシュ(32 行目)"),
    ):
        run(
            scenario_for(expected),
            client=FakeClient(results={"verify": result}),
            exercise_ref="5/add",
            lang=lang,
        )

    class FailingClient(FakeClient):
        def request(self, op, args=None, timeout=60.0, on_event=None):
            raise RuntimeError("the pipe to the worker broke while it was writing a very long reply")

    run(scenario_for("the lab failed to run this job"), client=FailingClient(), exercise_ref="5/add")

    async def wide(app, pilot):  # room enough: the whole sentence, signal and all
        await pilot.press("f6")
        await settle(pilot)
        assert "worker restarted after a crash: SIGSEGV (segmentation fault" in _status_row(app)

    run(wide, size=WIDE, client=FakeClient(results={"verify": crashed}), exercise_ref="5/add")


def test_a_benchmark_on_the_interpreter_shows_no_seconds_in_the_status_line():
    """The bench tab says the interpreter times nothing, yet the status line said 'Benchmark: done in 1.291 s':
    the only number with 'Benchmark' and seconds on the screen, read as the kernel's time. On a GPU the job's
    time stays."""
    counted = {"backend": "interpreter", "verified": True, "rows": [], "elapsed_s": 1.291}

    def scenario_for(expected: str, absent: str):
        async def scenario(app, pilot):
            await pilot.press("f7")
            await settle(pilot)
            shown = _status_row(app)
            assert expected in status(app.screen) and status(app.screen) in shown, shown
            assert absent not in shown, shown

        return scenario

    for lang, size, expected in (
        ("en", NARROW, "Benchmark: done (counted, not timed)"),
        ("en", WIDE, "Benchmark: done — counted on the interpreter, not timed"),
        ("ja", NARROW, "計測: 完了(計数のみ、時間なし)"),
    ):
        run(
            scenario_for(expected, "1.291"),
            size=size,
            client=FakeClient(results={"bench": counted}),
            exercise_ref="5/add",
            lang=lang,
        )
    timed = dict(counted, backend="gpu")
    run(
        scenario_for("Benchmark: done in 1.291 s", "not timed"),
        client=FakeClient(results={"bench": timed}),
        exercise_ref="5/add",
    )


def test_footer_fits_at_80_columns():
    async def scenario(app, pilot):
        last = screen_text(app).rstrip("\n").splitlines()[-1]
        assert "F1 Help" in last and "F5 Run" in last

    async def ja(app, pilot):
        last = screen_text(app).rstrip("\n").splitlines()[-1]
        assert "F1 ヘルプ" in last

    run(scenario, exercise_ref="5/add")
    run(ja, exercise_ref="5/add", lang="ja")


# ---- 3. text that fits -----------------------------------------------------------------------------------


def test_solution_diff_keeps_markers_on_wrapped_rows():
    diff = solution_diff("a = 1\nb = 2\n", "a = 1\nb = some_long_function_name(argument_one, argument_two)\n")
    console = Console(width=30, record=True, color_system=None, file=None)
    with console.capture() as capture:
        console.print(DiffView(diff))
    rows = [row for row in capture.get().splitlines() if row.strip()]
    added = [row for row in rows if "argument" in row or "some_long" in row]
    assert len(added) >= 2 and all(row.startswith("+ ") for row in added), rows
    assert any(row.startswith("- b = 2") for row in rows) and any(row.startswith("  a = 1") for row in rows)


def test_japanese_breaks_across_inline_markup_leave_no_gap():
    text = (
        "グリッドを起動する\n**ホスト側ラッパー**です。\n`tritonlab run 5/add`、\n`tritonlab verify 5`"
        "\n\nEnglish\nline"
    )
    joined = join_cjk_soft_breaks(text)
    assert "起動する**ホスト側ラッパー**" in joined
    assert "`tritonlab run 5/add`、`tritonlab verify 5`" in joined
    assert "English\nline" in joined  # English keeps Markdown's space


def test_code_blocks_are_separate_from_prose():
    blocks = split_blocks(
        "Intro\n\n```python\nx = 1  # a long comment\n```\n\n- item\n  ```\n  y\n  ```\nend\n"
    )
    assert [b.kind for b in blocks] == ["prose", "code", "prose", "code", "prose"]
    assert blocks[1].text == "x = 1  # a long comment" and blocks[1].language == "python"
    assert blocks[3].text == "y"


def test_lesson_code_lines_scroll_instead_of_wrapping():
    long_line = "x_ptr,                      # pointer to the first input vector (a long comment here)"

    async def scenario(app, pilot):
        screen = app.screen
        screen.query_one("#text-pane").show("Text\n\n```python\n" + long_line + "\n```\n")
        await pilot.pause()
        await pilot.pause()
        code = screen.query_one(".explanation-code")
        assert code.virtual_size.width > code.size.width  # wider than the pane: it scrolls
        text = screen_text(app)
        assert "x_ptr," in text and "(a long comment here)" not in text  # cut at the edge, not wrapped below

    run(scenario, size=WIDE, exercise_ref="5/add")


def test_an_edit_after_a_verdict_marks_it_as_about_older_code():
    client = FakeClient(results={"verify": PASSED})

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("f6")
        await settle(pilot)
        assert "PASSED" in status(screen) and "before your last edit" not in status(screen)
        screen.editor.focus()
        await pilot.press("x")
        await pilot.pause()
        assert "before your last edit" in status(screen)

    run(scenario, size=WIDE, client=client, exercise_ref="5/add")


def test_an_older_verdict_is_marked_in_full_at_80_columns_and_a_cut_line_shows_it():
    """At 80 columns 'Verify: syntax error at line 23 (edited since)' lost its end: the line read '… line 23
    (edited', and a line too long for any form was cut with no '…' to say so."""
    syntax = {"passed": False, "cases": [], "error": {"kind": "syntax", "message": "x", "line": 23}}

    async def scenario(app, pilot):
        screen = app.screen
        await pilot.press("f6")
        await settle(pilot)
        await pilot.press("escape")  # back to the code
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert "Verify: syntax error at line 23 (edited)" in _status_row(app)
        screen.query_one("#action-bar").set_status("word " * 30)  # no short form fits: cut, and it shows
        await pilot.pause()
        assert _status_row(app).rstrip().endswith("…")

    run(scenario, client=FakeClient(results={"verify": syntax}), exercise_ref="5/add")


def test_every_key_word_exists_in_english_and_japanese():
    from tritonlab.app.keys import HELP_LABELS
    from tritonlab.app.screens.lesson import LessonScreen
    from tritonlab.app.strings import STRINGS

    keys = set(HELP_LABELS.values()) | set(LessonScreen.LABELS.values())
    keys |= {"help_here", "help_focused", "help_screen", "help_everywhere", "help_editor_note", "goto_prompt"}
    keys |= {"help_focused_plain", *FOCUS_NAMES.values()}
    keys |= {
        "hang_at",
        "hang_short",
        "where_kernel",
        "where_wrapper",
        "home_how",
        "home_how_start",
        "lang_session",
        "status_stale",
    }
    missing = {lang: sorted(k for k in keys if k not in STRINGS[lang]) for lang in ("en", "ja")}
    assert missing == {"en": [], "ja": []}
    same = sorted(k for k in keys if STRINGS["en"][k] == STRINGS["ja"][k] and k not in ("editor",))
    assert same == [], "a Japanese entry that is still English"


def _footer_text(app) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


def test_footer_follows_a_job_that_ends_while_the_terminal_is_in_the_background():
    client = BlockingClient(PASSED)

    async def scenario(app, pilot):
        await pilot.press("f6")
        await pilot.pause()
        await pilot.pause()
        assert "Cancel" in _footer_text(app) and "F6" not in _footer_text(app)
        assert "Esc Cancel" in _footer_text(app), "written as the action bar and the help write it"
        app.app_focus = False  # the learner looks at another window
        client.release.set()
        await settle(pilot)
        await pilot.pause()
        footer = _footer_text(app)
        assert "F6 Verify" in footer and "Cancel" not in footer

    run(scenario, client=client, exercise_ref="5/add")


def test_a_one_element_map_reads_in_the_singular():
    from tritonlab.present.verify import map_lines

    one = {"map_grid": {"dims": 1, "numel": 1, "cells": 1, "programs_per_cell": 1, "rows": ["x"]}}
    many = {"map_grid": {"dims": 1, "numel": 97, "cells": 4, "programs_per_cell": 1, "rows": ["...u"]}}
    assert map_lines(one, "en")[0].startswith("element 0, 1 cell (")
    assert map_lines(one, "ja")[0].startswith("要素 0、1 セル")
    assert map_lines(many, "en")[0].startswith("elements 0–96, 4 cells (")
    assert map_lines(many, "ja")[0].startswith("要素 0–96、4 セル")


def test_quiz_choices_are_shown_in_the_learners_shuffled_order(real_quiz_order, monkeypatch):
    """The panel lists choices in quiz.choice_order (per learner) and grades the letter as shown: with a
    reversing order, the right answer moves and its shown letter is the one that is graded correct."""
    monkeypatch.setattr(
        "tritonlab.app.widgets.quiz_panel.choice_order",
        lambda lesson_id, question, learner=None: list(reversed(range(len(question.choices)))),
    )

    async def scenario(app, pilot):
        screen = await _open_quiz(app, pilot)
        question = screen.lesson.quiz[0]
        order = list(reversed(range(len(question.choices))))
        choices = screen.query_one("#quiz-0", QuizChoices)
        shown = [str(choices.get_option_at_index(i).prompt.columns[1]._cells[0]) for i in range(len(order))]
        assert shown == [question.choices[i].text["en"] for i in order]
        right = next(i for i, c in enumerate(question.choices) if c.correct)
        right_letter = "abcdef"[order.index(right)]
        assert right_letter != "abcdef"[right]  # the shuffle moved it: file order would grade another letter
        choices.focus()
        await pilot.press(right_letter)
        await pilot.pause()
        assert "correct" in str(screen.query_one("#quiz-feedback-0").render())

    run(scenario, exercise_ref="1")


def test_opening_an_exercise_rebuilds_each_footer_once(monkeypatch):
    """`open 5/add` rebuilt the footers 13 times (7 on the home screen under the lesson, 6 on the lesson), 10–40 ms
    each on the first paint's path, each screen's rebuilds drawing the same keys: signals before the next refresh
    now share one rebuild, and one that would draw the same keys is skipped. The footer still follows a job (the tests
    above) and the language."""
    from textual.widgets import Footer

    drawn: list[str] = []
    compose = Footer.compose

    def counting(self):
        if self._bindings_ready:
            drawn.append(type(self.screen).__name__)
        return compose(self)

    monkeypatch.setattr(Footer, "compose", counting)

    async def scenario(app, pilot):
        await pilot.pause(0.2)
        await settle(pilot)
        assert drawn.count("LessonScreen") == 1 and drawn.count("HomeScreen") <= 1, drawn
        assert "F6 Verify" in _footer_text(app)
        app.lang = "ja"
        await settle(pilot)
        await pilot.pause()
        assert "F6 検証" in _footer_text(app), _footer_text(app)
        assert drawn.count("LessonScreen") == 2, drawn

    run(scenario, exercise_ref="5/add")


def test_the_code_editor_compiles_its_highlighting_once(monkeypatch):
    """Textual's TextArea built a Python document (tree-sitter parse and highlight query) in __init__ and again
    when __init__ set its `language`: ~30 ms of the lesson screen's first paint, twice. The editor keeps the
    first; it still highlights, and a language set later still takes effect."""
    from textual.document._syntax_aware_document import SyntaxAwareDocument

    from tritonlab.app.widgets.editor import CodeEditor

    prepared: list[object] = []
    prepare = SyntaxAwareDocument.prepare_query

    def counting(self, query):
        prepared.append(query)
        return prepare(self, query)

    monkeypatch.setattr(SyntaxAwareDocument, "prepare_query", counting)
    editor = CodeEditor("def f(x):\n    return x\n")
    assert len(prepared) == 1
    assert isinstance(editor.document, SyntaxAwareDocument) and editor._highlight_query is not None
    editor.language = None
    assert not isinstance(editor.document, SyntaxAwareDocument)
    editor.language = "python"
    assert isinstance(editor.document, SyntaxAwareDocument) and len(prepared) == 2
