"""An out-of-bounds access without a mask inside a helper that walks the range its caller passes: the report names
the call and the range arguments (the attention starter's unmasked block helper), and leaves other reports alone.

Runs in a child process: TRITON_INTERPRET=1 must be set before triton is imported.
"""

from tests.interpreted import last_json, run_interpreted

KERNELS = r"""
import triton
import triton.language as tl


@triton.jit
def _sum_blocks(x_ptr, lo, hi, BLOCK: tl.constexpr):
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(lo, hi, BLOCK):
        total += tl.load(x_ptr + start + tl.arange(0, BLOCK))  # unmasked: the caller keeps [lo, hi) inside
    return total


@triton.jit
def range_too_far(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    end = n + BLOCK  # one block too far
    total = _sum_blocks(x_ptr, 0, end, BLOCK)
    tl.store(out_ptr + tl.arange(0, BLOCK), total)


@triton.jit
def unmasked_in_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK) * 2
    tl.store(out_ptr + tl.arange(0, BLOCK), tl.load(x_ptr + offs))
"""

SCRIPT = r"""
import importlib.util, json, sys
import torch
from tritonlab.engine import interpreter_support
from tritonlab.engine.memcheck import InterpreterMemcheck, find_oob

interpreter_support.prepare_interpreter()
spec = importlib.util.spec_from_file_location("oob_kernels", sys.argv[1])
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)
found = {}
for name, run in {
    "range_too_far": lambda: K.range_too_far[(1,)](torch.ones(16), torch.zeros(8), 16, BLOCK=8),
    "unmasked_in_kernel": lambda: K.unmasked_in_kernel[(1,)](torch.ones(8), torch.zeros(8), 8, BLOCK=8),
}.items():
    with InterpreterMemcheck(sys.argv[1]) as mc:
        try:
            run()
            found[name] = None
        except BaseException as exc:
            oob = find_oob(exc)
            found[name] = oob.to_dict() if oob is not None else repr(exc)
print(json.dumps(found))
"""


def test_an_unmasked_helper_walking_its_callers_range_names_the_call_and_other_reports_stay(tmp_path):
    path = tmp_path / "oob_kernels.py"
    path.write_text(KERNELS)
    found = last_json(run_interpreted(SCRIPT, str(path)))
    helper = found["range_too_far"]
    lines = KERNELS.splitlines()
    assert "tl.load(x_ptr + start" in lines[helper["line"] - 1], helper
    assert helper["caller"] == {
        "function": "_sum_blocks",
        "line": next(i for i, t in enumerate(lines, 1) if "_sum_blocks(x_ptr, 0, end, BLOCK)" in t),
        "bounds": [{"param": "lo", "arg": "0"}, {"param": "hi", "arg": "end"}],
    }, helper["caller"]
    assert "passes lo = 0, hi = end" in helper["message"] and "pass mask=" not in helper["message"]
    plain = found["unmasked_in_kernel"]
    assert plain["caller"] is None and "pass mask=" in plain["message"], plain
