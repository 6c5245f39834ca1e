"""The data directory and the safe ways to read and write files in it.

Folders are 0700 and files 0600: on a shared GPU server, another user must not be able to list what a learner
worked on. A file that cannot be used is set aside (renamed `*.corrupt-<time>`) and reported, never raised; a
folder that cannot be written is reported once and the lab keeps working.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tritonlab.store.notices import Notice, report

PRIVATE_DIR = 0o700


def data_dir() -> Path:
    """`$TRITONLAB_HOME` when set, else platformdirs' user data dir. Never raises: an unwritable place is
    reported (the lab still runs; drafts and progress just cannot be saved)."""
    path = _data_path()
    try:
        private_dir(path)
    except OSError as exc:
        report_unwritable(path, exc)
    return path


def _data_path() -> Path:
    home = os.environ.get("TRITONLAB_HOME")
    if home:
        path = Path(home).expanduser()
    else:
        try:
            from platformdirs import user_data_dir

            path = Path(user_data_dir("tritonlab", appauthor=False))
        except ImportError:  # the engine can run without the UI's dependencies (e.g. on a bare GPU image)
            base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
            path = Path(base) / "tritonlab"
    return path


def cache_dir() -> Path:
    """A private (0700) cache folder: `$TRITONLAB_HOME/cache` when set, else platformdirs' user cache dir.
    For the kernel worker's compile cache (TRITON_CACHE_DIR): compiled kernels show what a learner worked on.
    Falls back to a fresh private temp folder when neither can be created."""
    home = os.environ.get("TRITONLAB_HOME")
    if home:
        path = Path(home).expanduser() / "cache"
    else:
        try:
            from platformdirs import user_cache_dir

            path = Path(user_cache_dir("tritonlab", appauthor=False))
        except ImportError:
            base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
            path = Path(base) / "tritonlab"
    try:
        return private_dir(path)
    except OSError:
        return Path(tempfile.mkdtemp(prefix="tritonlab-cache-"))


def private_dir(path: Path) -> Path:
    """Create `path` (and missing parents) as 0700; an existing one of ours loses its group/other bits."""
    if not path.is_dir():
        path.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    info = path.stat()
    if info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(path, stat.S_IMODE(info.st_mode) & 0o700)  # only take from others: a chosen 0500 stays
    return path


def _private_parents(path: Path) -> None:
    """Make the folders between the data dir and `path` (drafts/<lesson>) private too."""
    root = _data_path()
    try:
        parts = path.parent.relative_to(root).parts
        private_dir(root)
    except ValueError:
        path.parent.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
        return
    current = root
    for part in parts:
        current = current / part
        private_dir(current)


def tighten(path: Path) -> None:
    """A file of ours readable by others (written by an older version, or set aside) becomes 0600."""
    try:
        info = path.lstat()
        if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) & 0o077:
            os.chmod(path, 0o600)
    except OSError:
        pass


def report_unwritable(path: Path, exc: OSError) -> None:
    report(Notice("cannot-save", str(path), reason="unwritable", detail=exc.strerror or str(exc)))


def atomic_write(path: Path, text: str) -> None:
    """Temp file (0600) in the same folder, flush, fsync, os.replace: a crash leaves the old or the new file.

    Raises OSError (read-only, disk full, a folder where the file belongs); callers that carry on report it.
    """
    _private_parents(path)
    if path.is_dir():  # os.replace would fail anyway; say what is wrong rather than "Is a directory: tmp"
        raise IsADirectoryError(errno.EISDIR, "a folder is where the file belongs", str(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def set_aside(path: Path, reason: str, lost: str, detail: str = "", kind: str = "set-aside") -> Path | None:
    """Rename an unusable file out of the way (kept, never deleted); report what was lost and where it is."""
    target = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}-{n}")
    try:
        os.replace(path, target)
        tighten(target)
    except OSError as exc:
        report(
            Notice("not-set-aside", str(path), reason=reason, detail=detail or exc.strerror or "", lost=lost)
        )
        return None
    report(Notice(kind, str(path), reason=reason, detail=detail, lost=lost, moved_to=str(target)))
    return target


def read_json(
    name: str,
    default: dict,
    lost: str = "file",
    check: Callable[[dict], tuple[dict, list[str]]] | None = None,
) -> dict:
    """The JSON object in `name` under the data dir, or a copy of `default` when it is missing or unusable.

    `check(value) -> (kept, dropped)` repairs a wrongly-shaped object: when anything is dropped, the old file
    is set aside and the repaired one written back, so what was kept survives and what was lost is reported.
    """
    path = data_dir() / name
    try:
        raw = path.read_bytes()
        tighten(path)
    except FileNotFoundError:
        return dict(default)
    except IsADirectoryError:
        set_aside(path, "is-a-directory", lost)
        return dict(default)
    except OSError as exc:
        set_aside(path, "unreadable", lost, detail=exc.strerror or str(exc))
        return dict(default)
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        set_aside(path, "not-utf8", lost)
        return dict(default)
    except ValueError:
        set_aside(path, "not-json", lost)
        return dict(default)
    if not isinstance(value, dict):
        set_aside(path, "wrong-shape", lost)
        return dict(default)
    if check is None:
        return value
    kept, dropped = check(value)
    if dropped:
        if dropped == ["*"]:
            set_aside(path, "wrong-shape", lost)
            return dict(default)
        if set_aside(path, "wrong-shape", ", ".join(dropped), kind="entries-dropped") is not None:
            write_json(name, kept)
    return kept


def write_json(name: str, value: dict) -> bool:
    """Write atomically; False (and a notice, once) when the data dir cannot be written."""
    path = data_dir() / name
    try:
        atomic_write(path, json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))
    except OSError as exc:
        if isinstance(exc, IsADirectoryError):
            set_aside(path, "is-a-directory", "file")
            try:
                atomic_write(path, json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))
                return True
            except OSError as again:
                exc = again
        report_unwritable(path.parent, exc)
        return False
    return True
