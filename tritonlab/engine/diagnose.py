"""Explain how a kernel's output differs from torch's: counts, first bad elements, a map, sentences.

Pure torch (CPU or CUDA tensors). `diagnose` never raises: odd input comes back as an "error" diagnosis.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any, overload

import torch

__all__ = ["diagnose"]

OK, UNWRITTEN, WRONG, NAN = 0, 1, 2, 3
_SYMBOLS = {OK: ".", UNWRITTEN: "u", WRONG: "x", NAN: "n"}
LEGEND = "legend: . ok   x wrong   n inf/NaN   u never written"
_MAP_1D_CELLS = 64
_MAP_ROWS, _MAP_COLS = 16, 48


def diagnose(
    got: Any,
    expected: Any,
    *,
    atol: float,
    rtol: float,
    unwritten_mask: Any = None,
    block_size: int | tuple[int, ...] | None = None,
    max_items: int = 8,
) -> dict:
    """Compare `got` with `expected` the way torch.allclose does, and say where and how they differ.

    `unwritten_mask` marks elements still holding the poison the output was filled with (memcheck.is_poison);
    `block_size` (BLOCK_SIZE, or (BLOCK_M, BLOCK_N) for 2-D outputs) lets the report name the programs
    at fault.
    """
    try:
        return _diagnose(
            got, expected, float(atol), float(rtol), unwritten_mask, block_size, max(1, int(max_items))
        )
    except Exception as e:  # noqa: BLE001 - a report about a broken output must not break the worker
        return _result(
            diagnoses=[
                {
                    "kind": "error",
                    "exception": f"{type(e).__name__}: {e}",
                    "message": f"could not compare the outputs: {type(e).__name__}: {e}",
                }
            ]
        )


def _result(**fields) -> dict:
    result = {
        "max_abs_err": 0.0,
        "max_rel_err": 0.0,
        "mismatches": 0,
        "numel": 0,
        "first": [],
        "map": "",
        "diagnoses": [],
    }
    result.update(fields)
    return result


def _diagnose(got, expected, atol, rtol, unwritten_mask, block_size, max_items) -> dict:
    if got is None:
        return _result(
            diagnoses=[
                {
                    "kind": "type",
                    "got_type": "None",
                    "message": "the wrapper returned None — return the output tensor",
                }
            ]
        )
    if not isinstance(expected, torch.Tensor):
        expected = torch.as_tensor(expected)
    if not isinstance(got, torch.Tensor):
        try:
            got = torch.as_tensor(got, device=expected.device)
        except Exception:  # noqa: BLE001
            return _result(
                diagnoses=[
                    {
                        "kind": "type",
                        "got_type": type(got).__name__,
                        "message": f"the wrapper returned {type(got).__name__}, not a tensor",
                    }
                ]
            )
    diagnoses: list[dict] = []
    if tuple(got.shape) != tuple(expected.shape):
        if got.numel() != expected.numel():
            return _result(
                numel=expected.numel(),
                mismatches=expected.numel(),
                diagnoses=[
                    {
                        "kind": "shape",
                        "got": list(got.shape),
                        "expected": list(expected.shape),
                        "message": f"the output has shape {tuple(got.shape)} "
                        f"but torch gives {tuple(expected.shape)}",
                    }
                ],
            )
        diagnoses.append(
            {
                "kind": "shape",
                "got": list(got.shape),
                "expected": list(expected.shape),
                "reshaped": True,
                "message": f"the output has shape {tuple(got.shape)} but torch gives "
                f"{tuple(expected.shape)} (same number of elements: compared in order)",
            }
        )
        got = got.reshape(expected.shape)
    if got.dtype != expected.dtype:
        diagnoses.append(
            {
                "kind": "dtype",
                "got": str(got.dtype).removeprefix("torch."),
                "expected": str(expected.dtype).removeprefix("torch."),
                "message": f"the output is {str(got.dtype).removeprefix('torch.')} but torch gives "
                f"{str(expected.dtype).removeprefix('torch.')}",
            }
        )
    device = got.device
    expected = expected.to(device)
    shape = tuple(expected.shape)
    numel = expected.numel()
    if numel == 0:
        return _result(numel=0, map="(empty output)", diagnoses=diagnoses)

    unwritten = torch.zeros(shape, dtype=torch.bool, device=device)
    if unwritten_mask is not None:
        mask = torch.as_tensor(unwritten_mask).to(device=device, dtype=torch.bool)
        if mask.numel() == numel:
            unwritten = mask.reshape(shape)

    wide = torch.complex128 if (got.is_complex() or expected.is_complex()) else torch.float64
    g, e = got.to(wide), expected.to(wide)
    finite_g, finite_e = torch.isfinite(g), torch.isfinite(e)
    both = finite_g & finite_e
    diff = torch.where(both, (g - e).abs(), torch.zeros((), dtype=torch.float64, device=device))
    scale = e.abs().to(torch.float64)
    close = (both & (diff <= atol + rtol * scale)) | (torch.isnan(g) & torch.isnan(e)) | (~both & (g == e))
    nan_bad = ~finite_g & finite_e & ~unwritten
    wrong = ~close & ~unwritten & ~nan_bad
    bad = ~close | unwritten

    status = torch.zeros(shape, dtype=torch.int8, device=device)
    status[unwritten] = UNWRITTEN
    status[wrong] = WRONG
    status[nan_bad] = NAN

    written = both & ~unwritten
    max_abs = float(diff[written].max()) if bool(written.any()) else 0.0
    nonzero = written & (scale > 0)
    max_rel = float((diff[nonzero] / scale[nonzero]).max()) if bool(nonzero.any()) else 0.0

    result = _result(
        max_abs_err=max_abs,
        max_rel_err=max_rel,
        mismatches=int(bad.sum()),
        numel=numel,
        unwritten=int(unwritten.sum()),
        nonfinite=int(nan_bad.sum()),
        wrong=int(wrong.sum()),
        first=_first(got, expected, status, bad, max_items),
    )
    grid = map_grid(status, block_size)
    result["map"] = map_text(grid)
    result["map_grid"] = grid
    view_shape = _as_2d(shape)
    if bool(unwritten.any()):
        diagnoses.append(_unwritten(unwritten, view_shape, block_size, max_items))
    if bool(nan_bad.any()):
        diagnoses.append(_nonfinite(nan_bad, expected, view_shape, max_items))
    if bool(wrong.any()):
        diagnoses.append(_mismatch(wrong, g, e, diff, view_shape, block_size, max_items, atol, rtol))
    result["diagnoses"] = diagnoses
    return result


# ----------------------------------------------------------------------------------------------------------
# Pieces


def _as_2d(shape: tuple[int, ...]) -> tuple[int, ...]:
    """1-D shapes stay 1-D; higher ones fold their leading dimensions into rows."""
    if len(shape) <= 1:
        return (max(1, math.prod(shape)),) if len(shape) == 0 else shape
    return (math.prod(shape[:-1]), shape[-1])


def _scalar(t: torch.Tensor) -> Any:
    value = t.item()
    if isinstance(value, complex):
        return str(value)
    return value


def _first(got, expected, status, bad, max_items) -> list[dict]:
    flat = torch.nonzero(bad.reshape(-1)).reshape(-1)[:max_items].tolist()
    g, e, s = got.reshape(-1), expected.reshape(-1), status.reshape(-1)
    kinds = {UNWRITTEN: "unwritten", WRONG: "wrong", NAN: "nan", OK: "wrong"}
    items = []
    for i in flat:
        items.append(
            {
                "index": list(_unravel(i, tuple(got.shape))),
                "got": _scalar(g[i]),
                "expected": _scalar(e[i]),
                "kind": kinds[int(s[i])],
            }
        )
    return items


def _unravel(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return tuple(reversed(index))


def _ranges(values: list[int]) -> list[tuple[int, int]]:
    """Sorted distinct ints → maximal runs of consecutive values."""
    runs: list[tuple[int, int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def _fmt_ranges(runs: Sequence[tuple[int, int]], max_items: int) -> str:
    parts = [f"{a}" if a == b else f"{a}–{b}" for a, b in runs[:max_items]]
    if len(runs) > max_items:
        parts.append("…")
    return ", ".join(parts)


class Runs(Sequence):
    """Runs of True in a 1-D mask as (start, end) pairs, kept as two tensors: a report reads the first few,
    the count and an end, so only those become Python ints (a stride-2 store over 16 M elements makes 8 M
    runs: building every pair cost seconds per case, eleventh session)."""

    def __init__(self, starts: torch.Tensor, ends: torch.Tensor) -> None:
        self._starts, self._ends = starts, ends

    def __len__(self) -> int:
        return int(self._starts.numel())

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(zip(self._starts[index].tolist(), self._ends[index].tolist(), strict=True))
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return (int(self._starts[index]), int(self._ends[index]))

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self[:])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and self[:] == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compared like a list, never hashed


def _index_runs(mask: torch.Tensor) -> Runs:
    """Runs of True in a 1-D bool tensor, computed on the tensor (no per-element Python loop)."""
    idx = torch.nonzero(mask).reshape(-1)
    if idx.numel() == 0:
        return Runs(idx, idx)
    breaks = torch.nonzero(idx[1:] != idx[:-1] + 1).reshape(-1)
    return Runs(torch.cat([idx[:1], idx[breaks + 1]]), torch.cat([idx[breaks], idx[-1:]]))


def _block_pair(block_size) -> tuple[int, int] | None:
    if isinstance(block_size, (tuple, list)) and len(block_size) == 2:
        return int(block_size[0]), int(block_size[1])
    return None


def _block_1d(block_size) -> int | None:
    if isinstance(block_size, (tuple, list)):
        return int(block_size[0]) if len(block_size) == 1 else None
    return int(block_size) if block_size else None


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ----------------------------------------------------------------------------------------------------------
# Diagnoses


def _unwritten(unwritten, view_shape, block_size, max_items) -> dict:
    flat = unwritten.reshape(-1)
    n = flat.numel()
    count = int(flat.sum())
    runs = _index_runs(flat)
    diag = {
        "kind": "unwritten",
        "count": count,
        "ranges": [list(r) for r in runs[:max_items]],
        "numel": n,
        "runs": len(runs),
    }
    block = _block_1d(block_size)
    if block:
        diag["block"] = block
    if count == n:
        diag["cause"] = "none-written"
        diag["message"] = (
            f"no element was written ({_plural(n, 'element')} still {'holds' if n == 1 else 'hold'} the "
            "poison): "
            f"the kernel never stored to "
            f"this output — check the tl.store pointer and that the wrapper returns the tensor it "
            f"passed to the kernel"
        )
        return diag
    if len(view_shape) == 2:
        rect = _rectangle(unwritten.reshape(view_shape))
        if rect is not None:
            rows, cols = rect
            R, C = view_shape
            where = f"rows {_fmt_ranges(rows, max_items)}, columns {_fmt_ranges(cols, max_items)}"
            if rows == [(0, R - 1)] and cols[-1][1] == C - 1 and len(cols) == 1:
                diag["cause"] = "columns-short"
                hint = (
                    "the programs along the columns stop early — check the grid's column axis "
                    "(triton.cdiv(n_cols, BLOCK_N)) or the column loop bound"
                )
            elif cols == [(0, C - 1)] and rows[-1][1] == R - 1 and len(rows) == 1:
                diag["cause"] = "rows-short"
                hint = (
                    "the last rows were never reached — check the grid's row axis (one program per row, "
                    "or triton.cdiv(n_rows, BLOCK_M))"
                )
            else:
                diag["cause"] = "tiles"
                hint = (
                    "some programs store to the wrong tile or skip theirs — check the offsets built from "
                    "tl.program_id"
                )
            diag["rows"] = [list(r) for r in rows[:max_items]]
            diag["cols"] = [list(r) for r in cols[:max_items]]
            diag["rows_total"], diag["cols_total"] = len(rows), len(cols)  # runs before the cut
            diag["message"] = f"{where} were never written: {hint}"
            return diag
    if len(runs) == 1 and runs[0][1] == n - 1:
        start = runs[0][0]
        diag["start"] = start
        elements = f"elements {start}–{n - 1}" if start < n - 1 else f"element {start}"
        were = "were" if start < n - 1 else "was"
        if block and start == block:
            diag["cause"] = "one-program"
            diag["message"] = (
                f"only the first block (elements 0–{block - 1}) was written: the grid launched one "
                f"program — launch triton.cdiv(n_elements, BLOCK_SIZE) programs"
            )
        elif block and n % block and start == (n // block) * block:
            diag["cause"] = "grid-floor"
            diag["message"] = (
                f"{elements} {were} never written: the last program was not launched — check the grid: "
                f"triton.cdiv(n_elements, BLOCK_SIZE), not n_elements // BLOCK_SIZE"
            )
        elif len(view_shape) == 2:
            diag["cause"] = "tail-2d"
            diag["message"] = (
                f"{elements} (the end of the output, counted row by row) {were} never written: the grid is "
                f"too small, or the stores land somewhere else — check the grid and the output's strides"
            )
        else:
            diag["cause"] = "grid-short"
            diag["message"] = (
                f"{elements} {were} never written: the last programs were not launched — check the grid"
            )
        return diag
    if len(runs) == 1 and runs[0][0] == 0:
        diag["cause"] = "head"
        diag["message"] = (
            f"elements 0–{runs[0][1]} were never written: the first programs store somewhere else — "
            f"check the offsets built from tl.program_id"
        )
        return diag
    shown = _fmt_ranges(runs, max_items)
    diag["cause"] = "scattered"
    message = (
        f"{_plural(count, 'element')} in {_plural(len(runs), 'range')} "
        f"{'was' if count == 1 else 'were'} never written ({shown})"
    )
    if block:
        # the programs whose every element is unwritten, all programs at once (the tail program's padding
        # counts as unwritten: it holds no element)
        padded = torch.ones(-(-n // block) * block, dtype=torch.bool, device=flat.device)
        padded[:n] = flat.bool()
        whole = padded.reshape(-1, block).all(dim=1).nonzero().reshape(-1).tolist()
        if whole:
            diag["programs"] = [list(r) for r in _ranges(whole)[:max_items]]
            diag["programs_total"] = len(_ranges(whole))
            message += f": programs {_fmt_ranges(_ranges(whole), max_items)} wrote nothing"
    diag["message"] = message + " — check the offsets each program computes from tl.program_id"
    return diag


def _rectangle(mask2d: torch.Tensor) -> tuple[Runs, Runs] | None:
    """(row runs, column runs) when the True cells are exactly rows × columns, else None."""
    rows = mask2d.any(dim=1)
    cols = mask2d.any(dim=0)
    if not bool(torch.equal(rows[:, None] & cols[None, :], mask2d)):
        return None
    return _index_runs(rows), _index_runs(cols)


def _nonfinite(nan_bad, expected, view_shape, max_items) -> dict:
    count = int(nan_bad.sum())
    diag: dict = {"kind": "nan", "count": count}
    if len(view_shape) == 2:
        rows_mask = nan_bad.reshape(view_shape).any(dim=1)
        rows = torch.nonzero(rows_mask).reshape(-1).tolist()
        diag["rows"] = rows[:max_items]
        diag["rows_count"] = len(rows)  # rows is cut: the sentence counts them all
        if len(rows) == 1:
            where = f"row {rows[0]} has"
        else:
            where = f"rows {_fmt_ranges(_ranges(rows), max_items)} ({len(rows)} rows) have"
        hint = "look for overflow (exp of large inputs), division by zero, or unmasked loads of padding"
        if _looks_like_softmax(expected.reshape(view_shape)):
            diag["cause"] = "softmax"
            hint = "subtract the row max before exp"
        diag["message"] = f"{where} inf/NaN where torch has finite values: {hint}"
        return diag
    runs = _index_runs(nan_bad.reshape(-1))
    diag["ranges"] = [list(r) for r in runs[:max_items]]
    diag["ranges_total"] = len(runs)
    which = "element" if count == 1 else "elements"
    diag["message"] = (
        f"{which} {_fmt_ranges(runs, max_items)} ({count}) are inf/NaN where torch has finite values: "
        f"look for overflow, division by zero, or unmasked loads of padding"
    )
    return diag


def _looks_like_softmax(expected2d: torch.Tensor) -> bool:
    if not expected2d.is_floating_point():
        return False
    e = expected2d.to(torch.float64)
    if not bool(torch.isfinite(e).all()) or bool((e < 0).any()) or bool((e > 1).any()):
        return False
    return bool(
        torch.allclose(e.sum(dim=1), torch.ones(e.shape[0], dtype=torch.float64, device=e.device), atol=1e-2)
    )


def _mismatch(wrong, g, e, diff, view_shape, block_size, max_items, atol, rtol) -> dict:
    count = int(wrong.sum())
    n = wrong.numel()
    max_err = float(diff[wrong].max()) if count else 0.0
    diag: dict = {
        "kind": "mismatch",
        "count": count,
        "max_abs_err": max_err,
        "numel": n,
        "atol": atol,
        "rtol": rtol,
    }
    verb = "differs" if count == 1 else "differ"
    head = (
        f"{_plural(count, 'element')} {verb} beyond tolerance (atol={atol:g}, rtol={rtol:g}; "
        f"largest error {max_err:.3g})"
    )
    wrong_g = g[wrong]
    if count == n:
        hint = "every element is wrong — check the operation, the argument order and the dtype"
        diag["cause"] = "all-wrong"
        if bool((wrong_g == 0).all()):
            diag["cause"] = "all-zero"
            hint = "every element is 0 — is the result stored, and stored to the output that is returned?"
        diag["message"] = f"{head}: {hint}"
        return diag
    if len(view_shape) == 1:
        flat = wrong.reshape(-1)
        block = _block_1d(block_size)
        runs = _index_runs(flat)
        diag["ranges"] = [list(r) for r in runs[:max_items]]
        diag["ranges_total"] = len(runs)
        where = f"elements {_fmt_ranges(runs, max_items)}"
        if block:
            pids = torch.unique(torch.nonzero(flat).reshape(-1) // block).tolist()  # sorted, on the device
            diag["programs"] = [list(r) for r in _ranges(pids)[:max_items]]  # runs, like the ranges
            diag["programs_total"] = len(_ranges(pids))
            last = (n - 1) // block
            diag["n_programs"] = last + 1
            where = f"programs {_fmt_ranges(_ranges(pids), max_items)} (of {last + 1}), {where}"
            if pids == [last] and last >= 1 and n % block:  # a lone program is first and last: no tail claim
                diag["cause"] = "tail-block"
                diag["message"] = (
                    f"{head}, only in the last, partial block ({where}): the tail lanes are handled "
                    f"wrongly — check the mask and the other= value"
                )
                return diag
        diag["message"] = f"{head} in {where}"
        return diag
    w2 = wrong.reshape(view_shape)
    rows = _index_runs(w2.any(dim=1))
    cols = _index_runs(w2.any(dim=0))
    diag["rows"] = [list(r) for r in rows[:max_items]]
    diag["cols"] = [list(r) for r in cols[:max_items]]
    diag["rows_total"], diag["cols_total"] = len(rows), len(cols)
    where = f"rows {_fmt_ranges(rows, max_items)}, columns {_fmt_ranges(cols, max_items)}"
    pair = _block_pair(block_size)
    if pair:
        idx = torch.nonzero(w2)
        tiles = torch.unique(torch.stack([idx[:, 0] // pair[0], idx[:, 1] // pair[1]], dim=1), dim=0).tolist()
        diag["tile_ids"] = [list(t) for t in tiles[:max_items]]  # (row tile, column tile) of each program
        diag["tile_ids_total"] = len(tiles)
        shown = ", ".join(f"({a}, {b})" for a, b in tiles[:max_items]) + (
            ", …" if len(tiles) > max_items else ""
        )
        where += f" (programs {shown})"
    diag["message"] = f"{head} in {where}"
    return diag


# ----------------------------------------------------------------------------------------------------------
# The map


def map_grid(status: torch.Tensor, block_size) -> dict:
    """The map as facts: its character rows (". x n u" per cell) and what a cell covers. Words: UI side."""
    shape = _as_2d(tuple(status.shape))
    s = status.reshape(shape)
    if len(shape) == 1:
        n = shape[0]
        block = _block_1d(block_size)
        if block:
            programs = _cdiv(n, block)
            programs_per_cell = _cdiv(programs, _MAP_1D_CELLS)
            per = block * programs_per_cell
            facts = {"programs_per_cell": programs_per_cell}
        else:
            per = _cdiv(n, min(_MAP_1D_CELLS, n))
            facts = {"elements_per_cell": per}
        cells = _reduce(s.reshape(1, n), 1, per)[0]
        return {"dims": 1, "numel": n, "cells": len(cells), "rows": [_chars(cells)], **facts}
    R, C = shape
    rh = _cdiv(R, min(_MAP_ROWS, R))
    cw = _cdiv(C, min(_MAP_COLS, C))
    grid = _reduce(s, rh, cw)
    return {
        "dims": 2,
        "n_rows": R,
        "n_cols": C,
        "rows_per_line": rh,
        "cols_per_char": cw,
        "folded": status.dim() > 2,
        "rows": [_chars(row) for row in grid],
    }


def map_text(grid: dict) -> str:
    """The English map of today's `--json` key "map" (kept for its readers; the UI words `map_grid`)."""
    if grid["dims"] == 1:
        n = grid["numel"]
        if "programs_per_cell" in grid:
            ppc = grid["programs_per_cell"]
            unit = "one per program" if ppc == 1 else f"{ppc} programs each"
        else:
            per = grid["elements_per_cell"]
            unit = f"{per} element{'s' if per != 1 else ''} each"
        head = f"elements 0–{n - 1}, {grid['cells']} cells ({unit})"
        return "\n".join([head, *grid["rows"], LEGEND])
    folded = " (leading dimensions folded into rows)" if grid["folded"] else ""
    head = (
        f"rows 0–{grid['n_rows'] - 1} ({grid['rows_per_line']} per line) × columns 0–{grid['n_cols'] - 1} "
        f"({grid['cols_per_char']} per character){folded}"
    )
    return "\n".join([head, *grid["rows"], LEGEND])


def _reduce(s2d: torch.Tensor, rh: int, cw: int) -> list[list[int]]:
    """Worst status per (rh × cw) tile; the padding added to fill the last tiles counts as ok."""
    R, C = s2d.shape
    gr, gc = _cdiv(R, rh), _cdiv(C, cw)
    padded = torch.zeros((gr * rh, gc * cw), dtype=torch.int8, device=s2d.device)
    padded[:R, :C] = s2d
    return padded.reshape(gr, rh, gc, cw).amax(dim=(1, 3)).tolist()


def _chars(codes: list[int]) -> str:
    return "".join(_SYMBOLS[c] for c in codes)
