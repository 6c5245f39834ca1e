"""Quiz tab: the lesson's self-check questions; every answer is graded, explained and recorded.

Each question's choices are a `QuizChoices` list: ↑/↓ move (past the last choice, on to the next question),
Enter or the letter key (a/b/c/d) answers. Choices are list options, so long ones wrap instead of being cut
with "…" as RadioButton labels were.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tritonlab import store
from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.content.model import tr
from tritonlab.quiz import LETTERS, choice_order, grade


class QuizChoices(LabAppAccess, OptionList):
    """One question's choices. Keys: ↑ ↓ move, Enter answers, a–d answer directly."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(letter, f"letter('{letter}')", show=False) for letter in LETTERS[:6]
    ]

    class Chosen(Message):
        def __init__(self, choices: QuizChoices, index: int) -> None:
            super().__init__()
            self.choices = choices
            self.index = index

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "letter":
            return bool(parameters) and LETTERS.index(str(parameters[0])) < self.option_count
        return True

    def action_letter(self, letter: str) -> None:
        index = LETTERS.index(letter)
        if index < self.option_count:
            self.highlighted = index
            self.post_message(self.Chosen(self, index))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(self, event.option_index))

    def action_cursor_down(self) -> None:
        """Past the last choice, ↓ goes on to the next question (one key to walk the whole quiz)."""
        if self.highlighted is not None and self.highlighted >= self.option_count - 1:
            self._step_question(+1)
            return
        super().action_cursor_down()

    def action_cursor_up(self) -> None:
        if self.highlighted is not None and self.highlighted <= 0:
            self._step_question(-1)
            return
        super().action_cursor_up()

    def _step_question(self, step: int) -> None:
        siblings = list(self.parent.query(QuizChoices)) if self.parent is not None else []
        index = siblings.index(self) + step if self in siblings else -1
        if 0 <= index < len(siblings):
            target = siblings[index]
            target.highlighted = 0 if step > 0 else target.option_count - 1
            target.focus()

    def on_focus(self) -> None:
        if self.highlighted is None and self.option_count:
            self.highlighted = 0
        self.scroll_visible()


class QuizPanel(LabAppAccess, VerticalScroll, can_focus=False):
    """Not focusable itself: Tab lands on the first question's choices, where ↓ chooses instead of
    scrolling."""

    def __init__(self, lesson, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lesson = lesson
        self.answers: dict[int, int] = {}  # question index -> chosen choice index (in the file's order)
        self._orders: dict[
            int, list[int]
        ] = {}  # question index -> file indices in the order this learner sees
        self.built = False

    def compose(self) -> ComposeResult:
        if not self.lesson.quiz:
            yield Static(Text(t("quiz_none", self.lab_app.lang), style="dim"), id="quiz-none")

    def build(self) -> None:
        """Mount the questions the first time the tab is shown: dozens of options would slow the first
        paint."""
        if self.built or not self.lesson.quiz:
            return
        self.built = True
        lang = self.lab_app.lang
        widgets: list[Widget] = []
        for q_index in range(len(self.lesson.quiz)):
            widgets.append(Static(id=f"quiz-prompt-{q_index}", classes="quiz-prompt", markup=False))
            widgets.append(
                QuizChoices(
                    *self._options(q_index, lang),
                    id=f"quiz-{q_index}",
                    classes="quiz-choices",
                )
            )
            widgets.append(Static(id=f"quiz-feedback-{q_index}", classes="quiz-feedback", markup=False))
        self.mount_all(widgets)
        self.call_after_refresh(self._relabel)

    def order(self, q_index: int) -> list[int]:
        """Choices shuffled per learner (stable for them): the right answer's position teaches nothing."""
        if q_index not in self._orders:
            self._orders[q_index] = choice_order(self.lesson.id, self.lesson.quiz[q_index])
        return self._orders[q_index]

    def _options(self, q_index: int, lang: str) -> list[Option]:
        question = self.lesson.quiz[q_index]
        chosen = self.answers.get(q_index)
        options = []
        for shown, c_index in enumerate(self.order(q_index)):
            choice = question.choices[c_index]
            mark = "●" if chosen == c_index else "○"
            # Two columns, so a wrapped choice continues under its text, not under the letter.
            grid = Table.grid()
            grid.add_column(width=5, no_wrap=True)
            grid.add_column(ratio=1)
            grid.add_row(Text(f"{mark} {LETTERS[shown]})"), Text(tr(choice.text, lang)))
            options.append(Option(grid))
        return options

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self._relabel())

    def _relabel(self) -> None:
        lang = self.lab_app.lang
        if not self.lesson.quiz:
            self.query_one("#quiz-none", Static).update(Text(t("quiz_none", lang), style="dim"))
            return
        if not self.built:
            return
        before = store.load_progress()["quiz"].get(self.lesson.id, {})
        for q_index, question in enumerate(self.lesson.quiz):
            prompt = Text(f"{q_index + 1}. {tr(question.prompt, lang)}", style="bold")
            if before.get(question.id, {}).get("correct"):
                prompt.append(f"  ✓ {t('quiz_before', lang)}", style="green")
            self.query_one(f"#quiz-prompt-{q_index}", Static).update(prompt)
            self._refill(q_index, lang)
            self._feedback(q_index)

    def _refill(self, q_index: int, lang: str) -> None:
        choices = self.query_one(f"#quiz-{q_index}", QuizChoices)
        highlighted = choices.highlighted
        choices.clear_options()
        choices.add_options(self._options(q_index, lang))
        choices.highlighted = highlighted

    def on_quiz_choices_chosen(self, event: QuizChoices.Chosen) -> None:
        event.stop()
        set_id = event.choices.id or ""
        if not set_id.startswith("quiz-") or event.index < 0:
            return
        q_index = int(set_id.rsplit("-", 1)[1])
        question = self.lesson.quiz[q_index]
        correct, chosen = grade(question, LETTERS[event.index], self.order(q_index))
        if chosen is None:
            return
        self.answers[q_index] = chosen
        store.record_quiz(self.lesson.id, question.id, correct)
        self._refill(q_index, self.lab_app.lang)
        self._feedback(q_index)

    def _feedback(self, q_index: int) -> None:
        lang = self.lab_app.lang
        widget = self.query_one(f"#quiz-feedback-{q_index}", Static)
        chosen_index = self.answers.get(q_index)
        widget.display = chosen_index is not None
        if chosen_index is None:
            return
        question = self.lesson.quiz[q_index]
        right = next(i for i, c in enumerate(question.choices) if c.correct)
        right_letter = LETTERS[self.order(q_index).index(right)]
        chosen = question.choices[chosen_index]
        text = Text()
        if chosen.correct:
            text.append(t("quiz_right", lang), style="bold green")
        else:
            text.append(t("quiz_wrong", lang, letter=right_letter), style="bold red")
        if tr(chosen.explain, lang):
            text.append("\n" + tr(chosen.explain, lang))
        if not chosen.correct and tr(question.choices[right].explain, lang):
            text.append(f"\n{right_letter}) {tr(question.choices[right].explain, lang)}", style="dim")
        widget.update(text)
