"""One exercise: the explanation, the editor and the results, and every kernel job the learner starts.

Kernel work goes through the app's `Lab` (blocking) in thread workers of the group "kernel";
`on_worker_state_changed` is the one place their results and failures land.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import time
from pathlib import Path
from typing import ClassVar, cast

from textual import on, work
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static, Tab, Tabs, TextArea
from textual.worker import Worker, WorkerState

from tritonlab import store
from tritonlab.app.code_location import locate
from tritonlab.app.drafts import DraftKeeper
from tritonlab.app.formatting import error_head, restart_notice
from tritonlab.app.keys import relabel
from tritonlab.app.screens.confirm import ConfirmScreen
from tritonlab.app.screens.solution import SolutionScreen
from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.app.widgets.action_bar import ActionBar
from tritonlab.app.widgets.badge import BackendBadge
from tritonlab.app.widgets.editor import CodeEditor
from tritonlab.app.widgets.explanation import Explanation
from tritonlab.app.widgets.footer import LabFooter
from tritonlab.app.widgets.ir_panel import IRPanel
from tritonlab.app.widgets.results import ResultsPane
from tritonlab.content.model import tr
from tritonlab.engine.results import Kind
from tritonlab.present.cli import progress_text
from tritonlab.present.diagnoses import describe
from tritonlab.present.verify import audit_line, summary

TIMEOUTS = {"run": 120.0, "verify": 120.0, "bench": 600.0, "ir": 180.0, "profile": 300.0}
PANES = ("text", "code", "results")


class LessonScreen(LabAppAccess, Screen):
    CSS_PATH = "../lesson.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f5", "run_code", "Run", priority=True),
        Binding("f6", "verify", "Verify", priority=True),
        Binding("f7", "bench", "Benchmark", priority=True),
        Binding("shift+f7", "profile", "Profile", show=False, priority=True),
        # Esc: cancels a running job; otherwise leaves the editor (to the tab row when narrow, to the results
        # when wide) or, from anywhere else, goes back to the code. The first enabled binding of a key wins.
        Binding("escape", "cancel_job", "Cancel", priority=True),
        Binding("escape", "leave_editor", "Leave editor", show=False, priority=True),
        Binding("escape", "back_to_code", "Code", show=False, priority=True),
        Binding("f2", "hint", "Hint", show=False, priority=True),
        Binding("ctrl+t", "cycle_pane", "Panes", priority=True),
        Binding("f9", "home", "Lessons", priority=True),
        Binding("f3", "solution", "Solution", show=False, priority=True),
        Binding("f4", "open_in_editor", "$EDITOR", show=False, priority=True),
        Binding("ctrl+r", "reset", "Reset", show=False, priority=True),
        Binding("ctrl+n", "next_exercise", "Next", show=False, priority=True),
        Binding("ctrl+b", "previous_exercise", "Previous", show=False, priority=True),
        Binding("f8", "reload_draft", "Reload draft", show=False, priority=True),
        Binding("ctrl+g", "goto_line", "Go to line", show=False, priority=True),
        Binding("alt+z,f12", "toggle_wrap", "Wrap", show=False, priority=True),  # alt+z: VS Code's key
    ]
    LABELS: ClassVar[dict[str, str]] = {
        "run_code": "run",
        "verify": "verify",
        "bench": "bench",
        "profile": "profile",
        "cancel_job": "cancel",
        "hint": "hint",
        "cycle_pane": "panes",
        "home": "home",
        "solution": "solution",
        "open_in_editor": "editor",
        "reset": "reset",
        "next_exercise": "next",
        "previous_exercise": "previous",
        "back_to_code": "key_back_to_code",
        "leave_editor": "key_leave_editor",
        "goto_line": "key_goto_line",
        "toggle_wrap": "key_wrap",
        "reload_draft": "reload_draft",
    }

    busy: reactive[bool] = reactive(False, init=False)

    def __init__(self, lesson, exercise) -> None:
        super().__init__(classes=f"-show-{'code' if exercise is not None else 'text'}")
        self.lesson = lesson
        self.exercise = exercise
        self.drafts: DraftKeeper | None = None  # saving, signals, other windows: app/drafts.py
        self._starter = ""
        self._editor: CodeEditor | None = None
        self._cancel_requested = False
        self._job: tuple[str, float] | None = None  # (op, monotonic start) while a kernel job runs
        self._job_message = ""
        self._job_timer: Timer | None = None
        self._ran_source = ""  # the code the last job ran: a hang's line is looked up in it
        self._verdict_for: str | None = None  # the code the status line's verdict is about (None: no verdict)
        self._audit_seq = 0  # bumped by every verify: an older verify's audit follow-up is then ignored
        self._audited_digest: str | None = None  # the digest of the code whose GPU pass the audit checks
        relabel(self, self.lab_app.lang, self.LABELS)

    # ---- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        lang = self.lab_app.lang
        with Horizontal(id="lesson-header"):
            yield Static(id="lesson-title", markup=False)
            yield BackendBadge(compact_below=120, id="badge")
        yield Tabs(
            Tab(t("pane_text", lang), id="pane-text"),
            Tab(t("pane_code", lang), id="pane-code"),
            Tab(t("pane_results", lang), id="pane-results"),
            active="pane-code" if self.exercise else "pane-text",
            id="pane-tabs",
        )
        with Container(id="panes"):
            yield Explanation(self.lesson.text(lang), id="text-pane")
            with Vertical(id="code-pane"):
                if self.exercise is not None:
                    self._editor = CodeEditor(self._initial_code(), id="editor")
                    yield self._editor
                else:
                    yield Static(t("no_exercises", lang), id="no-exercise")
            yield ResultsPane(
                self.lesson, self.exercise, with_environment=self.lesson.number == 2, id="results-pane"
            )
        yield ActionBar(id="action-bar")
        yield LabFooter()

    def _initial_code(self) -> str:
        self._starter = self.exercise.starter.read_text(encoding="utf-8")
        self.drafts = DraftKeeper(self, self.exercise.key, self._starter)
        return self.drafts.load()

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._relabel)
        self.query_one(ActionBar).set_status(t("ready", self.lab_app.lang))
        if self.exercise is not None:
            self.editor.focus()
            self._draft_keeper.start_polling()
        self.lab_app.show_store_notices()

    @property
    def _draft_keeper(self) -> DraftKeeper:
        """The draft keeper, which exists once an exercise's editor has been composed."""
        assert self.drafts is not None, "no exercise open: no draft to keep"
        return self.drafts

    @property
    def editor(self) -> CodeEditor:
        """Kept as a reference, not queried: the draft is flushed on unmount, after the children are gone."""
        assert self._editor is not None, "no exercise open: no editor"
        return self._editor

    @property
    def results(self) -> ResultsPane:
        return self.query_one(ResultsPane)

    def _relabel(self, lang: str) -> None:
        relabel(self, lang, self.LABELS)
        self._update_title()
        self.query_one(Explanation).show(self.lesson.text(lang))
        tabs = self.query_one("#pane-tabs", Tabs)
        for pane in PANES:
            tabs.query_one(f"#pane-{pane}", Tab).label = t(f"pane_{pane}", lang)
        if not self.busy:
            self.query_one(ActionBar).set_status(t("ready", lang))
        else:
            self._tick()

    def _update_title(self) -> None:
        """Wide: 'lesson › exercise'. Narrow: the exercise first, so the ellipsis eats the lesson's title (the
        Text pane shows it), not the name of the exercise being worked on."""
        lang = self.lab_app.lang
        lesson = f"{self.lesson.number}. {tr(self.lesson.title, lang)}"
        if self.exercise is None:
            title = lesson
        else:
            exercises = self.lesson.exercises
            position = (
                f" ({exercises.index(self.exercise) + 1}/{len(exercises)})" if len(exercises) > 1 else ""
            )
            exercise = f"{tr(self.exercise.title, lang)}{position}"
            if self.has_class("-narrow"):
                title = f"{self.lesson.number}. {exercise}  ·  {tr(self.lesson.title, lang)}"
            else:
                title = f"{lesson}  ›  {exercise}"
        self.query_one("#lesson-title", Static).update(title)

    def on_resize(self) -> None:
        self.call_after_refresh(self._update_title)  # after the breakpoint classes follow the new width

    # ---- panes (tabs when narrow, side by side when wide) -----------------------------------------

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        if event.tabs.id != "pane-tabs" or event.tab is None:
            return
        event.stop()
        active = (event.tab.id or "pane-code").removeprefix("pane-")
        if self.has_class(f"-show-{active}"):
            return
        for pane in PANES:
            self.set_class(pane == active, f"-show-{pane}")
        self.refresh_bindings()
        if self.has_class("-narrow"):
            self.call_after_refresh(self._keep_focus_visible, active)

    def _keep_focus_visible(self, active: str) -> None:
        """Keys must never go to a hidden pane (typing into an editor you cannot see)."""
        pane = self.query_one(f"#{active}-pane")
        focused = self.focused
        if focused is not None and (
            focused is pane or pane in focused.ancestors or focused.id == "pane-tabs"
        ):
            return
        self._focus_pane(pane)

    @staticmethod
    def _focus_pane(pane) -> None:
        if pane.focusable:
            pane.focus()
            return
        for child in pane.query("*"):
            if child.focusable:
                child.focus()
                return

    def show_pane(self, pane: str) -> None:
        self.query_one("#pane-tabs", Tabs).active = f"pane-{pane}"

    def action_back_to_code(self) -> None:
        self.show_pane("code")
        self.editor.focus()

    def action_leave_editor(self) -> None:
        """Out of the editor by keyboard, the same key in both layouts: narrow, onto the pane tabs (← →
        switch); wide, onto the results' tabs. Esc again comes back."""
        if self.has_class("-narrow"):
            self.query_one("#pane-tabs", Tabs).focus()
        else:
            self.results.query_one(Tabs).focus()

    def _editor_focused(self) -> bool:
        return self._editor is not None and self.focused is self._editor

    def action_cycle_pane(self) -> None:
        """ctrl+t: the next pane, in both layouts (narrow it also switches the visible tab)."""
        order = [p for p in PANES if p != "code" or self.exercise is not None]
        tab = self.query_one("#pane-tabs", Tabs).active or "pane-code"
        current = self._pane_of_focus() or tab.removeprefix("pane-")
        following = order[(order.index(current) + 1) % len(order)] if current in order else order[0]
        self.show_pane(following)
        self._focus_pane(self.query_one(f"#{following}-pane"))

    def _pane_of_focus(self) -> str | None:
        focused = self.focused
        for pane in PANES:
            node = self.query_one(f"#{pane}-pane")
            if focused is not None and (focused is node or node in focused.ancestors):
                return pane
        return None

    def action_goto_line(self) -> None:
        from tritonlab.app.screens.goto_line import GoToLineScreen

        def answered(line: int | None) -> None:
            if line is None:
                return
            self.show_pane("code")
            self.editor.go_to_line(line)
            self.editor.focus()

        self.app.push_screen(GoToLineScreen(self.editor.document.line_count), answered)

    def action_toggle_wrap(self) -> None:
        self.editor.soft_wrap = not self.editor.soft_wrap
        self.notify(t("wrap_on" if self.editor.soft_wrap else "wrap_off", self.lab_app.lang), timeout=2)

    def on_screen_resume(self) -> None:
        # A job may have ended while a dialog was on top: the footer must show the keys of now, not of then.
        self.refresh_bindings()

    # ---- key availability: Run/Verify/Bench swap with Cancel while busy -----------------------------

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("run_code", "verify", "bench"):
            return self.exercise is not None and not self.busy
        if action == "cancel_job":
            return self.busy
        if action == "leave_editor":
            return not self.busy and self._editor_focused()
        if action == "back_to_code":
            return not self.busy and self.exercise is not None and not self._editor_focused()
        if action in ("solution", "reset", "open_in_editor", "hint", "goto_line", "toggle_wrap"):
            return self.exercise is not None
        return True

    def watch_busy(self, busy: bool) -> None:
        self.query_one(ActionBar).set_busy(busy)
        if not busy:
            self._job = None
            if self._job_timer is not None:
                self._job_timer.stop()
                self._job_timer = None
        self.refresh_bindings()

    # ---- the status line while a job runs: what it is doing and for how long ------------------------

    def _begin_job_status(self, op: str) -> None:
        self._job = (op, time.monotonic())
        self._job_message = ""
        self._tick()
        self._job_timer = self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        """'Verify: case 3/12 · 14 s' (short: 'Verify · 14 s'): a hang is visible as a clock that keeps
        going."""
        if self._job is None:
            return
        op, started = self._job
        lang = self.lab_app.lang
        job = t(f"job_{op}", lang)
        seconds = t("elapsed", lang, seconds=int(time.monotonic() - started))
        doing = self._job_message or t("running_word", lang)
        self.query_one(ActionBar).set_status(f"{job}: {doing} · {seconds}", short=f"{job} · {seconds}")

    # ---- drafts ------------------------------------------------------------------------------------

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self.exercise is None or event.text_area.id != "editor":
            return
        self.editor.clear_error()
        if self._verdict_for is not None and self.editor.text != self._verdict_for and not self.busy:
            # The status speaks of the code as it was: say so, rather than show "PASSED" over edited code.
            self._verdict_for = None
            lang = self.lab_app.lang
            self.query_one(ActionBar).mark_stale(t("status_stale", lang), t("status_stale_short", lang))
        self._draft_keeper.changed(event.text_area.text)

    def flush_draft(self, force: bool = False) -> Path | None:
        """Save the editor's text as the draft. Unforced, an untouched starter is not saved (it stays 'not
        started')."""
        if self.drafts is None:
            return None
        self.drafts.flush(force)
        return store.draft_path(self.exercise.key)

    def on_unmount(self) -> None:
        if self.drafts is not None:
            self.drafts.close()

    # ---- kernel jobs -------------------------------------------------------------------------------

    def action_run_code(self) -> None:
        self.start_job("run")

    def action_verify(self) -> None:
        self.start_job("verify")

    def action_bench(self) -> None:
        self.start_job("bench")

    def action_profile(self) -> None:
        self.start_job("profile")

    @on(IRPanel.StageChosen)
    def _ir_stage_chosen(self, event: IRPanel.StageChosen) -> None:
        self.start_job("ir", {"stage": event.stage, "arch": None})

    def start_job(self, op: str, extra: dict | None = None) -> None:
        if self.exercise is None:
            return
        if self.busy:
            self.notify(t("busy", self.lab_app.lang), severity="warning")
            return
        self.flush_draft(force=True)
        args = {"exercise": self.exercise.key, "file": str(self._draft_keeper.snapshot(self.editor.text))}
        args.update(extra or {})
        self.busy = True
        self._cancel_requested = False
        self.editor.clear_error()
        self._ran_source = self.editor.text
        self._verdict_for = None
        if op == "verify":  # the last code's audit no longer matters, and this verify may need its worker
            self._audit_seq += 1
            self.lab_app.lab.cancel_audit()
        self._begin_job_status(op)
        self._kernel_job(op, args)

    @work(thread=True, exclusive=True, exit_on_error=False, group="kernel")
    def _kernel_job(self, op: str, args: dict) -> tuple[str, dict, dict]:
        def progress(event: dict) -> None:
            if self._cancel_requested:
                # Esc came before the request reached the worker (the kill found no request to stop): again.
                self.lab_app.cancel_requests()
                return
            with contextlib.suppress(RuntimeError):  # the app is closing
                self.app.call_from_thread(self._show_progress, op, event)

        # Lab.verify replays a GPU fault or guard hit on the interpreter's bounds checker (which names the
        # line); the audit of a GPU pass (what a GPU run cannot show: out-of-bounds reads, other configs)
        # follows in _audit_job.
        extra = {"audit": "later"} if op == "verify" else {}
        timeout = TIMEOUTS.get(op, 120.0)
        result = self.lab_app.lab.request(op, args, timeout=timeout, on_progress=progress, **extra)
        return op, args, result.to_json()

    @work(thread=True, exclusive=True, exit_on_error=False, group="audit")
    def _audit_job(self, seq: int, args: dict, result: dict) -> tuple[int, dict, dict]:
        """The interpreter audit of a GPU pass, off the critical path: the verdict is already on screen."""
        from tritonlab.engine.results import VerifyResult

        pending = VerifyResult.from_json(result)
        followed = self.lab_app.lab.audit(pending, args, timeout=TIMEOUTS.get("verify", 120.0))
        return seq, args, followed.to_json()

    def _show_audit(self, seq: int, args: dict, result: dict) -> None:
        """The audit's follow-up: the verify panel and the status line say what it found; a withdrawn pass
        is un-marked and its line shown in the editor (when the editor still holds that code)."""
        if seq != self._audit_seq:
            return  # a newer verify started: this audit was about older code
        lang = self.lab_app.lang
        self.results.panel("verify-panel", lambda panel: panel.show(result))
        state = (result.get("audit") or {}).get("state")
        bar = self.query_one(ActionBar)
        style = {"clean": "green", "incomplete": "yellow"}.get(state or "", "bold red")
        job = t("job_verify", lang)
        words = f"{job}: {audit_line(result, lang) or ''}"
        if state == "found":
            store.unmark_verified(self.exercise.key, self._audited_digest)
            line = (result.get("error") or {}).get("line") or self._diagnosis_line(result)
            if line and self.editor.text == self._ran_source and not self.busy:
                self.editor.show_error(int(line))
            bar.set_status(words, style, short=f"{job}: {t('failed', lang)}")
        elif not self.busy:
            bar.set_status(words, style, short=f"{job}: {t('passed', lang)}")

    def _show_progress(self, op: str, event: dict) -> None:
        if self.busy:
            self._job_message = progress_text(event, self.lab_app.lang)
            self._tick()

    def action_cancel_job(self) -> None:
        if self.busy:
            self._cancel_requested = True
            self.lab_app.cancel_requests()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Every kernel job ends here: success shows its result, an exception in the lab is reported, never
        raised."""
        worker = event.worker
        if worker.group == "audit" and worker.is_finished:
            event.stop()
            if event.state == WorkerState.SUCCESS:
                self._show_audit(*cast("tuple", worker.result))
            elif event.state == WorkerState.ERROR and not self.busy:  # the GPU pass stands, unaudited
                words = audit_line({"audit": {"state": "incomplete"}}, self.lab_app.lang)
                self.query_one(ActionBar).set_status(
                    f"{t('job_verify', self.lab_app.lang)}: {words}", "yellow"
                )
            return
        if worker.group != "kernel" or not worker.is_finished:
            return
        event.stop()
        self.busy = False
        lang = self.lab_app.lang
        bar = self.query_one(ActionBar)
        if event.state == WorkerState.SUCCESS:
            op, args, result = cast("tuple[str, dict, dict]", worker.result)
            self._show_result(op, args, result)
            self._verdict_for = self._ran_source
        elif event.state == WorkerState.ERROR:
            message = f"{type(worker.error).__name__}: {worker.error}"
            # Narrow: the words without the exception; the notice beside it has the whole message.
            bar.set_status(
                t("job_failed", lang, message=message), "bold red", short=t("job_failed_short", lang)
            )
            self.notify(t("job_failed", lang, message=message), severity="error", timeout=10)
        else:
            bar.set_status(t("cancelled", lang), short=t("kind_cancelled", lang))

    def _show_result(self, op: str, args: dict, result: dict) -> None:
        lang = self.lab_app.lang
        results = self.results
        bar = self.query_one(ActionBar)
        err = result.get("error") or None
        results.panel("output-panel", lambda panel: panel.show(op, result))
        tab = {"run": "output", "verify": "verify", "bench": "bench", "ir": "ir", "profile": "bench"}.get(
            op, "output"
        )
        if op == "verify":
            results.panel("verify-panel", lambda panel: panel.show(result))
            if result.get("passed"):
                backend = result.get("backend") or (self.lab_app.worker_info or {}).get("backend", "?")
                store.mark_verified(self.exercise.key, backend, code_path=args.get("file"))
            if (result.get("audit") or {}).get("state") == "pending":
                try:
                    self._audited_digest = store.digest(Path(args["file"]).read_bytes())
                except (KeyError, OSError):
                    self._audited_digest = None
                self._audit_job(self._audit_seq, args, result)
        elif op == "bench":
            results.panel("bench-panel", lambda panel: panel.show(result))
        elif op == "profile":
            results.panel("bench-panel", lambda panel: panel.show_profile(result))
        elif op == "ir":
            results.panel("ir-panel", lambda panel: panel.show(result, args.get("stage")))
        cancelled = bool(err and err.get("kind") == Kind.CANCELLED)
        results.show_tab(tab)
        if self.has_class("-narrow") and not cancelled:  # the learner pressed Esc to get back to the code
            self.show_pane("results")

        if err:
            kind = Kind.parse(err.get("kind"))
            line = err.get("line") or self._diagnosis_line(result)
            if line and kind is not None and kind.points_at_line:
                self.editor.show_error(int(line))
            notice = restart_notice(err, lang, self.lab_app.lab.last_exit)
            job = t(f"job_{op}", lang)
            if kind is Kind.CANCELLED:
                bar.set_status(t("cancelled", lang), "yellow", short=t("kind_cancelled", lang))
                self.lab_app.start_worker()
            elif kind is Kind.TIMEOUT:
                where = self._where(line)
                bar.set_status(
                    f"{job}: {t('hang_at', lang, seconds=TIMEOUTS.get(op, 120.0), where=where)}",
                    "bold red",
                    short=f"{job}: {t('hang_short', lang, where=self._where(line, short=True))}",
                )
                if notice:
                    self.notify(notice, severity="warning", timeout=8)
                self.lab_app.start_worker()
            elif notice:
                # Narrow: what stopped and where, like any error; the notice says the worker restarted.
                bar.set_status(notice, "bold red", short=f"{job}: {error_head({**err, 'line': line}, lang)}")
                self.notify(notice, severity="warning", timeout=8)
                self.lab_app.start_worker()
            else:
                head = error_head({**err, "line": line}, lang)
                bar.set_status(
                    f"{job}: {head}: {describe(err, lang)}",
                    "bold red",
                    short=f"{job}: {head}",  # narrow: the results pane, shown now, has the message
                )
            return
        if op == "verify":
            passed = result.get("passed")
            if result.get("skipped"):  # cannot run on this backend/Triton: say why, not "failed"
                bar.set_status(
                    f"{t('job_verify', lang)}: {t('skipped', lang)} — {summary(result, lang)}", "bold yellow"
                )
                return
            word = t("passed", lang) if passed else t("failed", lang)
            tail: str | None = summary(result, lang)
            if passed and self.lab_app.neighbour(self.exercise, self.lesson, +1) is not None:
                tail = t("next_exercise_tip", lang)  # what now? is the question after a pass
            if (result.get("audit") or {}).get("state") == "pending":
                tail = audit_line(result, lang)  # the GPU verdict now; the audit's word follows
            bar.set_status(
                f"{t('job_verify', lang)}: {word} — {tail}",
                "bold green" if passed else "bold red",
                short=f"{t('job_verify', lang)}: {word}",
            )
            if not passed:
                line = self._diagnosis_line(result)
                if line:
                    self.editor.show_error(int(line))
        elif op in ("bench", "profile") and self._on_interpreter(result):
            # The interpreter counts, it does not time: no seconds beside "Benchmark" for a learner to read
            # as the kernel's time (the job's own wall time is the interpreter's, not a GPU's).
            job = t(f"job_{op}", lang)
            bar.set_status(
                t("counted_done", lang, job=job), "green", short=t("counted_done_short", lang, job=job)
            )
        else:
            seconds = result.get("elapsed_s", "?")
            bar.set_status(t("done", lang, job=t(f"job_{op}", lang), seconds=seconds), "green")

    def _on_interpreter(self, result: dict) -> bool:
        backend = result.get("backend") or (self.lab_app.worker_info or {}).get("backend")
        return backend == "interpreter"

    def _where(self, line: int | None, short: bool = False) -> str:
        """'line 42, in the wrapper add()' / 'line 31, in the kernel add_kernel()' for the code that ran."""
        lang = self.lab_app.lang
        if not line:
            return t("where_unknown", lang)
        place = locate(self._ran_source or self.editor.text, int(line))
        if place.function is None:
            return t("where_module", lang, line=line)
        key = "where_kernel" if place.in_kernel else "where_wrapper"
        return t(key + ("_short" if short else ""), lang, line=line, name=place.function)

    @staticmethod
    def _diagnosis_line(result: dict) -> int | None:
        for case in result.get("cases") or []:
            for diagnosis in case.get("diagnoses") or []:
                if diagnosis.get("line"):
                    return diagnosis["line"]
        return None

    # ---- learner actions ---------------------------------------------------------------------------

    def action_hint(self) -> None:
        self.results.show_tab("hints")
        self.results.panel("hints-panel", lambda hints: hints.reveal_next())
        if self.has_class("-narrow"):
            self.show_pane("results")

    def action_reset(self) -> None:
        def answered(yes: bool | None) -> None:
            if not yes:
                return
            self._draft_keeper.forget()
            self._verdict_for = None
            self.editor.replace_text(self._starter)
            # The last verdict was about other code: a "PASSED" over the failing starter is a lie.
            self.query_one(ActionBar).set_status(t("reset_done", self.lab_app.lang))

        self.app.push_screen(ConfirmScreen(t("confirm_reset", self.lab_app.lang)), answered)

    def action_solution(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                solution = self.exercise.solution.read_text(encoding="utf-8")
                self.app.push_screen(SolutionScreen(self.editor.text, solution))

        self.app.push_screen(ConfirmScreen(t("confirm_solution", self.lab_app.lang)), answered)

    def action_open_in_editor(self) -> None:
        lang = self.lab_app.lang
        command = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not command:
            self.notify(t("editor_missing", lang), severity="warning")
            return
        path = self.flush_draft(force=True)
        try:
            with self.app.suspend():
                subprocess.call([*shlex.split(command), str(path)])
        except SuspendNotSupported:
            self.notify(t("suspend_unsupported", lang), severity="warning")
            return
        except OSError as exc:
            self.notify(t("editor_failed", lang, editor=command, error=exc), severity="error")
            return
        self.reload_from_disk()

    def action_reload_draft(self) -> None:
        if self.drafts is not None:
            self.reload_from_disk()

    def reload_from_disk(self) -> None:
        before = self.editor.text
        text = self._draft_keeper.reload()
        if text is not None and text != before:
            self.notify(t("reloaded", self.lab_app.lang, path=store.draft_path(self.exercise.key)))

    def _leave(self) -> bool:
        if self.busy:
            self.notify(t("busy", self.lab_app.lang), severity="warning")
            return False
        self.flush_draft()
        return True

    def action_next_exercise(self) -> None:
        self._step(+1)

    def action_previous_exercise(self) -> None:
        self._step(-1)

    def _step(self, step: int) -> None:
        target = self.lab_app.neighbour(self.exercise, self.lesson, step)
        if target is not None and self._leave():
            self.lab_app.open_exercise(target.key, replace=True)

    def action_home(self) -> None:
        if self._leave():
            self.lab_app.go_home()
