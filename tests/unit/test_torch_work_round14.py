"""engine/torch_work.py, probe round 14: torch's or numpy's values reaching a learner kernel with no watched
operator or import on the way (a numpy result `ctypes.memmove`d into a fresh buffer or read back with
`torch.from_file`, torch's statistics through `torch.save`/`torch.load`, a Python kernel registered on an aten
operator, torch work while the Python dispatch key is excluded), and the false-fail side of each (the same
mechanism used for something that is not the answer).

The launches here are records (`hand`): what a launch record says is read after the fact (`_launched`); a real
kernel run is seen before it runs (`_watch_runs`), tested in a child process with the interpreter at the end."""

import importlib.util
import textwrap

import pytest

torch = pytest.importorskip("torch")

from tests.interpreted import last_json, run_interpreted  # noqa: E402
from tritonlab.engine.torch_work import TorchWork, _function_name, _python_kernel_below  # noqa: E402

LEARNER = """
import ctypes
import io
import os
import pickle
import tempfile

import numpy as np
import torch


def lse_memmoved(x):
    lse_host = np.logaddexp.reduce(x.numpy(), axis=1).astype(np.float32)
    lse = torch.empty(x.shape[0], dtype=torch.float32)
    ctypes.memmove(lse.data_ptr(), lse_host.ctypes.data, lse_host.nbytes)
    return lse


def lse_memmoved_into_an_earlier_buffer(x):
    lse = torch.empty(x.shape[0], dtype=torch.float32)      # allocated before the values leave
    lse_host = np.logaddexp.reduce(x.numpy(), axis=1).astype(np.float32)
    ctypes.memmove(lse.data_ptr(), lse_host.ctypes.data, lse_host.nbytes)
    return lse


def lse_memmoved_then_touched(x):
    lse_host = np.logaddexp.reduce(x.numpy(), axis=1).astype(np.float32)
    lse = torch.zeros(x.shape[0], dtype=torch.float32)
    ctypes.memmove(lse.data_ptr(), lse_host.ctypes.data, lse_host.nbytes)
    lse.mul_(1.0)                                            # a watched write after the unwatched one
    return lse


def lse_memmoved_as_bytes(x):
    lse_host = np.logaddexp.reduce(x.numpy(), axis=1).astype(np.float32)
    raw = torch.empty(lse_host.nbytes, dtype=torch.uint8)   # bytes, read as float32 through a view
    ctypes.memmove(raw.data_ptr(), lse_host.ctypes.data, lse_host.nbytes)
    return raw.view(torch.float32)


def ctypes_for_nothing_of_the_values(x):
    assert ctypes.sizeof(ctypes.c_float) == x.element_size()
    assert np.isfinite(x.numpy()).all()                      # the values leave (a check) ...
    out = torch.empty(x.shape[0], dtype=torch.float32)
    out.fill_(0.0)                                           # ... and the buffer is written by an operator
    return out


def constants_memmoved_with_no_export(x):
    table = np.linspace(0.0, 1.0, x.shape[0], dtype=np.float32)
    lut = torch.empty(x.shape[0], dtype=torch.float32)
    ctypes.memmove(lut.data_ptr(), table.ctypes.data, table.nbytes)   # no input value ever left torch
    return lut


def stats_from_file(x):
    host = x.numpy().astype(np.float64)
    stats = np.stack([host.max(axis=1), np.exp(host - host.max(axis=1)[:, None]).sum(axis=1)], 1)
    fd, path = tempfile.mkstemp(suffix=".bin")
    os.close(fd)
    try:
        stats.astype(np.float32).tofile(path)
        return torch.from_file(path, shared=False, size=stats.size, dtype=torch.float32)
    finally:
        os.unlink(path)


def constants_from_file(x):
    fd, path = tempfile.mkstemp(suffix=".bin")
    os.close(fd)
    try:
        np.arange(x.shape[0], dtype=np.float32).tofile(path)
        return torch.from_file(path, shared=False, size=x.shape[0], dtype=torch.float32)
    finally:
        os.unlink(path)


def stats_saved_and_loaded(x):
    m = x.amax(dim=1)
    shifted = x - m[:, None]
    l = torch.exp(shifted).sum(dim=1)
    stats = torch.stack([m, l], dim=1).contiguous()
    buffer = io.BytesIO()
    torch.save(stats, buffer)
    buffer.seek(0)
    return torch.load(buffer)


def stats_pickled(x):
    stats = torch.stack([x.amax(dim=1), x.amin(dim=1)], dim=1).contiguous()
    return pickle.loads(pickle.dumps(stats))


def stats_storage_saved(x):
    stats = x.amax(dim=1).contiguous()
    buffer = io.BytesIO()
    torch.save(stats.untyped_storage(), buffer)
    buffer.seek(0)
    storage = torch.load(buffer)
    return torch.empty(0, dtype=torch.uint8).set_(storage).view(stats.dtype)  # bytes, read as float


def unrelated_save_then_load_after_temporaries(x):
    for _ in range(4):
        tmp = x * 2.0            # computed temporaries, freed: their addresses come free
        tmp2 = tmp.exp()
        del tmp, tmp2
    buffer = io.BytesIO()
    torch.save(torch.arange(x.shape[0] * 2, dtype=x.dtype), buffer)   # nothing of x
    buffer.seek(0)
    return torch.load(buffer)


def checked_then_unrelated_save_load(x):
    assert np.isfinite(x.numpy()).all()                      # x's values leave (a check) ...
    buffer = io.BytesIO()
    torch.save({"scale": torch.full((x.shape[0],), 0.5)}, buffer)   # ... and a constant makes the round trip
    buffer.seek(0)
    return torch.load(buffer)["scale"]


def lse_from_an_integer_view(x):
    bits = x.view(torch.int32).numpy()                       # x's bits leave through an integer view
    lse_host = np.logaddexp.reduce(bits.view(np.float32), axis=1).astype(np.float32)
    lse = torch.empty(x.shape[0], dtype=torch.float32)
    ctypes.memmove(lse.data_ptr(), lse_host.ctypes.data, lse_host.nbytes)
    return lse


def product_with_python_key_excluded(a, b):
    key = torch._C.DispatchKeySet(torch._C.DispatchKey.Python)
    with torch._C._ExcludeDispatchKeyGuard(key):
        return ((b.float().t() @ a.float().t()) * 0.5).contiguous()


def product_with_torch_dispatch_disabled(a, b):
    with torch._C._DisableTorchDispatch():
        return torch.matmul(a, b)


def written_in_place_with_python_key_excluded(a, b):
    out = torch.empty(a.shape[0], b.shape[1])
    key = torch._C.DispatchKeySet(torch._C.DispatchKey.Python)
    with torch._C._ExcludeDispatchKeyGuard(key):
        out[:] = a @ b
    return out


def allocations_with_python_key_excluded(a, b):
    key = torch._C.DispatchKeySet(torch._C.DispatchKey.Python)
    with torch._C._ExcludeDispatchKeyGuard(key):
        c = torch.empty(a.shape[0], b.shape[1], dtype=a.dtype)
    return c


def other_keys_excluded(a, b):
    key = torch._C.DispatchKeySet(torch._C.DispatchKey.AutogradCPU)
    with torch._C._ExcludeDispatchKeyGuard(key), torch.inference_mode():
        c = torch.empty(a.shape[0], b.shape[1], dtype=a.dtype)
        flat = a.contiguous().view(-1)
    return c, flat
"""

ALIAS = """
import torch

_lib = torch.library.Library("aten", "IMPL")


def _normalised_rows(t):
    xf = t.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + 1e-6)).to(t.dtype)


_lib.impl("alias_copy", _normalised_rows, "CPU")


def call(x):
    return torch.ops.aten.alias_copy.default(x)


def untouched_copy(x):
    return torch.ops.aten.expand_copy.default(x, list(x.shape))
"""


def _load(tmp_path, text: str, name: str):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, str(path)


@pytest.fixture(scope="module")
def learner(tmp_path_factory):
    return _load(tmp_path_factory.mktemp("round14"), LEARNER, "learner_round14")


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(text).splitlines(), 1) if needle in line)


def handed(path: str, make, inputs: dict, perturb: bool = False):
    """Run make(**inputs) under the watch and hand what it returns to a learner launch (a record)."""
    launches: list = []
    with TorchWork(path, inputs, lambda: launches, perturb=perturb) as work:
        made = make(**inputs)
        tensors = made if isinstance(made, tuple) else (made,)
        launches.append({"file": path, "ptrs": [t.data_ptr() for t in tensors]})
    return work, made


def facts(work) -> list[tuple]:
    return [(f["op"], f["input"], f["line"]) for f in work.found]


# -- 1. numpy's values brought in with no watched import (ctypes.memmove, torch.from_file) ------------------


def test_numpy_values_memmoved_into_a_fresh_buffer_are_numpy(learner):
    module, path = learner
    x = torch.randn(4, 9)
    for make in (
        module.lse_memmoved,
        module.lse_memmoved_into_an_earlier_buffer,
        module.lse_memmoved_then_touched,
        module.lse_memmoved_as_bytes,
        module.lse_from_an_integer_view,
    ):
        work, _ = handed(path, make, {"x": x})
        assert [(op, name) for op, name, _ in facts(work)] == [("numpy", "x")], make.__name__
    work, _ = handed(path, module.lse_memmoved, {"x": x})
    assert facts(work)[0][2] == line_of(LEARNER, "lse_host = np.logaddexp.reduce(x.numpy(), axis=1)")


def test_ctypes_and_bytes_that_hold_no_input_values_are_not_work(learner):
    """ctypes for a size check beside a numpy check of x, a buffer filled by an operator; a constant table
    memmoved in while no input value ever left torch."""
    module, path = learner
    x = torch.randn(4, 9)
    for make in (module.ctypes_for_nothing_of_the_values, module.constants_memmoved_with_no_export):
        work, _ = handed(path, make, {"x": x})
        assert work.found == [], make.__name__


def test_a_perturbing_run_moves_memmoved_values(learner):
    """The second run of an excused self-check moves what came in unseen by 1, as it does from_numpy's."""
    module, path = learner
    x = torch.randn(4, 9)
    _, plain = handed(path, module.lse_memmoved, {"x": x})
    launches: list = []
    with TorchWork(path, {"x": x}, lambda: launches, perturb=True):
        moved = module.lse_memmoved(x)
        launches.append({"file": path, "ptrs": [moved.data_ptr()]})
        # the launch record is read at the next operator, before a kernel would read the buffer
        torch.empty(1)
    assert torch.allclose(moved, plain + 1.0)


def test_values_read_back_with_torch_from_file_are_numpy_unless_none_left(learner):
    module, path = learner
    x = torch.randn(3, 5)
    work, _ = handed(path, module.stats_from_file, {"x": x})
    assert [(op, name) for op, name, _ in facts(work)] == [("numpy", "x")]
    work, _ = handed(path, module.constants_from_file, {"x": x})
    assert work.found == []


# -- 2. torch.save / torch.load --------------------------------------------------------------------------------


def test_statistics_through_torch_save_and_load_keep_their_operator(learner):
    module, path = learner
    x = torch.randn(5, 7)
    work, _ = handed(path, module.stats_saved_and_loaded, {"x": x})
    assert facts(work)[0] == ("amax", "x", line_of(LEARNER, "m = x.amax(dim=1)"))
    work, _ = handed(path, module.stats_pickled, {"x": x})
    assert [op for op, *_ in facts(work)][:1] == ["amax"]
    work, _ = handed(path, module.stats_storage_saved, {"x": x})
    assert [op for op, *_ in facts(work)] == ["amax"]


def test_a_constant_through_torch_save_and_load_is_not_work_after_a_check(learner):
    """x's values left for a numpy check; a constant saved and loaded is still the constant (its bytes are what
    torch.save took out of a tensor that held nothing of x), not numpy's."""
    module, path = learner
    work, loaded = handed(path, module.checked_then_unrelated_save_load, {"x": torch.randn(4, 6)})
    assert work.found == [] and torch.equal(loaded, torch.full((4,), 0.5))


def test_a_loaded_tensor_of_other_values_is_not_work_at_a_freed_temporarys_address(learner):
    """Probe round 14's opposite fault: torch.load rebuilds with set_ on a fresh storage, which the allocator may
    place where a computed temporary was freed; its entry said nothing of the new buffer, and failed it."""
    module, path = learner
    for size in (1, 2, 4, 8, 16, 64, 256):
        x = torch.randn(size, 16)
        work, _ = handed(path, module.unrelated_save_then_load_after_temporaries, {"x": x})
        assert work.found == [], (size, work.found)


# -- 3. a Python kernel registered on an aten operator -----------------------------------------------------------


def test_a_python_kernel_registered_on_an_aten_operator_is_watched(tmp_path):
    module, path = _load(tmp_path, ALIAS, "learner_alias")
    x = torch.randn(4, 6)
    try:
        assert _python_kernel_below("aten::alias_copy")
        work, _ = handed(path, module.call, {"x": x})
        assert [(op, name) for op, name, _ in facts(work)] == [("mul", "x")]
        assert facts(work)[0][2] == line_of(ALIAS, "return (xf * torch.rsqrt")
        # an aten copy with no Python kernel of the file's: still a copy of x
        assert not _python_kernel_below("aten::expand_copy")
        work, _ = handed(path, module.untouched_copy, {"x": x})
        assert work.found == []
    finally:
        module._lib._destroy()
    assert not _python_kernel_below("aten::alias_copy")


# -- 4. the Python dispatch key excluded -------------------------------------------------------------------------


def test_torch_work_with_the_python_dispatch_key_excluded_is_found(learner):
    module, path = learner
    a, b = torch.randn(6, 4), torch.randn(4, 5)
    work, _ = handed(path, module.product_with_python_key_excluded, {"a": a, "b": b})
    assert facts(work) == [
        ("matmul", "b", line_of(LEARNER, "return ((b.float().t() @ a.float().t()) * 0.5)"))
    ]
    work, _ = handed(path, module.product_with_torch_dispatch_disabled, {"a": a, "b": b})
    assert [op for op, *_ in facts(work)] == ["matmul"]
    work, _ = handed(path, module.written_in_place_with_python_key_excluded, {"a": a, "b": b})
    assert [op for op, *_ in facts(work)] == ["matmul"]


def test_allocations_and_other_keys_excluded_are_not_work(learner):
    module, path = learner
    a, b = torch.randn(6, 4), torch.randn(4, 5)
    for make in (module.allocations_with_python_key_excluded, module.other_keys_excluded):
        work, _ = handed(path, make, {"a": a, "b": b})
        assert work.found == [], make.__name__


def test_torch_function_names_read_as_aten_names():
    assert _function_name(torch.Tensor.__rmatmul__) == "matmul"
    assert _function_name(torch.Tensor.__iadd__) == "add_"
    assert _function_name(torch.Tensor.float) == "_to_copy"
    assert _function_name(torch.Tensor.__getitem__) == "slice"
    assert _function_name(torch.softmax) == "softmax"


# -- a real kernel run: the bytes are compared before the kernel writes its output --------------------------------

RUN = r"""
import ctypes, importlib.util, json, os, sys, tempfile, textwrap

import numpy as np
import torch
import triton
import triton.language as tl

from tritonlab.engine import memcheck
from tritonlab.engine.torch_work import TorchWork

SOURCE = '''
import ctypes

import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def minus_kernel(x_ptr, lse_ptr, out_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    tl.store(out_ptr + row, tl.load(lse_ptr + row) - tl.load(x_ptr + row * N))


@triton.jit
def row_max_kernel(x_ptr, out_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    tl.store(out_ptr + row, tl.max(tl.load(x_ptr + row * N + tl.arange(0, N)), axis=0))


def fake(x):
    M, N = x.shape
    out = torch.empty(M, dtype=torch.float32, device=x.device)
    lse_host = np.ascontiguousarray(np.logaddexp.reduce(x.numpy(), axis=1).astype(np.float32))
    lse = torch.empty(M, dtype=torch.float32, device=x.device)
    ctypes.memmove(lse.data_ptr(), lse_host.ctypes.data, lse_host.nbytes)
    minus_kernel[(M,)](x, lse, out, N)
    return out


def correct(x):
    M, N = x.shape
    assert np.isfinite(x.numpy()).all() and ctypes.sizeof(ctypes.c_float) == 4   # values leave: a check
    out = torch.empty(M, dtype=torch.float32, device=x.device)   # written by the kernel alone
    row_max_kernel[(M,)](x, out, N)
    again = torch.empty(M, dtype=torch.float32, device=x.device)
    row_max_kernel[(M,)](x, again, N)                             # a second launch, after the first wrote
    return out
'''

path = os.path.join(tempfile.mkdtemp(), "learner_run.py")
open(path, "w").write(SOURCE)
spec = importlib.util.spec_from_file_location("learner_run", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
result = {}
for name in ("fake", "correct"):
    x = torch.randn(4, 16)
    with memcheck.track_launches() as launches, TorchWork(path, {"x": x}, lambda: launches) as work:
        getattr(module, name)(x)
    result[name] = [(f["op"], f["input"]) for f in work.found + work.excused]
print(json.dumps(result))
"""


def test_a_real_kernel_run_sees_memmoved_bytes_and_not_its_own_output():
    found = last_json(run_interpreted(RUN))
    assert found == {"fake": [["numpy", "x"]], "correct": []}
