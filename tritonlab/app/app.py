"""The TritonLab app: wires the catalog, the engine's one door (`Lab`), the language and the screens."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.worker import Worker, WorkerState

from tritonlab import store
from tritonlab.app.keys import relabel
from tritonlab.app.strings import PALETTE_JA, t
from tritonlab.app.widgets import toast
from tritonlab.content.loader import load_catalog
from tritonlab.engine.lab import Lab
from tritonlab.present import cjk_wrap


class TritonLabApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "TritonLab"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", priority=True),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+l", "toggle_language", "日本語", show=False),
    ]
    LABELS: ClassVar[dict[str, str]] = {"help": "help", "toggle_language": "language"}

    lang: reactive[str] = reactive("en")
    worker_info: reactive[dict | None] = reactive(None)  # the worker's hello; None until it arrives
    worker_problem: reactive[str] = reactive("")

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notice is plain text: the lab's notices carry paths, error messages and learner names
        (`/tmp/[draft].py`, `KeyError: '[x]'`) that Rich markup would swallow, and none of its own words use
        markup (screens' `self.notify` comes here too)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def get_system_commands(self, screen):
        """Textual's own palette commands, titled and explained in the learner's language."""
        for command in super().get_system_commands(screen):
            said = PALETTE_JA.get(command.title) if self.lang == "ja" else None
            yield command if said is None else command._replace(title=said[0], help=said[1])

    def action_command_palette(self) -> None:
        """Textual's palette with its search prompt in the learner's language."""
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(
                CommandPalette(placeholder=t("palette_search", self.lang), id="--command-palette")
            )

    def __init__(
        self,
        exercise_ref: str | None = None,
        lang: str = "en",
        backend: str = "auto",
        client=None,
        catalog=None,
        replay_client=None,
        lab: Lab | None = None,
    ) -> None:
        """`client`/`replay_client`: stand-ins for the worker clients inside the Lab (tests); `lab`: a whole
        Lab."""
        super().__init__()
        cjk_wrap.install()
        toast.install()  # Japanese notices keep every character over the widgets under them
        self.backend = backend
        self.catalog = catalog if catalog is not None else load_catalog()
        self.lab = (
            lab if lab is not None else Lab(backend=backend, client=client, replay_client=replay_client)
        )
        self._exercise_ref = exercise_ref
        self._start_cancelled = False  # a cancel stopped the worker while it started
        self.set_reactive(TritonLabApp.lang, lang)
        relabel(self, lang, self.LABELS)  # before the first frame: a relabel after it rebuilds the footer
        theme = store.load_settings().get("theme")
        if theme and theme in self.available_themes:
            self.theme = theme

    def on_mount(self) -> None:
        from tritonlab.app.screens.home import HomeScreen

        self.watch(self, "lang", self._relabel)
        self.watch(self, "theme", self._save_theme, init=False)
        # `open REF` shows the exercise alone: a home screen built under it (hidden, its footer and list
        # included) cost the first paint ~0.1 s; F9 builds one when the learner asks for it (`go_home`).
        if not (self._exercise_ref and self._open_ref(self._exercise_ref)):
            self.push_screen(HomeScreen())
        else:
            self.call_after_refresh(self.show_store_notices)  # the home screen said them on its mount
        # Right after the first frame: the worker's `import torch` must not compete with it for the CPU.
        self.call_after_refresh(self.start_worker)

    def _open_ref(self, ref: str) -> bool:
        """`tritonlab open REF`: an exercise, or a lesson (its first exercise, or its text if it has none).
        False (after a notice) when REF names neither."""
        try:
            self.open_exercise(self.catalog.exercise(ref).key)
            return True
        except KeyError as exc:
            lesson = self.catalog.lesson(ref) if "/" not in ref else None
            facts = getattr(exc, "facts", None)  # content.loader.UnknownRef
            if lesson is not None and not lesson.exercises:
                self.open_exercise(None, lesson_id=lesson.id)
                return True
            elif facts is not None:
                from tritonlab.present.usage import unknown_ref

                self.notify(unknown_ref(facts).in_(self.lang), severity="error")
            else:
                self.notify(str(exc).strip("'\""), severity="error")
            return False

    def _relabel(self, lang: str) -> None:
        relabel(self, lang, self.LABELS)

    def get_key_display(self, binding: Binding) -> str:
        """F5 and Esc as the action bar, the help and the README write them (Textual's footer: f5, esc)."""
        if binding.key == "escape":
            return "Esc"
        display = super().get_key_display(binding)
        return (
            display.upper()
            if len(display) <= 3 and display[:1] in "fF" and display[1:].isdigit()
            else display
        )

    # ---- the kernel worker --------------------------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="client")
    def start_worker(self) -> dict:
        """Spawn the worker (it imports torch: seconds) off the UI thread; the badges update on its hello."""
        return self.lab.start()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "client" or not event.worker.is_finished:
            return
        if event.state == WorkerState.SUCCESS:
            self._start_cancelled = False
            self.worker_info = dict(event.worker.result or {})
            self.worker_problem = ""
        elif event.state == WorkerState.ERROR:
            if self._start_cancelled:  # Esc stopped the start; the cancelled job starts the worker again
                self._start_cancelled = False
                return
            self.worker_problem = str(event.worker.error) or type(event.worker.error).__name__
            self.notify(
                t("badge_failed", self.lang, message=self.worker_problem), severity="error", timeout=20
            )

    async def action_quit(self) -> None:
        for screen in self.screen_stack:
            flush = getattr(screen, "flush_draft", None)
            if flush is not None:
                flush()
        self._stop_client()  # before exiting: closing a screen waits for its thread workers
        self.exit()

    def on_unmount(self) -> None:
        self._stop_client()

    def cancel_requests(self) -> None:
        """Stop whatever a kernel job is waiting for: the kernel worker's request or the replay's (or the
        worker's start, which is then no failure to report)."""
        if any(w.group == "client" and not w.is_finished for w in self.workers):
            self._start_cancelled = True
        self.lab.cancel()

    def _stop_client(self) -> None:
        busy = any(w.group in ("kernel", "client") and not w.is_finished for w in self.workers)
        try:
            if busy:
                self.lab.cancel()  # the blocked request returns at once, so the app exits at once
            self.lab.close()
        except OSError:  # shutting down: nothing left to report it to
            pass

    # ---- navigation ---------------------------------------------------------------------------------

    def open_exercise(
        self, exercise_key: str | None, lesson_id: str | None = None, replace: bool = False
    ) -> None:
        from tritonlab.app.screens.lesson import LessonScreen

        if exercise_key:
            exercise = self.catalog.exercise(exercise_key)
            lesson = self.catalog.lesson(exercise.lesson_id)
            store.set_last(exercise.key)
        else:
            exercise, lesson = (
                None,
                self.catalog.lesson(str(lesson_id)),
            )  # str(None) finds no lesson, as before
        screen = LessonScreen(lesson, exercise)
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def go_home(self) -> None:
        """Back to the lesson list: the home screen under the lesson, or a new one in the lesson's place when
        the app opened on an exercise (`open REF` builds none)."""
        from tritonlab.app.screens.home import HomeScreen

        if not any(isinstance(screen, HomeScreen) for screen in self.screen_stack):
            while len(self.screen_stack) > 2:
                self.pop_screen()
            self.switch_screen(HomeScreen())
            return
        while len(self.screen_stack) > 1 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    def neighbour(self, exercise, lesson, step: int):
        """The next or previous exercise across lessons, or None at either end."""
        ordered = self.catalog.all_exercises()
        if exercise is None:

            def number(e) -> int:
                found = self.catalog.lesson(e.lesson_id)
                assert found is not None, f"exercise {e.key} names no lesson of the catalog"
                return found.number

            later = [e for e in ordered if number(e) > lesson.number]
            earlier = [e for e in ordered if number(e) < lesson.number]
            return (later[0] if later else None) if step > 0 else (earlier[-1] if earlier else None)
        index = next(i for i, e in enumerate(ordered) if e.key == exercise.key) + step
        return ordered[index] if 0 <= index < len(ordered) else None

    # ---- language, theme, notices, help -------------------------------------------------------------

    def action_toggle_language(self) -> None:
        """For this session only: the language follows the locale (or --lang) unless the learner starts
        with one."""
        self.lang = "ja" if self.lang == "en" else "en"
        self.notify(t("lang_session", self.lang, code=self.lang), timeout=6)

    def _save_theme(self, theme: str) -> None:
        settings = store.load_settings()
        if settings.get("theme") != theme:
            settings["theme"] = theme
            store.save_settings(settings)

    def show_store_notices(self) -> None:
        """Corrupt user files were set aside by the store; say so once, never as a traceback."""
        for notice in store.take_notices():
            self.notify(notice.text(self.lang), severity="warning", timeout=12)

    def action_help(self) -> None:
        from tritonlab.app.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
        else:
            self.push_screen(HelpScreen(self.screen))
