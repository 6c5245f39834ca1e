"""IR tab: the learner's kernel at one compiler stage, syntax-highlighted."""

from __future__ import annotations

import re

from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.message import Message
from textual.widgets import Button, Static

from tritonlab.app.formatting import error_detail, error_text
from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.present.ir import header as ir_header

STAGES = ("ttir", "ttgir", "llir", "ptx", "sass")
# Pygments has no MLIR lexer; LLVM's reads TTIR/TTGIR well (the same %values, types and attributes).
LEXERS = {"ttir": "llvm", "ttgir": "llvm", "llir": "llvm", "ptx": "ptx", "sass": "nasm"}


_LOC_SUFFIX = re.compile(r'\s+loc\((?:"[^"]*"\(#loc\d*\)|#loc\d*)\)')
_LOC_DEFINITION = re.compile(r"^#loc\d*\s*=\s*loc\(")
_DBG_SUFFIX = re.compile(r",?\s+!dbg\s+!\d+")


def without_locations(text: str, stage: str) -> str:
    """TTIR/TTGIR end every op with `loc(#loc16)` and open with a block of `#loc = loc("file":13:1)`; LLVM IR
    carries `, !dbg !12`. They pushed most lines past 80 columns and say nothing to a learner: the values are
    already named after the kernel's variables (%offsets, %mask)."""
    if stage in ("ttir", "ttgir"):
        lines = [_LOC_SUFFIX.sub("", line) for line in text.splitlines() if not _LOC_DEFINITION.match(line)]
        return "\n".join(lines).strip("\n")
    if stage == "llir":
        return _DBG_SUFFIX.sub("", text)
    return text


class IRPanel(LabAppAccess, Vertical):
    class StageChosen(Message):
        def __init__(self, stage: str) -> None:
            super().__init__()
            self.stage = stage

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.stage = "ttir"
        self._result: dict | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="ir-stages"):
            for stage in STAGES:
                yield Button(stage, id=f"ir-{stage}", compact=True, classes="ir-stage")
        yield Static(id="ir-header", markup=False)
        with ScrollableContainer(id="ir-scroll"):
            yield Static(id="ir-text", markup=False)

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self._update_view())
        self.watch(self.app, "theme", lambda _theme: self._update_view())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if not (event.button.id or "").startswith("ir-"):
            return
        event.stop()
        self.stage = (event.button.id or "")[3:]
        self._mark_stage()
        self.post_message(self.StageChosen(self.stage))

    def _mark_stage(self) -> None:
        for button in self.query(".ir-stage"):
            button.set_class(button.id == f"ir-{self.stage}", "-current-stage")

    def show(self, result: dict, stage: str | None = None) -> None:
        self._result = result
        if stage:
            self.stage = stage
            self._mark_stage()
        self._update_view()
        self.query_one("#ir-scroll").scroll_home(animate=False)

    def _update_view(self) -> None:
        lang = self.lab_app.lang
        header = self.query_one("#ir-header", Static)
        body = self.query_one("#ir-text", Static)
        result = self._result
        if result is None:
            header.update(Text(t("ir_empty", lang), style="dim"))
            body.update("")
            return
        head = Text()
        if result.get("error"):  # the header does not scroll: a traceback goes below, where the IR would be
            head.append_text(error_text(result["error"], lang, detail=bool(result.get("text"))))
        for line in ir_header(result, lang) if not result.get("error") else []:
            if head:
                head.append("\n")
            head.append(str(line), style="dim")
        header.update(head)
        text = result.get("text")
        if not text:
            error = result.get("error")
            body.update(error_detail(error) if error else Text(t("ir_none", lang), style="dim"))
            return
        dark = getattr(self.app.current_theme, "dark", True)
        body.update(
            Syntax(
                without_locations(text, self.stage),
                LEXERS.get(self.stage, "text"),
                theme="monokai" if dark else "default",
                line_numbers=True,
                word_wrap=False,
                background_color="default",
            )
        )
