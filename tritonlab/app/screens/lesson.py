"""One exercise: the explanation, the editor and the results, and every kernel job the learner starts.

Kernel work goes through the app's `Lab` (blocking) in thread workers of the group "kernel";
`on_worker_state_changed` is the one place their results and failures land.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Static, Tab, Tabs, TextArea
from textual.worker import Worker, WorkerState

from tritonlab import store
from tritonlab.app.drafts import DraftKeeper
from tritonlab.app.formatting import error_head, restart_notice
from tritonlab.app.keys import relabel
from tritonlab.app.screens.confirm import ConfirmScreen
from tritonlab.app.screens.solution import SolutionScreen
from tritonlab.app.strings import t
from tritonlab.app.widgets.action_bar import ActionBar
from tritonlab.app.widgets.badge import BackendBadge
from tritonlab.app.widgets.editor import CodeEditor
from tritonlab.app.widgets.explanation import Explanation
from tritonlab.app.widgets.ir_panel import IRPanel
from tritonlab.app.widgets.results import ResultsPane
from tritonlab.content.model import tr
from tritonlab.engine.results import Kind
from tritonlab.present.cli import progress_text
from tritonlab.present.diagnoses import describe
from tritonlab.present.verify import summary

TIMEOUTS = {"run": 120.0, "verify": 120.0, "bench": 600.0, "ir": 180.0}
PANES = ("text", "code", "results")


class LessonScreen(Screen):
    CSS_PATH = "../lesson.tcss"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (120, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f5", "run_code", "Run", priority=True),
        Binding("f6", "verify", "Verify", priority=True),
        Binding("f7", "bench", "Benchmark", priority=True),
        Binding("escape", "cancel_job", "Cancel", priority=True),
        Binding("escape", "back_to_code", "Code", priority=True),
        Binding("f2", "hint", "Hint", show=False, priority=True),
        Binding("ctrl+t", "cycle_pane", "Panes", priority=True),
        Binding("f9", "home", "Lessons", priority=True),
        Binding("f3", "solution", "Solution", show=False, priority=True),
        Binding("f4", "open_in_editor", "$EDITOR", show=False, priority=True),
        Binding("ctrl+r", "reset", "Reset", show=False, priority=True),
        Binding("ctrl+n", "next_exercise", "Next", show=False, priority=True),
        Binding("ctrl+b", "previous_exercise", "Previous", show=False, priority=True),
        Binding("f8", "reload_draft", "Reload draft", show=False, priority=True),
    ]
    LABELS: ClassVar[dict[str, str]] = {
        "run_code": "run",
        "verify": "verify",
        "bench": "bench",
        "cancel_job": "cancel",
        "hint": "hint",
        "cycle_pane": "panes",
        "home": "home",
        "solution": "solution",
        "open_in_editor": "editor",
        "reset": "reset",
        "next_exercise": "next",
        "previous_exercise": "previous",
        "back_to_code": "pane_code",
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
        relabel(self, self.app.lang, self.LABELS)

    # ---- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        lang = self.app.lang
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
        yield Footer()

    def _initial_code(self) -> str:
        self._starter = self.exercise.starter.read_text(encoding="utf-8")
        self.drafts = DraftKeeper(self, self.exercise.key, self._starter)
        return self.drafts.load()

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._relabel)
        self.query_one(ActionBar).set_status(t("ready", self.app.lang))
        if self.exercise is not None:
            self.editor.focus()
            self.drafts.start_polling()
        self.app.show_store_notices()

    @property
    def editor(self) -> CodeEditor:
        """Kept as a reference, not queried: the draft is flushed on unmount, after the children are gone."""
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

    def _update_title(self) -> None:
        """Wide: 'lesson › exercise'. Narrow: the exercise first, so the ellipsis eats the lesson's title (the
        Text pane shows it), not the name of the exercise being worked on."""
        lang = self.app.lang
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

    def action_cycle_pane(self) -> None:
        tabs = self.query_one("#pane-tabs", Tabs)
        tabs.action_next_tab()
        active = (tabs.active or "pane-code").removeprefix("pane-")
        self._focus_pane(self.query_one(f"#{active}-pane"))

    # ---- key availability: Run/Verify/Bench swap with Cancel while busy -----------------------------

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("run_code", "verify", "bench"):
            return self.exercise is not None and not self.busy
        if action == "cancel_job":
            return self.busy
        if action == "cycle_pane":
            return not self.has_class("-wide")
        if action == "back_to_code":
            return (
                not self.busy
                and self.has_class("-narrow")
                and not self.has_class("-show-code")
                and self.exercise is not None
            )
        if action in ("solution", "reset", "open_in_editor", "hint"):
            return self.exercise is not None
        return True

    def watch_busy(self, busy: bool) -> None:
        self.query_one(ActionBar).set_busy(busy)
        self.refresh_bindings()

    # ---- drafts ------------------------------------------------------------------------------------

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self.exercise is None or event.text_area.id != "editor":
            return
        self.editor.clear_error()
        self.drafts.changed(event.text_area.text)

    def flush_draft(self, force: bool = False) -> Path | None:
        """Save the editor's text as the draft. Unforced, an untouched starter is not saved (it stays 'not started')."""
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

    @on(IRPanel.StageChosen)
    def _ir_stage_chosen(self, event: IRPanel.StageChosen) -> None:
        self.start_job("ir", {"stage": event.stage, "arch": None})

    def start_job(self, op: str, extra: dict | None = None) -> None:
        if self.exercise is None:
            return
        if self.busy:
            self.notify(t("busy", self.app.lang), severity="warning")
            return
        self.flush_draft(force=True)
        args = {"exercise": self.exercise.key, "file": str(self.drafts.snapshot(self.editor.text))}
        args.update(extra or {})
        self.busy = True
        self._cancel_requested = False
        self.editor.clear_error()
        self.query_one(ActionBar).set_status(t("running", self.app.lang, job=t(f"job_{op}", self.app.lang)))
        self._kernel_job(op, args)

    @work(thread=True, exclusive=True, exit_on_error=False, group="kernel")
    def _kernel_job(self, op: str, args: dict) -> tuple[str, dict, dict]:
        def progress(event: dict) -> None:
            if self._cancel_requested:
                # Esc came before the request reached the worker (the kill found no request to stop): again.
                self.app.cancel_requests()
                return
            try:
                self.app.call_from_thread(self._show_progress, op, event)
            except RuntimeError:  # the app is closing
                pass

        # Lab.verify replays a GPU fault or guard hit on the interpreter's bounds checker (which names the line)
        # and audits a GPU pass for out-of-bounds reads the GPU cannot see.
        result = self.app.lab.request(op, args, timeout=TIMEOUTS.get(op, 120.0), on_progress=progress)
        return op, args, result.to_json()

    def _show_progress(self, op: str, event: dict) -> None:
        if self.busy:
            lang = self.app.lang
            self.query_one(ActionBar).set_status(f"{t(f'job_{op}', lang)}: {progress_text(event, lang)}")

    def action_cancel_job(self) -> None:
        if self.busy:
            self._cancel_requested = True
            self.app.cancel_requests()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Every kernel job ends here: success shows its result, an exception in the lab is reported, never raised."""
        worker = event.worker
        if worker.group != "kernel" or not worker.is_finished:
            return
        event.stop()
        self.busy = False
        lang = self.app.lang
        bar = self.query_one(ActionBar)
        if event.state == WorkerState.SUCCESS:
            op, args, result = worker.result
            self._show_result(op, args, result)
        elif event.state == WorkerState.ERROR:
            message = f"{type(worker.error).__name__}: {worker.error}"
            bar.set_status(t("job_failed", lang, message=message), "bold red")
            self.notify(t("job_failed", lang, message=message), severity="error", timeout=10)
        else:
            bar.set_status(t("cancelled", lang))

    def _show_result(self, op: str, args: dict, result: dict) -> None:
        lang = self.app.lang
        results = self.results
        bar = self.query_one(ActionBar)
        err = result.get("error") or None
        results.panel("output-panel", lambda panel: panel.show(op, result))
        tab = {"run": "output", "verify": "verify", "bench": "bench", "ir": "ir"}.get(op, "output")
        if op == "verify":
            results.panel("verify-panel", lambda panel: panel.show(result))
            if result.get("passed"):
                backend = result.get("backend") or (self.app.worker_info or {}).get("backend", "?")
                store.mark_verified(self.exercise.key, backend, code_path=args.get("file"))
        elif op == "bench":
            results.panel("bench-panel", lambda panel: panel.show(result))
        elif op == "ir":
            results.panel("ir-panel", lambda panel: panel.show(result, args.get("stage")))
        cancelled = bool(err) and err.get("kind") == Kind.CANCELLED
        results.show_tab(tab)
        if self.has_class("-narrow") and not cancelled:  # the learner pressed Esc to get back to the code
            self.show_pane("results")

        if err:
            kind = Kind.parse(err.get("kind"))
            line = err.get("line") or self._diagnosis_line(result)
            if line and kind is not None and kind.points_at_line:
                self.editor.show_error(int(line))
            notice = restart_notice(err, lang, self.app.lab.last_exit)
            if kind is Kind.CANCELLED:
                bar.set_status(t("cancelled", lang), "yellow")
                self.app.start_worker()
            elif notice:
                bar.set_status(notice, "bold red")
                self.notify(notice, severity="warning", timeout=8)
                self.app.start_worker()
            else:
                head = error_head({**err, "line": line}, lang)
                bar.set_status(f"{t(f'job_{op}', lang)}: {head}: {describe(err, lang)}", "bold red")
            return
        if op == "verify":
            passed = result.get("passed")
            if result.get("skipped"):  # cannot run on this backend/Triton: say why, not "failed"
                bar.set_status(f"{t('job_verify', lang)}: {t('skipped', lang)} — {summary(result, lang)}",
                               "bold yellow")
                return
            word = t("passed", lang) if passed else t("failed", lang)
            tail = summary(result, lang)
            if passed and self.app.neighbour(self.exercise, self.lesson, +1) is not None:
                tail = t("next_exercise_tip", lang)  # what now? is the question after a pass
            bar.set_status(
                f"{t('job_verify', lang)}: {word} — {tail}", "bold green" if passed else "bold red"
            )
            if not passed:
                line = self._diagnosis_line(result)
                if line:
                    self.editor.show_error(int(line))
        else:
            seconds = result.get("elapsed_s", "?")
            bar.set_status(t("done", lang, job=t(f"job_{op}", lang), seconds=seconds), "green")

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
            self.drafts.forget()
            self.editor.replace_text(self._starter)

        self.app.push_screen(ConfirmScreen(t("confirm_reset", self.app.lang)), answered)

    def action_solution(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                solution = self.exercise.solution.read_text(encoding="utf-8")
                self.app.push_screen(SolutionScreen(self.editor.text, solution))

        self.app.push_screen(ConfirmScreen(t("confirm_solution", self.app.lang)), answered)

    def action_open_in_editor(self) -> None:
        lang = self.app.lang
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
        text = self.drafts.reload()
        if text is not None and text != before:
            self.notify(t("reloaded", self.app.lang, path=store.draft_path(self.exercise.key)))

    def _leave(self) -> bool:
        if self.busy:
            self.notify(t("busy", self.app.lang), severity="warning")
            return False
        self.flush_draft()
        return True

    def action_next_exercise(self) -> None:
        self._step(+1)

    def action_previous_exercise(self) -> None:
        self._step(-1)

    def _step(self, step: int) -> None:
        target = self.app.neighbour(self.exercise, self.lesson, step)
        if target is not None and self._leave():
            self.app.open_exercise(target.key, replace=True)

    def action_home(self) -> None:
        if self._leave():
            self.app.go_home()
