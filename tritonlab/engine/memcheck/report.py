"""The out-of-bounds report: what was touched, by which program, on which of the learner's lines, and the
learner's own mask expression for it."""

from __future__ import annotations

import ast
import functools
import linecache
import re
from typing import Any, TypeVar

from tritonlab.engine.learner import name_of

_MAX_OFFSETS = 8


# ----------------------------------------------------------------------------------------------------------
# The report


class OutOfBounds(Exception):
    """A load or store whose masked-in lanes fall outside every tensor handed to the kernel."""

    def __init__(
        self,
        *,
        access: str,
        kernel: str,
        arg: str | None,
        program_id: tuple[int, int, int],
        lanes: int,
        offsets: list[int],
        extent: int,
        file: str | None,
        line: int | None,
        reason: str = "past_end",
        op: str | None = None,
        numel: int | None = None,
        shape: tuple[int, ...] | None = None,
        strides: tuple[int, ...] | None = None,
        grid: tuple[int, int, int] | None = None,
        code: str | None = None,
        span: tuple[int, int] | None = None,
        strides_passed: dict | None = None,
        promise: dict | None = None,
        ints: dict | None = None,
        caller: dict | None = None,
        launch_line: int | None = None,
        itemsize: int | None = None,
    ) -> None:
        self.access = access
        self.itemsize = itemsize  # the bytes of one element of the tensor `arg` (strides passed in bytes)
        self.launch_line = launch_line  # the learner's line that launched the kernel (its arguments' text)
        self.kernel = kernel
        self.arg = arg
        self.program_id = tuple(int(p) for p in program_id)
        self.lanes = int(lanes)
        self.offsets = [int(o) for o in offsets][:_MAX_OFFSETS]
        self.extent = int(extent)
        self.file = file
        self.line = line
        self.reason = reason
        self.op = op or access
        self.numel = self.extent if numel is None else int(numel)
        self.shape = tuple(shape) if shape is not None else None
        self.strides = tuple(strides) if strides is not None else None
        self.grid = tuple(grid) if grid is not None else None
        self.code = code
        self.strides_passed = strides_passed
        self.promise = promise
        self.ints = dict(ints or {})  # the launch's integer arguments (strides among them), for mask_facts
        # the faulting line is in a @triton.jit helper: its name, the caller's line, and which of the helper's
        # loop-range parameters the caller passed as what ({"function", "line", "bounds": [{param, arg}]})
        self.caller = caller
        self.span = (
            span if span is not None else ((min(self.offsets), max(self.offsets)) if self.offsets else None)
        )
        super().__init__(self.message)

    def __reduce__(self):
        return (_oob_from_dict, (self.to_dict(),))

    @property
    def program(self) -> str:
        """'program 3' for a 1-D grid, 'program (3, 1)' when the grid (or the id) uses more axes."""
        axes = 1
        if self.grid is not None:
            axes = max((i + 1 for i, g in enumerate(self.grid) if g > 1), default=1)
        axes = max(axes, max((i + 1 for i, p in enumerate(self.program_id) if p), default=1))
        if axes == 1:
            return f"program {self.program_id[0]}"
        return "program (" + ", ".join(str(p) for p in self.program_id[:axes]) + ")"

    @property
    def message(self) -> str:
        target = self.arg or "memory"
        verb = "load from" if self.access == "load" else "store to"
        if self.op not in ("load", "store"):
            verb = f"{self.op.replace('_', ' ')} on"
        lanes = f"{self.lanes} lane{'s' if self.lanes != 1 else ''}"
        if self.span is None:
            where = f"{lanes} outside every tensor argument"
        elif self.span[0] == self.span[1]:
            where = f"element offset {self.span[0]} ({lanes})"
        else:
            where = f"element offsets {self.span[0]}..{self.span[1]} ({lanes})"
        what = "the load" if self.access == "load" else "the store"
        if self.op not in ("load", "store"):
            what = "the atomic"
        if self.arg is None:
            return (
                f"{verb} an address outside every tensor argument in {self.program}: {lanes} — "
                f"check the pointer arithmetic"
            )
        if self.reason == "gap":
            view = f"shape {tuple(self.shape or ())}, strides {tuple(self.strides or ())}"
            foreign = self.mask_facts().get("foreign") or []
            passed = [f for f in foreign if f.get("passed_line")]
            fix = (
                "; ".join(
                    f"line {f['passed_line']} passes {f['passed']} as {f['name']} ({f['value']}), which is "
                    f"not one of its strides {tuple(self.strides or ())}"
                    for f in passed
                )
                + f" — pass {target}'s own strides (.stride(0), .stride(1))"
                if passed
                else "step through it with the tensor's strides"
            )
            return (
                f"{verb} {target} outside the view in {self.program}: {where} fall between the elements of a "
                f"strided view ({view}) — {fix}"
            )
        if self.reason == "before_start" and self.int32_wrap:
            wrap = self.int32_wrap
            row = (
                f" (row {wrap['row']}, {wrap['row_stride']} elements per row)"
                if wrap["row"] is not None
                else ""
            )
            fix = (
                f"the .to(tl.int64) at line {wrap['cast_line']} ({wrap['cast']}) comes after the product: "
                f"{wrap['product']} had already wrapped in int32 — cast before multiplying (the index first, "
                "e.g. row.to(tl.int64) * stride)"
                if wrap.get("cast_line")
                else "compute it in int64 (tl.program_id(0).to(tl.int64) * stride)"
            )
            return (
                f"{verb} {target} out of bounds in {self.program}: {where}, before the start of the tensor — "
                f"that is element {wrap['offset']}{row} minus 2**32: an offset computed in int32 passed "
                f"2**31 and wrapped; {fix}"
            )
        if self.reason == "before_start" and self.narrow_wrap:
            narrow = self.narrow_wrap
            return (
                f"{verb} {target} out of bounds in {self.program}: {where}, before the start of the tensor — "
                f"that is element {narrow['offset']} minus 2**{narrow['bits']}: the offsets were narrowed to "
                f"int{narrow['bits']} at line {narrow['cast_line']} ({narrow['cast']}) and wrapped past "
                f"{2 ** (narrow['bits'] - 1) - 1} — keep offsets in int32 (drop the cast)"
            )
        if self.reason == "before_start":
            return (
                f"{verb} {target} out of bounds in {self.program}: {where}, before the start of the tensor — "
                f"check the offset arithmetic (negative offsets) or mask {what}"
            )
        size = f"the tensor has {self.numel} element{'' if self.numel == 1 else 's'}"
        if self.numel != self.extent:
            plural = "" if self.extent == 1 else "s"
            size = (
                f"the view's {self.numel} element{'s lie' if self.numel != 1 else ' lies'} within "
                f"{self.extent} element{plural} of its buffer"
            )
        return f"{verb} {target} out of bounds in {self.program}: {where}, {size} — {self._mask_hint(what)}"

    @property
    def int32_wrap(self) -> dict | None:
        """{offset, row, row_stride} when the offsets before the tensor are offsets inside it minus 2**32: an
        offset computed in int32 (`row * stride`, int32 by default) passed 2**31 and wrapped."""
        if self.reason != "before_start" or self.span is None:
            return None
        offset = self.span[0] + 2**32
        if not 0 <= offset < self.extent or self.span[1] >= 0:
            return None
        strides = self.strides or ()
        stride = strides[0] if len(strides) >= 2 and strides[0] > 0 else None
        wrap: dict = {"offset": offset, "row": offset // stride if stride else None, "row_stride": stride}
        late = _late_int64_cast(self.file)
        if late is not None:  # the learner did cast, after the product had wrapped
            wrap["cast_line"], wrap["cast"], wrap["product"] = late
        return wrap

    @property
    def narrow_wrap(self) -> dict | None:
        """{bits, offset, cast_line, cast} when the offsets before the tensor are offsets inside it minus
        2**bits (16 or 8) and a @triton.jit function of the file casts to that integer type (`.to(tl.int16)`):
        offsets narrowed to int16/int8 wrapped past 2**(bits - 1) - 1. None without such a cast."""
        if self.reason != "before_start" or self.span is None or self.span[1] >= 0:
            return None
        for bits in (16, 8):
            low = self.span[0] + 2**bits
            if not 2 ** (bits - 1) <= low < self.extent:
                continue  # the first true offset lies past the narrow type's top, inside the tensor
            cast = _narrow_cast(self.file, bits)
            if cast is not None:
                return {"bits": bits, "offset": low, "cast_line": cast[0], "cast": cast[1]}
        return None

    @property
    def promise_size(self) -> dict | None:
        """Under a flag launched True whose name holds a size argument with a BLOCK_ of its own (EVEN_K: K and
        BLOCK_K) and whose promise holds for the size the launch passed (K a multiple of BLOCK_K): the tensor
        the access left is shorter than that size along the axis of the one index the mask leaves out — the
        size passed is what is wrong, not the flag (probe round 17b: A padded along K to K_pad, K_pad passed
        as K, B left with K rows). {size, value, block, block_value, index, axis, extent, and passed,
        passed_line: what the launch passes for the size and where}, or None."""
        promise = self.promise
        if not (promise and promise_holds(promise)) or not self.ints or not self.shape:
            return None
        parts = str(promise.get("name") or "").split("_")
        size = next((p for p in parts if p in self.ints and f"BLOCK_{p}" in self.ints), None)
        if size is None:
            return None
        value, block = int(self.ints[size]), int(self.ints[f"BLOCK_{size}"])
        if block <= 0 or value % block:
            return None  # the promise is false for this size: the flag is the slip (promise_hint)
        unbounded = [u for u in self.mask_facts().get("unbounded") or [] if u.get("mask_axis") is None]
        axes = {u["axis"] for u in unbounded}
        if len(axes) != 1:
            return None
        axis = axes.pop()
        if not 0 <= axis < len(self.shape) or int(self.shape[axis]) >= value:
            return None
        fact: dict = {
            "size": size,
            "value": value,
            "block": f"BLOCK_{size}",
            "block_value": block,
            "index": next(u["name"] for u in unbounded if u["axis"] == axis),
            "axis": axis,
            "extent": int(self.shape[axis]),
        }
        passed = _launch_argument(self.file, self.launch_line, self.kernel, size)
        if passed is not None:
            fact["passed_line"], fact["passed"] = passed
        return fact

    def mask_facts(self) -> dict:
        """The learner's own words for the guard: the mask expression of the faulting line (None: no mask) and
        the index names its pointer is built from that the mask never mentions, with their axes."""
        facts = _mask_facts(self.code, self.file, self.line)
        names = facts.pop("pointer_names", set())
        pointer_source, mask_source = facts.pop("pointer_source", ""), facts.pop("mask_source", None)
        base, moves = facts.pop("pointer_base", None), facts.pop("pointer_moves", True)
        if facts.get("bounded") and self.ints:
            wrong = _wrong_bound(pointer_source, mask_source, self.ints, self.shape, self.strides)
            if wrong:
                facts["wrong_bound"] = wrong
            else:
                swapped = _swapped_bounds(pointer_source, mask_source, self.ints, self.shape, self.strides)
                if swapped:
                    facts["swapped_bounds"] = swapped
                else:
                    permuted = _permuted_bounds(
                        pointer_source, mask_source, self.ints, self.shape, self.strides
                    )
                    if permuted:
                        for term in permuted[
                            "terms"
                        ]:  # what the launch passed for each bound, and from where
                            passed = _launch_argument(self.file, self.launch_line, self.kernel, term["bound"])
                            if passed is not None:
                                term["passed_line"], term["passed"] = passed
                                made = _assigned_before(self.file, passed[0], passed[1])
                                if made is not None:
                                    term["assigned_line"], term["assigned"] = made
                        facts["permuted_bounds"] = permuted
        if self.ints and self.strides is not None:
            foreign = [
                {"name": n, "value": v}
                for n, v in self.ints.items()
                if n in names and "stride" in n.lower() and v not in self.strides and v > 1
            ]
            if foreign:
                for step in foreign:  # what the launch passed for it, and on which line
                    passed = _launch_argument(self.file, self.launch_line, self.kernel, step["name"])
                    if passed is not None:
                        step["passed_line"], step["passed"] = passed
                facts["foreign"] = foreign
                in_bytes = _strides_in_bytes(pointer_source, names, self.ints, self.strides, self.itemsize)
                if in_bytes:
                    facts["strides_in_bytes"] = in_bytes
        offset = facts.get("loop_offset")
        strides = tuple(self.strides or ())
        if (
            isinstance(offset, dict)
            and offset.get("step") in self.ints
            and len(strides) == 2
            and strides[1] == 1
        ):
            # `p * BLOCK_N + cols` over a [P, N] tensor: the loop steps p rows of BLOCK_N elements, where the
            # rows are strides[0] apart — the step is wrong, not the mask (a harder mask reads wrong elements)
            value, row = int(self.ints[offset["step"]]), int(strides[0])
            rows, cols = (int(d) for d in self.shape or (0, 0))
            chunks = -(-cols // value) if value > 0 else None
            # the loop counts the rows (its stop is the tensor's row count), not a row's chunks of the step
            # (a chunk loop `k * BLOCK + lanes` with the mask missing k is the hint below, not this one)
            over_rows = self.ints.get(offset.get("stop") or "") == rows and rows != chunks
            if value != row and over_rows:
                names = sorted(n for n, v in self.ints.items() if v == row and n != offset["step"])
                plain = [n for n in names if "stride" not in n.lower()]
                offset["row_step"] = {
                    "value": value,
                    "row_stride": row,
                    "row_name": (plain or names or [None])[0],
                }
        unbounded = facts.get("unbounded") or []
        if facts.get("mask") and unbounded and not moves and self.ints and self.shape and self.strides:
            whole = _whole_axes(
                [u["name"] for u in unbounded],
                pointer_source,
                self.ints,
                self.shape,
                self.strides,
                self.file or "",
                self.line or 0,
            )
            if whole:
                moved = _moved_base(self.file or "", self.line or 0, base, self.ints) if base else None
                facts["base_offset"] = {"whole": whole, **(moved or {"pointer": None})}
        return facts

    def _mask_hint(self, what: str) -> str:
        desc = descriptor_access(self.code)
        if desc:
            return (
                f"{desc} is a tensor descriptor: its accesses take no mask — the shape and strides it was "
                f"built with bound them, and here they reach past {self.arg}'s tensor: check the shape and "
                f"strides given where {desc} is made (tl.make_tensor_descriptor)"
            )
        if self.strides_passed:
            return swapped_strides_hint(self.arg or "", self.strides_passed)
        if self.promise and promise_holds(self.promise):
            short = self.promise_size
            if short:  # the promise holds for the size passed: that size is what the tensor lacks
                return promise_size_hint(self.promise, self.line, self.arg or "?", short)
            return promise_hint(self.promise, self.line) + "; otherwise " + self._plain_mask_hint(what)
        if self.promise:  # FLAG=False promises nothing: the masked branch itself misses a bound
            return self._plain_mask_hint(what) + unpromised_note(self.promise, self.mask_facts())
        return self._plain_mask_hint(what)

    def _plain_mask_hint(self, what: str) -> str:
        facts = self.mask_facts()
        mask, unbounded = facts.get("mask"), facts.get("unbounded") or []
        range_hint = caller_range_hint(self.caller) if not mask and facts.get("parsed") else None
        if range_hint:
            return range_hint
        if facts.get("strides_in_bytes"):
            return strides_in_bytes_hint(
                self.arg or "?", tuple(self.strides or ()), facts["strides_in_bytes"]
            )
        if facts.get("foreign"):
            steps = ", ".join(f"{f['name']} = {f['value']}" for f in facts["foreign"])
            return (
                f"the pointer steps with {steps}, which is not a stride of {self.arg} (its strides are "
                f"{tuple(self.strides or ())}): step through {self.arg} with its own strides"
            )
        if mask and facts.get("or_joined"):
            return or_joined_hint(mask, facts["or_joined"])
        if mask and facts.get("base_offset"):
            return base_offset_hint(mask, facts["base_offset"])
        crossed = [u for u in unbounded if u.get("mask_axis") is not None]
        if mask and crossed:
            return other_axis_hint(mask, crossed)
        if unbounded:
            names = " and ".join(f"{u['name']} (axis {u['axis']})" for u in unbounded)
            if mask:
                return f"the mask ({mask}) never bounds {names}: add a bound for it to the mask of {what}"
            return f"{what} has no mask: bound {names} (and every other index) with a mask"
        if mask and facts.get("precedence"):
            return (
                f"the mask ({mask}) does not bound what it seems to: in {facts['precedence']} Python's & "
                "binds "
                "tighter than < (and a chained comparison is not elementwise) — put each comparison in "
                "parentheses: (a < n) & (b < m)"
            )
        if facts.get("double_step"):
            return double_step_hint(what, facts["double_step"])
        if mask and facts.get("advance"):
            adv = facts["advance"]
            return (
                f"{adv['pointer']} advances inside the loop, but the mask compares {adv['index']} with "
                f"{adv['bound']}, which never shrinks: bound it by what is left ({adv['bound']} - k * "
                "BLOCK_K)"
            )
        if mask and facts.get("loop_offset"):
            return loop_offset_hint(mask, facts["loop_offset"])
        if mask and facts.get("extra"):
            return (
                f"the mask ({mask}) bounds the indices, but the pointer also adds "
                f"{' + '.join(facts['extra'])}, and {self.arg} already points at its first element: drop the "
                "extra offset"
            )
        if mask and facts.get("wrong_bound"):
            return wrong_bound_hint(mask, self.arg or "?", facts["wrong_bound"])
        if mask and facts.get("swapped_bounds"):
            return swapped_bounds_hint(mask, self.arg or "?", facts["swapped_bounds"])
        if mask and facts.get("other_index"):
            return other_index_hint(mask, facts["other_index"])
        if mask and "num_programs" in mask:
            return (
                f"the mask ({mask}) compares the offsets with the grid's extent (num_programs × the block), "
                "which rounds up past the end of the tensor: bound them by the tensor's own size "
                "(n_elements), not by the grid"
            )
        if mask and facts.get("bounded"):
            return (
                f"the mask ({mask}) bounds every index, yet these lanes land past the end: unless one of its "
                "bounds is wrong, the address itself is off — check the strides and any offset added to the "
                f"pointer, and the shape the tensor was allocated with {tuple(self.shape or ())}"
            )
        if mask and facts.get("off_by_one"):
            return off_by_one_hint(mask, facts["off_by_one"], facts.get("mask_line"))
        if mask:
            at = f", line {facts['mask_line']}" if facts.get("mask_line") else ""
            return (
                f"the mask ({mask}{at}) lets these lanes through: it must be False for every offset past the "
                "end"
            )
        if facts.get("parsed"):
            return f"{what} has no mask: pass mask= with a bound for each index (e.g. offsets < n_elements)"
        return f"mask {what} (offsets < n_elements)"

    def to_dict(self) -> dict:
        return {
            "access": self.access,
            "op": self.op,
            "kernel": self.kernel,
            "arg": self.arg,
            "program_id": list(self.program_id),
            "grid": list(self.grid) if self.grid is not None else None,
            "lanes": self.lanes,
            "offsets": list(self.offsets),
            "span": list(self.span) if self.span is not None else None,
            "extent": self.extent,
            "numel": self.numel,
            "shape": list(self.shape) if self.shape is not None else None,
            "strides": list(self.strides) if self.strides is not None else None,
            "reason": self.reason,
            "file": self.file,
            "line": self.line,
            "code": self.code,
            "descriptor": descriptor_access(self.code),
            "strides_passed": self.strides_passed,
            "promise": self.promise,
            "promise_size": self.promise_size,
            "caller": self.caller,
            "launch_line": self.launch_line,
            "itemsize": self.itemsize,
            "int32_wrap": self.int32_wrap,
            "narrow_wrap": self.narrow_wrap,
            **{k: v for k, v in self.mask_facts().items() if k != "parsed"},
            "message": self.message,
        }


def caller_range_hint(caller: dict | None) -> str | None:
    """An unmasked access in a helper that loops over a range its caller chose: the caller's range is where a
    guard belongs as much as the access (the attention starter's unmasked block helper, by design)."""
    if not isinstance(caller, dict) or not caller.get("bounds"):
        return None
    given = ", ".join(f"{b['param']} = {b['arg']}" for b in caller["bounds"])
    helper = caller["function"]
    return (
        f"this access in {helper} has no mask, and {helper} walks the range its caller gives it — the call "
        f"at line {caller['line']} passes {given}: keep that range inside the tensor there (or mask the "
        "access here)"
    )


def or_joined_hint(mask: str, joined: dict) -> str:
    at = f" at line {joined['line']}" if joined.get("line") else ""
    return (
        f"the mask ({mask}) joins its bounds with |{at}: a lane passes when any one of them holds, so lanes "
        "past the end along one axis still pass where another bound holds — join them with &, so that every "
        f"bound must hold: {joined['fixed']}"
    )


def loop_offset_hint(mask: str, offset: dict) -> str:
    var, index = offset["loop_var"], offset["mask_index"]
    term = offset.get("term") or var
    row = offset.get("row_step")
    if row:
        step, size = offset["step"], row.get("row_name") or str(row["row_stride"])
        return (
            f"the pointer's offsets are {term} + {index}: each step of the loop over {var} moves {step} = "
            f"{row['value']} elements, but the rows are {row['row_stride']} elements apart — the mask "
            f"({mask}) is right for {index}; the step is not: step by the row length ({var} * {size})"
        )
    moved = f"{offset['index']} = {offset['expr']}" if offset.get("index") else f"{term} + {index}"
    bound = offset.get("index") or f"{term} + {index}"
    return (
        f"the pointer's offsets are {moved}, but the mask ({mask}) compares {index}, which leaves out the "
        f"loop's {var}: from the loop's second step on, lanes past the end pass it — bound {bound} instead"
    )


def swapped_strides_hint(arg: str, passed: dict) -> str:
    given = ", ".join(f"{n}={v}" for n, v in zip(passed["params"], passed["values"], strict=False))
    where = f" (the launch at line {passed['launch_line']})" if passed.get("launch_line") else ""
    return (
        f"the strides passed for {arg} are in the wrong order{where}: {given}, but the tensor passed as "
        f"{arg} has strides {tuple(passed['strides'])} — in-range indices then walk out of the tensor "
        "whatever the mask says"
    )


def off_by_one_hint(mask: str, off: dict, mask_line: int | None) -> str:
    at = f" at line {mask_line}" if mask_line else ""
    return (
        f"the mask ({mask}) lets these lanes through: it must be False for every offset past the end, and "
        f"{off['compare']}{at} is off by one, letting {off['index']} = {off['bound']} through — use "
        f"{off['fix']}"
    )


def wrong_bound_hint(mask: str, arg: str, wrong: dict) -> str:
    index, bound, value, axis, extent = (
        wrong[k] for k in ("index", "bound", "bound_value", "axis", "extent")
    )
    expected = wrong.get("expected")
    fix = (
        f"compare {index} with {expected} ({expected} = {extent}), not {bound}"
        if expected
        else f"compare {index} with the length of that axis ({extent}), not {bound}"
    )
    return (
        f"in the mask ({mask}) the term {wrong['term']} bounds {index} by {bound} = {value}, but {index} "
        f"indexes axis {axis} of {arg} (through {wrong['stride']}), which has {extent} entries: its values "
        f"{extent}..{value - 1} pass the mask and land past the end — {fix}"
    )


def strides_in_bytes_hint(arg: str, strides: tuple, in_bytes: dict) -> str:
    steps = ", ".join(f"{s['name']} = {s['value']}" for s in in_bytes["strides"])
    size = in_bytes["element_size"]
    return (
        f"the pointer steps with {steps}: that is {arg}'s strides {strides} times {size}, the size of an "
        "element in bytes — Triton's pointer arithmetic counts elements, not bytes: pass the strides as "
        "tensor.stride() gives them (drop the * element_size())"
    )


def base_offset_hint(mask: str, base: dict) -> str:
    whole = base["whole"]
    spans = ", ".join(f"{w['expr']}, {w['extent']} entries" for w in whole)
    left = (
        f"the only index the mask ({mask}) leaves out covers its whole axis ({spans}) and cannot run past it"
        if len(whole) == 1
        else f"the indices the mask ({mask}) leaves out each cover their whole axis ({spans}) and cannot run "
        "past it"
    )
    hint = f"{left}: the address itself is off — check the strides and the offsets added to the pointer"
    if base.get("pointer"):
        hint += f", starting with {base['code']} (line {base['line']})"
        swapped = base.get("swapped")
        if swapped:
            (i1, i2), (s1, s2) = swapped["indices"], swapped["strides"]
            hint += (
                f", which multiplies {i1} by {s1} and {i2} by {s2}: those two strides look swapped "
                f"({i1} goes with {s2}, {i2} with {s1})"
            )
    return hint


def double_step_hint(what: str, step: dict) -> str:
    pointer, var = step["pointer"], step["loop_var"]
    return (
        f"{what} adds {step['offset']} to {pointer}, and {pointer} also advances by {step['step']} at each "
        f"step of the loop (line {step['line']}): the loop's offset is applied twice, so step {var} reads "
        f"where step 2 * {var} belongs while the mask checks step {var} — keep one of the two: use {pointer} "
        f"alone, or drop the {pointer} += line"
    )


def swapped_bounds_hint(mask: str, arg: str, swapped: dict) -> str:
    pairs = swapped["pairs"]
    given = " and ".join(f"{p['index']} with {p['bound']}" for p in pairs)
    axes = ", ".join(
        f"{p['index']} indexes axis {p['axis']} of {arg}, which has {p['extent']} entries "
        f"({p['expected']} = {p['extent']})"
        for p in pairs
    )
    fix = " and ".join(f"{p['index']} with {p['expected']}" for p in pairs)
    return f"the mask ({mask}) compares {given}: the bounds are swapped — {axes}: compare {fix}"


def other_index_hint(mask: str, other: dict) -> str:
    index, bounded, axis = other["index"], other["mask_index"], other["axis"]
    where = (
        f" ({other['pointer']} = {other['assigned']}, line {other['line']})" if other.get("pointer") else ""
    )
    target = other.get("pointer") or "the pointer"
    made = f"{bounded} = {other['mask_expr']}" if other.get("mask_expr") else bounded
    return (
        f"the mask ({mask}) bounds {bounded}, but the pointer's index on axis {axis} is {index}{where}, "
        f"which is neither {bounded} nor made from it: the mask checks other elements than the ones read — "
        f"build {target} from what the mask's index is made of ({made})"
    )


_PRODUCT = re.compile(r"\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*\*\s*([A-Za-z_]\w*)\b")


def _wrong_bound(
    pointer: str, mask: str | None, ints: dict, shape: tuple | None, strides: tuple | None
) -> dict | None:
    """A mask term that compares an index with the wrong size: the index steps along one axis of the tensor
    (it multiplies that axis's stride) whose length is smaller than the bound it is compared with, so its
    out-of-range values pass the mask (rows < n_cols while rows runs past n_rows). Returns the term, the
    index, the bound and its value, the axis and its length, and the integer argument equal to that length
    (the bound it should use), when there is one."""
    found = _bound_terms(pointer, mask, ints, shape, strides)
    if found is None:
        return None
    axis_of, terms = found
    assert shape is not None and mask is not None  # _bound_terms checked them
    # the bounds are the tensor's sizes in another order (the output allocated like x, not transposed): the
    # mask is right and the allocation is what is off - the plain 'bounds every index' sentence says so
    # (unless the names say the mask swapped them: _swapped_bounds)
    if len(terms) == len(shape) and sorted(int(ints[b]) for _, _, b in terms) == sorted(
        int(d) for d in shape
    ):
        return None
    for node, index, bound in terms:
        axis, stride = axis_of[index]
        extent, value = int(shape[axis]), int(ints[bound])
        if value <= extent:
            continue
        candidates = [
            n
            for n, v in ints.items()
            if v == extent and n != bound and "stride" not in n.lower() and not n.upper().startswith("BLOCK")
        ]
        stem = index.rstrip("s").lower()
        candidates.sort(key=lambda n: stem not in n.lower())
        return {
            "term": ast.get_source_segment(mask.strip(), node),
            "index": index,
            "bound": bound,
            "bound_value": value,
            "axis": axis,
            "stride": stride,
            "extent": extent,
            "expected": candidates[0] if candidates else None,
        }
    return None


def _narrow_cast(file: str | None, bits: int) -> tuple[int, str] | None:
    """(line, source) of the first `tl.int{bits}` (`.to(tl.int16)`, a cast or a dtype) in a @triton.jit
    function of the learner's file, or None."""
    tree = _parsed_file(file) if file else None
    if tree is None:
        return None
    names = (f"tl.int{bits}", f"triton.language.int{bits}")
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or not any("jit" in ast.unparse(d) for d in fn.decorator_list):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and ast.unparse(node) in names:
                found.append(node.lineno)
    if not found:
        return None
    line = min(found)
    text = linecache.getline(str(file), line).strip() if file else ""
    return line, text[:80]


def _late_int64_cast(file: str | None) -> tuple[int, str, str] | None:
    """(line, call text, product text) of the first `(a * b).to(tl.int64)` in a @triton.jit function of the
    learner's file: a cast to int64 applied to a product that int32 already computed (and wrapped)."""
    tree = _parsed_file(file) if file else None
    if tree is None:
        return None
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or not any("jit" in ast.unparse(d) for d in fn.decorator_list):
            continue
        for node in ast.walk(fn):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "to"
                and node.args
                and ast.unparse(node.args[0]) in ("tl.int64", "triton.language.int64")
                and isinstance(node.func.value, ast.BinOp)
                and isinstance(node.func.value.op, ast.Mult)
            ):
                return node.lineno, ast.unparse(node)[:80], ast.unparse(node.func.value)[:60]
    return None


def _permuted_bounds(
    pointer: str, mask: str | None, ints: dict, shape: tuple | None, strides: tuple | None
) -> dict | None:
    """The mask bounds each axis's index by an integer argument, and those arguments are the tensor's sizes
    in another order (`rows < n_rows` with n_rows = 13 for a tensor of 7 rows and 13 columns): either the
    tensor was allocated in the wrong shape or the launch passed the sizes of another tensor. _wrong_bound
    leaves this to the allocation sentence; the judge, told by the runner which case input the tensor is,
    tells the two apart (an input's shape is the lab's). {"terms": [{index, bound, value, axis, extent}]}."""
    found = _bound_terms(pointer, mask, ints, shape, strides)
    if found is None:
        return None
    axis_of, terms = found
    assert shape is not None
    if len(terms) != len(shape) or sorted(int(ints[b]) for _, _, b in terms) != sorted(int(d) for d in shape):
        return None
    out = []
    for _node, index, bound in terms:
        axis, _stride = axis_of[index]
        out.append(
            {
                "index": index,
                "bound": bound,
                "value": int(ints[bound]),
                "axis": axis,
                "extent": int(shape[axis]),
            }
        )
    if len({t["axis"] for t in out}) != len(out) or all(t["value"] == t["extent"] for t in out):
        return None
    return {"terms": out}


def permuted_bounds_hint(mask: str, arg: str, permuted: dict) -> str:
    """The judge's sentence when the tensor of a permuted-bounds fault is an input of the case: its shape is
    the lab's, so the sizes the launch passed are what is wrong."""
    terms = permuted["terms"]
    given = " and ".join(f"{t['index']} by {t['bound']} = {t['value']}" for t in terms)
    where = ""
    made = next((t for t in terms if t.get("assigned_line")), None)
    passed = next((t for t in terms if t.get("passed_line")), None)
    if made is not None:
        where = f" (line {made['assigned_line']}: {made['assigned']})"
    elif passed is not None:
        where = f" (the launch at line {passed['passed_line']})"
    name, shape = permuted.get("input") or arg, tuple(permuted.get("shape") or ())
    return (
        f"the mask ({mask}) bounds {given}, but {arg} is the input {name}, of shape {shape}: the launch "
        f"passes its sizes in another order{where} — "
        + ", ".join(f"{t['bound']} must be {t['extent']}" for t in terms if t["value"] != t["extent"])
        + f" (pass {name}'s own shape)"
    )


def _assigned_before(file: str | None, line: int, name: str) -> tuple[int, str] | None:
    """(line, source text) of the last assignment to the bare name `name` above `line` in the function that
    holds `line` (`n_rows, n_cols = output.shape`), read from the learner's file."""
    if not name.isidentifier():
        return None
    tree = _parsed_file(file) if file else None
    if tree is None:
        return None
    holder: ast.FunctionDef | None = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        inside = node.lineno <= line <= (node.end_lineno or node.lineno)
        if inside and (holder is None or node.lineno > holder.lineno):
            holder = node
    if holder is None:
        return None
    found: tuple[int, str] | None = None
    for node in ast.walk(holder):
        if isinstance(node, ast.Assign) and node.lineno < line:
            names = {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            if name in names and (found is None or node.lineno > found[0]):
                found = (node.lineno, ast.unparse(node)[:80])
    return found


def _bound_terms(
    pointer: str, mask: str | None, ints: dict, shape: tuple | None, strides: tuple | None
) -> tuple[dict[str, tuple[int, str]], list[tuple[ast.Compare, str, str]]] | None:
    """The mask's terms `index < size` whose index steps along one axis of the tensor (it multiplies exactly
    one of the tensor's strides) and whose size is an integer argument: the index's axis and stride name, and
    the terms as (the comparison, its index, the size it is bounded by)."""
    if not mask or not shape or not strides or len(shape) != len(strides):
        return None
    try:
        tree = ast.parse(mask.strip(), mode="eval")
    except SyntaxError:
        return None
    compared = {
        n.id
        for c in ast.walk(tree)
        if isinstance(c, ast.Compare)
        for n in c.comparators
        if isinstance(n, ast.Name)
    }
    axis_of: dict[str, tuple[int, str]] = {}
    for a, b in _PRODUCT.findall(pointer):
        for index, stride in ((a, b), (b, a)):
            value = ints.get(stride)
            if value is None or index in ints or stride in compared or list(strides).count(value) != 1:
                continue
            axis_of.setdefault(index, (list(strides).index(value), stride))
    terms: list[tuple[ast.Compare, str, str]] = []  # (the comparison, its index, the size it is bounded by)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        left, right = node.left, node.comparators[0]
        if isinstance(node.ops[0], ast.Gt):
            left, right = right, left
        elif not isinstance(node.ops[0], ast.Lt):
            continue
        if not isinstance(right, ast.Name) or right.id not in ints:
            continue
        indices = [n.id for n in ast.walk(left) if isinstance(n, ast.Name) and n.id in axis_of]
        if len(set(indices)) == 1:
            terms.append((node, indices[0], right.id))
    return axis_of, terms


_AXIS_FORM = {0: "[:, None]", 1: "[None, :]"}
_AXIS_WORD = {0: "rows", 1: "columns"}


def other_axis_hint(mask: str, crossed: list[dict]) -> str:
    """The mask bounds an index of the pointer only broadcast along the other axis (`_mask_other_axis`)."""
    u = crossed[0]
    name, axis, other = u["name"], u["axis"], u["mask_axis"]
    return (
        f"the mask ({mask}) bounds {name} along {_AXIS_WORD[other]} ({name}{_AXIS_FORM[other]}), but the "
        f"address uses it along {_AXIS_WORD[axis]} ({name}{_AXIS_FORM[axis]}): the {_AXIS_WORD[axis]} past "
        f"the end are not masked — write {name}{_AXIS_FORM[axis]} in the mask too, as in the pointer"
    )


def promise_holds(promise: dict) -> bool:
    """A flag launched True promises something (EVEN_K: every K step is full); launched False (0) it promises
    nothing, and the line it guards is the branch meant to mask everything."""
    return bool(promise.get("value"))


def unpromised_note(promise: dict, facts: dict) -> str:
    """The tail after the mask hint for a line in a FLAG=False branch: that branch is the one for partial
    blocks, so an index its mask leaves unbounded needs the bound of what is left
    (offs_k < K - k * BLOCK_K)."""
    unbounded = facts.get("unbounded") or []
    if not unbounded:
        return ""
    names = " and ".join(u["name"] for u in unbounded)
    example = f", e.g. {unbounded[0]['name']} < K - k * BLOCK_K" if promise["name"].endswith("_K") else ""
    return (
        f" (this is the {promise['name']}=False branch, which runs when the blocks do not divide the size: "
        f"bound {names} by what is left of its range{example})"
    )


def promise_size_hint(promise: dict, line: int | None, arg: str, short: dict) -> str:
    """The promise holds for the size the kernel got, but the tensor is shorter than that size."""
    name, value = promise["name"], promise["value"]
    where = f" (line {promise['line']}: {name}={promise.get('expr') or '...'})" if promise.get("line") else ""
    size, total = short["size"], short["value"]
    passed = (
        f"the launch passes {short['passed']} as {size} (line {short['passed_line']}), more than that tensor "
        "holds"
        if short.get("passed_line") and short.get("passed") != size
        else f"{size} = {total} is more than that tensor holds"
    )
    block = f"{short['block']} = {short['block_value']}"
    return (
        f"line {line} runs only because the launch passed {name}={value}{where}, and that holds for the "
        f"{size} the kernel was given ({size} = {total}, a multiple of {block}) — but the tensor passed as "
        f"{arg} has size {short['extent']} along axis {short['axis']}, the axis {short['index']} indexes up "
        f"to {size}: {passed} — pass the {size} of every tensor indexed along it, or pad {arg}'s tensor to "
        f"{total} along that axis as well"
    )


def promise_hint(promise: dict, line: int | None) -> str:
    name, value = promise["name"], promise["value"]
    where = ""
    if promise.get("line"):
        where = f" (line {promise['line']}: {name}={promise.get('expr') or '...'})"
    return (
        f"line {line} runs only because the launch passed {name}={value}{where}: if that promise does not "
        f"hold for this case, fix how the wrapper computes {name}"
    )


_AXIS_PATTERNS = (
    (0, re.compile(r"(\w+)\s*\[\s*:\s*,\s*None\s*\]")),
    (1, re.compile(r"(\w+)\s*\[\s*None\s*,\s*:\s*\]")),
)


_DESCRIPTOR_ACCESS = re.compile(r"\b(\w+)\.(?:load|store|atomic_\w+)\s*\(")


def descriptor_access(code: str | None) -> str | None:
    """The descriptor's name when the line accesses memory through one (`b_desc.load([...])`), else None."""
    for match in _DESCRIPTOR_ACCESS.finditer(code or ""):
        if match.group(1) != "tl":
            return match.group(1)
    return None


def _mask_facts(code: str | None, file: str | None, line: int | None) -> dict:
    """Read the faulting tl.load/tl.store call: its mask= text, and the 2D index names (x[:, None] is axis 0,
    x[None, :] axis 1) of its pointer — inline, or from the pointer variable's assignments above the line —
    that the mask does not mention. Best effort: {} when the line is not a plain call."""
    if not code:
        return {}
    try:
        tree = ast.parse(code.strip().rstrip(":"), mode="exec")
    except SyntaxError:  # a call spread over several lines: read the whole statement that starts here
        code = _statement(file, line)
        try:
            tree = ast.parse(code or "", mode="exec")
        except SyntaxError:
            return {}
    call = next(
        (
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("load", "store", "atomic_add", "atomic_max", "atomic_min", "atomic_xchg")
        ),
        None,
    )
    if call is None or not call.args:
        return {}
    assert isinstance(call.func, ast.Attribute)  # the search above matched only attribute calls
    text = (code or "").strip().rstrip(":")
    mask_node = next((k.value for k in call.keywords if k.arg == "mask"), None)
    if mask_node is None and call.func.attr == "store" and len(call.args) >= 3:
        mask_node = call.args[2]
    elif mask_node is None and call.func.attr == "load" and len(call.args) >= 2:
        mask_node = call.args[1]
    mask = ast.get_source_segment(text, mask_node) if mask_node is not None else None
    if isinstance(mask_node, ast.Name) and file and line:  # mask=mask: show what the learner assigned to it
        defined = _assignments(mask_node.id, file, line).strip()
        if defined:
            mask = f"{mask_node.id} = {defined}"
    pointer = ast.get_source_segment(text, call.args[0]) or ""
    source = pointer
    if isinstance(call.args[0], ast.Name) and file and line:
        source += " " + _assignments(call.args[0].id, file, line)
    axes: dict[str, int] = {}
    for axis, pattern in _AXIS_PATTERNS:
        for name in pattern.findall(source):
            axes.setdefault(name, axis)
    mentioned = set(re.findall(r"\w+", mask or ""))
    if file and line:  # col_mask[None, :] bounds cols when col_mask = cols < n_cols (probe round 17a)
        mentioned |= _followed_bounds(mentioned - set(axes), file, line)
    unbounded = [{"name": n, "axis": a} for n, a in axes.items() if n not in mentioned]
    unbounded += _mask_other_axis(axes, mask or "")
    # the mask names every index of the pointer with a strict bound: then the address itself may be off
    indices = set(axes) or (set(re.findall(r"[A-Za-z_]\w*", pointer)) - {"tl", "None"})
    bounded = bool(mask) and not unbounded and bool(indices & mentioned) and "<=" not in (mask or "")
    mask_source = (
        mask.split(" = ", 1)[1] if mask and isinstance(mask_node, ast.Name) and " = " in mask else mask
    )
    or_joined = _or_joined(mask_source, indices, file, line) if mask_source else None
    if or_joined is not None:  # each bound holds, but | lets a lane through when any one of them does
        bounded = False
        if isinstance(mask_node, ast.Name) and file and line:
            or_joined["line"] = _assignment_line(mask_node.id, file, line)
    facts: dict = {"parsed": True, "mask": mask, "unbounded": unbounded, "bounded": bounded}
    if or_joined is not None:
        facts["or_joined"] = or_joined
    off = _off_by_one(mask_source, set(re.findall(r"[A-Za-z_]\w*", source)) - {"tl", "None"})
    if off:
        facts["off_by_one"] = off
    if isinstance(mask_node, ast.Name) and mask and file and line:
        made = _assignment_lines(mask_node.id, file, line)
        if off:  # the assignment that holds the `<=` (a mask built over several lines)
            made = [m for m in made if off["compare"] in " ".join(m[1].split())] or made
        if len(made) == 1:
            facts["mask_line"] = made[0][0]
    precedence = _precedence(mask_source)
    if precedence:
        facts["precedence"] = precedence
    elif mask and isinstance(call.args[0], ast.Name) and file and line:
        advance = _loop_bound(file, line, call.args[0].id, mask_source or "")
        if advance:
            facts["advance"] = advance
    if mask and not precedence and "advance" not in facts and file and line:
        offset = _loop_offset(file, line, source, mask_source or "")
        if offset:
            facts["loop_offset"] = offset
    if file and line:
        double = _double_step(file, line, call.args[0], text)
        if double:
            facts["double_step"] = double
        if mask and not precedence and not unbounded:
            other = _other_index(file, line, call.args[0], text, mask_source or "")
            if other:
                facts["other_index"] = other
        first = _add_terms(call.args[0])[0]
        facts["pointer_base"] = first.id if isinstance(first, ast.Name) else None
        facts["pointer_moves"] = _moves_in_loop(file, line, source)
    facts["pointer_names"] = set(re.findall(r"[A-Za-z_]\w*", source))
    facts["pointer_source"], facts["mask_source"] = source, mask_source
    extra = _extra_terms(call.args[0], text, mentioned | set(axes), file, line)
    if bounded and extra:
        facts["extra"] = extra
    return facts


def _off_by_one(mask: str | None, names: set[str]) -> dict | None:
    """{compare, index, bound, fix} for a comparison `index <= bound` (or `bound >= index`) in the mask whose
    index side names the pointer's indices (`names`): it lets index == bound through, one past the last valid
    index — `<` is meant. Not for `index <= n - 1` (right as it stands), nor a chained comparison
    (`_precedence` names that). None when the mask has no such comparison."""
    if not mask or not names:
        return None
    try:
        tree = ast.parse(mask.strip(), mode="eval")
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, ast.LtE):
            index, bound, fix = node.left, right, "<"
        elif isinstance(op, ast.GtE):
            index, bound, fix = right, node.left, ">"
        else:
            continue
        index_names = {n.id for n in ast.walk(index) if isinstance(n, ast.Name)}
        if not index_names & names or not any(isinstance(n, ast.Name) for n in ast.walk(bound)):
            continue
        if (
            isinstance(bound, ast.BinOp)
            and isinstance(bound.op, ast.Sub)
            and isinstance(bound.right, ast.Constant)
            and isinstance(bound.right.value, int)
            and bound.right.value >= 1
        ):
            continue  # `offsets <= n - 1` is `offsets < n`
        left, right_text = ast.unparse(node.left), ast.unparse(right)
        return {
            "compare": ast.unparse(node),
            "index": ast.unparse(index),
            "bound": ast.unparse(bound),
            "fix": f"{left} {fix} {right_text}",
        }
    return None


def _followed_bounds(names: set[str], file: str, line: int) -> set[str]:
    """The names inside the bounds that `names` stand for: each name the function assigns once, above
    `line`, a comparison or a combination of comparisons (`col_mask = cols < n_cols`, `m = a & b`) gives the
    names of that expression (two levels deep)."""
    found: set[str] = set()
    todo = [(n, 0) for n in names]
    while todo:
        name, depth = todo.pop()
        made = _sole_assignment(name, file, line)
        try:
            value = ast.parse(made, mode="eval").body if made else None
        except SyntaxError:
            value = None
        if not _is_bound(value):
            continue
        words = set(re.findall(r"\w+", made or "")) - found - {name}
        found |= words
        if depth < 1:
            todo.extend((w, depth + 1) for w in words)
    return found


def _is_bound(node: ast.AST | None) -> bool:
    """A comparison, or comparisons joined by & / | / ~ (a mask's expression)."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
        return _is_bound(node.left) or _is_bound(node.right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return _is_bound(node.operand)
    if isinstance(node, ast.Subscript):  # row_ok[:, None]
        return _is_bound(node.value)
    return False


def _or_joined(mask: str, indices: set[str], file: str | None, line: int | None) -> dict | None:
    """A mask whose top level joins bounds of different indices with `|`:
    `(rows[:, None] < n_rows) | col_mask[None, :]` lets a lane through when its row OR its column is in
    range, so the edge tiles reach past the tensor along the other axis. {mask, operands, fixed (the same
    operands joined with &)}; None for any other mask, or where every operand bounds the same indices
    (`(offs < n) | (offs == 0)` may be meant)."""
    try:
        body = ast.parse(mask.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(body, ast.BinOp) and isinstance(body.op, ast.BitOr)):
        return None
    operands: list[ast.expr] = []
    todo: list[ast.expr] = [body]
    while todo:
        node = todo.pop(0)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            todo[:0] = [node.left, node.right]
        else:
            operands.append(node)
    bounded: list[frozenset[str]] = []
    for operand in operands:
        words = set(re.findall(r"\w+", ast.unparse(operand)))
        direct = _is_bound(operand)
        if file and line:
            followed = _followed_bounds(words, file, line)
            direct = direct or bool(followed)
            words |= followed
        if not direct:
            return None  # an operand that is no bound (a flag, a loaded value): not a bounds mask
        bounded.append(frozenset(words & indices))
    if len(operands) < 2 or not all(bounded) or len(set(bounded)) < 2:
        return None
    fixed: ast.expr = operands[0]
    for operand in operands[1:]:
        fixed = ast.BinOp(left=fixed, op=ast.BitAnd(), right=operand)
    return {
        "mask": " ".join(mask.split()),
        "operands": [ast.unparse(o) for o in operands],
        "fixed": ast.unparse(fixed),
    }


def _assignment_line(name: str, file: str, line: int, lookback: int = 60) -> int | None:
    """The line of the last `name = ...` above `line` in the function that holds it."""
    pattern = re.compile(rf"^\s*{re.escape(name)}\s*=(?!=)")
    found = None
    for number in range(_function_start(file, line, lookback), line):
        if pattern.match(linecache.getline(file, number)):
            found = number
    return found


def _mask_other_axis(axes: dict[str, int], mask: str) -> list[dict]:
    """The pointer's 2D indices that the mask names only broadcast along the other axis: B's pointer steps
    its rows with offs_k[:, None] while the mask (pasted from A's) says offs_k[None, :] < k_remaining — the
    rows past K are never masked. Each as {"name", "axis" (the pointer's), "mask_axis"}; an index the mask
    also names in any other way (bare, or on the pointer's axis) is left out."""
    found = []
    for name, axis in axes.items():
        uses = len(re.findall(rf"\b{re.escape(name)}\b", mask))
        if not uses:
            continue
        mask_axes = [a for a, pattern in _AXIS_PATTERNS for n in pattern.findall(mask) if n == name]
        if len(mask_axes) == uses and axis not in mask_axes:
            found.append({"name": name, "axis": axis, "mask_axis": mask_axes[0]})
    return found


def _precedence(mask: str | None) -> str | None:
    """`a & b < n` is `(a & b) < n`, and `0 <= x < n` on blocks is `(0 <= x) and (x < n)` — Python's `and`,
    which a block cannot do: a comparison with `&`/`|` inside an operand, or a chained comparison. Returns
    the offending part."""
    if not mask:
        return None
    try:
        tree = ast.parse(mask.strip(), mode="eval")
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        mixed = any(
            isinstance(n, ast.BinOp) and isinstance(n.op, (ast.BitAnd, ast.BitOr))
            for operand in operands
            for n in ast.walk(operand)
        )
        if mixed or len(node.ops) > 1:
            return ast.get_source_segment(mask.strip(), node) or mask
    return None


def _loop_bound(file: str, line: int, pointer: str, mask: str) -> dict | None:
    """The faulting access sits in a loop that advances `pointer` (`a_ptrs += BLOCK_K * stride_ak`) while its
    mask compares an index with a bound the loop never changes (`offs_k < K`): after the first step the bound
    must shrink with the pointer (`K - k * BLOCK_K`)."""
    tree = _parsed_file(file)
    if tree is None:
        return None
    loop = _innermost_loop(tree, line)
    if loop is None:
        return None
    steps = [
        n
        for n in ast.walk(loop)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == pointer
    ]
    if not steps:
        return None
    # the index that walks with the pointer: the one multiplied by a stride the advance also uses
    step_names = {n.id for s in steps for n in ast.walk(s.value) if isinstance(n, ast.Name)}
    walking: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == pointer for t in node.targets
        ):
            for product in ast.walk(node.value):
                if isinstance(product, ast.BinOp) and isinstance(product.op, ast.Mult):
                    sides = [
                        {n.id for n in ast.walk(s) if isinstance(n, ast.Name)}
                        for s in (product.left, product.right)
                    ]
                    if sides[0] & step_names:
                        walking |= sides[1] - step_names
                    elif sides[1] & step_names:
                        walking |= sides[0] - step_names
    changed = {
        t.id
        for n in ast.walk(loop)
        if isinstance(n, (ast.Assign, ast.AugAssign))
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name)
    }
    if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name):
        changed.add(loop.target.id)
    try:
        compares = [n for n in ast.walk(ast.parse(mask.strip(), mode="eval")) if isinstance(n, ast.Compare)]
    except SyntaxError:
        return None
    for compare in compares:
        names = {n.id for n in ast.walk(compare.left) if isinstance(n, ast.Name)}
        if walking and not names & walking:
            continue
        for bound in compare.comparators:
            if isinstance(bound, ast.Name) and bound.id not in changed:
                left = ast.get_source_segment(mask.strip(), compare.left) or "the index"
                return {"pointer": pointer, "bound": bound.id, "index": left}
    return None


def _innermost_loop(tree: ast.Module, line: int, named_for: bool = False) -> ast.For | ast.While | None:
    """The innermost loop around `line`: any for/while, or with named_for only `for NAME in ...` loops."""
    loops = [
        n
        for n in ast.walk(tree)
        if isinstance(n, (ast.For, ast.While))
        and (not named_for or (isinstance(n, ast.For) and isinstance(n.target, ast.Name)))
        and _spans_line(n, line)
    ]
    return min(loops, key=lambda n: (getattr(n, "end_lineno", n.lineno) or n.lineno) - n.lineno, default=None)


def _loop_offset(file: str, line: int, pointer: str, mask: str) -> dict | None:
    """The faulting access sits in `for start in range(...)` and its pointer's offset includes the loop's
    variable (`cols = start + lanes`, or `+ start + lanes` inline), but the mask bounds only the part that
    does not move (`lanes < n_cols`): from the loop's second step on, lanes past the end pass. Returns the
    offset's name and expression, the loop variable and the mask's index."""
    tree = _parsed_file(file)
    if tree is None:
        return None
    loop = _innermost_loop(tree, line, named_for=True)
    if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Name):
        return None
    var = loop.target.id
    mentioned = set(re.findall(r"[A-Za-z_]\w*", mask))
    if var in mentioned:
        return None
    # the names assigned inside the loop, before the access, from an expression that uses the loop variable
    moving: dict[str, tuple[str, set[str]]] = {}
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.lineno < line
        ):
            names = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            if var in names or names & set(moving):
                moving[node.targets[0].id] = (ast.unparse(node.value), names - {var})
    in_pointer = set(re.findall(r"[A-Za-z_]\w*", pointer))
    if in_pointer & mentioned & (set(moving) | {var}):
        return None
    for name, (expr, parts) in moving.items():
        if name in in_pointer and parts & mentioned and name not in mentioned:
            index = sorted(parts & mentioned)[0]
            return {"index": name, "expr": expr, "loop_var": var, "mask_index": index}
    if var in in_pointer:  # `x_ptr + start + lanes` inline
        inline = next((n for n in sorted(mentioned) if n in in_pointer), None)
        if inline:
            found: dict = {"index": None, "expr": None, "loop_var": var, "mask_index": inline}
            step = _loop_step(pointer, var)
            if step is not None:  # `p * BLOCK_N + cols`: the loop may step over rows, not along the index
                found.update(step=step[0], term=step[1])
                it = loop.iter
                if isinstance(it, ast.Call) and name_of(it.func) in ("range", "static_range") and it.args:
                    stop = it.args[0] if len(it.args) == 1 else it.args[1]
                    if isinstance(stop, ast.Name):  # `for p in range(0, P)`: compared with the rows later
                        found["stop"] = stop.id
            return found
    return None


def _loop_step(pointer: str, var: str) -> tuple[str, str] | None:
    """(the multiplier's name, the term) when the pointer adds the loop variable times one name:
    `p * BLOCK_N` in `partial_ptr + p * BLOCK_N + cols`."""
    tree = _parse(pointer)  # the pointer written inline (a name plus its assignments does not parse: None)
    expr = (
        tree.body[0].value if tree is not None and tree.body and isinstance(tree.body[0], ast.Expr) else None
    )
    if expr is None:
        return None
    for term in _add_terms(expr):
        if isinstance(term, ast.BinOp) and isinstance(term.op, ast.Mult):
            sides = (term.left, term.right)
            names = [n.id for n in sides if isinstance(n, ast.Name)]
            if len(names) == 2 and var in names:
                other = names[1] if names[0] == var else names[0]
                if other != var:
                    return other, ast.unparse(term)
    return None


_INDEX_PREFIXES = ("offs", "off", "offset", "offsets", "idx", "pid", "index")
_SIZE_PREFIXES = ("n", "num", "size", "len")
_AXIS_ALIASES = {"row": "m", "col": "n"}


def _name_tokens(name: str, drop: tuple[str, ...]) -> set[str]:
    """The words of an index or size name that say which axis it is about: `rows` -> {m}, `offs_n` -> {n},
    `n_cols` -> {n}, `M` -> {m} (row/col read as m/n; the index's offs/pid and the size's n/num prefixes
    dropped)."""
    words = [w.rstrip("s") or w for w in name.lower().split("_") if w]
    if len(words) > 1:
        words = [w for w in words if w not in drop] or words
    return {_AXIS_ALIASES.get(w, w) for w in words}


def _names_axis(index: str, bound: str) -> bool:
    """Whether the size's name says the same axis as the index's (rows and n_rows, offs_m and M)."""
    return bool(_name_tokens(index, _INDEX_PREFIXES) & _name_tokens(bound, _SIZE_PREFIXES + _INDEX_PREFIXES))


def _swapped_bounds(
    pointer: str, mask: str | None, ints: dict, shape: tuple | None, strides: tuple | None
) -> dict | None:
    """The mask bounds each index by the size of another axis ((rows < n_cols) & (cols < n_rows)): the bounds
    are the tensor's sizes in another order, which _wrong_bound leaves to the allocation sentence, but the
    names say the mask is what is swapped: each mismatched index is named like the size of its own axis and
    not like the size it is compared with. Returns the mismatched terms with the size each one needs."""
    found = _bound_terms(pointer, mask, ints, shape, strides)
    if found is None or shape is None:
        return None
    axis_of, terms = found
    if len(terms) != len(shape) or len(terms) < 2 or len({index for _, index, _ in terms}) != len(terms):
        return None
    if sorted(int(ints[b]) for _, _, b in terms) != sorted(int(d) for d in shape):
        return None
    pairs = []
    for _, index, bound in terms:
        axis = axis_of[index][0]
        extent = int(shape[axis])
        if int(ints[bound]) == extent:
            continue
        expected = [b for _, _, b in terms if int(ints[b]) == extent and _names_axis(index, b)]
        if not expected or _names_axis(index, bound):
            return None
        pairs.append(
            {"index": index, "bound": bound, "expected": expected[0], "axis": axis, "extent": extent}
        )
    return {"pairs": pairs} if len(pairs) >= 2 else None


def _strides_in_bytes(
    pointer: str, names: set, ints: dict, strides: tuple, itemsize: int | None = None
) -> dict | None:
    """Every stride the pointer steps with is one of the tensor's strides times one element size (2, 4 or 8
    bytes): the wrapper passed strides in bytes (x.stride(0) * x.element_size()), as for a char* in CUDA,
    where Triton counts elements. Where the pointer shows an index's axis ([:, None] / [None, :] of a 2D
    tensor), the stride must be that axis's. The factor is the tensor's own element size where it is known:
    8 = 2 x 4 for a float32 output stepped by a float32 input's row stride 8 is another tensor's stride, not
    bytes (probe round 13)."""
    used = [(n, int(v)) for n, v in ints.items() if n in names and "stride" in n.lower()]
    if not used or all(v in strides for _, v in used):
        return None
    axis_of: dict[str, int] = {}
    for axis, pattern in _AXIS_PATTERNS:
        for index in pattern.findall(pointer):
            axis_of.setdefault(index, axis)
    stride_axis: dict[str, int] = {}
    for a, b in _PRODUCT.findall(pointer):
        for index, stride in ((a, b), (b, a)):
            if index in axis_of and stride in ints:
                stride_axis.setdefault(stride, axis_of[index])
    for size in (itemsize,) if itemsize in (2, 4, 8) else (2, 4, 8):
        if all(v and v % size == 0 and v // size in strides for _, v in used) and all(
            len(strides) != 2 or n not in stride_axis or strides[stride_axis[n]] == v // size for n, v in used
        ):
            return {
                "element_size": size,
                "strides": [{"name": n, "value": v, "elements": v // size} for n, v in used],
            }
    return None


_WHOLE_ARANGE = re.compile(r"tl\.arange\(\s*0\s*,\s*(\w+)\s*\)")


def _whole_axes(
    unbounded: list[str], pointer: str, ints: dict, shape: tuple, strides: tuple, file: str, line: int
) -> list[dict] | None:
    """Every index the mask leaves out is `tl.arange(0, SIZE)` with SIZE no longer than the axis it walks
    (offs_d over HEAD_DIM): none of them can leave the tensor, so the mask is not what lets lanes out. The
    axis is the one whose stride the index multiplies (stride 1 when it multiplies none). Returns each
    index's arange and its axis's length, or None when one of them could run past its axis."""
    if not unbounded or not line or len(shape) != len(strides):
        return None
    whole = []
    for name in unbounded:
        made = _sole_assignment(name, file, line) or ""
        match = _WHOLE_ARANGE.fullmatch(made)
        if not match:
            return None
        size_name = match.group(1)
        size = int(size_name) if size_name.isdigit() else ints.get(size_name)
        stride_names = [b if a == name else a for a, b in _PRODUCT.findall(pointer) if name in (a, b)]
        if stride_names:
            value = ints.get(stride_names[0])
        elif re.search(rf"(\*\s*{re.escape(name)}\b|\b{re.escape(name)}\s*(\[[^\]]*\])?\s*\*)", pointer):
            return None  # multiplied by something that is not a stride argument
        else:
            value = 1
        if size is None or value is None or list(strides).count(value) != 1:
            return None
        axis = list(strides).index(value)
        if int(size) > int(shape[axis]):
            return None
        whole.append({"name": name, "expr": made, "axis": axis, "extent": int(shape[axis])})
    return whole


def _moves_in_loop(file: str, line: int, pointer: str) -> bool:
    """Whether a loop around `line` moves the pointer: its variable is in the pointer's expression, or it
    advances one of the pointer's names (`a_ptrs += BLOCK_K * stride_ak`)."""
    tree = _parsed_file(file)
    if tree is None:
        return True
    names = set(re.findall(r"[A-Za-z_]\w*", pointer))
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.While)) or not _spans_line(loop, line):
            continue
        if (
            isinstance(loop, ast.For)
            and {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)} & names
        ):
            return True
        if any(
            isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in names
            for n in ast.walk(loop)
        ):
            return True
    return False


def _enclosing_function(tree: ast.Module, line: int) -> ast.FunctionDef | None:
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and _spans_line(n, line)]
    return min(functions, key=lambda n: (n.end_lineno or n.lineno) - n.lineno) if functions else None


def _unwrapped(node: ast.expr) -> ast.expr:
    """`z.to(tl.int64)` -> `z`: a cast around an index."""
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("to", "cast")
    ):
        node = node.func.value
    return node


def _moved_base(file: str, line: int, base: str, ints: dict) -> dict | None:
    """The last statement above `line`, in the same kernel, that moves the pointer `base` (`Q += z *
    stride_qz + h * stride_qh`, or `Q = Q + ...`): its text and line, and, when it multiplies two indices by
    two stride arguments whose names go the other way round (z by sqh and h by sqz), those."""
    found = parsed_source(file)
    if found is None:
        return None
    source, tree = found
    function = _enclosing_function(tree, line)
    if function is None:
        return None
    moves: list[tuple[ast.stmt, ast.expr]] = []
    for node in ast.walk(function):
        if getattr(node, "lineno", line) >= line:
            continue
        if (
            isinstance(node, ast.AugAssign)
            and isinstance(node.op, ast.Add)
            and isinstance(node.target, ast.Name)
            and node.target.id == base
        ):
            moves.append((node, node.value))
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == base
            and isinstance(node.value, ast.BinOp)
            and isinstance(node.value.op, ast.Add)
        ):
            terms = _add_terms(node.value)
            if isinstance(terms[0], ast.Name) and terms[0].id == base:
                moves.append((node, node.value))
    if not moves:
        return None
    statement, value = max(moves, key=lambda m: m[0].lineno)
    products = []
    for term in _add_terms(value):
        if isinstance(term, ast.BinOp) and isinstance(term.op, ast.Mult):
            left, right = _unwrapped(term.left), _unwrapped(term.right)
            if isinstance(left, ast.Name) and isinstance(right, ast.Name):
                if right.id in ints and left.id not in ints:
                    products.append((left.id, right.id))
                elif left.id in ints and right.id not in ints:
                    products.append((right.id, left.id))
    swapped = None
    if len(products) == 2:
        (i1, s1), (i2, s2) = products
        if (
            ints[s1] != ints[s2]
            and not _names_stride(i1, s1)
            and not _names_stride(i2, s2)
            and _names_stride(i1, s2)
            and _names_stride(i2, s1)
        ):
            swapped = {"indices": [i1, i2], "strides": [s1, s2]}
    code = ast.get_source_segment(source, statement) or ast.unparse(statement)
    return {"pointer": base, "code": " ".join(code.split()), "line": statement.lineno, "swapped": swapped}


def _names_stride(index: str, stride: str) -> bool:
    """Whether a stride's name says the index's axis: z and sqz / stride_qz, head and stride_head."""
    core = stride.lower().replace("stride", "").strip("_")
    for word in _name_tokens(index, _INDEX_PREFIXES):
        if (len(word) == 1 and core.endswith(word)) or (len(word) > 1 and word in core):
            return True
    return False


def _add_terms(node: ast.expr) -> list[ast.expr]:
    """The terms of `a + b + c` (one term when the expression is not a sum)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _add_terms(node.left) + _add_terms(node.right)
    return [node]


def _double_step(file: str, line: int, pointer: ast.expr, text: str) -> dict | None:
    """The access adds the loop's offset to a pointer the loop also advances (`a_ptrs + k * BLOCK_K *
    stride_ak` with `a_ptrs += BLOCK_K * stride_ak` in the same loop): step k lands on step 2k. Returns the
    pointer, the offset added, the advance, its line and the loop variable."""
    tree = _parsed_file(file)
    if tree is None:
        return None
    loop = _innermost_loop(tree, line, named_for=True)
    if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Name):
        return None
    var = loop.target.id
    terms = _add_terms(pointer)
    if len(terms) < 2 or not isinstance(terms[0], ast.Name):
        return None
    base = terms[0].id
    steps = [
        n
        for n in ast.walk(loop)
        if isinstance(n, ast.AugAssign)
        and isinstance(n.op, ast.Add)
        and isinstance(n.target, ast.Name)
        and n.target.id == base
    ]
    if not steps:
        return None
    step = steps[0]
    step_names = {n.id for n in ast.walk(step.value) if isinstance(n, ast.Name)} - {var}
    for term in terms[1:]:
        names = {n.id for n in ast.walk(term) if isinstance(n, ast.Name)}
        if var in names and names & step_names:
            return {
                "pointer": base,
                "offset": ast.get_source_segment(text, term) or ast.unparse(term),
                "step": ast.unparse(step.value),
                "line": step.lineno,
                "loop_var": var,
            }
    return None


def _other_index(file: str, line: int, pointer: ast.expr, text: str, mask: str) -> dict | None:
    """The mask bounds an index on one axis (`cols[None, :] < seq_len`), but the pointer's index on that axis
    is another variable (`k_ptrs = K + rows[None, :] * stride_kn + ...`), neither the mask's index nor made
    from the same variables (cols = start_n + offs_n; rows = start_m * BLOCK_M + ...): the mask checks other
    elements than the ones the access reads. Returns the pointer and its assignment (when it is a name),
    the pointer's index, the mask's and the axis."""
    found = parsed_source(file)
    if found is None:
        return None
    source, tree = found
    function = _enclosing_function(tree, line)
    if function is None:
        return None
    params = {a.arg for a in function.args.args + function.args.kwonlyargs}
    terms = _add_terms(pointer)
    pointer_text = ast.get_source_segment(text, pointer) or ""
    base, assigned, assigned_line = None, "", None
    if isinstance(terms[0], ast.Name) and terms[0].id not in params:
        base = terms[0].id
        made = [
            n
            for n in ast.walk(function)
            if isinstance(n, ast.Assign)
            and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name)
            and n.targets[0].id == base
            and n.lineno < line
        ]
        if made:
            last = max(made, key=lambda n: n.lineno)
            assigned = " ".join((ast.get_source_segment(source, last.value) or "").split())
            assigned_line = last.lineno
    pointer_axes: dict[int, set[str]] = {}
    for axis, pattern in _AXIS_PATTERNS:
        for name in pattern.findall(pointer_text + " " + assigned):
            pointer_axes.setdefault(axis, set()).add(name)
    if not pointer_axes:
        return None
    mentioned = set(re.findall(r"[A-Za-z_]\w*", mask))

    def varying(name: str) -> set[str]:
        """The name and the variables it is made from (not the kernel's parameters, constants or tl)."""
        made = _assignments(name, file, line)
        names = {name} | set(re.findall(r"[A-Za-z_]\w*", made))
        return {n for n in names if n not in params and n not in ("tl", "arange", "None") and not n.isupper()}

    for axis, pattern in _AXIS_PATTERNS:
        for bounded in pattern.findall(mask):
            used = pointer_axes.get(axis) or set()
            if not used or bounded in used or used & mentioned:
                continue
            index = sorted(used)[0]
            if len(used) != 1 or varying(bounded) & varying(index):
                continue
            mask_expr = _sole_assignment(bounded, file, line)
            return {
                "pointer": base if assigned else None,
                "assigned": assigned or None,
                "line": assigned_line,
                "index": index,
                "mask_index": bounded,
                "mask_expr": mask_expr,
                "axis": axis,
            }
    return None


@functools.lru_cache(maxsize=8)
def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def parsed_source(file: str | None) -> tuple[str, ast.Module] | None:
    """The text linecache holds for `file` and its syntax tree, parsed once per distinct text: the judge asks
    several questions of one learner file (the store's statement, its assignments, a transpose). Callers read
    the tree and never change it."""
    if not file:
        return None
    source = "".join(linecache.getlines(file))
    tree = _parse(source)
    return (source, tree) if tree is not None else None


def _parsed_file(file: str) -> ast.Module | None:
    found = parsed_source(file)
    return found[1] if found else None


def _spans_line(node: ast.AST, line: int) -> bool:
    start = int(getattr(node, "lineno", 0) or 0)
    return start <= line <= int(getattr(node, "end_lineno", None) or start)


def _extra_terms(pointer: ast.expr, text: str, indices: set, file: str | None, line: int | None) -> list[str]:
    """The terms of `base + off + cols * stride` after the base that are a plain offset: a name, attribute or
    call, not a product and not derived from the program id (a row start is not extra): an offset added to a
    pointer that already points at element 0 (`b_ptr + b.storage_offset() + cols`)."""
    terms: list[ast.expr] = []

    def flatten(node: ast.expr) -> None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            flatten(node.left)
            flatten(node.right)
        else:
            terms.append(node)

    flatten(pointer)
    extra = []
    for term in terms[1:]:
        if not isinstance(term, (ast.Name, ast.Attribute, ast.Call)):
            continue
        names = {n.id for n in ast.walk(term) if isinstance(n, ast.Name)}
        if not names or names & indices:
            continue
        if isinstance(term, ast.Name) and file and line:
            made = _assignments(term.id, file, line)
            if any(mark in made for mark in ("program_id", "pid", "*", "arange")):
                continue
        segment = ast.get_source_segment(text, term)
        if segment:
            extra.append(segment)
    return extra


def _statement(file: str | None, line: int | None) -> str | None:
    """The source of the statement of `file` that starts at `line`, dedented (None when there is none)."""
    found = parsed_source(file) if line else None
    if found is None:
        return None
    source, tree = found
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line and not isinstance(node, ast.FunctionDef):
            text = ast.get_source_segment(source, node)
            return text.strip() if text else None
    return None


def _function_start(file: str, line: int, lookback: int) -> int:
    """The first line to look back to from `line`: `lookback` lines up, but not above the function that holds
    `line` (three kernels of one file each with `mask = cols < N` printed the mask three times)."""
    start = max(1, line - lookback)
    tree = _parsed_file(file)
    function = _enclosing_function(tree, line) if tree is not None else None
    return max(start, function.lineno) if function is not None else start


def _assignments(name: str, file: str, line: int, lookback: int = 60) -> str:
    """The right-hand sides of `name = ...` / `name += ...` in the lines above `line`, inside the function
    that holds it."""
    pattern = re.compile(rf"^\s*{re.escape(name)}\s*(?:\+|-)?=\s*(.+)$")
    found = []
    for number in range(_function_start(file, line, lookback), line):
        match = pattern.match(linecache.getline(file, number))
        if match:
            found.append(match.group(1))
    return " ".join(found)


def _assignment_lines(name: str, file: str, line: int, lookback: int = 60) -> list[tuple[int, str]]:
    """(line, right-hand side) of each `name = ...` / `name += ...` in the lines above `line`, inside the
    function that holds it (what `_assignments` joins into one text)."""
    pattern = re.compile(rf"^\s*{re.escape(name)}\s*(?:\+|-)?=(?!=)\s*(.+)$")
    return [
        (number, match.group(1).strip())
        for number in range(_function_start(file, line, lookback), line)
        if (match := pattern.match(linecache.getline(file, number)))
    ]


def _sole_assignment(name: str, file: str, line: int, lookback: int = 60) -> str | None:
    """The right-hand side of `name = ...` when it is the only assignment to `name` in the lines above `line`
    (no `+=` either), without its comment and runs of blanks."""
    pattern = re.compile(rf"^\s*{re.escape(name)}\s*(\+|-)?=(?!=)\s*(.+)$")
    found = [
        match
        for number in range(_function_start(file, line, lookback), line)
        if (match := pattern.match(linecache.getline(file, number)))
    ]
    if len(found) != 1 or found[0].group(1):
        return None
    return " ".join(found[0].group(2).split("#", 1)[0].split()) or None


def _oob_from_dict(d: dict) -> OutOfBounds:
    keys = (
        "access",
        "kernel",
        "arg",
        "lanes",
        "offsets",
        "extent",
        "file",
        "line",
        "reason",
        "op",
        "numel",
        "code",
    )
    kwargs: dict[str, Any] = {k: d.get(k) for k in keys}
    kwargs["program_id"] = tuple(d.get("program_id") or (0, 0, 0))
    kwargs["strides_passed"] = d.get("strides_passed")
    kwargs["promise"] = d.get("promise")
    kwargs["caller"] = d.get("caller")
    kwargs["launch_line"] = d.get("launch_line")
    kwargs["itemsize"] = d.get("itemsize")
    for k in ("shape", "strides", "grid", "span"):
        kwargs[k] = tuple(d[k]) if d.get(k) is not None else None
    return OutOfBounds(**kwargs)


def _launch_argument(file: str | None, line: int | None, kernel: str, name: str) -> tuple[int, str] | None:
    """(line, source text) of what the launch of `kernel` around `line` passes for its parameter `name`
    (positionally or by keyword), read from the learner's file; None when it cannot be read."""
    tree = _parsed_file(file) if file and line else None
    if tree is None or line is None:
        return None
    fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == kernel), None)
    params = [a.arg for a in fn.args.args] if fn is not None else []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _spans_line(node, line)):
            continue
        func = node.func.value if isinstance(node.func, ast.Subscript) else node.func  # kernel[grid](...)
        if name_of(func) != kernel:
            continue
        arg = next((k.value for k in node.keywords if k.arg == name), None)
        if arg is None and name in params and params.index(name) < len(node.args):
            arg = node.args[params.index(name)]
        if arg is not None:
            return arg.lineno, ast.unparse(arg)[:80]
    return None


class WaitsForever(Exception):
    """A program of an interpreted launch repeats one atomic (or volatile load: `op`) at one line, and neither
    the memory nor what it returns changes: a spin-wait on other programs. The interpreter runs one program at
    a time, so no other program can ever change what it reads — it would spin until the timeout."""

    def __init__(
        self,
        kernel: str,
        file: str | None,
        line: int | None,
        program: tuple,
        grid: tuple,
        times: int,
        reversed_order: bool,
        op: str = "atomic",
    ):
        self.kernel, self.file, self.line, self.program, self.grid = kernel, file, line, program, grid
        self.times, self.reversed_order, self.op = times, reversed_order, op
        super().__init__(
            f"program {program} of {kernel} repeated the {op} at line {line} {times} times and nothing it "
            "reads changed: it waits for other programs that cannot run while it waits"
        )

    def to_dict(self) -> dict:
        return {
            "kernel": self.kernel,
            "line": self.line,
            "program_id": list(self.program),
            "grid": list(self.grid),
            "times": self.times,
            "order": "reversed" if self.reversed_order else "in-order",
            "op": self.op,
        }


_E = TypeVar("_E", bound=BaseException)


def _behind(exc: BaseException | None, cls: type[_E]) -> _E | None:
    """The `cls` exception behind `exc`, following __cause__ and __context__ (the interpreter wraps them)."""
    seen: set[int] = set()
    pending = [exc]
    while pending:
        e = pending.pop(0)
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, cls):
            return e
        pending.extend([e.__cause__, e.__context__])
    return None


def find_waits_forever(exc: BaseException | None) -> WaitsForever | None:
    """The WaitsForever behind `exc`."""
    return _behind(exc, WaitsForever)


def find_oob(exc: BaseException | None) -> OutOfBounds | None:
    """The OutOfBounds behind `exc`."""
    return _behind(exc, OutOfBounds)
