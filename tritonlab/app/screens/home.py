"""Home: the lessons, each exercise's state, where kernels run, and a way back to the last exercise."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Button, Static

from tritonlab import store
from tritonlab.app.keys import relabel
from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.app.widgets.badge import BackendBadge
from tritonlab.app.widgets.footer import LabFooter
from tritonlab.app.widgets.lesson_list import LessonList
from tritonlab.content.model import tr


class HomeScreen(LabAppAccess, Screen):
    CSS_PATH = "../home.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "resume", "Resume"),
        Binding("q", "app.quit", "Quit"),
        Binding("ctrl+l", "app.toggle_language", "日本語"),
    ]
    LABELS: ClassVar[dict[str, str]] = {
        "resume": "resume_key",
        "app.quit": "quit",
        "app.toggle_language": "language",
    }

    def __init__(self) -> None:
        super().__init__()
        relabel(self, self.lab_app.lang, self.LABELS)

    def compose(self) -> ComposeResult:
        with Horizontal(id="home-header"):
            yield Static("TritonLab", id="home-title")
            yield BackendBadge(id="badge")
        yield Button("", id="resume", compact=True, action="screen.resume")
        yield Static(id="home-how", markup=False)
        yield LessonList(self.lab_app.catalog, id="lessons")
        yield LabFooter()

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._relabel)
        self._refresh_entries(highlight=self._last_key(), focus=True)

    def on_screen_resume(self) -> None:
        self._refresh_entries()

    def _last_key(self) -> str | None:
        last = store.load_progress().get("last")
        return f"exercise:{last}" if last else None

    def _last_exercise(self):
        last = store.load_progress().get("last")
        if not last:
            return None
        try:
            return self.lab_app.catalog.exercise(last)
        except KeyError:
            return None

    def _refresh_entries(self, highlight: str | None = None, focus: bool = False) -> None:
        lessons = self.query_one(LessonList)
        lessons.rebuild(highlight)
        self._relabel(self.lab_app.lang)
        self.lab_app.show_store_notices()
        resume = self.query_one("#resume", Button)
        target = resume if resume.display else lessons
        if focus:
            target.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":  # no "r Resume" in the footer when there is nothing to resume
            return self._last_exercise() is not None
        return True

    def _relabel(self, lang: str) -> None:
        relabel(self, lang, self.LABELS)
        resume = self.query_one("#resume", Button)
        exercise = self._last_exercise()
        # 'r resumes' only when r does something (the footer and the help leave it out too)
        self.query_one("#home-how", Static).update(t("home_how" if exercise else "home_how_start", lang))
        resume.display = exercise is not None
        self.refresh_bindings()
        if exercise is not None:
            lesson = self.lab_app.catalog.lesson(exercise.lesson_id)
            title = f"{lesson.number}. {tr(exercise.title, lang)}" if lesson else tr(exercise.title, lang)
            resume.label = t("resume", lang, title=title) + "  (r)"

    def on_lesson_list_exercise_chosen(self, event: LessonList.ExerciseChosen) -> None:
        self.lab_app.open_exercise(event.exercise_key, lesson_id=event.lesson_id)

    def action_resume(self) -> None:
        exercise = self._last_exercise()
        if exercise is not None:
            self.lab_app.open_exercise(exercise.key)
