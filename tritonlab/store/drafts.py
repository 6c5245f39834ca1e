"""Drafts: one file per exercise under drafts/<lesson>/<exercise>.py, plus what the app needs to share them
safely between windows (a marker per open window, a lock around check-then-write, a digest of the content)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

from tritonlab.store.files import atomic_write, data_dir, private_dir, set_aside
from tritonlab.store.notices import Notice, report


def draft_path(exercise_key: str) -> Path:
    lesson_id, _, exercise_id = exercise_key.partition("/")
    return data_dir() / "drafts" / lesson_id / f"{exercise_id}.py"


def draft_is_blocked(exercise_key: str) -> bool:
    """A draft path that exists but is not a file (a folder): reported, and never replaced."""
    path = draft_path(exercise_key)
    if path.exists() and not path.is_file():
        report(Notice("draft-not-a-file", str(path)))
        return True
    return False


def load_draft(exercise_key: str) -> str | None:
    """The saved draft, or None (none, a folder in its place, or unreadable: the last two are reported)."""
    path = draft_path(exercise_key)
    if draft_is_blocked(exercise_key):
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        set_aside(path, "not-utf8", "draft")
    except OSError as exc:
        set_aside(path, "unreadable", "draft", detail=exc.strerror or str(exc))
    return None


def save_draft(exercise_key: str, code: str) -> Path:
    """Atomic; raises OSError (read-only or full disk, a folder in its place) for the caller to report."""
    path = draft_path(exercise_key)
    atomic_write(path, code)
    return path


def delete_draft(exercise_key: str) -> None:
    try:
        draft_path(exercise_key).unlink()
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        draft_is_blocked(exercise_key)


def digest(data: bytes | str | None) -> str | None:
    if data is None:
        return None
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def disk_digest(exercise_key: str) -> str | None:
    """The digest of the draft as it is on disk now (None: no draft file)."""
    try:
        return digest(draft_path(exercise_key).read_bytes())
    except OSError:
        return None


@contextlib.contextmanager
def draft_lock(exercise_key: str, wait: bool = True) -> Iterator[bool]:
    """Hold an advisory lock so that "is the draft still what I loaded?" and the write are one step between
    windows. Yields False when the lock could not be had (read-only home, or `wait=False` and it is held)."""
    path = draft_path(exercise_key)
    lock = path.with_name(f".{path.name}.lock")
    try:
        private_dir(path.parent)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except OSError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


# ---- windows open on one exercise ---------------------------------------------------------------------


def _marker_glob(exercise_key: str) -> tuple[Path, str]:
    path = draft_path(exercise_key)
    return path.parent, f".{path.name}.open-"


def open_window(exercise_key: str, window_id: str) -> Path | None:
    """Leave a marker `.<exercise>.py.open-<pid>-<window>` while this window has the exercise open."""
    folder, prefix = _marker_glob(exercise_key)
    marker = folder / f"{prefix}{os.getpid()}-{window_id}"
    try:
        private_dir(folder)
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT, 0o600))
    except OSError:
        return None
    return marker


def other_windows(exercise_key: str, window_id: str) -> list[int]:
    """Pids of the other live windows on this exercise; markers of dead processes (kill -9) are removed."""
    folder, prefix = _marker_glob(exercise_key)
    pids = []
    try:
        names = [p.name for p in folder.iterdir() if p.name.startswith(prefix)]
    except OSError:
        return []
    for name in names:
        pid_text, _, window = name[len(prefix) :].partition("-")
        if not pid_text.isdigit() or window == window_id:
            continue
        pid = int(pid_text)
        if _alive(pid):
            pids.append(pid)
        else:
            with contextlib.suppress(OSError):
                (folder / name).unlink()
    return pids


def close_window(marker: Path | None) -> None:
    if marker is not None:
        with contextlib.suppress(OSError):
            marker.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def conflict_copy_path(exercise_key: str, window_id: str) -> Path:
    """Where a window keeps its text while the draft holds a change made outside it."""
    path = draft_path(exercise_key)
    return path.with_name(f"{path.stem}.window-{os.getpid()}-{window_id}.py")
