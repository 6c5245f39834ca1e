"""Numbers for people: the same formatting in the CLI and the app, in either language."""

from __future__ import annotations

from typing import Any


def number(value: Any, digits: int = 3) -> str:
    """3 significant digits for floats, thousands separators for big ints, a dash for nothing."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    if isinstance(value, int) and abs(value) >= 10_000:
        return f"{value:,}"
    return str(value)


def value_text(value: Any) -> str:
    """Got/expected values at a readable precision: float32 noise digits say nothing to a learner."""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def span(runs: Any, limit: int = 8, total: int | None = None) -> str:
    """[[0, 3], [7, 7]] → "0–3, 7" (with "…" past `limit` runs, or when `total` — how many runs there were
    before the engine cut the list — is more than is shown). Accepts ints too."""
    if not runs:
        return ""
    parts = []
    for run in list(runs)[:limit]:
        if isinstance(run, (list, tuple)):
            if len(run) == 2 and all(isinstance(v, int) for v in run):
                a, b = run
                parts.append(str(a) if a == b else f"{a}–{b}")
            else:
                parts.append("(" + ", ".join(str(v) for v in run) + ")")
        else:
            parts.append(str(run))
    if len(runs) > limit or (total is not None and total > len(parts)):
        parts.append("…")
    return ", ".join(parts)


def shape(value: Any) -> str:
    """[4, 5] → "(4, 5)"; anything else as is."""
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(str(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return str(value)


def dtype(value: Any) -> str:
    return str(value).removeprefix("torch.") if value is not None else "?"


def nbytes(n: int | None) -> str:
    """A byte count as people read it: 250 MiB, 79.2 GiB."""
    if n is None:
        return "?"
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            value = n / scale
            return f"{value:.1f} {unit}" if value < 100 else f"{value:.0f} {unit}"
    return f"{n} B"
