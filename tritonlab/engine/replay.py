"""When a GPU run faults or writes out of bounds, replay the exercise on the interpreter's bounds checker,
which checks every lane before the access and so can name the line. Client side: no torch."""

from __future__ import annotations

from tritonlab.engine.client import WorkerClient
from tritonlab.engine.results import Kind

REPLAY_KINDS = tuple(k for k in Kind if k.replayable)
#: Wrong answers an out-of-bounds access can cause on a GPU (an unmasked load of NaN padding, a store that
#: landed
#: elsewhere): the exact failing case is replayed on the bounds checker too, when it is small (Kind.suspect).
SUSPECT_KINDS = tuple(k for k in Kind if k.suspect)
#: The interpreter runs programs one after another in Python: replay the exact GPU case only when it is small.
EXACT_REPLAY_LIMIT = 1 << 20
#: What only the interpreter records (it runs a launch's programs one by one and sees who loads what another
#: stores): the cause behind a GPU's NaN, wrong values or two runs that differ.
RACE_KINDS = (Kind.RACE, Kind.CROSS_PROGRAM_READ, Kind.STORED_TWICE)


CASE_FIELDS = ("params", "dtype", "seed", "kwargs")


def _exact(case: dict) -> dict:
    """What verify needs to run this very case again."""
    return {k: case.get(k) for k in CASE_FIELDS}


def _failing_case(result: dict, kinds=REPLAY_KINDS) -> dict | None:
    """The first failing case of these kinds small enough to run again on the interpreter (a large one is
    passed over: a smaller failing case after it still gets its replay)."""
    for case in result.get("cases", []):
        faulted = case.get("error") or next(
            (d for d in case.get("diagnoses", []) if d.get("kind") in kinds), None
        )
        if (
            faulted and case.get("kind") != "reject" and isinstance(case.get("params"), dict)
        ):  # a case kind, not a diagnosis Kind
            size = 1
            for value in case["params"].values():
                if isinstance(value, (int, float)):
                    size *= max(int(value), 1)
            if size <= EXACT_REPLAY_LIMIT:
                return _exact(case)
    return None


def _faulted(result: dict) -> bool:
    """A GPU fault or a guard-zone hit: what the replay is there to explain."""
    if (result.get("error") or {}).get("kind") in REPLAY_KINDS:
        return True
    return any(d.get("kind") in REPLAY_KINDS for c in result.get("cases", []) for d in c.get("diagnoses", []))


def needs_replay(result: dict) -> bool:
    if result.get("backend") != "gpu":
        return False
    return _faulted(result) or suspect_case(result) is not None


def _audited(result: dict) -> bool:
    """A GPU pass is still checked for out-of-bounds reads the GPU could not see."""
    return result.get("backend") == "gpu" and bool(result.get("passed"))


def will_replay(result: dict, audit: bool = True) -> bool:
    """Whether with_replay() will start an interpreter worker for this result (the app says so while it
    waits). `audit=False`: only a fault or failure replay counts (the audit of a pass runs later)."""
    return (audit and _audited(result)) or needs_replay(result)


def needs_audit(result: dict) -> bool:
    """A GPU pass whose interpreter audit has not run yet (`Lab.audit` runs it off the critical path)."""
    return _audited(result) and "replay" not in result


def audit_state(result: dict) -> str:
    """What the audit of a pass concluded, from the result with_replay() returned: "found" (the pass was
    withdrawn), "incomplete" (the interpreter could not finish: crash, timeout, cancel) or "clean"."""
    if not result.get("passed"):
        return "found"
    return "incomplete" if (result.get("replay") or {}).get("error") else "clean"


def suspect_case(result: dict) -> dict | None:
    """A small failing GPU case whose wrong answer may come from an out-of-bounds access (no error raised)."""
    if result.get("backend") != "gpu" or result.get("passed") or result.get("error") or _faulted(result):
        return None
    return _failing_case(result, SUSPECT_KINDS)


def replay_on_interpreter(
    args: dict,
    timeout: float = 120.0,
    case: dict | None = None,
    exact_only: bool = False,
    client: WorkerClient | None = None,
) -> dict:
    """Verify the same code on the interpreter — the failing GPU case itself when it is small enough, else
    (unless exact_only) the interpreter's own (small) cases — and report the first out-of-bounds access.

    `client`: an interpreter worker to use and keep (the app keeps one warm, and can cancel it); without one,
    a worker is started for this replay and closed after it."""
    own = client is None
    worker = WorkerClient(backend="interpreter") if client is None else client
    try:
        replay: dict = {}
        if case is not None:
            replay = worker.request("verify", dict(args, cases=[case]), timeout=timeout)
        kind = (replay.get("error") or {}).get("kind") if replay else None
        if not exact_only and kind not in (Kind.OOB, Kind.CANCELLED):
            replay = worker.request("verify", dict(args), timeout=timeout)
    finally:
        if own:
            worker.close()
    error = replay.get("error") or {}
    found = {"backend": "interpreter", "summary": replay.get("summary"), "error": error or None}
    if error.get("kind") == Kind.OOB:
        found["line"] = error.get("line")
        found["message"] = error.get("message")
        found["detail"] = error.get("detail")
    perf = [
        d for c in replay.get("cases", []) for d in c.get("diagnoses", []) if d.get("kind") == Kind.PERF_BYTES
    ]
    if perf:
        found["perf"] = perf[0]
    # a copy kernel handed the inputs it never loads: only the interpreter sees which storages a launch loaded
    copied = [
        d
        for c in replay.get("cases", [])
        for d in c.get("diagnoses", [])
        if d.get("kind") == Kind.COPIED_ANSWER
    ]
    if copied:
        found["copied"] = copied[0]
    failed = _interpreter_failure(replay)
    if failed is not None:
        found["failed"] = failed
    return found


def _interpreter_failure(replay: dict) -> dict | None:
    """The interpreter's own verify ran every case and one failed on its values or its writes: a GPU pass
    is then right only for what the GPU happened to run (the autotuner's pick of configs, one tile size):
    the interpreter pins the smallest and largest config, and records what the GPU cannot (a tile computed
    twice, a race). A near miss is left alone (the interpreter's own arithmetic), as are errors
    (the audit is then incomplete). A reject case counts too: the interpreter's mismatched pair differs
    from the GPU's (meta beside cpu, not cpu beside cuda), so a device check by `is_cuda` alone, which no
    one-GPU pair can catch, is caught there."""
    if replay.get("passed") is not False or replay.get("error") or replay.get("skipped"):
        return None
    for case in replay.get("cases", []):
        if case.get("passed"):
            continue
        diagnoses = [d for d in case.get("diagnoses") or [] if isinstance(d, dict)]
        if not diagnoses or any(d.get("near_miss") for d in diagnoses):
            return None
        return {k: case.get(k) for k in ("name", *CASE_FIELDS)} | {"diagnoses": diagnoses}
    return None


def _withdrawn(result: dict, case: dict, summary: str) -> dict:
    """The GPU pass withdrawn by what the audit found, shown as one more failing case."""
    result["passed"] = False
    result["cases"].append(
        {"passed": False, "max_abs_err": None, "max_rel_err": None, "mismatches": None} | case
    )
    result["summary"] = summary
    return result


def with_replay(
    result: dict, args: dict, timeout: float = 120.0, client: WorkerClient | None = None, audit: bool = True
) -> dict:
    """Attach `replay` to a GPU result that faulted, and point its error at the line the replay found.

    A GPU run that passes is audited the same way: an unmasked load whose garbage is masked off at the store
    gives right answers on a GPU, but it is still an out-of-bounds read, and the interpreter names it.
    `audit=False` leaves a pass alone (the caller audits it later)."""
    if not will_replay(result, audit):
        return result
    audit = _audited(result)
    suspect = suspect_case(result)
    try:
        if suspect is not None:  # a wrong answer with no fault: only the exact case is worth the wait
            replay = replay_on_interpreter(args, timeout, case=suspect, exact_only=True, client=client)
        else:
            replay = replay_on_interpreter(args, timeout, case=_failing_case(result), client=client)
    except Exception as exc:  # the replay is advice; never let it hide the GPU result
        result["replay"] = {
            "error": {
                "kind": Kind.CRASH.value,
                "cause": "replay",
                "exception": str(exc),
                "message": f"replay failed: {exc}",
            }
        }
        return result
    result["replay"] = replay
    # what only the interpreter counts withdraws the GPU pass as a case of its own (the copy first: it is
    # about where the answer came from, the byte budget about how fast it got there; then a case of the
    # interpreter's own that failed)
    for key, name, kind in (
        ("copied", "copied answer (checked on the interpreter)", "copy-audit"),
        ("perf", "byte budget (counted on the interpreter)", "byte-audit"),
    ):
        if audit and replay.get(key) and not replay.get("line"):
            why = f"every GPU case matched torch, but: {replay[key].get('message')}"
            return _withdrawn(result, {"name": name, "kind": kind, "diagnoses": [replay[key]]}, why)
    if audit and replay.get("failed") and not replay.get("line"):
        failed = replay["failed"]
        case = {"name": failed.get("name"), "kind": "interp-audit", "diagnoses": failed["diagnoses"]}
        why = (
            f"every GPU case matched torch, but the interpreter's case {failed.get('name')} did not: "
            f"{failed['diagnoses'][0].get('message')}"
        )
        return _withdrawn(result, case | {k: failed.get(k) for k in CASE_FIELDS}, why)
    if audit and replay.get("line"):
        result["passed"] = False
        result["error"] = {
            "kind": Kind.OOB.value,
            "line": replay["line"],
            "found_by": "interpreter bounds audit",
            "cause": "audit",
            "detail": replay.get("detail"),
            "message": "every GPU case matched torch, but the interpreter's bounds checker found an "
            f"out-of-bounds access: {replay.get('message')}",
        }
        result["summary"] = f"oob error (line {replay['line']}): {result['error']['message']}"
        return result
    if suspect is not None and replay.get("line"):
        found = {
            "kind": Kind.OOB.value,
            "line": replay["line"],
            "found_by": "interpreter replay of this case",
            "cause": "replay-case",
            "detail": replay.get("detail"),
            "message": f"the interpreter's bounds checker, replaying this case: {replay.get('message')}",
        }
        for case in result.get("cases", []):
            if _exact(case) == suspect:
                case.setdefault("diagnoses", []).insert(0, found)
                break
        result["summary"] = (result.get("summary") or "") + (
            f" — likely cause: an out-of-bounds access at line {replay['line']} ({replay.get('message')})"
        )
        return result
    shown = next((c for c in result.get("cases", []) if _exact(c) == suspect), None) if suspect else None
    causes = _replayed_causes(replay, shown) if shown is not None else []
    if shown is not None and causes:  # the race or the cause behind the GPU's wrong answer, on its case
        shown["diagnoses"] = causes + list(shown.get("diagnoses") or [])
        result["summary"] = (result.get("summary") or "") + (
            f" — likely cause, found by replaying this case on the interpreter: {causes[0].get('message')}"
        )
        return result
    if replay.get("line"):
        err = result.get("error")
        if err and not err.get("line"):
            err["line"] = replay["line"]
        for case in result.get("cases", []):
            for diag in case.get("diagnoses", []):
                if diag.get("kind") in REPLAY_KINDS and not diag.get("line"):
                    diag["line"] = replay["line"]
                    # the interpreter's own account of the access (which pointer, the mask it had): a guard
                    # zone on the GPU only saw memory beside a tensor change
                    if isinstance(replay.get("detail"), dict) and "detail" not in diag:
                        diag["detail"] = replay["detail"]
        result["summary"] = (result.get("summary") or "") + (
            f" — the interpreter's bounds checker names line {replay['line']}: {replay.get('message')}"
        )
    return result


#: Causes the interpreter finds from what it records (which storage a launch loaded, what a program stored),
#: not from its arithmetic: they hold for a bf16 case too, whose arithmetic the interpreter gets wrong.
RECORDED_CAUSES = frozenset({"input-unread", "partials-transposed", "stored-poison", "store-never-ran"})


def _generic(diagnoses: list) -> bool:
    """A GPU case that says only that values are wrong (or NaN, or unwritten): no line, no cause beyond
    "every element is wrong"."""
    first = next((d for d in diagnoses if isinstance(d, dict)), None)
    if first is None:
        return True
    return not first.get("line") and first.get("cause") in (None, "all-wrong")


def _replayed_causes(replay: dict, shown: dict) -> list[dict]:
    """What the interpreter's replay of a failing GPU case found, marked `replayed` (the UI says the
    interpreter found it), to put before the GPU's own diagnoses of that case:

    - a race record (the interpreter's values may be right, since it runs programs in order; the records say
      why the GPU's were not), whatever the GPU said;
    - a named cause or a line, where the GPU could only say that values are wrong: the interpreter records
      which storage each load read and runs the judge's pattern checks on a case small enough, the GPU does
      not (a y loaded through x_ptr is "every element wrong" there, "y is never read" here). On a bf16 case
      only a cause read from those records counts: the interpreter's bf16 arithmetic is not the GPU's."""
    failed = replay.get("failed") or {}
    diagnoses = [d for d in failed.get("diagnoses") or [] if isinstance(d, dict)]
    races = [dict(d, replayed=True) for d in diagnoses if d.get("kind") in RACE_KINDS]
    if races or not _generic(list(shown.get("diagnoses") or [])):
        return races
    bf16 = "bfloat16" in str(shown.get("dtype") or failed.get("dtype") or "")
    named = [
        d
        for d in diagnoses
        if (d.get("cause") not in (None, "all-wrong") or d.get("line"))
        and not d.get("near_miss")
        and (not bf16 or d.get("cause") in RECORDED_CAUSES)
    ]
    return [dict(d, replayed=True) for d in named[:1]]
