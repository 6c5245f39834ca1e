"""Nothing typed is lost, nothing is silently overwritten (issue #14, drafts).

- Pilot: continuous typing reaches the disk while the typing goes on; two windows on one exercise; a read-only
  home; a folder in the draft's place.
- A real process in a pty: kill -9, SIGHUP and SIGTERM while keys arrive continuously.
Every wait polls a condition with a generous deadline; no sleep is an assertion.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest
from app_helpers import ROOT, FakeClient, fixture_catalog, settle

from tritonlab import store
from tritonlab.app import drafts
from tritonlab.app.app import TritonLabApp
from tritonlab.app.widgets.editor import CodeEditor

KEY = "05-vector-add/add"
PASSED = {
    "exercise": KEY,
    "backend": "interpreter",
    "passed": True,
    "error": None,
    "summary": "ok",
    "cases": [],
}


def make_app(client=None) -> TritonLabApp:
    return TritonLabApp(
        exercise_ref="5/add",
        lang="en",
        backend="interpreter",
        client=client or FakeClient(results={"verify": PASSED}),
        catalog=fixture_catalog(),
    )


async def until(pilot, condition, timeout: float = 20.0, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        await pilot.pause(step)
    return condition()


def draft_text() -> str:
    try:
        return store.draft_path(KEY).read_text(encoding="utf-8")
    except OSError:
        return ""


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


@pytest.fixture(autouse=True)
def fresh_notices():
    store.forget_notices()
    yield
    store.forget_notices()


# ---- Pilot -------------------------------------------------------------------------------------------


def test_continuous_typing_is_saved_while_it_goes_on():
    """The old debounce restarted its wait on every key: under continuous typing nothing was ever saved."""

    async def main():
        app = make_app()
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            editor = app.screen.query_one(CodeEditor)
            editor.move_cursor((0, 0))
            typed, seen_while_typing = "", []
            started = time.monotonic()
            while time.monotonic() - started < 3.0:  # a key every 0.1 s: never a pause of DEBOUNCE
                await pilot.press("k")
                typed += "k"
                await pilot.pause(0.1)
                on_disk = draft_text()
                seen_while_typing.append(len(on_disk) - len(on_disk.lstrip("k")))
            assert max(seen_while_typing) >= len(typed) - 15, seen_while_typing  # saved during the typing
            assert await until(pilot, lambda: draft_text().startswith(typed + '"""'))

    asyncio.run(main())


def test_two_windows_on_one_exercise_never_overwrite_each_other(monkeypatch):
    monkeypatch.setattr(drafts, "POLL", 3600.0)  # the test calls check_outside itself, in a known order

    async def main():
        first, second = make_app(), make_app()
        async with first.run_test(size=(120, 36)) as one:
            await settle(one)
            async with second.run_test(size=(120, 36)) as two:
                await settle(two)
                # the second window says the exercise is open elsewhere; the first, opened alone, did not
                assert any("also open in another TritonLab window" in m for m in notices(second))
                assert not any("another TritonLab window" in m for m in notices(first))
                ed1, ed2 = first.screen.query_one(CodeEditor), second.screen.query_one(CodeEditor)
                keeper1, keeper2 = first.screen.drafts, second.screen.drafts

                # window 1 types; window 2 has nothing unsaved, so it loads the change
                ed1.move_cursor((0, 0))
                await one.press(*"one", "enter")
                assert await until(one, lambda: draft_text().startswith("one\n"))
                second.call_later(keeper2.check_outside)  # in that app's own context, as its poll would
                await two.pause()
                assert ed2.text.startswith("one\n")
                assert any("has been loaded" in m for m in notices(second))

                # window 2 saves on top of what it loaded; window 1, which has not seen that, must not
                ed2.move_cursor((0, 0))
                await two.press(*"two", "enter")
                assert await until(two, lambda: draft_text().startswith("two\none\n"))
                ed1.move_cursor((0, 0))
                await one.press(*"1b", "enter")
                assert await until(one, lambda: keeper1.conflict)  # its own timed save found the change
                assert draft_text().startswith("two\none\n")  # not overwritten
                assert keeper1.conflict and not keeper2.conflict
                copy = store.conflict_copy_path(KEY, keeper1.window_id)
                # the timed save can find the conflict between two key presses ("1", then "b"): each later
                # save writes the copy again, so wait for the one after the last key (CI, 2026-12-04)
                assert ed1.text.startswith("1b\none\n")
                assert await until(
                    one, lambda: copy.exists() and copy.read_text(encoding="utf-8") == ed1.text
                )
                assert any("changed outside this window" in m and str(copy) in m for m in notices(first))

                # verify in window 1 checks what window 1 shows, not the draft on disk
                await one.press("f6")
                await settle(one)
                op, args = first.lab.client.requests[-1]
                assert op == "verify" and Path(args["file"]).read_text(encoding="utf-8") == ed1.text

                # F8 takes the other window's text; saving resumes
                await one.press("f8")
                await one.pause()
                assert ed1.text == draft_text() and not keeper1.conflict
                ed1.move_cursor((0, 0))
                await one.press(*"ok")
                assert await until(one, lambda: draft_text().startswith("oktwo\n"))

    asyncio.run(main())


def test_an_edit_made_outside_is_offered_not_overwritten_when_the_window_has_unsaved_text():
    async def main():
        app = make_app()
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            editor, keeper = app.screen.query_one(CodeEditor), app.screen.drafts
            editor.move_cursor((0, 0))
            await pilot.press(*"mine", "enter")
            assert await until(pilot, lambda: draft_text().startswith("mine\n"))
            store.save_draft(KEY, "from vim\n")  # another program changes the draft
            await pilot.press("x")
            assert await until(pilot, lambda: keeper.conflict)
            assert draft_text() == "from vim\n"
            assert keeper.conflict and editor.text.startswith("mine\nx")
            assert store.conflict_copy_path(KEY, keeper.window_id).read_text(encoding="utf-8") == editor.text
            assert any("changed outside this window" in m for m in notices(app))

    asyncio.run(main())


def test_a_read_only_home_still_opens_and_verifies_and_says_saving_is_off(tmp_path, monkeypatch):
    if os.geteuid() == 0:
        home = "/proc/1"  # root can write anywhere else
    else:
        home = tmp_path / "ro"
        home.mkdir()
        home.chmod(0o500)
    monkeypatch.setenv("TRITONLAB_HOME", str(home))

    async def main():
        app = make_app()
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            editor = app.screen.query_one(CodeEditor)
            editor.move_cursor((0, 0))
            await pilot.press(*"ro", "enter")
            assert await until(pilot, lambda: any("cannot be saved" in m for m in notices(app)))
            await pilot.press("f6")
            await settle(pilot)
            op, args = app.lab.client.requests[-1]
            assert op == "verify" and Path(args["file"]).read_text(encoding="utf-8").startswith("ro\n")
            assert app.screen.editor.text.startswith("ro\n")

    asyncio.run(main())


def test_a_folder_where_the_draft_belongs_is_reported_and_kept():
    folder = store.draft_path(KEY)
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("keep me", encoding="utf-8")

    async def main():
        app = make_app()
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            assert any("is not a file" in m for m in notices(app))
            await pilot.press(*"typed")
            await pilot.pause(1.2)
            await pilot.press("f6")
            await settle(pilot)
            assert (
                Path(app.lab.client.requests[-1][1]["file"]).read_text(encoding="utf-8").startswith("typed")
            )

    asyncio.run(main())
    assert folder.is_dir() and (folder / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_the_signal_flush_writes_the_latest_text_without_the_event_loop():
    """What the handler calls: every open window's text as of its last change, even with a save pending."""

    async def main():
        app = make_app()
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            app.screen.query_one(CodeEditor).move_cursor((0, 0))
            await pilot.press(*"zz")  # a save is scheduled, not yet done
            assert not draft_text().startswith("zz")
            drafts.flush_all()
            assert draft_text().startswith("zz")

    asyncio.run(main())


# ---- a real process in a pty -------------------------------------------------------------------------

ALPHABET = "abcdefghijklmnopqrstuvwxyz"


class PtyApp:
    """`tritonlab open 5/add` in a pseudo-terminal of 120×36, its screen output drained by a thread."""

    def __init__(self, home) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
        env = dict(os.environ, TRITONLAB_HOME=str(home), TERM="xterm-256color")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tritonlab", "--lang", "en", "open", "5/add", "--backend", "interpreter"],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=ROOT,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.screen = bytearray()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.screen.extend(chunk)

    def wait_for(self, condition, timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.02)
        return condition()

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(30)
        os.close(self.master)


def typed_prefix(path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return ""
    return text[: len(text) - len(text.lstrip(ALPHABET + "XYZ"))]


@pytest.mark.parametrize(
    "signum",
    [signal.SIGKILL, signal.SIGHUP, signal.SIGTERM, signal.SIGINT],
    ids=["kill-9", "hup", "term", "int"],
)
def test_keys_typed_more_than_a_second_before_a_kill_are_in_the_draft(tmp_path, signum):
    home = tmp_path / "home"
    draft = home / "drafts" / "05-vector-add" / "add.py"
    app = PtyApp(home)
    try:
        assert app.wait_for(lambda: b"Vector" in app.screen), bytes(app.screen[-2000:])
        # the worker's start (import torch) is seconds of CPU: type once it is done, as a learner would
        assert app.wait_for(lambda: b"GPU timings" in app.screen, timeout=120), bytes(app.screen[-2000:])
        app.type("a")  # the editor has the focus and saves: the app is ready
        assert app.wait_for(lambda: typed_prefix(draft) == "a")
        sent, times = "a", []
        started = time.monotonic()
        while time.monotonic() - started < 4.0:  # a key every 0.1 s, no pause
            key = ALPHABET[len(sent) % 26]
            app.type(key)
            sent += key
            times.append(time.monotonic())
            time.sleep(0.1)
        if signum != signal.SIGKILL:
            # a burst the app has drawn but whose save is still pending: only the signal's flush can keep it
            app.type("XYZ")
            sent += "XYZ"
            times.append(time.monotonic())
            assert app.wait_for(lambda: b"XYZ" in app.screen[-20000:], timeout=20)
        killed_at = time.monotonic()
        os.kill(app.process.pid, signum)
        app.process.wait(30)
        on_disk = typed_prefix(draft)
        due = 1 + sum(1 for t in times if t < killed_at - 1.0)
        assert sent.startswith(on_disk), (on_disk, sent)
        assert len(on_disk) >= due, (len(on_disk), due, len(sent))
        if signum != signal.SIGKILL:
            assert on_disk == sent
            assert app.process.returncode in (128 + signum, -signum)
    finally:
        app.close()
