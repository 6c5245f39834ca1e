"""The interpreter takes a tl.dot of any size; an NVIDIA GPU refuses to compile one whose K is below 16 for 16-bit
operands (8 for fp32). The lab applies the GPU's rule on the interpreter (interpreter_support.gpu_dot_sizes), so a
block sized from a short input (BLOCK_N = next_power_of_2(1)) fails where it would fail on the GPU — and a dot at
the minimum still runs.

The interpreter part runs in a child process: TRITON_INTERPRET=1 must be set before triton is imported.
"""

from tests.interpreted import last_json, run_interpreted
from tritonlab.present.diagnoses import describe

SCRIPT = r"""
import json
import torch
import triton
import triton.language as tl
from tritonlab.engine import interpreter_support
from tritonlab.engine.learner import classify

interpreter_support.prepare_interpreter()


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m, n, k = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    tl.store(c_ptr + m[:, None] * N + n[None, :], tl.dot(a, b))


def run(dtype, k):
    a, b = torch.ones(16, k, dtype=dtype), torch.ones(k, 16, dtype=dtype)
    c = torch.zeros(16, 16, dtype=torch.float32)
    try:
        dot_kernel[(1,)](a, b, c, M=16, N=16, K=k)
    except Exception as exc:
        err = classify(exc, __file__)
        return {key: err.get(key) for key in ("kind", "cause", "k")}
    return float(c[0, 0])


print(json.dumps({
    "fp16_k8": run(torch.float16, 8),
    "fp16_k16": run(torch.float16, 16),
    "fp32_k8": run(torch.float32, 8),
    "fp32_k4": run(torch.float32, 4),
}))
"""


def test_dots_below_the_gpu_minimum_fail_on_the_interpreter_and_the_minimum_runs(tmp_path):
    script = tmp_path / "dots.py"
    script.write_text(SCRIPT)
    found = last_json(
        run_interpreted("import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')", str(script))
    )
    assert found["fp16_k16"] == 16.0 and found["fp32_k8"] == 8.0, found
    assert found["fp16_k8"] == {"kind": "compile", "cause": "dot-too-small", "k": 16}, found
    assert found["fp32_k4"] == {"kind": "compile", "cause": "dot-too-small", "k": 8}, found


def test_a_dot_below_the_minimum_is_said_in_both_languages():
    facts = {"kind": "compile", "cause": "dot-too-small", "k": 16, "line": 12}
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "at least 16" in en and "max(16, triton.next_power_of_2(n))" in en, en
    assert "16 以上" in ja and "NVIDIA" in ja, ja


def test_the_gpu_compilers_refusal_gets_the_same_cause(tmp_path):
    """On a GPU the same dot fails in Triton's compiler (a CompilationError around the assertion): the lab says
    it as it does on the interpreter."""
    from tritonlab.engine.learner import classify

    learner = tmp_path / "attention.py"
    learner.write_text("import triton\n")

    class CompilationError(Exception):
        pass

    CompilationError.__module__ = "triton.compiler.errors"
    exc = CompilationError(
        "at 3:14:\n    acc = tl.dot(p, v, acc)\n              ^\n"
        "AssertionError('Input shapes should have M >= 1, N >= 1 and K >= 16')"
    )
    err = classify(exc, str(learner))
    assert err["kind"] == "compile" and err["cause"] == "dot-too-small" and err["k"] == 16, err
    assert "at least 16" in err["message"], err["message"]
