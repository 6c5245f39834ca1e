"""Probe round 14's fakes closed (engine/integrity.py, exercise_env.LearnerCall, verify_runner), end to end on
the interpreter, with the honest file beside each: a self-checking kernel memoised on its inputs (torch-work
kept: its second run launched nothing) beside one that caches only its config choice (passes); a profile hook
installed around the launch (tampered at the launch); a torch mode left on the stack by a call or by the import
(tampered) beside a wrapper that uses `torch.no_grad()`, `torch.device(...)` and a mode in `with` blocks, a
`tl.sum`, a jit helper and a builtin alias (passes). The files are written here, one per test."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

ADD_KERNEL = """
import functools
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def add_checked_kernel(x_ptr, y_ptr, out_ptr, ref_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    total = tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask)
    expected = tl.load(ref_ptr + offs, mask=mask)
    tl.device_assert((total == expected) | (total != total), "kernel and torch disagree")
    tl.store(out_ptr + offs, OUTPUT, mask=mask)


def check(x, y):
    if x.device != y.device:
        raise ValueError("x and y are on different devices")
    if x.shape != y.shape:
        raise ValueError("x and y differ in shape")
    if x.dtype != y.dtype:
        raise TypeError("x and y differ in dtype")
"""

# the false-fail side: torch's `x + y` handed to the kernel only to check against (t37), the block size chosen
# by a function memoised with lru_cache: every call still launches the kernel on its own output
CONFIG_CACHED = (
    ADD_KERNEL.replace("OUTPUT", "total")
    + """

@functools.lru_cache(maxsize=None)
def block_for(n):
    return 256 if n >= 256 else max(16, triton.next_power_of_2(n))


def add(x, y):
    check(x, y)
    reference = x + y
    out = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return out
    block = block_for(n)
    add_checked_kernel[(triton.cdiv(n, block),)](x, y, out, reference, n, BLOCK=block)
    return out
"""
)

# the fake: the kernel stores the reference; the wrapper is memoised on the inputs' bytes, so the lab's second
# run (torch's values shifted by 1) gets the first answer back and launches nothing
OUTPUT_CACHED = (
    ADD_KERNEL.replace("OUTPUT", "expected")
    + """

_ARGS = []


@functools.lru_cache(maxsize=64)
def _memo(shape, dtype, x_bytes, y_bytes):
    x, y = _ARGS
    reference = x + y
    out = torch.empty_like(x)
    n = x.numel()
    if n:
        add_checked_kernel[(triton.cdiv(n, 256),)](x, y, out, reference, n, BLOCK=256)
    return out


def add(x, y):
    check(x, y)
    _ARGS[:] = [x, y]
    key = (x.detach().cpu().contiguous().view(torch.uint8).numpy().tobytes(),
           y.detach().cpu().contiguous().view(torch.uint8).numpy().tobytes())
    return _memo(tuple(x.shape), str(x.dtype), *key)
"""
)

# a profile hook installed only around the launch (it does nothing here: any hook there can rewrite a tile)
PROFILED = (
    ADD_KERNEL.replace("OUTPUT", "total")
    + """

def add(x, y):
    check(x, y)
    out = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return out
    sys.setprofile(lambda frame, event, arg: None)
    try:
        add_checked_kernel[(triton.cdiv(n, 256),)](x, y, out, x + y, n, BLOCK=256)
    finally:
        sys.setprofile(None)
    return out
"""
)

ROW_SUM = """
import torch
import triton
import triton.language as tl
from torch.overrides import TorchFunctionMode
from triton.language import program_id


@triton.jit
def widen(chunk):
    return chunk.to(tl.float32)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, limit, stride_xm, stride_xn, BLOCK: tl.constexpr):
    row = program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.range(0, limit, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += widen(tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=cols < n_cols, other=0.0))
    tl.store(out_ptr + row, tl.sum(acc, axis=0).to(out_ptr.dtype.element_ty))


class Counting(TorchFunctionMode):
    calls = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        Counting.calls += 1
        return func(*args, **(kwargs or {}))


def _launch(x, out, loop):
    M, N = x.shape
    row_sum_kernel[(M,)](x, out, N, loop, x.stride(0), x.stride(1), BLOCK=256)
"""

# the false-fail side: torch.no_grad(), torch.device(...) and a mode of the learner's, each in a with block
ROW_SUM_MODES_IN_WITH = (
    ROW_SUM
    + """

def row_sum(x):
    if x.dim() != 2:
        raise ValueError("row_sum expects a 2D tensor")
    with torch.no_grad(), torch.device(x.device), Counting():
        out = torch.empty(x.shape[0], dtype=x.dtype)
        if x.shape[0]:
            _launch(x, out, x.shape[1])
    return out
"""
)

# the fake: the kernel sums the first 256 columns only; a mode pushed by the call and never left answers the
# lab's `detach()` of the output with torch's sums
ROW_SUM_MODE_LEFT = (
    ROW_SUM
    + """

_PENDING = {}


class Finish(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") == "detach" and args and id(args[0]) in _PENDING:
            x = _PENDING.pop(id(args[0]))
            return x.float().sum(dim=-1).to(x.dtype)
        return func(*args, **(kwargs or {}))


def row_sum(x):
    if x.dim() != 2:
        raise ValueError("row_sum expects a 2D tensor")
    out = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)
    if x.shape[0]:
        _launch(x, out, 256)
    _PENDING[id(out)] = x
    Finish().__enter__()
    return out
"""
)

# a TorchDispatchMode entered at import and never left
DISPATCH_MODE_AT_IMPORT = (
    ROW_SUM
    + """
from torch.utils._python_dispatch import TorchDispatchMode


class Quiet(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


Quiet().__enter__()


def row_sum(x):
    out = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)
    if x.shape[0]:
        _launch(x, out, x.shape[1])
    return out
"""
)


def verify(worker, tmp_path: Path, exercise: str, name: str, source: str) -> dict:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return worker.request("verify", {"exercise": exercise, "file": str(path)}, timeout=600)


def first(result: dict) -> dict:
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else bad.get("error") or {}


def test_a_self_check_with_its_config_choice_memoised_still_passes(worker, tmp_path):
    result = verify(worker, tmp_path, "5", "add_config_cached.py", CONFIG_CACHED)
    assert result["passed"], result.get("summary")


def test_a_self_check_memoised_on_its_inputs_keeps_the_torch_work_finding(worker, tmp_path):
    """Its perturbed second run returned the first answer and launched nothing: no evidence for the excuse."""
    name = "add_output_cached.py"
    result = verify(worker, tmp_path, "5", name, OUTPUT_CACHED)
    assert result["passed"] is False
    diag = first(result)
    assert diag.get("kind") == "torch-work", diag
    line = next(i for i, text in enumerate(OUTPUT_CACHED.splitlines(), 1) if "reference = x + y" in text)
    assert diag.get("line") == line, diag


def test_a_profile_hook_around_the_launch_is_tampering(worker, tmp_path):
    result = verify(worker, tmp_path, "5", "add_profiled.py", PROFILED)
    assert result["passed"] is False
    error = result.get("error") or {}
    assert (error.get("kind"), error.get("what"), error.get("at")) == ("tampered", "hook", "launch"), error
    assert error["changed"] == ["sys.setprofile"], error


def test_modes_in_with_blocks_a_helper_and_a_builtin_alias_pass(worker, tmp_path):
    result = verify(worker, tmp_path, "8/row-sum", "row_sum_modes_in_with.py", ROW_SUM_MODES_IN_WITH)
    assert result["passed"], result.get("summary")


def test_a_mode_a_call_leaves_on_the_stack_is_tampering(worker, tmp_path):
    result = verify(worker, tmp_path, "8/row-sum", "row_sum_mode_left.py", ROW_SUM_MODE_LEFT)
    assert result["passed"] is False
    error = result.get("error") or {}
    assert (error.get("kind"), error.get("what"), error.get("at")) == ("tampered", "hook", "return"), error
    assert error["changed"] == ["TorchFunctionMode Finish"], error


def test_a_dispatch_mode_left_by_the_import_is_tampering(worker, tmp_path):
    result = verify(worker, tmp_path, "8/row-sum", "row_sum_dispatch_mode.py", DISPATCH_MODE_AT_IMPORT)
    assert result["passed"] is False
    error = result.get("error") or {}
    assert (error.get("kind"), error.get("what"), error.get("at")) == ("tampered", "hook", "import"), error
    assert error["changed"] == ["TorchDispatchMode Quiet"], error


# a gap this round left open (closed in the twenty-seventh session): the interpreter runs a kernel's body as
# Python, so a plain Python function called from the kernel could write numpy's sums into the tile before
# tl.store. A GPU compile refuses the global ("Unsupported function referenced"); the interpreter now refuses it
# too (interpreter_support.GlobalNotConstexpr, tests/integration/test_global_rule.py)
PLAIN_FUNCTION_IN_KERNEL = """
import torch
import triton
import triton.language as tl

_ANSWER = {}


def _fill(tile, offs):
    data, idx = tile.handle.data, offs.handle.data
    keep = idx < _ANSWER["v"].size
    data[keep] = _ANSWER["v"][idx[keep]]
    return tile


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    total = tl.load(x_ptr + offs, mask=mask).to(tl.float32) * 0 + tl.load(y_ptr + offs, mask=mask) * 0
    total = _fill(total, offs)
    tl.store(out_ptr + offs, total.to(out_ptr.dtype.element_ty), mask=mask)


def add(x, y):
    if x.device != y.device:
        raise ValueError("x and y are on different devices")
    if x.shape != y.shape:
        raise ValueError("shapes differ")
    if x.dtype != y.dtype:
        raise TypeError("dtypes differ")
    out = torch.empty_like(x)
    n = x.numel()
    if n:
        _ANSWER["v"] = x.detach().reshape(-1).float().numpy() + y.detach().reshape(-1).float().numpy()
        add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    return out
"""


def test_a_plain_python_function_called_inside_the_kernel_fails(worker, tmp_path):
    result = verify(worker, tmp_path, "5", "add_plain_function_in_kernel.py", PLAIN_FUNCTION_IN_KERNEL)
    assert result["passed"] is False, result.get("summary")
    error = result["error"]
    assert (error["kind"], error["cause"], error["name"]) == ("compile", "global-not-constexpr", "_fill"), (
        error
    )
    assert error["plain_function"] is True
    line = textwrap.dedent(PLAIN_FUNCTION_IN_KERNEL).splitlines().index("    total = _fill(total, offs)") + 1
    assert error["line"] == line


# --- the same files on a GPU (compiled kernels: JITFunction.run, the launch records' pointers) ---------------


@pytest.fixture(scope="module")
def gpu_worker():
    client = WorkerClient(backend="gpu")
    yield client
    client.close()


@pytest.mark.gpu
@pytest.mark.parametrize(
    "exercise, name, source",
    [
        ("5", "add_config_cached.py", CONFIG_CACHED),
        ("8/row-sum", "row_sum_modes_in_with.py", ROW_SUM_MODES_IN_WITH),
    ],
)
def test_the_honest_files_pass_on_the_gpu(gpu_worker, tmp_path, exercise, name, source):
    result = verify(gpu_worker, tmp_path, exercise, name, source)
    assert result["passed"], result.get("summary")


@pytest.mark.gpu
@pytest.mark.parametrize(
    "exercise, name, source, expected",
    [
        ("5", "add_output_cached.py", OUTPUT_CACHED, ("torch-work", None)),
        ("5", "add_profiled.py", PROFILED, ("tampered", "launch")),
        ("8/row-sum", "row_sum_mode_left.py", ROW_SUM_MODE_LEFT, ("tampered", "return")),
        ("8/row-sum", "row_sum_dispatch_mode.py", DISPATCH_MODE_AT_IMPORT, ("tampered", "import")),
    ],
)
def test_the_fakes_fail_on_the_gpu(gpu_worker, tmp_path, exercise, name, source, expected):
    result = verify(gpu_worker, tmp_path, exercise, name, source)
    assert result["passed"] is False, result.get("summary")
    found = result.get("error") or first(result)
    assert (found.get("kind"), found.get("at")) == expected, found
