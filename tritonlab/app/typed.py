"""The typed way for a widget to reach the app: `self.lab_app` is a `TritonLabApp` (Textual's `self.app` is an
untyped `App`, so mypy cannot see `lang`, `lab` or `catalog` through it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tritonlab.app.app import TritonLabApp


class LabAppAccess:
    """Mixin for widgets and screens of the TritonLab app (put it before the Textual base class)."""

    @property
    def lab_app(self) -> TritonLabApp:
        from tritonlab.app.app import TritonLabApp as _App

        app = getattr(self, "app")  # noqa: B009 - Textual's property, typed as a plain App
        if not isinstance(app, _App):  # a widget mounted in another app (a test harness): say so plainly
            raise TypeError(f"{type(self).__name__} runs only inside TritonLabApp, not {type(app).__name__}")
        return app
