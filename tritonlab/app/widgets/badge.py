"""Where kernels run: the GPU's name, or the interpreter warning. Updates when the worker says hello."""

from __future__ import annotations

from textual.widgets import Static

from tritonlab.app.strings import t


class BackendBadge(Static):
    def __init__(self, **kwargs) -> None:
        super().__init__(markup=False, **kwargs)

    def on_mount(self) -> None:
        self.watch(self.app, "worker_info", self._refresh_badge)
        self.watch(self.app, "worker_problem", self._refresh_badge)
        self.watch(self.app, "lang", self._refresh_badge)

    def _refresh_badge(self, _value=None) -> None:
        app = self.app
        info, problem, lang = app.worker_info, app.worker_problem, app.lang
        self.set_class(bool(problem), "-problem")
        self.set_class(not problem and info is None, "-starting")
        self.set_class(bool(info) and info.get("backend") == "gpu", "-gpu")
        self.set_class(bool(info) and info.get("backend") != "gpu", "-interpreter")
        if problem:
            text = t("badge_failed", lang, message=problem)
        elif info is None:
            text = t("badge_starting", lang)
        elif info.get("backend") == "gpu":
            text = t("badge_gpu", lang, device=info.get("device") or "?")
        else:
            text = t("interpreter_badge", lang)
        self.update(text)
