"""torch.library.wrap_triton on the interpreter, where torch 2.11 refuses an InterpretedFunction (the H200 box).

torch 2.13 (CI) already hands interpreted kernels back, so the older refusal is reproduced by standing in a
wrap_triton that refuses everything, as torch 2.11's did for an InterpretedFunction. Runs in a child process:
TRITON_INTERPRET=1 must be set before triton is imported.
"""

from tests.interpreted import last_json, run_interpreted

SCRIPT = r"""
import json
import torch, torch.library, triton, triton.language as tl
from torch._library import triton as torch_triton
from tritonlab.engine import interpreter_support

def refuses(kernel, /):
    raise RuntimeError("wrap_triton only works on functions annotated with triton.jit or triton.autotune")

torch_triton.wrap_triton = torch.library.wrap_triton = refuses

@triton.jit
def double_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)

def attempt(kernel):
    try:
        return torch.library.wrap_triton(kernel)
    except RuntimeError as exc:
        return str(exc)

before = attempt(double_kernel)
repaired = interpreter_support.repair_wrap_triton()
wrapped = attempt(double_kernel)
x = torch.arange(4, dtype=torch.float32)
wrapped[(1,)](x, 4, BLOCK=4)
print(json.dumps({
    "before": before if isinstance(before, str) else "returned",
    "repaired": repaired,
    "same_kernel": wrapped is double_kernel,
    "launched": x.tolist(),
    "not_a_kernel": attempt(lambda t: t),
    "again": interpreter_support.repair_wrap_triton(),
    "module_too": torch_triton.wrap_triton is torch.library.wrap_triton,
}))
"""


def test_wrap_triton_hands_interpreted_kernels_back_and_still_refuses_other_callables():
    result = last_json(run_interpreted(SCRIPT))
    assert result["before"].startswith("wrap_triton only works"), result  # the refusal the repair answers
    assert result["repaired"] and result["again"] and result["module_too"], result
    assert result["same_kernel"] and result["launched"] == [0.0, 2.0, 4.0, 6.0], result
    assert result["not_a_kernel"].startswith("wrap_triton only works"), result
