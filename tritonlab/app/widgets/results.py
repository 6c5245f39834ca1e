"""The results area: tabs for Output, Verify, Benchmark, IR, Hints, Quiz (and Environment in lesson 2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.lazy import Lazy
from textual.widgets import TabbedContent, TabPane, Tabs

from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.app.widgets.bench_panel import BenchPanel
from tritonlab.app.widgets.env_panel import EnvPanel
from tritonlab.app.widgets.hints_panel import HintsPanel
from tritonlab.app.widgets.ir_panel import IRPanel
from tritonlab.app.widgets.output_panel import OutputPanel
from tritonlab.app.widgets.quiz_panel import QuizPanel
from tritonlab.app.widgets.verify_panel import VerifyPanel

TABS = ("output", "verify", "bench", "ir", "hints", "quiz", "env")


class ResultsPane(LabAppAccess, Vertical):
    def __init__(self, lesson, exercise, with_environment: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lesson = lesson
        self.exercise = exercise
        self.with_environment = with_environment

    def compose(self) -> ComposeResult:
        lang = self.lab_app.lang
        initial = "tab-env" if self.with_environment else ("tab-output" if self.exercise else "tab-quiz")
        with TabbedContent(id="results-tabs", initial=initial):
            if self.exercise is not None:
                with TabPane(t("tab_output", lang), id="tab-output"):
                    yield OutputPanel(id="output-panel")
                # The hidden tabs fill in after the first frame (Lazy): fewer widgets to lay out before it.
                with TabPane(t("tab_verify", lang), id="tab-verify"):
                    yield Lazy(VerifyPanel(id="verify-panel"))
                with TabPane(t("tab_bench", lang), id="tab-bench"):
                    yield Lazy(BenchPanel(id="bench-panel"))
                with TabPane(t("tab_ir", lang), id="tab-ir"):
                    yield Lazy(IRPanel(id="ir-panel"))
                with TabPane(t("tab_hints", lang), id="tab-hints"):
                    yield Lazy(HintsPanel(self.exercise.hints, id="hints-panel"))
            with TabPane(t("tab_quiz", lang), id="tab-quiz"):
                yield Lazy(QuizPanel(self.lesson, id="quiz-panel"))
            if self.with_environment:
                with TabPane(t("tab_env", lang), id="tab-env"):
                    yield EnvPanel(id="env-panel")

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._relabel, init=False)

    def _relabel(self, lang: str) -> None:
        tabs = self.query_one(TabbedContent)
        for name in TABS:
            if self.query(f"#tab-{name}"):
                tabs.get_tab(f"tab-{name}").label = t(f"tab_{name}", lang)

    def show_tab(self, name: str) -> None:
        tabs = self.query_one(TabbedContent)
        if not self.query(f"#tab-{name}"):
            return
        focused = self.screen.focused
        if (
            focused is not None
            and self in focused.ancestors
            and all(a.id != f"tab-{name}" for a in focused.ancestors)
        ):
            # Focus left in the pane being hidden would pull TabbedContent straight back to it.
            tabs.query_one(Tabs).focus()
        tabs.active = f"tab-{name}"

    def panel(self, panel_id: str, then: Callable[[Any], None]) -> None:
        """Call `then(panel)` once the panel is mounted (the Lazy ones arrive just after the first frame)."""
        found = self.query(f"#{panel_id}")
        if found:
            then(found.first())
        else:
            self.call_after_refresh(self.panel, panel_id, then)

    @property
    def active(self) -> str:
        return (self.query_one(TabbedContent).active or "tab-").removeprefix("tab-")

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id == "tab-env":
            self.query_one(EnvPanel).start_if_needed()
        elif event.pane.id == "tab-quiz":
            self.panel("quiz-panel", lambda quiz: quiz.build())
