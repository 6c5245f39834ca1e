"""A runner's output tensors handed to the judge through CUDA IPC instead of files.

A GPU verify of vector add moved its outputs through `torch.save` files: 0.15 s to write and 0.15 s to read
of a 0.64 s verify (H200, 2026-12-03). Here the runner exports the device allocation that holds each output
(`cuIpcGetMemHandle`, the CUDA driver API through ctypes: no torch internals), the judge maps it, copies the
bytes into its own memory at once and unmaps it: a device-to-device copy, no host round trip.

Nothing of the learner's crosses as code: a descriptor is a handle (64 bytes), a byte offset, a shape,
strides and a dtype name, all checked by the judge. The judge asks the driver how large the mapped range is
and refuses a descriptor whose elements would reach past it (a forged one would otherwise make the judge
read outside the mapping: an illegal address poisons the judge's CUDA context). The runner synchronizes
before it sends, shares a copy of each tensor (never the learner's own buffer, which a later case may
reuse) and keeps it alive until it exits (`Sharer.limit` bytes at most; the rest
goes through files as before). If the judge cannot map what a runner sent, that verify is run again through
files, and so is every later one in that worker (tasks/verify.py).
"""

from __future__ import annotations

import ctypes
import math
import os
from typing import Any

import torch

HANDLE_BYTES = 64
_CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11
_CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 1
DTYPES = {
    str(d): d
    for d in (
        torch.float16,
        torch.bfloat16,
        torch.float32,
        torch.float64,
        torch.int8,
        torch.uint8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.bool,
    )
}


class _Handle(ctypes.Structure):
    _fields_ = [("reserved", ctypes.c_char * HANDLE_BYTES)]


class IpcError(RuntimeError):
    pass


_driver: Any = None


def _cuda():
    """libcuda's IPC entry points, or None where there is no driver (a laptop, the interpreter)."""
    global _driver
    if _driver is None:
        try:
            lib = ctypes.CDLL("libcuda.so.1")
            lib.cuIpcGetMemHandle.argtypes = [ctypes.POINTER(_Handle), ctypes.c_uint64]
            lib.cuIpcOpenMemHandle_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), _Handle, ctypes.c_uint]
            lib.cuIpcCloseMemHandle.argtypes = [ctypes.c_uint64]
            lib.cuPointerGetAttribute.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64]
            lib.cuMemGetAddressRange_v2.argtypes = [
                ctypes.POINTER(ctypes.c_uint64),
                ctypes.POINTER(ctypes.c_size_t),
                ctypes.c_uint64,
            ]
            _driver = lib
        except (OSError, AttributeError):
            _driver = False
    return _driver or None


def available() -> bool:
    """CUDA IPC can be tried here (the judge asks before it offers it to a runner). TRITONLAB_CUDA_IPC=off
    turns it off; =fail makes every mapping fail (to test the judge's fallback to files)."""
    return os.environ.get("TRITONLAB_CUDA_IPC", "on") != "off" and _cuda() is not None


def _check(code: int, what: str) -> None:
    if code != 0:
        raise IpcError(f"{what} failed: CUresult {code}")


def _span_bytes(shape, strides, itemsize: int) -> int:
    """Bytes from the first element to one past the last (0 for an empty tensor)."""
    if any(s == 0 for s in shape):
        return 0
    return (sum((n - 1) * st for n, st in zip(shape, strides, strict=True)) + 1) * itemsize


class Sharer:
    """The runner's side: tensors become descriptors while they fit `limit` bytes; kept alive until exit."""

    def __init__(self, limit: int = 4 << 30):
        self.limit = limit
        self.held = 0
        self.kept: list[torch.Tensor] = []

    def share(self, tensor: torch.Tensor) -> dict | None:
        """A descriptor for this plain CUDA tensor, or None (send it through the file instead)."""
        lib = _cuda()
        if lib is None or type(tensor) is not torch.Tensor or not tensor.is_cuda:
            return None
        if str(tensor.dtype) not in DTYPES or tensor.numel() == 0 or any(s < 0 for s in tensor.stride()):
            return None
        span = _span_bytes(tensor.shape, tensor.stride(), tensor.element_size())
        if self.held + span > self.limit:
            return None
        # A copy of the lab's, made now: the judge maps it while later cases run, and a learner that reuses
        # one output buffer for every call would otherwise overwrite what the judge is about to read.
        tensor = tensor.detach().clone()
        span = _span_bytes(tensor.shape, tensor.stride(), tensor.element_size())
        ptr = tensor.data_ptr()
        base = ctypes.c_uint64(0)
        try:
            _check(
                lib.cuPointerGetAttribute(ctypes.byref(base), _CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, ptr),
                "cuPointerGetAttribute",
            )
            handle = _Handle()
            _check(lib.cuIpcGetMemHandle(ctypes.byref(handle), base.value), "cuIpcGetMemHandle")
        except IpcError:
            return None
        self.kept.append(tensor)
        self.held += span
        return {
            "handle": ctypes.string_at(ctypes.addressof(handle), HANDLE_BYTES).hex(),
            "offset": ptr - base.value,
            "shape": list(tensor.shape),
            "strides": list(tensor.stride()),
            "dtype": str(tensor.dtype),
        }

    def split(self, payload: dict) -> tuple[dict, dict]:
        """(what still goes through the file, the descriptors) for a payload of tensors and dicts of them."""
        rest, shared = self._split(payload)
        if shared:
            torch.cuda.synchronize()  # the judge reads these bytes as soon as it has the message
        return rest, shared

    def _split(self, payload: dict) -> tuple[dict, dict]:
        rest: dict = {}
        shared: dict = {}
        for key, value in payload.items():
            if isinstance(value, dict):
                sub_rest, sub_shared = self._split(value)
                rest[key] = sub_rest
                if sub_shared:
                    shared[key] = sub_shared
                continue
            described = self.share(value) if isinstance(value, torch.Tensor) else None
            if described is None:
                rest[key] = value
            else:
                shared[key] = described
        return rest, shared


class Opener:
    """The judge's side: maps each exported allocation once, copies the tensors out, unmaps at close()."""

    def __init__(self, device):
        self.device = torch.device(device)
        self.mapped: dict[str, tuple[int, int]] = {}  # handle hex -> (mapped pointer, mapped bytes)

    def _map(self, handle_hex: str) -> tuple[int, int]:
        if handle_hex in self.mapped:
            return self.mapped[handle_hex]
        if os.environ.get("TRITONLAB_CUDA_IPC") == "fail":  # developers: the judge's fallback to files
            raise IpcError("refused by TRITONLAB_CUDA_IPC=fail")
        lib = _cuda()
        if lib is None:
            raise IpcError("no CUDA driver")
        raw = bytes.fromhex(handle_hex)
        if len(raw) != HANDLE_BYTES:
            raise IpcError("a handle of the wrong size")
        torch.cuda.synchronize(self.device)  # makes torch's primary context current on this thread
        handle = _Handle()
        ctypes.memmove(ctypes.addressof(handle), raw, HANDLE_BYTES)  # .reserved would stop at a NUL
        ptr = ctypes.c_uint64(0)
        _check(
            lib.cuIpcOpenMemHandle_v2(ctypes.byref(ptr), handle, _CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
            "cuIpcOpenMemHandle",
        )
        base = ctypes.c_uint64(0)
        size = ctypes.c_size_t(0)
        try:
            _check(lib.cuMemGetAddressRange_v2(ctypes.byref(base), ctypes.byref(size), ptr.value), "range")
        except IpcError:
            lib.cuIpcCloseMemHandle(ptr.value)
            raise
        self.mapped[handle_hex] = (ptr.value, int(size.value) - (ptr.value - base.value))
        return self.mapped[handle_hex]

    def tensor(self, desc: dict) -> torch.Tensor:
        """A copy, in the judge's own memory, of the tensor a descriptor names; IpcError if not valid."""
        try:
            dtype = DTYPES[desc["dtype"]]
            shape = [int(n) for n in desc["shape"]]
            strides = [int(s) for s in desc["strides"]]
            offset = int(desc["offset"])
            handle_hex = str(desc["handle"])
        except (KeyError, TypeError, ValueError) as exc:
            raise IpcError(f"a malformed descriptor: {exc!r}") from None
        if len(shape) != len(strides) or len(shape) > 16 or min(shape + strides + [offset], default=0) < 0:
            raise IpcError("a malformed descriptor")
        itemsize = torch.empty((), dtype=dtype).element_size()
        span = _span_bytes(shape, strides, itemsize)
        if span == 0 or math.prod(shape) == 0:
            raise IpcError("an empty tensor is not shared")
        ptr, size = self._map(handle_hex)
        if offset + span > size:
            raise IpcError("a descriptor reaching past its allocation")

        class _Bytes:  # the mapped span as uint8, zero-copy (the CUDA array interface), copied at once
            __cuda_array_interface__ = {
                "shape": (span,),
                "typestr": "|u1",
                "data": (ptr + offset, False),
                "version": 3,
                "stream": None,
            }

        raw = torch.as_tensor(_Bytes(), device=self.device).clone()
        return raw.view(dtype).as_strided(shape, strides)

    def payload(self, shared: dict, depth: int = 0) -> dict:
        """The descriptors of Sharer.split, back as tensors (same nesting: a payload is two levels deep)."""
        if depth > 3 or len(shared) > 256:
            raise IpcError("a descriptor tree deeper or wider than a payload")
        out: dict = {}
        for key, value in shared.items():
            if isinstance(value, dict) and "handle" not in value:
                out[key] = self.payload(value, depth + 1)
            elif isinstance(value, dict):
                out[key] = self.tensor(value)
            else:
                raise IpcError("a malformed descriptor tree")
        return out

    def close(self) -> None:
        lib = _cuda()
        torch.cuda.synchronize(self.device)  # the copies out of the mappings are done
        for ptr, _size in self.mapped.values():
            if lib is not None:
                lib.cuIpcCloseMemHandle(ptr)
        self.mapped.clear()


def merge(rest: dict, shared: dict) -> dict:
    """The file's payload with the shared tensors put back where they were."""
    out = dict(rest)
    for key, value in shared.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out
