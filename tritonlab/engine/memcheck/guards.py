"""Poison and guard zones: unwritten output elements are recognisable, and on a GPU an out-of-bounds store
changes a guard that is checked after the run; the learner's own allocations are poisoned too."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from collections.abc import Iterator
from typing import Any

import torch

from .hooks import _Patches, _same_file
from .report import _MAX_OFFSETS

# ----------------------------------------------------------------------------------------------------------
# Poison


_INT_VIEW = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}

# (unwritten, guard) bit patterns. Float poisons are quiet NaNs with a payload ("DEAD" / "CAFE") that GPU
# arithmetic never produces, so a kernel's own (canonical) NaN is not taken for an unwritten element. Guards
# use a second pattern: NaN read from padding and copied into an output is told apart from "never written".
_POISON_BITS: dict[torch.dtype, tuple[int, int]] = {
    torch.float32: (0x7FDEAD00, 0x7FCAFE00),
    torch.float64: (0x7FFDEAD000000000, 0x7FFCAFE000000000),
    torch.float16: (0x7E5A, 0x7E6C),
    torch.bfloat16: (0x7FDA, 0x7FCA),
    torch.int64: (-0x5A5A5A5A5A5A5A5A & 0xFFFFFFFFFFFFFFFF, -0x3C3C3C3C3C3C3C3C & 0xFFFFFFFFFFFFFFFF),
    torch.int32: (-0x5A5A5A5A & 0xFFFFFFFF, -0x3C3C3C3C & 0xFFFFFFFF),
    torch.int16: (-0x5A5A & 0xFFFF, -0x3C3C & 0xFFFF),
    torch.int8: (0x81, 0x82),  # -127, -126
    torch.uint8: (0xA5, 0xC3),
}
for _name, _bits in (
    ("uint16", (0xA5A5, 0xC3C3)),
    ("uint32", (0xA5A5A5A5, 0xC3C3C3C3)),
    ("uint64", (0xA5A5A5A5A5A5A5A5, 0xC3C3C3C3C3C3C3C3)),
    ("float8_e5m2", (0xFD, 0x7D)),
    ("float8_e4m3fn", (0xFF, 0x7F)),
):
    if hasattr(torch, _name):
        _POISON_BITS[getattr(torch, _name)] = _bits
_GUARD_BYTE = 0xC3  # guard pattern for buffers of dtypes without a poison (bool)
FAR_ROW_STRIDE = 1 << 30  # the far-rows layout's row stride (elements): row 2 starts at 2**31


def poison_bits(dtype: torch.dtype, guard: bool = False) -> int | None:
    """The raw bit pattern (unsigned) poisoning `dtype`; None for dtypes that have none (bool, complex)."""
    bits = _POISON_BITS.get(dtype)
    return None if bits is None else bits[1 if guard else 0]


def _signed_bits(bits: int, itemsize: int) -> int:
    width = 8 * itemsize
    return bits - (1 << width) if bits >= 1 << (width - 1) else bits


def poison_value(dtype: torch.dtype, guard: bool = False) -> float | int | None:
    """The poison as a Python value of `dtype` (a NaN for float types); None where there is none."""
    bits = poison_bits(dtype, guard)
    if bits is None:
        return None
    size = torch.empty((), dtype=dtype).element_size()
    raw = torch.tensor(_signed_bits(bits, size), dtype=_INT_VIEW[size])
    return raw.view(dtype).item()


def _fill_bits(tensor: torch.Tensor, bits: int) -> None:
    size = tensor.element_size()
    tensor.view(_INT_VIEW[size]).fill_(_signed_bits(bits, size))


def poison_(tensor: torch.Tensor, guard: bool = False) -> torch.Tensor:
    """Fill `tensor` with its dtype's poison (through an integer view); bool and complex are left alone."""
    bits = poison_bits(tensor.dtype, guard)
    if bits is not None and tensor.numel():
        _fill_bits(tensor, bits)
    return tensor


def is_poison(tensor: torch.Tensor, guard: bool = False) -> torch.Tensor:
    """Where `tensor` still holds the poison bit pattern, i.e. was never written (bool tensor, same shape)."""
    bits = poison_bits(tensor.dtype, guard)
    if bits is None:
        return torch.zeros(tensor.shape, dtype=torch.bool, device=tensor.device)
    size = tensor.element_size()
    return tensor.view(_INT_VIEW[size]) == _signed_bits(bits, size)


# ----------------------------------------------------------------------------------------------------------
# Guard zones

_torch_empty = torch.empty
_torch_empty_like = torch.empty_like
_torch_empty_strided = torch.empty_strided
_tensor_new_empty = torch.Tensor.new_empty


@dataclasses.dataclass
class GuardedAllocation:
    """A tensor living inside a larger poisoned buffer: [guard | pad | span with gaps | guard]."""

    name: str
    tensor: torch.Tensor
    buffer: (
        torch.Tensor | None
    )  # integer view of the whole buffer; None when the tensor is poisoned, not guarded
    start: int = 0  # buffer index of the tensor's first element
    span: int = 0  # elements from the first to the last element of the view
    gaps: torch.Tensor | None = None  # bool over the span: True where the view has no element
    guard_bits: int = 0
    sparse: bool = (
        False  # a far-rows view: the span between rows is never touched (see GuardedAllocator.far_rows)
    )


def _contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for size in reversed(shape):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(reversed(strides))


def _normalize_device(device: Any) -> torch.device:
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    return device


class GuardedAllocator:
    """Allocate tensors inside poisoned guard zones and report afterwards which guards a kernel overwrote.

    Guards hold a NaN poison (a second pattern, see `poison_bits(guard=True)`), so an unmasked load of
    padding shows up as NaN in the results, and the tensor itself starts out poisoned, so unwritten outputs
    can be found.
    """

    def __init__(self, device: Any = "cpu", guard_elems: int = 4096) -> None:
        self.device = _normalize_device(device)
        self.guard_elems = int(guard_elems)
        self.allocations: list[GuardedAllocation] = []
        self.far_rows_declined: dict | None = None  # set by inputs.place_inputs when a GPU is too small

    def owns(self, device: Any) -> bool:
        try:
            return _normalize_device(device) == self.device
        except Exception:  # noqa: BLE001
            return False

    def empty(
        self,
        shape: Any,
        dtype: torch.dtype = torch.float32,
        layout: str = "contiguous",
        name: str | None = None,
    ) -> torch.Tensor:
        """A poisoned tensor of `shape` in one of four layouts.

        contiguous: row-major. transposed: column-major (strides reversed), as `x.t()` gives.
        sliced: the last dimension is a slice of wider rows (1-D: every other element), gaps poisoned.
        offset: row-major, starting one element past an aligned address (storage_offset != 0).
        """
        shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list, torch.Size)) else (shape,)))
        pad = 0
        if layout == "contiguous":
            strides = _contiguous_strides(shape)
        elif layout == "transposed":
            strides = tuple(reversed(_contiguous_strides(tuple(reversed(shape)))))
        elif layout == "sliced":
            if len(shape) <= 1:
                strides = (2,) * len(shape)
            else:
                itemsize = torch.empty((), dtype=dtype).element_size()
                align = max(1, 16 // itemsize)
                pitch = (shape[-1] + 4 + align - 1) // align * align
                strides = _contiguous_strides(shape[:-1] + (pitch,))
        elif layout == "offset":
            strides, pad = _contiguous_strides(shape), 1
        elif layout == "far-rows":
            return self.far_rows(shape, dtype, name=name)
        else:
            raise ValueError(
                f"unknown layout {layout!r}: use contiguous, transposed, sliced, offset or far-rows"
            )
        return self.empty_strided(shape, strides, dtype, name=name, pad=pad)

    def empty_strided(
        self,
        shape: Any,
        strides: Any,
        dtype: torch.dtype = torch.float32,
        name: str | None = None,
        pad: int = 0,
    ) -> torch.Tensor:
        shape = tuple(int(s) for s in shape)
        strides = tuple(int(s) for s in strides)
        if any(s < 0 for s in strides):
            raise ValueError("negative strides are not supported")
        numel = 1
        for s in shape:
            numel *= s
        span = 0 if numel == 0 else 1 + sum((s - 1) * st for s, st in zip(shape, strides, strict=False))
        storage_dtype = torch.uint8 if dtype == torch.bool else dtype
        start = self.guard_elems + pad
        total = start + span + self.guard_elems
        buffer = _torch_empty(total, dtype=storage_dtype, device=self.device)
        guard_bits = poison_bits(storage_dtype, guard=True)
        if guard_bits is None:
            guard_bits = _GUARD_BYTE if buffer.element_size() == 1 else 0
        _fill_bits(buffer, guard_bits)
        view = buffer.as_strided(shape, strides, start)
        if dtype == torch.bool:
            view.zero_()
            view = view.view(torch.bool)
        else:
            poison_(view)
        gaps = None
        if span != numel:
            gaps = torch.ones(span, dtype=torch.bool, device=self.device)
            gaps.as_strided(shape, strides, 0).fill_(False)
        size = buffer.element_size()
        allocation = GuardedAllocation(
            name=name or f"tensor{len(self.allocations)}",
            tensor=view,
            buffer=buffer.view(_INT_VIEW[size]),
            start=start,
            span=span,
            gaps=gaps,
            guard_bits=_signed_bits(guard_bits, size),
        )
        self.allocations.append(allocation)
        return view

    def far_rows(
        self, shape: Any, dtype: torch.dtype = torch.float32, name: str | None = None
    ) -> torch.Tensor:
        """A 2-D [rows, cols] view whose rows lie FAR_ROW_STRIDE (2**30) elements apart: row 2 starts at
        element 2**31, where a row offset computed in int32 (`tl.program_id(0) * stride`) wraps to a negative
        number.

        The storage spans 2**31 + cols elements (4 GiB of float16) but only the guards, the rows and a
        poisoned band after each row (where a kernel that takes cols for the row stride reads) are ever
        written: the pages between them are never touched, so the CPU never backs them with memory. Writes
        into the untouched span are not checked (`sparse`): the layout is for inputs, which every other case
        checks."""
        rows, cols = (int(s) for s in shape)
        if cols > FAR_ROW_STRIDE or rows < 1:
            raise ValueError(f"far-rows needs 1 <= rows and cols <= {FAR_ROW_STRIDE}, got {tuple(shape)}")
        storage_dtype = torch.uint8 if dtype == torch.bool else dtype
        start = self.guard_elems
        span = (rows - 1) * FAR_ROW_STRIDE + cols
        buffer = _torch_empty(start + span + self.guard_elems, dtype=storage_dtype, device=self.device)
        guard_bits = poison_bits(storage_dtype, guard=True)
        if guard_bits is None:
            guard_bits = _GUARD_BYTE if buffer.element_size() == 1 else 0
        _fill_bits(buffer[:start], guard_bits)
        _fill_bits(buffer[start + span :], guard_bits)
        band = min(FAR_ROW_STRIDE - cols, 2 * cols + self.guard_elems)
        for row in range(rows - 1):  # the next rows as a kernel that ignores the stride would read them
            first = start + row * FAR_ROW_STRIDE + cols
            _fill_bits(buffer[first : first + band], guard_bits)
        view = buffer.as_strided((rows, cols), (FAR_ROW_STRIDE, 1), start)
        if dtype == torch.bool:
            view.zero_()
            view = view.view(torch.bool)
        else:
            poison_(view)
        size = buffer.element_size()
        self.allocations.append(
            GuardedAllocation(
                name=name or f"tensor{len(self.allocations)}",
                tensor=view,
                buffer=buffer.view(_INT_VIEW[size]),
                start=start,
                span=span,
                guard_bits=_signed_bits(guard_bits, size),
                sparse=True,
            )
        )
        return view

    def far_rows_shortfall(self, shape: Any, dtype: torch.dtype, free: int | None = None) -> dict | None:
        """{needed, free} bytes when this device cannot hold a far-rows view of `shape` (a GPU allocates every
        byte of the 4 GiB span; the CPU only the pages written), else None. `free` stands in for the device's
        free memory (tests)."""
        if self.device.type != "cuda" and free is None:
            return None
        rows, cols = (int(s) for s in shape)
        itemsize = torch.empty((), dtype=dtype).element_size()
        needed = ((rows - 1) * FAR_ROW_STRIDE + cols + 2 * self.guard_elems) * itemsize
        if free is None:
            free = torch.cuda.mem_get_info(self.device)[0]
            free += torch.cuda.memory_reserved(self.device) - torch.cuda.memory_allocated(self.device)
        margin = 1 << 29  # the case's other tensors, the learner's own allocations
        return None if free >= needed + margin else {"needed": int(needed), "free": int(free)}

    def sparse_storages(self) -> set[int]:
        """The storages (data_ptr) of far-rows views: too large to snapshot, and mostly never touched."""
        return {a.tensor.untyped_storage().data_ptr() for a in self.allocations if a.sparse}

    def track(self, tensor: torch.Tensor, name: str | None = None) -> torch.Tensor:
        """Record a tensor that is poisoned but has no guards (it lives on another device)."""
        self.allocations.append(
            GuardedAllocation(name=name or f"tensor{len(self.allocations)}", tensor=tensor, buffer=None)
        )
        return tensor

    def allocation_of(self, tensor: torch.Tensor) -> GuardedAllocation | None:
        for allocation in self.allocations:
            if allocation.tensor is tensor:
                return allocation
        for allocation in self.allocations:
            t = allocation.tensor
            if t.data_ptr() == tensor.data_ptr() and t.shape == tensor.shape and t.device == tensor.device:
                return allocation
        return None

    def check(self) -> list[dict]:
        """One {name, side, changed, first_offsets} per guard region a kernel wrote into.

        Offsets count elements from the tensor's first element: negative before it, >= its span after it.
        """
        problems = []
        for a in self.allocations:
            if a.buffer is None:
                continue
            changed_before = torch.nonzero(a.buffer[: a.start] != a.guard_bits).reshape(-1)
            if changed_before.numel():
                problems.append(self._problem(a, "before", changed_before - a.start))
            changed_after = torch.nonzero(a.buffer[a.start + a.span :] != a.guard_bits).reshape(-1)
            if changed_after.numel():
                problems.append(self._problem(a, "after", changed_after + a.span))
            if a.gaps is not None:
                body = a.buffer[a.start : a.start + a.span]
                changed_gap = torch.nonzero((body != a.guard_bits) & a.gaps).reshape(-1)
                if changed_gap.numel():
                    problems.append(self._problem(a, "gap", changed_gap))
        return problems

    @staticmethod
    def _problem(a: GuardedAllocation, side: str, offsets: torch.Tensor) -> dict:
        return {
            "name": a.name,
            "side": side,
            "changed": int(offsets.numel()),
            "first_offsets": [int(o) for o in offsets[:_MAX_OFFSETS].tolist()],
        }


# ----------------------------------------------------------------------------------------------------------
# Poisoned allocations in the learner's wrapper


def _size_args(size: tuple) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _default_device() -> torch.device:
    try:
        return torch.get_default_device()
    except Exception:  # noqa: BLE001
        return torch.device("cpu")


@contextlib.contextmanager
def poisoned_allocations(
    allocator: GuardedAllocator, learner_file: str | None = None
) -> Iterator[GuardedAllocator]:
    """Make torch.empty / empty_like / empty_strided / Tensor.new_empty return poisoned tensors.

    Tensors on the allocator's device come back inside its guard zones; others are poisoned and recorded. With
    `learner_file`, only calls made from that file are intercepted (Triton's own host code is left alone).
    Zero-element requests, `out=`, pinned memory and gradients pass straight through.
    """
    paths: dict = {}

    def wanted(depth: int = 2) -> tuple[bool, str]:
        frame = sys._getframe(depth)
        where = f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"
        if learner_file is None:
            return True, where
        return _same_file(frame.f_code.co_filename, learner_file, paths), where

    def make(api: str, where: str, meta: torch.Tensor, device: torch.device) -> torch.Tensor:
        name = f"{api} at {where}"
        if allocator.owns(device):
            return allocator.empty_strided(tuple(meta.shape), tuple(meta.stride()), meta.dtype, name=name)
        tensor = _torch_empty_strided(
            tuple(meta.shape), tuple(meta.stride()), dtype=meta.dtype, device=device
        )
        return allocator.track(poison_(tensor), name=name)

    def plain(kwargs: dict) -> bool:
        return not (
            kwargs.get("out") is not None
            or kwargs.get("pin_memory")
            or kwargs.get("requires_grad")
            or kwargs.get("names") is not None
            or kwargs.get("layout") not in (None, torch.strided)
        )

    def empty(*size, **kwargs):
        take, where = wanted()
        if take and plain(kwargs):
            try:
                device = _normalize_device(kwargs.get("device") or _default_device())
                meta = _torch_empty(*size, **{**kwargs, "device": "meta"})
                if meta.numel():
                    return make("torch.empty", where, meta, device)
            except Exception:  # noqa: BLE001
                pass
        return _torch_empty(*size, **kwargs)

    def empty_like(input, *args, **kwargs):
        take, where = wanted()
        if (
            take
            and not args
            and plain(kwargs)
            and isinstance(input, torch.Tensor)
            and input.layout == torch.strided
        ):
            try:
                device = _normalize_device(kwargs.get("device") or input.device)
                meta = _torch_empty_like(input.to("meta"), **{**kwargs, "device": "meta"})
                if meta.numel():
                    return make("torch.empty_like", where, meta, device)
            except Exception:  # noqa: BLE001
                pass
        return _torch_empty_like(input, *args, **kwargs)

    def empty_strided(size, stride, *args, **kwargs):
        take, where = wanted()
        if take and not args and plain(kwargs):
            try:
                device = _normalize_device(kwargs.get("device") or _default_device())
                meta = _torch_empty_strided(size, stride, **{**kwargs, "device": "meta"})
                if meta.numel():
                    return make("torch.empty_strided", where, meta, device)
            except Exception:  # noqa: BLE001
                pass
        return _torch_empty_strided(size, stride, *args, **kwargs)

    def new_empty(self, *size, **kwargs):
        take, where = wanted()
        if take and plain(kwargs):
            try:
                device = _normalize_device(kwargs.get("device") or self.device)
                dtype = kwargs.get("dtype") or self.dtype
                shape = _size_args(size)
                meta = _torch_empty(shape, dtype=dtype, device="meta")
                if meta.numel():
                    return make("Tensor.new_empty", where, meta, device)
            except Exception:  # noqa: BLE001
                pass
        return _tensor_new_empty(self, *size, **kwargs)

    patches = _Patches()
    try:
        patches.set(torch, "empty", empty)
        patches.set(torch, "empty_like", empty_like)
        patches.set(torch, "empty_strided", empty_strided)
        patches.set(torch.Tensor, "new_empty", new_empty)
        yield allocator
    finally:
        patches.restore()
