"""Output tab: what the learner's code printed (stdout and stderr), and the demo's lines for Run."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tritonlab.app.formatting import error_text
from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.present import verify as verify_words
from tritonlab.present.run import run_lines


class OutputPanel(LabAppAccess, VerticalScroll):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._op: str | None = None
        self._result: dict | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="output-body", markup=False)

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self._update_view())

    def show(self, op: str, result: dict) -> None:
        self._op, self._result = op, result
        self._update_view()
        self.scroll_home(animate=False)

    def _update_view(self) -> None:
        lang = self.lab_app.lang
        body = self.query_one("#output-body", Static)
        result = self._result
        if result is None:
            body.update(Text(t("output_empty", lang), style="dim"))
            return
        text = Text()
        if result.get("error") and self._op == "run":
            text.append_text(error_text(result["error"], lang))
            text.append("\n\n")
        if self._op == "run":
            lines = run_lines(result, lang, app=True)
            for line in lines:
                text.append(f"{line}\n")
            if lines:
                text.append("\n")
        output = result.get("output") or ""
        text.append(t("printed", lang) + "\n", style="bold")
        if output.strip():
            text.append(output.rstrip() + "\n")
        else:
            text.append(t("no_output", lang), style="dim")
        # warnings raised inside Triton's interpreter (numpy's overflow, a division by zero) are not the
        # learner's prints: said apart, with the learner's line that was running
        warned = verify_words.interpreter_warnings(result.get("cases") or [], lang)
        if warned:
            text.append("\n" + verify_words.WARNED.in_(lang) + "\n", style="dim")
            for line in warned:
                text.append(line + "\n")
        body.update(text)
