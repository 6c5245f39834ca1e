"""The ten lessons and their exercises with the learner's progress; lessons that failed to load stay
listed."""

from __future__ import annotations

import re

from rich.table import Table
from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tritonlab import store
from tritonlab.app.strings import state_mark, t
from tritonlab.app.typed import LabAppAccess
from tritonlab.content.model import tr

STATE_STYLE = {store.VERIFIED: "green", store.IN_PROGRESS: "yellow", store.NOT_STARTED: "dim"}
_NUMBER = re.compile(r"(?:^|/)(\d{2})-[^/]*")


def problem_number(problem) -> int:
    """The lesson number a problem belongs to (from its NN-slug folder), so it sorts into place."""
    match = _NUMBER.search(str(problem.path))
    return int(match.group(1)) if match else 99


def problem_text(problem, lang: str = "en") -> str:
    """`NN-slug/file:line: message` in `lang`, without the install location in front."""
    parts = list(getattr(problem.path, "parts", ()))
    start = next((i for i, part in enumerate(parts) if re.match(r"^\d{2}-", part)), None)
    where = "/".join(parts[start:]) if start is not None else str(problem.path)
    return f"{where}:{problem.line or 1}: {problem.text(lang)}"


def _hanging(lead: Text, body: Text) -> Table:
    """`lead` then `body`, the lines `body` wraps onto starting under its first character, not under `lead`
    (a long exercise title or problem at 80 columns, in Japanese above all, wrapped to the list's edge)."""
    grid = Table.grid()
    grid.add_column(width=lead.cell_len, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(lead, body)
    return grid


class LessonList(LabAppAccess, OptionList):
    class ExerciseChosen(Message):
        def __init__(self, exercise_key: str | None, lesson_id: str) -> None:
            super().__init__()
            self.exercise_key = exercise_key
            self.lesson_id = lesson_id

    def __init__(self, catalog, **kwargs) -> None:
        super().__init__(**kwargs)
        self.catalog = catalog
        self._problems: dict[str, str] = {}  # a problem row's id: its words, for the notice when it is chosen

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self.rebuild(), init=False)

    def rebuild(self, highlight: str | None = None) -> None:
        lang = self.lab_app.lang
        current = highlight
        if current is None and self.highlighted is not None and self.option_count:
            current = self.get_option_at_index(self.highlighted).id
        progress = store.load_progress()
        entries = [(lesson.number, 0, lesson) for lesson in self.catalog.lessons]
        entries += [(problem_number(p), 1, p) for p in self.catalog.problems]
        options: list[Option] = []
        self._problems = {}
        for number, is_problem, item in sorted(entries, key=lambda e: (e[0], e[1])):
            if is_problem:
                lead = Text.assemble((f"{number:>2}  " if number != 99 else "    "), ("✗ ", "bold red"))
                text = problem_text(item, lang)
                option_id = f"problem:{len(options)}"
                self._problems[option_id] = f"{lead.plain}{text}"
                options.append(Option(_hanging(lead, Text(text, style="red")), id=option_id))
                continue
            options.append(Option(self._lesson_prompt(item, progress, lang), id=f"lesson:{item.id}"))
            for exercise in item.exercises:
                state = store.exercise_state(exercise.key, progress)
                lead = Text.assemble("     ", (state_mark(state) + " ", STATE_STYLE[state]))
                body = Text.assemble(
                    (tr(exercise.title, lang), ""), ("  " + t(state, lang), STATE_STYLE[state])
                )
                options.append(Option(_hanging(lead, body), id=f"exercise:{exercise.key}"))
        self.clear_options()
        self.add_options(options)
        ids = [o.id for o in options]
        if current in ids:
            self.highlighted = ids.index(current)
        elif options:
            self.highlighted = 0

    @staticmethod
    def _lesson_prompt(lesson, progress: dict, lang: str):
        """The lesson's number and title, its quiz score, and under them its one-line summary (wrapped lines
        stay under the title, not under the number)."""
        title = Text(tr(lesson.title, lang), style="bold")
        if lesson.quiz:
            answers = progress["quiz"].get(lesson.id, {})
            right = sum(1 for q in lesson.quiz if answers.get(q.id, {}).get("correct"))
            title.append("  " + t("quiz_count", lang, answered=right, total=len(lesson.quiz)), style="dim")
        summary = tr(lesson.summary, lang) if lesson.summary else ""
        body = Text("\n").join([title, Text(summary, style="italic dim")]) if summary else title
        grid = Table.grid()
        grid.add_column(width=4, no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(Text(f"{lesson.number:>2}  ", style="bold"), body)
        return grid

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        kind, _, ref = (event.option.id or "").partition(":")
        if kind == "exercise":
            self.post_message(self.ExerciseChosen(ref, ref.partition("/")[0]))
        elif kind == "lesson":
            lesson = self.catalog.lesson(ref)
            first = lesson.exercises[0].key if lesson and lesson.exercises else None
            self.post_message(self.ExerciseChosen(first, ref))
        elif kind == "problem":
            text = self._problems.get(event.option.id or "", "")
            self.app.notify(text, severity="error", timeout=10, markup=False)
