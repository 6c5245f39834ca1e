"""Memory-safety layer: interpreter bounds checks, launch tracking, poison and guard zones.

Interpreter scenarios run in one child process (TRITON_INTERPRET=1 must be set before triton is imported,
and a missed out-of-bounds store would abort the process), which prints one JSON line per scenario.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from tritonlab.engine.memcheck import (
    GuardedAllocator,
    OutOfBounds,
    find_oob,
    is_poison,
    poison_,
    poison_bits,
    poison_value,
    poisoned_allocations,
)

REPO = Path(__file__).resolve().parents[2]

KERNELS = """
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


@triton.jit
def add_unmasked_load(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets)  # LOAD_OOB
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


@triton.jit
def add_unmasked_store(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y)  # STORE_OOB


@triton.jit
def copy_unmasked_load(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets), mask=offsets < n_elements)


@triton.heuristics({"BLOCK_SIZE": lambda args: 64})
@triton.jit
def double_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * 2, mask=mask)


@triton.jit
def copy_2d(x_ptr, out_ptr, M, N, stride_xm, stride_xn, stride_om, stride_on,
            BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :] * stride_xn, mask=mask)  # LOAD_2D
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :] * stride_on, x, mask=mask)


def add(x, y, kernel=add_kernel, block=128):
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    kernel[grid](x, y, output, n_elements, BLOCK_SIZE=block)
    return output


def copy(x, out, M=None, strides=None):
    M = x.shape[0] if M is None else M
    N = x.shape[1]
    sx = strides or x.stride()
    grid = (triton.cdiv(M, 16), triton.cdiv(N, 16))
    copy_2d[grid](x, out, M, N, sx[0], sx[1], out.stride(0), out.stride(1), BM=16, BN=16)
    return out
"""

DRIVER = """
import importlib.util, json, os, sys, traceback
import torch
from tritonlab.engine.memcheck import GuardedAllocator, InterpreterMemcheck, find_oob, track_launches

path = sys.argv[1]
spec = importlib.util.spec_from_file_location("learner_kernels", path)
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)


def scenario(name, fn):
    result = {"scenario": name}
    with track_launches() as launches, InterpreterMemcheck(path) as mc:
        result["active"] = mc.active
        try:
            result["value"] = fn()
            result["error"] = None
        except BaseException as e:
            oob = find_oob(e)
            result["error"] = type(e).__name__
            result["oob"] = oob.to_dict() if oob is not None else None
            result["detail"] = "" if oob is not None else traceback.format_exc()[-2000:]
        result["stats"] = mc.stats.to_dict()
    result["launches"] = launches
    print(json.dumps(result), flush=True)


torch.manual_seed(0)
n = 1000
x, y = torch.randn(n), torch.randn(n)
x_before = x.clone()

scenario("masked", lambda: bool(torch.equal(K.add(x, y), x + y)))
scenario("load_oob", lambda: K.add(x, y, K.add_unmasked_load))
scenario("store_oob", lambda: K.add(x, y, K.add_unmasked_store))
scenario("survived", lambda: bool(torch.equal(x, x_before)))
scenario("heuristics", lambda: bool(torch.equal(K.double_kernel[(16,)](x, torch.empty_like(x), n) or x, x)))

base = torch.randn(64, 96)
sliced = base[:, :80]
transposed = torch.randn(80, 64).t()
scenario("sliced_ok", lambda: bool(torch.equal(K.copy(sliced, torch.empty(64, 80)), sliced)))
scenario("transposed_ok", lambda: bool(torch.equal(K.copy(transposed, torch.empty(64, 80)), transposed)))
scenario("sliced_gap", lambda: K.copy(sliced, torch.empty(64, 80), strides=(80, 1)))
rows = base[:32, :80]
scenario("rows_past_view", lambda: K.copy(rows, torch.empty(64, 80), M=40))

guarded = GuardedAllocator("cpu", guard_elems=256)
gx = guarded.empty(n, torch.float32, name="x")
gx.copy_(x)
gy = guarded.empty(n, torch.float32, name="y")
gy.copy_(y)
scenario("guarded_load_oob", lambda: K.add(gx, gy, K.add_unmasked_load))

os.environ["TRITON_INTERPRET"] = "0"
with InterpreterMemcheck(path) as mc:
    print(json.dumps({"scenario": "compiled_mode", "active": mc.active, "reason": mc.reason}), flush=True)
os.environ["TRITON_INTERPRET"] = "1"
"""


def _pythonpath() -> str:
    return os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)


def _line_of(marker: str) -> int:
    for number, text in enumerate(KERNELS.splitlines(), start=1):
        if marker in text:
            return number
    raise AssertionError(marker)


@pytest.fixture(scope="module")
def interpreter_run(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("memcheck")
    kernels = folder / "learner.py"
    kernels.write_text(KERNELS)
    driver = folder / "driver.py"
    driver.write_text(DRIVER)
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": _pythonpath()}
    proc = subprocess.run(
        [sys.executable, str(driver), str(kernels)],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )
    results = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            results[record["scenario"]] = record
    return {"rc": proc.returncode, "stderr": proc.stderr[-3000:], "results": results, "file": str(kernels)}


def _scenario(run: dict, name: str) -> dict:
    assert name in run["results"], f"scenario {name} missing (exit {run['rc']}):\n{run['stderr']}"
    return run["results"][name]


def test_child_process_exits_cleanly(interpreter_run):
    assert interpreter_run["rc"] == 0, interpreter_run["stderr"]


def test_masked_kernel_passes_with_exact_byte_counts(interpreter_run):
    r = _scenario(interpreter_run, "masked")
    assert r["active"] and r["error"] is None and r["value"] is True
    n, size = 1000, 4
    assert r["stats"]["bytes_loaded"] == 2 * n * size
    assert r["stats"]["bytes_stored"] == n * size
    assert r["stats"]["programs"] == 8
    assert r["stats"]["launches"] == [
        {"kernel": "add_kernel", "file": interpreter_run["file"], "grid": [8, 1, 1]}
    ]


def test_track_launches_sees_interpreter_launch_and_file(interpreter_run):
    r = _scenario(interpreter_run, "masked")
    launch = r["launches"][0]
    assert len(r["launches"]) == 1
    assert {k: launch[k] for k in ("kernel", "file", "grid", "meta")} == {
        "kernel": "add_kernel",
        "file": interpreter_run["file"],
        "grid": [8, 1, 1],
        "meta": {"BLOCK_SIZE": 128},
    }
    assert (
        launch["knobs"] == {} and len(launch["ptrs"]) == 3
    )  # x, y, output: where each tensor argument starts
    heuristics = _scenario(interpreter_run, "heuristics")
    assert heuristics["error"] is None
    assert [(x["kernel"], x["file"]) for x in heuristics["launches"]] == [
        ("double_kernel", interpreter_run["file"])
    ]


def test_unmasked_load_past_the_end(interpreter_run):
    r = _scenario(interpreter_run, "load_oob")
    oob = r["oob"]
    assert r["error"] == "OutOfBounds"
    assert oob["access"] == "load" and oob["arg"] == "x_ptr" and oob["kernel"] == "add_unmasked_load"
    assert oob["program_id"] == [7, 0, 0]
    assert oob["line"] == _line_of("# LOAD_OOB") and oob["file"] == interpreter_run["file"]
    assert oob["lanes"] == 24 and oob["extent"] == 1000
    assert oob["offsets"] == list(range(1000, 1008)) and oob["span"] == [1000, 1023]
    assert oob["message"].startswith("load from x_ptr out of bounds in program 7: element offsets 1000..1023")
    assert r["stats"]["bytes_stored"] == 7 * 128 * 4  # programs 0-6 ran; program 7 stopped before its access


def test_unmasked_store_is_caught_before_it_happens(interpreter_run):
    r = _scenario(interpreter_run, "store_oob")
    oob = r["oob"]
    assert r["error"] == "OutOfBounds"
    assert oob["access"] == "store" and oob["arg"] == "output_ptr" and oob["program_id"] == [7, 0, 0]
    assert oob["line"] == _line_of("# STORE_OOB")
    assert oob["message"] == (
        "store to output_ptr out of bounds in program 7: element offsets 1000..1023 (24 lanes), "
        "the tensor has 1000 elements — the store has no mask: pass mask= with a bound for each index "
        "(e.g. offsets < n_elements)"
    )
    assert oob["mask"] is None and oob["unbounded"] == []
    assert _scenario(interpreter_run, "survived")["value"] is True


def test_strided_and_sliced_views_in_bounds_pass(interpreter_run):
    for name in ("sliced_ok", "transposed_ok"):
        r = _scenario(interpreter_run, name)
        assert r["error"] is None and r["value"] is True, r.get("detail")
        assert r["stats"]["bytes_loaded"] == 64 * 80 * 4


def test_access_between_rows_of_a_sliced_view_is_caught(interpreter_run):
    oob = _scenario(interpreter_run, "sliced_gap")["oob"]
    assert oob["access"] == "load" and oob["arg"] == "x_ptr" and oob["reason"] == "gap"
    assert oob["line"] == _line_of("# LOAD_2D")
    assert oob["extent"] == 63 * 96 + 80 and oob["numel"] == 64 * 80
    assert "between the elements of a strided view" in oob["message"]


def test_rows_past_a_view_inside_a_bigger_tensor_are_caught(interpreter_run):
    oob = _scenario(interpreter_run, "rows_past_view")["oob"]
    assert oob["access"] == "load" and oob["arg"] == "x_ptr" and oob["reason"] == "past_end"
    assert oob["program_id"] == [2, 0, 0]
    assert min(oob["offsets"]) >= 32 * 96


def test_guarded_inputs_attribute_overrun_to_the_right_argument(interpreter_run):
    oob = _scenario(interpreter_run, "guarded_load_oob")["oob"]
    assert oob["arg"] == "x_ptr" and oob["span"] == [1000, 1023]


def test_memcheck_is_inactive_when_kernels_are_compiled(interpreter_run):
    r = _scenario(interpreter_run, "compiled_mode")
    assert r["active"] is False and "TRITON_INTERPRET" in r["reason"]


# ----------------------------------------------------------------------------------------------------------
# The report itself


def _report(**overrides) -> OutOfBounds:
    fields = dict(
        access="store",
        kernel="add_kernel",
        arg="output_ptr",
        program_id=(3, 0, 0),
        lanes=64,
        offsets=list(range(98432, 98440)),
        extent=98432,
        file="/x/add.py",
        line=12,
        span=(98432, 98559),
        grid=(770, 1, 1),
    )
    fields.update(overrides)
    return OutOfBounds(**fields)


def test_report_message_and_dict():
    oob = _report()
    assert oob.message == (
        "store to output_ptr out of bounds in program 3: element offsets 98432..98559 (64 lanes), "
        "the tensor has 98432 elements — mask the store (offsets < n_elements)"
    )
    d = oob.to_dict()
    assert d["program_id"] == [3, 0, 0] and d["line"] == 12 and d["message"] == oob.message
    assert json.loads(json.dumps(d)) == d
    assert "program (1, 2)" in _report(program_id=(1, 2, 0), grid=(4, 4, 1)).message
    assert "before the start" in _report(offsets=[-4], span=(-4, -1), reason="before_start").message


def test_find_oob_unwraps_causes_and_contexts():
    oob = _report()
    try:
        try:
            raise oob
        except OutOfBounds as inner:
            raise RuntimeError("InterpreterError") from inner
    except RuntimeError as outer:
        assert find_oob(outer) is oob
    assert find_oob(ValueError("x")) is None and find_oob(None) is None
    copy = pickle.loads(pickle.dumps(oob))
    assert copy.to_dict() == oob.to_dict()


# ----------------------------------------------------------------------------------------------------------
# Poison


@pytest.mark.parametrize(
    "dtype",
    [
        torch.float32,
        torch.float16,
        torch.bfloat16,
        torch.float64,
        torch.int32,
        torch.int64,
        torch.int16,
        torch.int8,
        torch.uint8,
    ],
)
def test_poison_round_trip(dtype):
    t = poison_(torch.empty(6, dtype=dtype))
    assert is_poison(t).all()
    t[2] = 1
    assert is_poison(t).tolist() == [True, True, False, True, True, True]
    assert poison_bits(dtype) != poison_bits(dtype, guard=True)


def test_float_poison_is_a_nan_that_computed_nans_are_not():
    for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.float64):
        assert poison_value(dtype) != poison_value(dtype)  # NaN
        computed = torch.zeros(4, dtype=dtype) / 0 * 0
        assert torch.isnan(computed).all() and not is_poison(computed).any()
    assert poison_value(torch.int32) == -0x5A5A5A5A


def test_bool_has_no_poison():
    t = torch.zeros(3, dtype=torch.bool)
    assert poison_value(torch.bool) is None
    assert poison_(t) is t and not is_poison(t).any()


def test_poison_works_on_non_contiguous_views():
    base = torch.zeros(4, 6)
    view = base.t()[:, :3]
    poison_(view)
    assert is_poison(view).all() and is_poison(base).sum() == 18 and not is_poison(base[3]).any()


# ----------------------------------------------------------------------------------------------------------
# Guard zones


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced", "offset"])
def test_guarded_layouts_start_poisoned_and_clean(layout):
    alloc = GuardedAllocator("cpu", guard_elems=32)
    t = alloc.empty((5, 7), torch.float32, layout=layout, name="out")
    assert t.shape == (5, 7) and is_poison(t).all()
    assert {
        "contiguous": t.is_contiguous(),
        "transposed": t.stride() == (1, 5),
        "sliced": t.stride()[1] == 1 and t.stride()[0] > 7,
        "offset": t.storage_offset() == 33,
    }[layout]
    t.fill_(1.0)
    assert alloc.check() == []


def _flat_around(t: torch.Tensor, before: int, length: int) -> torch.Tensor:
    return torch.as_strided(t, (length,), (1,), t.storage_offset() - before)


def test_guard_detects_writes_before_and_after():
    alloc = GuardedAllocator("cpu", guard_elems=32)
    t = alloc.empty(100, torch.float32, name="output")
    around = _flat_around(t, 32, 164)
    around[30] = 0.0  # two elements before the tensor
    around[32 + 100 : 32 + 104] = 1.0  # four elements past its end
    problems = alloc.check()
    assert problems == [
        {"name": "output", "side": "before", "changed": 1, "first_offsets": [-2]},
        {"name": "output", "side": "after", "changed": 4, "first_offsets": [100, 101, 102, 103]},
    ]


def test_guard_detects_writes_into_the_gaps_of_a_sliced_view():
    alloc = GuardedAllocator("cpu", guard_elems=16)
    t = alloc.empty((4, 6), torch.float16, layout="sliced", name="x")
    pitch = t.stride(0)
    _flat_around(t, 0, 4 * pitch)[pitch - 1] = 0  # end of row 0's padding
    [problem] = alloc.check()
    assert problem == {"name": "x", "side": "gap", "changed": 1, "first_offsets": [pitch - 1]}


def test_guards_hold_a_nan_so_unmasked_loads_show():
    alloc = GuardedAllocator("cpu", guard_elems=8)
    t = alloc.empty(4, torch.float32)
    t.fill_(1.0)
    past_end = _flat_around(t, 0, 12)[4:]
    assert (
        torch.isnan(past_end).all()
        and is_poison(past_end, guard=True).all()
        and not is_poison(past_end).any()
    )


def test_bool_tensors_get_byte_guards():
    alloc = GuardedAllocator("cpu", guard_elems=8)
    t = alloc.empty(5, torch.bool, name="flags")
    assert t.dtype == torch.bool and not t.any()
    torch.as_strided(t.view(torch.uint8), (1,), (1,), t.storage_offset() + 5)[0] = 1
    assert alloc.check()[0]["side"] == "after"


def test_poisoned_allocations_patch_and_restore():
    originals = (torch.empty, torch.empty_like, torch.empty_strided, torch.Tensor.new_empty)
    alloc = GuardedAllocator("cpu", guard_elems=16)
    x = torch.randn(6, 4).t()
    with poisoned_allocations(alloc):
        like = torch.empty_like(x)
        plain = torch.empty(3, 5, dtype=torch.float16)
        strided = torch.empty_strided((2, 3), (1, 2))
        new = x.new_empty((2, 2))
        nothing = torch.empty(0)
    assert (torch.empty, torch.empty_like, torch.empty_strided, torch.Tensor.new_empty) == originals
    assert like.shape == x.shape and like.stride() == x.stride()
    assert plain.dtype == torch.float16 and strided.stride() == (1, 2) and new.shape == (2, 2)
    for t in (like, plain, strided, new):
        assert is_poison(t).all()
    assert nothing.numel() == 0
    assert len(alloc.allocations) == 4 and alloc.allocation_of(like).name.startswith("torch.empty_like at ")
    _flat_around(like, 0, 25)[24] = 0
    assert alloc.check()[0]["side"] == "after"


def test_poisoned_allocations_restore_after_an_exception():
    original = torch.empty
    with pytest.raises(ZeroDivisionError), poisoned_allocations(GuardedAllocator("cpu")):
        raise ZeroDivisionError
    assert torch.empty is original and "new_empty" not in torch.Tensor.__dict__


def test_poisoned_allocations_only_from_the_learner_file():
    alloc = GuardedAllocator("cpu")
    with poisoned_allocations(alloc, learner_file="/nowhere/learner.py"):
        t = torch.empty(4)
    assert alloc.allocations == [] and t.numel() == 4


# ----------------------------------------------------------------------------------------------------------
# On a GPU (compiled kernels, guards instead of checks)

GPU_DRIVER = """
import importlib.util, json, sys
import torch
import triton
import triton.language as tl
from tritonlab.engine.memcheck import GuardedAllocator, is_poison, poisoned_allocations, track_launches

spec = importlib.util.spec_from_file_location("learner_kernels", sys.argv[1])
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)
out = {}
n = 1000

alloc = GuardedAllocator("cuda", guard_elems=1024)
x = alloc.empty(n, torch.float32, name="x"); x.copy_(torch.randn(n, device="cuda"))
y = alloc.empty(n, torch.float32, name="y"); y.copy_(torch.randn(n, device="cuda"))
o = alloc.empty(n, torch.float32, name="output")
with track_launches() as launches:
    K.add_unmasked_store[(8,)](x, y, o, n, BLOCK_SIZE=128)
torch.cuda.synchronize()
out["store_guard"] = alloc.check()
out["launches"] = launches

alloc = GuardedAllocator("cuda", guard_elems=1024)
x = alloc.empty(n, torch.float32, name="x"); x.copy_(torch.randn(n, device="cuda"))
wide = alloc.empty(1024, torch.float32, name="wide")
K.copy_unmasked_load[(8,)](x, wide, 1024, BLOCK_SIZE=128)
torch.cuda.synchronize()
tail = wide[n:]
out["load_poison"] = {"nan": bool(torch.isnan(tail).all()), "guard": bool(is_poison(tail, guard=True).all()),
                      "head_ok": bool(torch.isfinite(wide[:n]).all()), "check": alloc.check()}

alloc = GuardedAllocator("cuda", guard_elems=1024)
a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
with poisoned_allocations(alloc, learner_file=sys.argv[1]):
    result = K.add(a, b, K.add_kernel, block=128)
torch.cuda.synchronize()
out["wrapper"] = {"guarded": alloc.allocation_of(result) is not None,
                  "equal": bool(torch.equal(result, a + b)),
                  "unwritten": int(is_poison(result).sum()), "check": alloc.check()}
print(json.dumps(out))
"""


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_guards_on_cuda(tmp_path):
    kernels = tmp_path / "learner.py"
    kernels.write_text(KERNELS)
    driver = tmp_path / "gpu_driver.py"
    driver.write_text(GPU_DRIVER)
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = _pythonpath()
    proc = subprocess.run(
        [sys.executable, str(driver), str(kernels)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    [problem] = out["store_guard"]
    assert problem["name"] == "output" and problem["side"] == "after" and problem["changed"] == 24
    assert problem["first_offsets"] == list(range(1000, 1008))
    assert [(r["kernel"], r["file"]) for r in out["launches"]] == [("add_unmasked_store", str(kernels))]
    assert out["load_poison"] == {"nan": True, "guard": True, "head_ok": True, "check": []}
    assert out["wrapper"] == {"guarded": True, "equal": True, "unwritten": 0, "check": []}


def test_a_compiled_kernel_launch_counts_as_the_jit_functions_launch():
    """`k = kernel.warmup(...); k[grid](...)` (the persistent softmax tutorial) bypasses JITFunction.run: the
    CompiledKernel hook records it under the @triton.jit function that compiled it, positional BLOCK args included."""
    from types import SimpleNamespace

    from tritonlab.engine import memcheck

    def softmax_kernel(
        out_ptr, in_ptr, n_rows, BLOCK_SIZE
    ):  # stands in for the JITFunction's Python function
        pass

    jit = SimpleNamespace(fn=softmax_kernel, arg_names=["out_ptr", "in_ptr", "n_rows", "BLOCK_SIZE"])
    compiled = SimpleNamespace(
        src=SimpleNamespace(fn=jit), metadata=SimpleNamespace(num_warps=8, num_stages=2)
    )
    out, x = torch.empty(4), torch.empty(4)
    memcheck._compiled_launch(compiled, (3, 1, 1), (out, x, 4, 1024))  # no sink: nothing recorded, no error
    with memcheck.track_launches() as launches:
        memcheck._compiled_launch(compiled, (3, 1, 1), (out, x, 4, 1024))
        memcheck._compiled_launch(SimpleNamespace(src=None), (1,), ())  # not from a JIT function: ignored
    assert len(launches) == 1
    launch = launches[0]
    assert (launch["kernel"], launch["grid"], launch["meta"]) == (
        "softmax_kernel",
        [3, 1, 1],
        {"BLOCK_SIZE": 1024},
    )
    assert launch["file"] == __file__ and launch["knobs"] == {"num_warps": 8, "num_stages": 2}
    assert launch["ptrs"] == [out.data_ptr(), x.data_ptr()]


def test_launch_hooks_wrap_compiled_kernels_only_while_tracking():
    from triton.compiler.compiler import CompiledKernel

    from tritonlab.engine import memcheck

    original = CompiledKernel.__getitem__
    with memcheck.track_launches():
        assert CompiledKernel.__getitem__ is not original
    assert CompiledKernel.__getitem__ is original


def test_swapped_strides_are_named_only_when_they_are_the_tensors_own_in_another_order():
    from tritonlab.engine.memcheck.bounds import _Region, _strides_passed

    b = _Region("b_ptr", 0, 4 * 33 * 129, 4, 33 * 129, (33, 129), (129, 1), None)
    swapped = _strides_passed({"M": 17, "stride_bk": 1, "stride_bn": 129, "stride_am": 33}, b)
    assert swapped == {"params": ["stride_bk", "stride_bn"], "values": [1, 129], "strides": [129, 1]}
    assert _strides_passed({"stride_bk": 129, "stride_bn": 1}, b) is None  # right order
    assert _strides_passed({"stride_bk": 7, "stride_bn": 1}, b) is None  # not b's strides at all
    assert _strides_passed({"stride_bk": 1}, b) is None  # one of two: nothing to compare
    x = _Region("x", 0, 4 * 64, 4, 64, (8, 8), (8, 1), None)  # `x_row_stride` style names
    assert _strides_passed({"x_row_stride": 1, "x_col_stride": 8}, x)["params"] == [
        "x_row_stride",
        "x_col_stride",
    ]


def test_a_false_flag_promises_nothing_the_masked_branch_is_told_its_missing_bound():
    code = "b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn, mask=offs_n[None, :] < N)"
    unpromised = {"name": "EVEN_K", "value": False, "branch": False, "line": 90, "expr": "K % BLOCK_K == 0"}
    message = _report(access="load", arg="b_ptr", code=code, promise=unpromised).message
    assert "fix how the wrapper computes EVEN_K" not in message and "runs only because" not in message
    assert "never bounds offs_k (axis 0)" in message and "EVEN_K=False branch" in message, message
    assert "offs_k < K - k * BLOCK_K" in message
    promised = dict(unpromised, value=True, branch=True)
    message = _report(access="load", arg="b_ptr", code=code, promise=promised).message
    assert message.split(" — ", 1)[1].startswith("line 12 runs only because the launch passed EVEN_K=True")


def test_a_mask_term_with_the_wrong_size_is_named_with_the_size_it_needs():
    # out = x.T is (13, 7): rows walks axis 1 (stride_on = 1) but the mask bounds it by n_cols = 13
    code = "tl.store(output_ptr + cols[:, None] * stride_om + rows[None, :] * stride_on, t, mask=m)"
    fields = dict(
        code=code,
        offsets=list(range(91, 97)),
        span=(91, 96),
        extent=91,
        shape=(13, 7),
        strides=(7, 1),
        ints={"n_rows": 7, "n_cols": 13, "stride_om": 7, "stride_on": 1},
    )
    wrong = "(cols[:, None] < n_cols) & (rows[None, :] < n_cols)"
    oob = _report(**dict(fields, code=code.replace("m)", f"{wrong})")))
    d = oob.to_dict()
    assert d["wrong_bound"]["index"] == "rows" and d["wrong_bound"]["expected"] == "n_rows", d
    assert "the term rows[None, :] < n_cols bounds rows by n_cols = 13" in oob.message, oob.message
    assert "compare rows with n_rows (n_rows = 7), not n_cols" in oob.message
    right = "(cols[:, None] < n_cols) & (rows[None, :] < n_rows)"  # bounds right: the address is what is off
    oob = _report(**dict(fields, code=code.replace("m)", f"{right})")))
    assert "wrong_bound" not in oob.to_dict() and "bounds every index" in oob.message


def test_right_bounds_on_an_output_allocated_like_x_keep_the_allocation_sentence():
    # out allocated (7, 13) like x, not (13, 7): cols < n_cols and rows < n_rows are right, the shape is off
    mask = "(cols[:, None] < n_cols) & (rows[None, :] < n_rows)"
    oob = _report(
        code=f"tl.store(output_ptr + cols[:, None] * stride_om + rows[None, :] * stride_on, t, mask={mask})",
        offsets=list(range(91, 99)),
        span=(91, 162),
        extent=91,
        shape=(7, 13),
        strides=(13, 1),
        ints={"n_rows": 7, "n_cols": 13, "stride_om": 13, "stride_on": 1},
    )
    assert "wrong_bound" not in oob.to_dict(), oob.to_dict()
    assert "bounds every index" in oob.message and "allocated with (7, 13)" in oob.message, oob.message
