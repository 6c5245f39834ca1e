"""The draft keeper's timing, with a fake clock: a save comes at most MAX_WAIT after the first unsaved key."""

from __future__ import annotations

import pytest

from tritonlab import store
from tritonlab.app import drafts

KEY = "05-vector-add/add"


class FakeTimer:
    def __init__(self, at, callback):
        self.at, self.callback, self.stopped = at, callback, False

    def stop(self):
        self.stopped = True


class FakeHost:
    """The screen's surface the keeper uses: timers and notices."""

    def __init__(self, clock):
        self.clock, self.timers, self.messages = clock, [], []
        self.app = self

    def set_timer(self, delay, callback):
        assert delay > 0  # Textual's Timer divides by its delay
        timer = FakeTimer(self.clock[0] + delay, callback)
        self.timers.append(timer)
        return timer

    def set_interval(self, delay, callback):
        return FakeTimer(self.clock[0] + delay, callback)

    def notify(self, message, **kwargs):
        self.messages.append(message)

    def run_due(self):
        for timer in list(self.timers):
            if not timer.stopped and timer.at <= self.clock[0]:
                timer.stopped = True
                timer.callback()


def test_continuous_typing_is_saved_every_max_wait(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(drafts.time, "monotonic", lambda: clock[0])
    host = FakeHost(clock)
    keeper = drafts.DraftKeeper(host, KEY, "starter\n")
    keeper.load()
    saves = []
    typed = ""
    for _ in range(50):  # a key every 0.1 s for 5 s: never a pause as long as DEBOUNCE
        typed += "k"
        keeper.changed(typed + "starter\n")
        clock[0] += 0.1
        host.run_due()
        on_disk = store.load_draft(KEY) or ""
        if not saves or on_disk != saves[-1][1]:
            saves.append((clock[0], on_disk))
    gaps = [b[0] - a[0] for a, b in zip(saves, saves[1:], strict=False)]
    assert len(saves) >= 5 and max(gaps) <= drafts.MAX_WAIT + 0.1 + 1e-9, gaps
    keeper.close()


def test_a_pause_saves_after_the_debounce_and_an_overdue_change_saves_at_once(monkeypatch):
    clock = [50.0]
    monkeypatch.setattr(drafts.time, "monotonic", lambda: clock[0])
    host = FakeHost(clock)
    keeper = drafts.DraftKeeper(host, KEY, "starter\n")
    keeper.load()
    keeper.changed("a")
    assert host.timers[-1].at - clock[0] == pytest.approx(drafts.DEBOUNCE)
    clock[0] += drafts.MAX_WAIT + 0.5  # the loop was busy: the timer has not run
    keeper.changed("ab")
    assert store.load_draft(KEY) == "ab"  # overdue: saved within the change, no zero-delay timer
    keeper.close()


def test_the_untouched_starter_is_not_saved_and_a_signal_flush_writes_the_last_change():
    host = FakeHost([0.0])
    keeper = drafts.DraftKeeper(host, KEY, "starter\n")
    keeper.load()
    keeper.flush()
    assert store.load_draft(KEY) is None
    keeper.text = "latest\n"  # what `changed` keeps current
    drafts.flush_all()
    assert store.load_draft(KEY) == "latest\n"
    keeper.close()
    assert not [p for p in store.draft_path(KEY).parent.iterdir() if ".open-" in p.name]  # marker removed
