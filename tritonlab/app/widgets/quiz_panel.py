"""Quiz tab: the lesson's self-check questions; every answer is graded, explained and recorded."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import RadioButton, RadioSet, Static

from tritonlab import store
from tritonlab.app.strings import t
from tritonlab.content.model import tr
from tritonlab.quiz import LETTERS, grade


class QuizPanel(VerticalScroll):
    def __init__(self, lesson, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lesson = lesson
        self.answers: dict[int, int] = {}  # question index -> chosen choice index
        self.built = False

    def compose(self) -> ComposeResult:
        if not self.lesson.quiz:
            yield Static(Text(t("quiz_none", self.app.lang), style="dim"), id="quiz-none")

    def build(self) -> None:
        """Mount the questions the first time the tab is shown: dozens of radio buttons would slow the first paint."""
        if self.built or not self.lesson.quiz:
            return
        self.built = True
        lang = self.app.lang
        widgets = []
        for q_index, question in enumerate(self.lesson.quiz):
            widgets.append(Static(id=f"quiz-prompt-{q_index}", classes="quiz-prompt", markup=False))
            widgets.append(
                RadioSet(
                    *(
                        RadioButton(self._choice_label(c_index, choice, lang))
                        for c_index, choice in enumerate(question.choices)
                    ),
                    id=f"quiz-{q_index}",
                    classes="quiz-choices",
                )
            )
            widgets.append(Static(id=f"quiz-feedback-{q_index}", classes="quiz-feedback", markup=False))
        self.mount_all(widgets)
        self.call_after_refresh(self._relabel)

    @staticmethod
    def _choice_label(index: int, choice, lang: str) -> Text:
        return Text(f"{LETTERS[index]}) {tr(choice.text, lang)}")

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self._relabel())

    def _relabel(self) -> None:
        lang = self.app.lang
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
            buttons = self.query_one(f"#quiz-{q_index}", RadioSet).query(RadioButton)
            for c_index, (button, choice) in enumerate(zip(buttons, question.choices)):
                button.label = self._choice_label(c_index, choice, lang)
            self._feedback(q_index)

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        set_id = event.radio_set.id or ""
        if not set_id.startswith("quiz-") or event.index < 0:
            return
        q_index = int(set_id.rsplit("-", 1)[1])
        question = self.lesson.quiz[q_index]
        correct, _ = grade(question, LETTERS[event.index])
        self.answers[q_index] = event.index
        store.record_quiz(self.lesson.id, question.id, correct)
        self._feedback(q_index)

    def _feedback(self, q_index: int) -> None:
        lang = self.app.lang
        widget = self.query_one(f"#quiz-feedback-{q_index}", Static)
        chosen_index = self.answers.get(q_index)
        widget.display = chosen_index is not None
        if chosen_index is None:
            return
        question = self.lesson.quiz[q_index]
        right = next(i for i, c in enumerate(question.choices) if c.correct)
        chosen = question.choices[chosen_index]
        text = Text()
        if chosen.correct:
            text.append(t("quiz_right", lang), style="bold green")
        else:
            text.append(t("quiz_wrong", lang, letter=LETTERS[right]), style="bold red")
        if tr(chosen.explain, lang):
            text.append("\n" + tr(chosen.explain, lang))
        if not chosen.correct and tr(question.choices[right].explain, lang):
            text.append(f"\n{LETTERS[right]}) {tr(question.choices[right].explain, lang)}", style="dim")
        widget.update(text)
