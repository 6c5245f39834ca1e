"""Facts from a CUDA out-of-memory error: how much was asked for, how much was free, what others held.

A GPU server is often shared: another user's job can hold most of the GPU's memory, and then a verify that
needs a few hundred MiB fails. The learner must read that as "the GPU is full", not as a fault of their kernel
(or of the lab). torch's message carries the numbers (`Tried to allocate 250.00 MiB. GPU 0 has a
total capacity of 79.18 GiB of which 59.88 MiB is free. Process 573 has 8.79 GiB memory in use. ... this
process has 2.10 GiB memory in use`); this module reads them. No torch import: the judge and the runner call
it on whatever they caught."""

from __future__ import annotations

import re

from tritonlab.engine.protocol import error

_UNITS = {"bytes": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
_SIZE = r"([0-9][0-9.]*) (bytes|B|KiB|MiB|GiB|TiB)"
_ASKED = re.compile(r"Tried to allocate " + _SIZE)
_CAPACITY = re.compile(r"total capacity of " + _SIZE + r" of which " + _SIZE + r" is free")
_PROCESS = re.compile(r"Process \d+ has " + _SIZE + r" memory in use")
_THIS = re.compile(r"this process has " + _SIZE + r" memory in use")


def _bytes(match: re.Match, at: int = 1) -> int:
    return int(float(match.group(at)) * _UNITS[match.group(at + 1)])


def out_of_memory(exc: BaseException | None) -> BaseException | None:
    """The CUDA out-of-memory error in `exc`'s chain (itself, its cause or its context), else None: torch's
    OutOfMemoryError, or the RuntimeError torch raises when the CUDA runtime itself has no memory left."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if type(exc).__name__ == "OutOfMemoryError" and type(exc).__module__.split(".")[0] == "torch":
            return exc
        if type(exc) is RuntimeError and str(exc).startswith("CUDA error: out of memory"):
            return exc  # the CUDA runtime's own words: no room even for a process's CUDA context
        exc = exc.__cause__ or exc.__context__
    return None


def facts(exc: BaseException, by: str) -> dict:
    """What torch's message says, in bytes; a number it does not give is None. `by`: "learner" (the learner's
    call asked for the memory) or "lab" (the lab's own inputs, reference or comparison did)."""
    text = str(exc)
    asked, capacity = _ASKED.search(text), _CAPACITY.search(text)
    processes = [_bytes(m) for m in _PROCESS.finditer(text)]
    this = _THIS.search(text)
    others = None
    if processes:  # NVML's list names every process on the GPU, this one included
        others = max(0, sum(processes) - (_bytes(this) if this else 0))
    return {
        "cause": "out-of-memory",
        "by": by,
        "requested": _bytes(asked) if asked else None,
        "total": _bytes(capacity, 1) if capacity else None,
        "free": _bytes(capacity, 3) if capacity else None,
        "others": others,
    }


def _size(n: int | None) -> str:
    return "?" if n is None else f"{n / (1 << 20):.0f} MiB"


def oom_error(exc: BaseException, by: str, line: int | None = None) -> dict:
    """The error a verify reports for an out-of-memory error: English text for logs; the facts for the UI."""
    found = facts(exc, by)
    where = "in the lab's own check" if by == "lab" else "in your call"
    asked, free, total = (_size(found[k]) for k in ("requested", "free", "total"))
    text = f"the GPU ran out of memory {where}: {asked} asked for, {free} of {total} free"
    if found["others"] is not None:
        text += f", other processes held {_size(found['others'])}"
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return error("runtime", text, line, exception=f"{type(exc).__name__}: {first}"[:600], **found)
