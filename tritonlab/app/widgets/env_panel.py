"""Environment tab (lesson 2): `tritonlab doctor`'s checks, each with its status and fix.

The check starts a worker process of its own (importing torch takes seconds), so it runs in a thread worker
and only when the tab is first shown.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState

from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.present import doctor as doctor_words

MARKS = {"ok": ("✓", "green"), "warn": ("!", "yellow"), "fail": ("✗", "red"), "info": ("·", "dim")}


class EnvPanel(LabAppAccess, Vertical):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._report: dict | None = None
        self._problem: str | None = None
        self.checking = False

    def compose(self) -> ComposeResult:
        yield Button("", id="env-run", compact=True)
        yield Static(id="env-summary", markup=False)
        with VerticalScroll(id="env-scroll"):
            yield Static(id="env-body", markup=False)

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self._update_view())

    def start_if_needed(self) -> None:
        if self._report is None and not self.checking:
            self.check()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "env-run":
            event.stop()
            if not self.checking:
                self.check()

    def check(self) -> None:
        self.checking = True
        self._problem = None
        self._update_view()
        self._run_doctor()

    @work(thread=True, exclusive=True, exit_on_error=False, group="doctor")
    def _run_doctor(self) -> dict:
        """Asks the app's own Lab (its warm worker), never a worker of its own."""
        from tritonlab.doctor import run_doctor

        return run_doctor(self.lab_app.lab)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "doctor" or not event.worker.is_finished:
            return
        event.stop()
        self.checking = False
        if event.state == WorkerState.SUCCESS:
            self._report = event.worker.result
        elif event.state == WorkerState.ERROR:
            self._problem = f"{type(event.worker.error).__name__}: {event.worker.error}"
        self._update_view()

    def _update_view(self) -> None:
        lang = self.lab_app.lang
        button = self.query_one("#env-run", Button)
        button.label = t("env_run", lang)
        button.disabled = self.checking
        summary = self.query_one("#env-summary", Static)
        body = self.query_one("#env-body", Static)
        if self.checking:
            summary.update(Text(t("env_running", lang), style="dim"))
            return
        if self._problem:
            summary.update(Text(self._problem, style="bold red"))
            return
        report = self._report
        if report is None:
            summary.update("")
            body.update("")
            return
        style = "bold green" if report.get("ok") else "bold red"
        summary.update(Text(doctor_words.verdict(report, lang), style=style))
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True, style="bold")
        table.add_column(ratio=1)
        for item in report.get("checks", []):
            mark, style = MARKS.get(item.get("status"), ("?", ""))
            value = Text(doctor_words.value(item, lang))
            fix = doctor_words.fix(item, lang)
            if fix:
                value.append("\n" + t("env_fix", lang, fix=fix), style="dim")
            table.add_row(Text(mark, style=style), doctor_words.name(item, lang), value)
        body.update(table)
