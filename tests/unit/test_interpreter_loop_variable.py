"""A `range` / `tl.range` loop variable is a tensor in a compiled kernel (`row.to(tl.int64)` works there); on
the interpreter it was a Python int, and a correct grid-stride kernel stopped with "'int' object has no attribute
'to'" (probe round 6). After repair_range_loop_variable it is a tensor there too, the loop runs the same
iterations (a kernel that skips rows still leaves them unwritten), and `tl.static_range` keeps a plain int.
Runs in a child process: TRITON_INTERPRET=1 must be set before triton is imported."""

from tests.interpreted import last_json, run_interpreted

# the interpreter rewrites a kernel from its source file (a `-c` script has none): the kernel is a file
KERNEL = """
import triton, triton.language as tl

@triton.jit
def rows_kernel(x_ptr, y_ptr, M, N, STEP: tl.constexpr, B: tl.constexpr):
    cols = tl.arange(0, B)
    for row in range(tl.program_id(0), M, tl.num_programs(0) * STEP):
        base = row.to(tl.int64) * N
        x = tl.load(x_ptr + base + cols, mask=cols < N)
        for j in tl.static_range(2):
            x = x + j  # j stays a Python int: static_range unrolls
        tl.store(y_ptr + base + cols, x, mask=cols < N)
"""

SCRIPT = r"""
import importlib.util, json, sys
import torch
from tritonlab.engine import interpreter_support

interpreter_support.repair_scalar_index()  # Triton 3.6 with numpy >= 2.4: range() of a program id
repaired = interpreter_support.repair_range_loop_variable()
spec = importlib.util.spec_from_file_location("rows_kernel", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)

def run(step):
    x = torch.arange(7 * 5, dtype=torch.float32).reshape(7, 5)
    y = torch.full_like(x, -1.0)
    try:
        module.rows_kernel[(3,)](x, y, 7, 5, STEP=step, B=8)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}", None
    return None, int(((y - (x + 1)).abs() > 0).any(dim=1).sum())

again = interpreter_support.repair_range_loop_variable()
print(json.dumps({"repaired": repaired, "again": again, "right": run(1), "skips": run(2)}))
"""


def test_a_range_loop_counts_with_a_tensor_on_the_interpreter(tmp_path):
    kernel = tmp_path / "rows_kernel.py"
    kernel.write_text(KERNEL)
    out = last_json(run_interpreted(SCRIPT, str(kernel)))
    assert out["repaired"] and out["again"]
    assert out["right"] == [None, 0], out["right"]  # every row right: row.to(tl.int64) works
    error, wrong_rows = out["skips"]
    assert error is None and wrong_rows == 3, out["skips"]  # rows 3, 4, 5 never visited: still wrong
