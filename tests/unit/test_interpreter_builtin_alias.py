"""A `tl` builtin bound to a name of the learner's module (`pid_of = tl.program_id`, `from triton.language import
program_id`, lesson 13's `make_descriptor = getattr(tl, "make_tensor_descriptor", None) or ...`) compiles on a
GPU; Triton's interpreter patched only `tl`'s attributes for a launch, so the alias stopped a correct kernel with
"Did you forget to add @triton.jit ?" (probe round 10). After repair_builtin_aliases the alias runs, the module's
name is the original builtin again after the launch, and a learner function that is no builtin is left alone.
Runs in a child process: TRITON_INTERPRET=1 must be set before triton is imported."""

from tests.interpreted import last_json, run_interpreted

KERNEL = """
import triton, triton.language as tl
from triton.language import program_id

pid_of = tl.program_id
load = getattr(tl, "load")


def arange_of(n):  # the learner's own function, not a builtin: never touched
    return n


@triton.jit
def alias_kernel(x_ptr, y_ptr, n, B: tl.constexpr):
    offs = pid_of(0) * B + tl.arange(0, B)
    mask = offs < n
    tl.store(y_ptr + offs, load(x_ptr + offs, mask=mask) + program_id(0), mask=mask)
"""

SCRIPT = r"""
import importlib.util, json, sys
import torch
import triton.language as tl
from tritonlab.engine import interpreter_support

interpreter_support.repair_scalar_index()
repaired = {"repaired": interpreter_support.repair_builtin_aliases() if sys.argv[2] == "on" else False}
spec = importlib.util.spec_from_file_location("alias_kernel", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
own = module.arange_of
x = torch.arange(10, dtype=torch.float32)
y = torch.full_like(x, -1.0)
try:
    module.alias_kernel[(3,)](x, y, 10, B=4)
    error = None
except Exception as exc:
    error = f"{type(exc).__name__}: {exc}"[:300]
print(json.dumps(repaired | {
    "error": error,
    "y": y.tolist(),
    "restored": module.pid_of is tl.program_id and module.program_id is tl.program_id and module.load is tl.load,
    "own_kept": module.arange_of is own,
}))
"""


def test_a_builtin_alias_runs_on_the_interpreter_and_is_restored(tmp_path):
    kernel = tmp_path / "alias_kernel.py"
    kernel.write_text(KERNEL)
    out = last_json(run_interpreted(SCRIPT, str(kernel), "on"))
    assert out["repaired"] and out["error"] is None, out
    assert out["y"] == [i + i // 4 for i in range(10)]  # x + program id, every element written
    assert out["restored"] and out["own_kept"]


def test_without_the_repair_the_alias_fails_as_triton_left_it(tmp_path):
    """The false-fail this repairs, seen here so the test above cannot pass for another reason."""
    kernel = tmp_path / "alias_kernel.py"
    kernel.write_text(KERNEL)
    out = last_json(run_interpreted(SCRIPT, str(kernel), "off"))
    assert out["error"] and "triton.jit" in out["error"], out
