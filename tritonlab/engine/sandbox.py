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
from typing import NamedTuple

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36

# What the runner may not inherit: anything that leads to the learner's drafts and progress, or to the lab.
SCRUBBED_PREFIXES = ("TRITONLAB_", "XDG_")
SCRUBBED_NAMES = ("HOME", "PWD", "OLDPWD", "PYTHONSTARTUP", "PYTHONPATH")
#: Kept although they match a prefix: where the lessons are (content, not the learner's data), and the
#: developer switch that gives an interpreter on a GPU box the CPU stand-in driver (interpreter_support).
KEPT_NAMES = ("TRITONLAB_LESSONS_DIR", "TRITONLAB_INTERP_DRIVER")

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


# ---- signals: a seccomp filter ---------------------------------------------------------------------------
#
# Same-user processes may signal each other: without this a learner's file could SIGKILL the judge or the
# app (`os.kill(judge_pid, SIGKILL)`). The filter answers EPERM to a signal sent to a process older than the
# runner (pids below its own: the app, the judge, the zygote, the learner's shell) or to another process
# group, and to ptrace, pidfd signals and the cross-process memory and fd calls. The runner's own children
# (pids above its own: multiprocessing, torch.compile's workers) can still be stopped, and signal 0 (an
# existence probe) always passes. Pids wrap around after pid_max (4 million on 64-bit Linux): "older" is a
# strong hint, not a proof. Built by hand (struct sock_filter) because libseccomp's bindings are not in the
# stack; best effort like the rest: an unknown architecture or a kernel without seccomp leaves the runner as
# it was, and `signals_guarded()` says which.

_BPF_LD_W_ABS = 0x20
_BPF_JEQ_K = 0x15
_BPF_JSET_K = 0x45
_BPF_JGE_K = 0x35
_BPF_RET_K = 0x06
_RET_ALLOW = 0x7FFF0000
_RET_EPERM = 0x00050000 | 1
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2


# audit arch, then syscall numbers: kill, rt_sigqueueinfo, tgkill, rt_tgsigqueueinfo, tkill, and always-denied
class _Abi(NamedTuple):
    arch: int  # AUDIT_ARCH_*
    by_pid: tuple[int, ...]  # kill(pid, sig), rt_sigqueueinfo(pid, sig, info)
    by_tgid: tuple[int, ...]  # tgkill(tgid, tid, sig), rt_tgsigqueueinfo(tgid, tid, sig, info)
    tkill: int
    denied: tuple[int, ...]  # ptrace, process_vm_readv, process_vm_writev, pidfd_send_signal, pidfd_getfd
    x32: bool  # x86_64's x32 numbers (nr | 0x40000000) reach the same calls


_SYSCALLS = {
    "x86_64": _Abi(0xC000003E, (62, 129), (234, 297), 200, (101, 310, 311, 424, 438), True),
    "aarch64": _Abi(0xC00000B7, (129, 138), (131, 240), 130, (117, 270, 271, 424, 438), False),
}

_guarded = False


def _arg_low(index: int) -> int:
    return (
        16 + 8 * index
    )  # struct seccomp_data: nr, arch, instruction_pointer, then args[6] (u64, little-endian)


def signal_filter(machine: str, pid: int) -> list[tuple[int, int, int, int]] | None:
    """The BPF program (code, jt, jf, k) for `machine`: `pid` may signal itself, its group and newer pids."""
    table = _SYSCALLS.get(machine)
    if table is None:
        return None
    own = pid & 0xFFFFFFFF
    own_group = (-pid) & 0xFFFFFFFF  # kill(-pgid): the runner leads its own group (setsid)
    prog: list[tuple[int, int, int, int]] = []

    def emit(code: int, jt: int, jf: int, k: int) -> int:
        prog.append((code, jt, jf, k))
        return len(prog) - 1

    # Blocks jumped to by label; jump offsets are patched once every block's position is known.
    jumps: list[tuple[int, str, str]] = []  # (instruction, label if true, label if false)
    labels: dict[str, int] = {}

    def jump(code: int, k: int, if_true: str, if_false: str) -> None:
        jumps.append((emit(code, 0, 0, k), if_true, if_false))

    emit(_BPF_LD_W_ABS, 0, 0, 4)  # arch
    jump(_BPF_JEQ_K, table.arch, "next0", "deny")  # another ABI (i386 on x86_64): a second way in
    labels["next0"] = len(prog)
    emit(_BPF_LD_W_ABS, 0, 0, 0)  # nr
    if table.x32:
        jump(_BPF_JSET_K, 0x40000000, "deny", "next1")  # the x32 ABI's numbers: a second way to call kill
        labels["next1"] = len(prog)
    for nr in table.by_pid:
        jump(_BPF_JEQ_K, nr, "check_pid", f"after_{nr}")
        labels[f"after_{nr}"] = len(prog)
    for nr in table.by_tgid:
        jump(_BPF_JEQ_K, nr, "check_tgid", f"after_{nr}")
        labels[f"after_{nr}"] = len(prog)
    jump(_BPF_JEQ_K, table.tkill, "check_tkill", "after_tkill")
    labels["after_tkill"] = len(prog)
    for nr in table.denied:
        jump(_BPF_JEQ_K, nr, "deny", f"after_d{nr}")
        labels[f"after_d{nr}"] = len(prog)
    emit(_BPF_RET_K, 0, 0, _RET_ALLOW)  # any other call
    # kill / rt_sigqueueinfo: signal 0, our group (0 or -pid), and pids from ours up pass
    labels["check_pid"] = emit(_BPF_LD_W_ABS, 0, 0, _arg_low(1))
    jump(_BPF_JEQ_K, 0, "allow", "pid1")
    labels["pid1"] = emit(_BPF_LD_W_ABS, 0, 0, _arg_low(0))
    jump(_BPF_JSET_K, 0x80000000, "group", "pid2")  # a negative pid names a process group
    labels["pid2"] = len(prog)
    jump(_BPF_JEQ_K, 0, "allow", "pid3")
    labels["pid3"] = len(prog)
    jump(_BPF_JGE_K, own, "allow", "deny")
    labels["group"] = len(prog)
    jump(_BPF_JEQ_K, own_group, "allow", "deny")
    # tgkill / rt_tgsigqueueinfo (tgid first, signal third) and tkill (tid, signal)
    labels["check_tgid"] = emit(_BPF_LD_W_ABS, 0, 0, _arg_low(2))
    jump(_BPF_JEQ_K, 0, "allow", "tg1")
    labels["tg1"] = emit(_BPF_LD_W_ABS, 0, 0, _arg_low(0))
    jump(_BPF_JGE_K, own, "allow", "deny")
    labels["check_tkill"] = emit(_BPF_LD_W_ABS, 0, 0, _arg_low(1))
    jump(_BPF_JEQ_K, 0, "allow", "tk1")
    labels["tk1"] = emit(_BPF_LD_W_ABS, 0, 0, _arg_low(0))
    jump(_BPF_JGE_K, own, "allow", "deny")
    labels["allow"] = emit(_BPF_RET_K, 0, 0, _RET_ALLOW)  # BPF jumps only forward: the verdicts come last
    labels["deny"] = emit(_BPF_RET_K, 0, 0, _RET_EPERM)
    for at, if_true, if_false in jumps:
        code, _jt, _jf, k = prog[at]
        jt, jf = labels[if_true] - at - 1, labels[if_false] - at - 1
        if not (0 <= jt < 256 and 0 <= jf < 256):
            raise ValueError("seccomp jump out of range")
        prog[at] = (code, jt, jf, k)
    return prog


def guard_signals() -> bool:
    """Install the signal filter on this process and everything it forks from now on; returns whether it is
    on."""
    global _guarded
    import platform

    prog = signal_filter(platform.machine(), os.getpid())
    if prog is None:
        return False

    class SockFilter(ctypes.Structure):
        _fields_ = [
            ("code", ctypes.c_ushort),
            ("jt", ctypes.c_ubyte),
            ("jf", ctypes.c_ubyte),
            ("k", ctypes.c_uint),
        ]

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]

    filters = (SockFilter * len(prog))(*[SockFilter(*ins) for ins in prog])
    fprog = SockFprog(len(prog), ctypes.cast(filters, ctypes.POINTER(SockFilter)))
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), 0, 0, 0) != 0:
            return False
        ok = libc.prctl(_PR_SET_SECCOMP, ctypes.c_ulong(_SECCOMP_MODE_FILTER), ctypes.byref(fprog), 0, 0) == 0
    except (OSError, AttributeError):
        return False
    _guarded = _guarded or ok
    return ok


def signals_guarded() -> bool:
    return _guarded


# ---- files: Landlock ---------------------------------------------------------------------------------------
#
# The runner gets no path to the learner's data (HOME and XDG_* point to its own folder, TRITONLAB_* is
# gone), but the default place (~/.local/share/tritonlab) can be guessed, and the progress seal's secret
# lives there. Landlock (Linux >= 5.19 for the rename right this needs) lets an unprivileged process give up
# access to parts of the file system: the runner keeps every right everywhere except inside the hidden
# paths, where it can only list names. Rules can only grant, so "everything but P" is built by granting each
# sibling of every folder on the way down to P; folders on that way are listable only (no new files directly
# in them). Best effort, like the rest: an older kernel leaves the runner as it was, and `files_hidden()`
# says which.

_LL_CREATE_RULESET, _LL_ADD_RULE, _LL_RESTRICT_SELF = 444, 445, 446  # the same number on every architecture
_LL_RULE_PATH_BENEATH = 1
_LL_VERSION = 1 << 0  # landlock_create_ruleset flag: ask the ABI version
_FS_EXECUTE, _FS_WRITE_FILE, _FS_READ_FILE, _FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_REFER, _FS_TRUNCATE = 1 << 13, 1 << 14
_FS_FILE_ONLY = _FS_EXECUTE | _FS_WRITE_FILE | _FS_READ_FILE | _FS_TRUNCATE

_hidden = False


def _landlock_abi(libc) -> int:
    abi = libc.syscall(_LL_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_LL_VERSION))
    return abi if isinstance(abi, int) and abi > 0 else 0


def landlock_rules(folder: str, keep: tuple[str, ...] = ()) -> list[tuple[str, bool]]:
    """(path, full) rules that leave `folder` listable only, except its entries named in `keep`: each folder
    from / down to it is listable only (full=False: READ_DIR, inherited everywhere, so no new file directly in
    them), every other entry of those folders gets all rights (full=True). A folder that does not exist yet is
    hidden all the same (its parent cannot create it)."""
    target = os.path.realpath(folder)
    chain = [target]
    while os.path.dirname(chain[-1]) != chain[-1]:
        chain.append(os.path.dirname(chain[-1]))
    on_chain = set(chain)
    rules: list[tuple[str, bool]] = [("/", False)]
    for current in reversed(chain):
        try:
            entries = os.listdir(current)
        except OSError:
            continue
        for name in entries:
            entry = os.path.join(current, name)
            if os.path.islink(entry):
                # a rule opens what a link points to (pytest's `pytest-current` -> the folder above a hidden
                # one would grant it all); paths through a link are judged where they lead: no rule needed
                continue
            if current == target:
                if name in keep:
                    rules.append((entry, True))
            elif entry not in on_chain:
                rules.append((entry, True))
    return rules


def hide_folder(folder: str | None, keep: tuple[str, ...] = ()) -> bool:
    """Give up every file right inside `folder` but its `keep` entries (listing names excepted), for this
    process and its children."""
    global _hidden

    class RulesetAttr(ctypes.Structure):
        _fields_ = [("handled_access_fs", ctypes.c_uint64)]

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    if not folder or not hasattr(os, "O_PATH"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        abi = _landlock_abi(libc)
        if abi < 2:  # without REFER, every rename across folders (Triton's cache writes) would be refused
            return False
        handled = (1 << 13) - 1 | _FS_REFER | (_FS_TRUNCATE if abi >= 3 else 0)
        attr = RulesetAttr(handled)
        ruleset = libc.syscall(
            _LL_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0
        )
        if ruleset < 0:
            return False
        try:
            for path, full in landlock_rules(folder, keep):
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue
                try:
                    is_dir = os.path.isdir(path)
                    allowed = (handled if is_dir else handled & _FS_FILE_ONLY) if full else _FS_READ_DIR
                    if not is_dir and not full:
                        continue
                    rule = PathBeneath(allowed, fd)
                    libc.syscall(_LL_ADD_RULE, ruleset, _LL_RULE_PATH_BENEATH, ctypes.byref(rule), 0)
                finally:
                    os.close(fd)
            if libc.prctl(_PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), 0, 0, 0) != 0:
                return False
            ok = libc.syscall(_LL_RESTRICT_SELF, ruleset, 0) == 0
        finally:
            os.close(ruleset)
    except (OSError, AttributeError):
        return False
    _hidden = _hidden or ok
    return ok


def files_hidden() -> bool:
    return _hidden


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
