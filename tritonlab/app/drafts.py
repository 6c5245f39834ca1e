"""Keeping the editor's text safe: the draft of one exercise in one window.

Why this is more than a debounced save:
- A learner who types without pause must not lose more than a second: the save waits for a short pause
  (DEBOUNCE) but never longer than MAX_WAIT after the first unsaved change.
- A kill -9 loses at most that second; SIGHUP (the SSH link drops), SIGTERM and SIGINT lose nothing: the
  handlers `install_signal_handlers` sets write every window's latest text (kept current on every change, so
  no event loop needs to run) before the app exits.
- Two windows on one exercise: each checks, under a lock, that the draft on disk is still the one it loaded or
  wrote before writing over it. When it is not, nothing is overwritten: this window's text goes to a
  `<exercise>.window-<pid>-<id>.py` copy and the learner is offered the other text (F8). A clean window (no
  unsaved edits) just loads the new text.
- Verify checks what this window shows: `snapshot()` writes the text to a private per-window file.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

from tritonlab import store
from tritonlab.store.notices import Notice

DEBOUNCE = 0.3  # seconds of quiet before a save
MAX_WAIT = 0.8  # the longest a change waits for its save, however fast the typing (the promise is 1 s)
POLL = 1.5  # how often a window looks for a change made outside it
EXIT_GRACE = 3.0  # after a signal: how long a clean exit may take before the process just ends

_keepers: weakref.WeakSet[DraftKeeper] = weakref.WeakSet()


class DraftKeeper:
    """The draft of `exercise_key` as seen by one window. `host` is the screen (timers, notices, editor)."""

    def __init__(self, host, exercise_key: str, starter: str) -> None:
        self.host = host
        self.key = exercise_key
        self.starter = starter
        self.window_id = secrets.token_hex(4)
        self.text = starter  # the editor's text as of its last change: what a signal handler writes
        self._saved_text: str | None = None  # what this window last loaded or wrote (None: no draft)
        self._known_digest: str | None = None  # the draft on disk as this window last knew it
        self._dirty_since: float | None = None
        self._timer = None
        self._poll = None
        self._blocked = False  # a folder where the draft belongs: never written
        self.conflict = False  # the draft changed outside: this window writes its copy, not the draft
        self._marker: Path | None = None
        self._snapshot_dir: str | None = None
        self._lock = threading.RLock()  # the signal handler and a timer's save must not interleave

    # ---- opening -----------------------------------------------------------------------------------

    def load(self) -> str:
        """The text to show: the saved draft, else the starter. Says so when another window has it open."""
        self._blocked = store.draft_is_blocked(self.key)
        saved = None if self._blocked else store.load_draft(self.key)
        self._saved_text = saved
        self._known_digest = store.disk_digest(self.key)
        self.text = saved if saved is not None else self.starter
        self._marker = store.drafts.open_window(self.key, self.window_id)
        others = store.drafts.other_windows(self.key, self.window_id)
        if others:
            store.report_notice(Notice("other-window", str(store.draft_path(self.key)), pid=others[0]))
        _keepers.add(self)
        return self.text

    def start_polling(self) -> None:
        self._poll = self.host.set_interval(POLL, self.check_outside)

    def close(self) -> None:
        """The window leaves the exercise: save what is unsaved, drop the marker and the snapshot folder."""
        self.flush()
        for timer in (self._timer, self._poll):
            if timer is not None:
                timer.stop()
        store.drafts.close_window(self._marker)
        self._marker = None
        if self._snapshot_dir:
            shutil.rmtree(self._snapshot_dir, ignore_errors=True)
            self._snapshot_dir = None
        _keepers.discard(self)

    # ---- typing --------------------------------------------------------------------------------------

    def changed(self, text: str) -> None:
        """Every edit: keep the text current and schedule the save (a pause, or MAX_WAIT at the latest)."""
        self.text = text
        now = time.monotonic()
        if self._dirty_since is None:
            self._dirty_since = now
        delay = min(DEBOUNCE, self._dirty_since + MAX_WAIT - now)
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if delay < 0.02:  # overdue (a slow loop): now; Textual's timers also cannot take a zero delay
            self.flush()
        else:
            self._timer = self.host.set_timer(delay, self.flush)

    def forget(self) -> None:
        """Reset to the starter: the draft is deleted and nothing is pending."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        with self._lock:
            store.delete_draft(self.key)
            self._saved_text = None
            self._known_digest = store.disk_digest(self.key)
            self._dirty_since = None
            self.text = self.starter
            self.conflict = False

    # ---- saving --------------------------------------------------------------------------------------

    def flush(self, force: bool = False, quiet: bool = False) -> bool:
        """Write `self.text` as the draft if it changed. Unforced, an untouched starter is not saved (it stays
        'not started'). Never writes over a draft changed outside this window. True: the draft holds it."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        with self._lock:
            self._dirty_since = None
            text = self.text
            untouched = self._saved_text is None and text == self.starter
            if self._blocked or (text == self._saved_text and not self.conflict):
                return not self._blocked and self._saved_text is not None
            if untouched and not force:
                return False
            try:
                with store.draft_lock(self.key, wait=not quiet):
                    if self.conflict or store.disk_digest(self.key) != self._known_digest:
                        self._keep_copy(text, quiet)
                        return False
                    store.save_draft(self.key, text)
                    self._saved_text = text
                    self._known_digest = store.digest(text)
                    return True
            except IsADirectoryError:
                self._blocked = store.draft_is_blocked(self.key)
            except OSError as exc:
                store.files.report_unwritable(store.draft_path(self.key).parent, exc)
            if not quiet:
                self._show_notices()
            return False

    def _keep_copy(self, text: str, quiet: bool) -> None:
        """The draft is someone else's now: keep this window's text beside it and offer the other text."""
        first = not self.conflict
        self.conflict = True
        copy = store.conflict_copy_path(self.key, self.window_id)
        with contextlib.suppress(OSError):
            store.atomic_write(copy, text)
        if first and not quiet:
            self.host.notify(
                Notice("changed-outside", str(store.draft_path(self.key)), kept_in=str(copy)).text(
                    self._lang()
                ),
                severity="warning",
                timeout=30,
            )

    def check_outside(self) -> None:
        """A change made outside this window: loaded when this window has nothing unsaved, else offered."""
        if self.conflict or self._blocked or self._dirty_since is not None:
            return
        now = store.disk_digest(self.key)
        if now == self._known_digest:
            return
        if now is None:  # deleted outside (a reset in another window): the next save writes a new one
            self._known_digest = None
            return
        if self.text == (self._saved_text if self._saved_text is not None else self.starter):
            self.reload(announce=True)
        else:
            self._keep_copy(self.text, quiet=False)

    def reload(self, announce: bool = False) -> str | None:
        """Take the draft on disk as this window's text (F8, or a clean window). None: nothing to load."""
        text = store.load_draft(self.key)
        if text is None:
            return None
        with self._lock:
            self._saved_text = text
            self._known_digest = store.digest(text)
            self.text = text
            self.conflict = False
        self.host.editor.replace_text(text)
        if announce:
            self.host.notify(
                Notice("reloaded-outside", str(store.draft_path(self.key))).text(self._lang()), timeout=8
            )
        self._show_notices()
        return text

    def snapshot(self, text: str) -> Path:
        """This window's text in a private file: what verify/run/bench check is what the learner sees here,
        whatever another window does to the draft meanwhile."""
        if self._snapshot_dir is None:
            self._snapshot_dir = tempfile.mkdtemp(prefix="tritonlab-window-")  # 0700
        path = Path(self._snapshot_dir) / store.draft_path(self.key).name
        store.atomic_write(path, text)
        return path

    def _lang(self) -> str:
        return getattr(self.host.app, "lang", "en")

    def _show_notices(self) -> None:
        show = getattr(self.host.app, "show_store_notices", None)
        if show is not None:
            show()


# ---- signals -----------------------------------------------------------------------------------------


def flush_all() -> None:
    """Write every open window's latest text (for the signal handlers: no notices, no waiting on locks)."""
    for keeper in list(_keepers):
        with contextlib.suppress(Exception):
            keeper.flush(quiet=True)


def install_signal_handlers(app) -> Callable[[], None]:
    """SIGHUP, SIGTERM, SIGINT: flush the drafts first, then ask the app to exit; if the event loop is busy or
    the terminal is gone, the process ends after EXIT_GRACE anyway. Returns a function that restores the old
    handlers."""
    previous = {}

    def on_signal(signum, _frame) -> None:
        flush_all()
        code = 128 + signum
        timer = threading.Timer(EXIT_GRACE, os._exit, (code,))
        timer.daemon = True
        timer.start()
        try:
            loop = asyncio.get_running_loop()
            loop.call_soon_threadsafe(app.exit, None, code)
        except RuntimeError:  # not inside the loop (before it started, or after): just leave
            os._exit(code)

    for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
        previous[signum] = signal.signal(signum, on_signal)

    def restore() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    return restore
