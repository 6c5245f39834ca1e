"""Layout reads: a later launch of one call reading a buffer an earlier launch stored, in another layout.

A two-stage reduction (lesson 12's dw) stores one partial row per program in stage 1 (`partial[p, cols]`,
addresses `p * N + cols`) and adds the rows in stage 2 (`partial[p, cols]` into `dw[cols]`). Stage 2 reading
`cols * P + p` (the buffer taken as [N, P]) reads every partial once, into the wrong column: no bounds rule
fires and the result is simply wrong. The facts here: the earlier launch's plain stores that walk a 2-D
row-major buffer along its rows (one element per lane: lane step 1) give each stored address its column
(address mod the row stride); a later launch's load from those addresses whose lane step differs, feeding a
store of the same program into a tensor with rows of that length, is compared lane by lane: the column the
loaded element was stored at against the column the loading lane's program stores. Recorded when they differ
for most lanes and each output lane took several loaded elements (a reduction, not a one-to-one copy), once
per load line.

Pure functions take numpy arrays (tests/unit/test_memcheck_layout.py); `LayoutWatch` holds the state."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

#: lanes kept per launch for loads and for stores (beyond it, later accesses are not tested)
LAYOUT_LANES = 1 << 20


def lane_step(addrs: np.ndarray, mask: np.ndarray, itemsize: int) -> int | None:
    """The step, in elements, between neighbouring masked-in lanes along the block's last axis, when every
    such pair has the same one; None for a scalar, a single lane per row, or mixed steps."""
    if addrs.ndim == 0 or addrs.shape[-1] < 2 or itemsize <= 0:
        return None
    a = addrs.astype(np.int64, copy=False)
    both = mask[..., 1:] & mask[..., :-1]
    if not both.any():
        return None
    diffs = np.unique((a[..., 1:] - a[..., :-1])[both])
    if diffs.size != 1 or int(diffs[0]) % itemsize:
        return None
    return int(diffs[0]) // itemsize


def columns(addrs: np.ndarray, lo: int, itemsize: int, row_stride: int) -> np.ndarray:
    """The column (element offset mod the row stride) of each address in a buffer starting at `lo`."""
    offsets = (addrs.astype(np.int64, copy=False) - np.int64(lo)) // itemsize
    return offsets % row_stride


@dataclasses.dataclass
class _Stored:
    """What an earlier launch stored into one row-major 2-D buffer along its rows."""

    lo: int
    hi: int
    name: str
    kernel: str
    line: int | None
    row: int  # the row length: columns run 0..row-1
    addrs: np.ndarray  # sorted, unique
    cols: np.ndarray  # the column of each


@dataclasses.dataclass
class LaunchAccesses:
    """One launch's plain loads and stores with their lane shapes: (program, line, addresses, mask)."""

    loads: list = dataclasses.field(default_factory=list)
    stores: list = dataclasses.field(default_factory=list)
    lanes: int = 0

    def note(
        self, access: str, program: tuple, line: int | None, addrs: np.ndarray, mask: np.ndarray
    ) -> None:
        if addrs.ndim == 0 or addrs.size < 2 or self.lanes + addrs.size > 2 * LAYOUT_LANES:
            return
        self.lanes += int(addrs.size)
        (self.loads if access == "load" else self.stores).append((program, line, addrs.copy(), mask.copy()))


def _region_at(regions: list, addrs: np.ndarray, mask: np.ndarray) -> Any:
    """The launch's tensor holding the access's first masked-in address, or None."""
    on = addrs[mask]
    if on.size == 0:
        return None
    first = int(on.reshape(-1)[0])
    return next((r for r in regions if r.lo <= first < r.hi), None)


def _row_major_2d(region: Any) -> bool:
    shape, strides = tuple(region.shape), tuple(region.strides)
    return len(shape) == 2 and shape[1] >= 2 and strides[1] == 1 and strides[0] >= shape[1]


def _output_columns(region: Any, addrs: np.ndarray, row: int) -> np.ndarray | None:
    """The columns of a store into `region` when its rows have `row` elements (unit stride); None if not."""
    shape, strides = tuple(region.shape), tuple(region.strides)
    if not shape or shape[-1] != row or strides[-1] != 1:
        return None
    stride = strides[-2] if len(shape) >= 2 else max(row, 1)
    if stride < row:
        return None
    return columns(addrs, region.lo, region.itemsize, stride)


class LayoutWatch:
    """Per memcheck: the layouts earlier launches of the current phase stored, and the reads found."""

    def __init__(self) -> None:
        self.stored: list[_Stored] = []
        self.phase: str | None = None

    def after_launch(self, launch: Any, accesses: LaunchAccesses, phase: str, found: list) -> None:
        """Test the launch's loads against the layouts stored before it (a record into `found`), then keep
        the layouts its own stores leave."""
        if phase != self.phase:
            self.stored, self.phase = [], phase
        if self.stored and accesses.loads and accesses.stores and not launch.atomics and len(found) < 8:
            record = self._misread(launch, accesses)
            if record is not None:
                found.append(record)
        self._keep(launch, accesses)

    def _keep(self, launch: Any, accesses: LaunchAccesses) -> None:
        by_region: dict[int, tuple[Any, list]] = {}
        for _program, line, addrs, mask in accesses.stores:
            region = _region_at(launch.regions, addrs, mask)
            if region is None:
                continue
            by_region.setdefault(id(region), (region, []))[1].append((line, addrs, mask))
        for region, stores in by_region.values():
            # whatever this launch stored there replaces what was known of that memory
            self.stored = [s for s in self.stored if s.hi <= region.lo or s.lo >= region.hi]
            if not _row_major_2d(region):
                continue
            if any(lane_step(a, m, region.itemsize) != 1 for _, a, m in stores):
                continue  # not stored along the rows: its layout is the kernel's own, not the buffer's
            addrs = np.unique(np.concatenate([a[m].reshape(-1) for _, a, m in stores]))
            if addrs.size < 2:
                continue
            self.stored.append(
                _Stored(
                    lo=region.lo,
                    hi=region.hi,
                    name=region.name,
                    kernel=launch.kernel,
                    line=stores[0][0],
                    row=int(region.shape[1]),
                    addrs=addrs,
                    cols=columns(addrs, region.lo, region.itemsize, int(region.strides[0])),
                )
            )

    def _misread(self, launch: Any, accesses: LaunchAccesses) -> dict | None:
        stores_of: dict[tuple, list] = {}
        for program, line, addrs, mask in accesses.stores:
            stores_of.setdefault(program, []).append((line, addrs, mask))
        tally: dict[int | None, dict] = {}
        for program, line, addrs, mask in accesses.loads:
            hit = self._lookup(addrs, mask)
            if hit is None:
                continue
            stored, known, col = hit
            region = _region_at(launch.regions, addrs, mask)
            itemsize = region.itemsize if region is not None else 4
            if lane_step(addrs, mask, itemsize) in (None, 1):
                continue  # read along the rows, as stored (or no step to compare)
            best = None
            for _sline, saddrs, smask in stores_of.get(program, []):
                if saddrs.ndim == 0 or saddrs.shape != addrs.shape[addrs.ndim - saddrs.ndim :]:
                    continue
                out = _region_at(launch.regions, saddrs, smask)
                out_cols = _output_columns(out, saddrs, stored.row) if out is not None else None
                if out_cols is None:
                    continue
                on = known & np.broadcast_to(smask, addrs.shape)
                compared = int(on.sum())
                if compared < 2:
                    continue
                wanted = np.broadcast_to(out_cols, addrs.shape)
                wrong = on & (col != wanted)
                example = None
                if wrong.any():
                    k = tuple(int(i) for i in np.argwhere(wrong)[0])
                    example = (int(wanted[k]), int(col[k]))
                score = (int(wrong.sum()), compared, int(np.unique(saddrs[smask]).size), out, example)
                if best is None or score[0] < best[0]:
                    best = score
            if best is None:
                continue
            entry = tally.setdefault(
                line, {"wrong": 0, "compared": 0, "outputs": {}, "stored": stored, "out": best[3]}
            )
            entry["wrong"] += best[0]
            entry["compared"] += best[1]
            entry["outputs"][program] = max(entry["outputs"].get(program, 0), best[2])
            entry.setdefault("example", best[4])
            if entry["example"] is None:
                entry["example"] = best[4]
        for line, entry in tally.items():
            outputs = sum(entry["outputs"].values())
            if entry["wrong"] * 2 <= entry["compared"] or entry["wrong"] < 2 or entry["compared"] <= outputs:
                continue  # most lanes read their own column, or each output lane took one element (a copy)
            stored, out = entry["stored"], entry["out"]
            return {
                "kernel": launch.kernel,
                "file": launch.file,
                "line": line,
                "argument": _name_at(launch.regions, stored),
                "count": entry["wrong"],
                "lanes": entry["compared"],
                "store_kernel": stored.kernel,
                "store_line": stored.line,
                "row": stored.row,
                "output": out.name,
                "output_shape": [int(s) for s in out.shape],
                "example": list(entry["example"]) if entry["example"] else None,
            }
        return None

    def _lookup(self, addrs: np.ndarray, mask: np.ndarray) -> tuple | None:
        """The stored layout most of this load's lanes fall in: (it, which lanes, their stored columns)."""
        best = None
        for stored in self.stored:
            at = np.minimum(np.searchsorted(stored.addrs, addrs), stored.addrs.size - 1)
            known = mask & (stored.addrs[at] == addrs)
            count = int(known.sum())
            if count and (best is None or count > best[0]):
                best = (count, stored, known, np.where(known, stored.cols[at], -1))
        return None if best is None else best[1:]


def _name_at(regions: list, stored: _Stored) -> str:
    """The loading launch's name for the buffer (its own parameter), else the storing launch's."""
    return next((r.name for r in regions if r.lo <= stored.lo < r.hi), stored.name)
