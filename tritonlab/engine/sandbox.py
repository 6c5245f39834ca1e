"""Confinement for the untrusted runner: limits, a scrubbed environment, process-tree cleanup, capped output.

No torch, no triton: the client (UI process) imports `strip_control` from here, and the judge uses the rest
before and after each runner. Everything is best effort on Linux and a no-op elsewhere, because a missing
prctl must never stop a learner from verifying; what each call could not do is simply not promised.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import threading
import time
from collections.abc import Mapping

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36

# What the runner may not inherit: anything that leads to the learner's drafts and progress, or to the lab.
SCRUBBED_PREFIXES = ("TRITONLAB_", "XDG_")
SCRUBBED_NAMES = ("HOME", "PWD", "OLDPWD", "PYTHONSTARTUP", "PYTHONPATH")
#: Kept although they match a prefix: where the lessons are (content, not the learner's data).
KEPT_NAMES = ("TRITONLAB_LESSONS_DIR",)

OUTPUT_HEAD = 64 * 1024  # what the client shows (and cuts with a note)
OUTPUT_TAIL = 16 * 1024  # the end, kept apart: a faulthandler dump lands there even after a flood

# CSI (ESC [ … final), OSC (ESC ] … BEL or ST), other two-byte escapes, 8-bit CSI, and C0 controls except
# tab and newline: enough for a learner's print() never to move the cursor, recolour, retitle or hide text.
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[@-Z\\-_]?"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|[\x00-\x08\x0b-\x1f\x7f]"
)


def strip_control(text: str) -> str:
    """Learner output made safe to show in a terminal: escape sequences and control characters removed
    (a carriage return becomes a newline, so "\\rPASSED" cannot overwrite a line)."""
    if not text:
        return text
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


# ---- prctl ------------------------------------------------------------------------------------------------


def _prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Orphans of our descendants (a learner's `setsid` grandchild) are re-parented to us, so we can kill
    them."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def forbid_inspection() -> bool:
    """Same-user processes can no longer ptrace us or open /proc/<pid>/{mem,fd/*,environ}: a runner cannot
    reach into the judge's memory or write into the pipes of the judge or the app."""
    return _prctl(PR_SET_DUMPABLE, 0)


def die_with_parent() -> bool:
    """SIGKILL when the process that forked us dies (call in the child, from the parent's main thread)."""
    return _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


# ---- environment and limits
# ----------------------------------------------------------------------------------


def scrubbed_env(env: Mapping[str, str], home: str) -> dict:
    """The runner's environment: no path to the lab's data, HOME and TMPDIR in its private directory."""
    clean = {
        k: v
        for k, v in env.items()
        if k in KEPT_NAMES or (not k.startswith(SCRUBBED_PREFIXES) and k not in SCRUBBED_NAMES)
    }
    clean.update(
        HOME=home,
        TMPDIR=home,
        TMP=home,
        TEMP=home,
        XDG_DATA_HOME=home,
        XDG_CONFIG_HOME=home,
        XDG_CACHE_HOME=home,
    )
    return clean


def limit_resources(
    *, address_space: int | None, cpu_seconds: float | None, file_size: int | None
) -> list[str]:
    """Lower soft and hard limits together (the learner cannot raise them again); returns what was set."""
    import resource

    done = []
    wanted = [
        (resource.RLIMIT_AS, address_space, "address space"),
        (resource.RLIMIT_FSIZE, file_size, "file size"),
    ]
    if cpu_seconds is not None:
        used = resource.getrusage(resource.RUSAGE_SELF)
        spent = used.ru_utime + used.ru_stime
        wanted.append((resource.RLIMIT_CPU, int(spent + cpu_seconds) + 1, "cpu"))
    for which, value, name in wanted:
        if value is None:
            continue
        try:
            _soft, hard = resource.getrlimit(which)
            value = int(value) if hard == resource.RLIM_INFINITY else min(int(value), hard)
            hard_value = value + 2 if which == resource.RLIMIT_CPU else value  # SIGXCPU first, then SIGKILL
            if hard != resource.RLIM_INFINITY:
                hard_value = min(hard_value, hard)
            resource.setrlimit(which, (value, hard_value))
            done.append(name)
        except (ValueError, OSError):
            pass
    return done


# ---- process trees ----------------------------------------------------------------------------------------


def _parents() -> dict[int, int]:
    table = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read().decode("utf-8", "replace")
            table[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return table


def descendants(root: int, exclude: set[int] | frozenset = frozenset()) -> set[int]:
    """Every living process below `root`, except the subtrees rooted at `exclude`."""
    parents = _parents()
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    pending = [p for p in children.get(root, []) if p not in exclude]
    while pending:
        pid = pending.pop()
        if pid in found or pid in exclude:
            continue
        found.add(pid)
        pending.extend(children.get(pid, []))
    return found


def kill_tree(pids: set[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def reap(pids: set[int]) -> None:
    """Collect the exit status of our own (re-parented) children so they do not linger as zombies."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def clean_below(root: int, keep: set[int], rounds: int = 20) -> int:
    """Kill everything below `root` but the `keep` subtrees until nothing is left (an orphan's children are
    re-parented to the subreaper while we work, hence the rounds). Returns how many processes were killed."""
    killed = 0
    for _ in range(rounds):
        left = descendants(root, exclude=keep)
        if not left:
            return killed
        killed += len(left)
        kill_tree(left)
        time.sleep(0.01)
        reap(left)
    return killed


# ---- output
# --------------------------------------------------------------------------------------------------


class CappedOutput:
    """Drains a pipe in a thread and keeps only its first OUTPUT_HEAD and last OUTPUT_TAIL bytes: a learner's
    flood costs neither memory nor disk, and never blocks on a full pipe."""

    def __init__(self, fd: int):
        self.fd = fd
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self._thread = threading.Thread(target=self._drain, name="tritonlab-runner-output", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.total += len(chunk)
            room = OUTPUT_HEAD - len(self.head)
            if room > 0:
                self.head += chunk[:room]
                chunk = chunk[room:]
            if chunk:
                self.tail += chunk
                if len(self.tail) > OUTPUT_TAIL:
                    del self.tail[: len(self.tail) - OUTPUT_TAIL]
        with contextlib.suppress(OSError):
            os.close(self.fd)

    def tail_text(self) -> str:
        return bytes(self.head[-OUTPUT_TAIL:] if not self.tail else self.tail).decode("utf-8", "replace")

    def finish(self, timeout: float = 2.0) -> bytes:
        """Everything kept, once the writers are gone (head, a cut marker, tail)."""
        self._thread.join(timeout)
        if self.total <= OUTPUT_HEAD:
            return bytes(self.head)
        cut = self.total - len(self.head) - len(self.tail)
        marker = f"\n… {cut} bytes of output not kept …\n".encode() if cut > 0 else b""
        return bytes(self.head) + marker + bytes(self.tail)
