"""Where kernels run: the GPU's name, or the interpreter warning. Updates when the worker says hello."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess


class BackendBadge(LabAppAccess, Widget):
    def __init__(self, compact_below: int = 0, **kwargs) -> None:
        """`compact_below`: terminal width under which the interpreter badge is shortened (the lesson
        header)."""
        super().__init__(**kwargs)
        self.compact_below = compact_below

    def on_mount(self) -> None:
        for name in ("worker_info", "worker_problem", "lang"):
            self.watch(self.app, name, self._restate)

    def _restate(self, _value=None) -> None:
        info, problem = self.lab_app.worker_info, self.lab_app.worker_problem
        self.set_class(bool(problem), "-problem")
        self.set_class(not problem and info is None, "-starting")
        self.set_class(bool(info and info.get("backend") == "gpu"), "-gpu")
        self.set_class(bool(info and info.get("backend") != "gpu"), "-interpreter")
        self.refresh(layout=True)

    def text(self, width: int) -> str:
        app = self.lab_app
        info, problem, lang = app.worker_info, app.worker_problem, app.lang
        if problem:
            return t("badge_failed", lang, message=problem)
        if info is None:
            return t("badge_starting", lang)
        if info.get("backend") == "gpu":
            return t("badge_gpu", lang, device=info.get("device") or "?")
        return t("interpreter_short" if width < self.compact_below else "interpreter_badge", lang)

    def render(self) -> Text:
        return Text(self.text(self.app.size.width), no_wrap=True, overflow="ellipsis")

    def get_content_width(self, container, viewport) -> int:
        return self.render().cell_len
