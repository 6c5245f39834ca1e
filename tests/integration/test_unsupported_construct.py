"""Python that Triton's code generator has no rule for (`break`, `continue`, `raise`, a lambda, …) stops a GPU
compile with "unsupported AST node type: Break". The interpreter ran such a kernel as Python, so a learner without
a GPU passed with a `break` in their loop. Now the interpreter refuses it before the launch, at the learner's line,
with the node types of the running Triton's code generator (3.6 has no `:=`, 3.9 has), and leaves alone a branch
on a tl.constexpr that the compiler never visits. tests/unit/test_gpu_rules_compile.py compiles the same files
for sm_90 and must agree."""

import pytest

from tests.integration.test_global_rule import verify  # a file of exercise 5's, verified by the given worker
from tritonlab.present.diagnoses import describe

HEAD = """import torch
import triton
import triton.language as tl

"""

WRAPPER = """

def add(x, y):
    if x.device != y.device:
        raise ValueError("x and y are on different devices")
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(min(triton.cdiv(n, 256), 4),)](x, y, out, n, BLOCK=256)
    return out
"""

# each program walks the tiles pid, pid + programs, …: a loop whose body the cases below change
KERNEL = """
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    programs = tl.num_programs(0)
    for tile in range(tl.program_id(0), tl.cdiv(n, BLOCK), programs):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
BODY
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)
"""


def source(body: str, extra: str = "", kernel: str = KERNEL) -> str:
    return HEAD + extra + kernel.replace("BODY", body) + WRAPPER


# what a GPU compiles: each must pass
ACCEPTED = {
    "no_early_exit": source("        pass"),
    # a return outside any loop (the usual early exit of a program with nothing to do) compiles
    "return_before_the_loop": source("        pass").replace(
        "    programs = tl.num_programs(0)\n",
        "    programs = tl.num_programs(0)\n    if tl.program_id(0) * BLOCK >= n:\n        return\n",
    ),
    # a static_range loop is unrolled: a return under its if compiles
    "return_in_static_range": source("        pass").replace(
        "    programs = tl.num_programs(0)\n",
        "    programs = tl.num_programs(0)\n    for step in tl.static_range(2):\n        if step == 5:\n            return\n",
    ),
    # a branch on a tl.constexpr is resolved by the compiler: the untaken `break` is never compiled
    "break_under_constexpr_branch": source("        if EARLY:\n            break", extra="").replace(
        "BLOCK: tl.constexpr):", "BLOCK: tl.constexpr, EARLY: tl.constexpr = False):"
    ),
}

# what a GPU refuses: (file, construct, the line's text)
REFUSED = {
    "break": (source("        if tile * BLOCK >= n:\n            break"), "Break", "            break"),
    "continue": (
        source("        if tile * BLOCK >= n:\n            continue"),
        "Continue",
        "            continue",
    ),
    "raise": (
        source("        if tile < 0:\n            raise ValueError('negative tile')"),
        "Raise",
        "            raise ValueError('negative tile')",
    ),
    "lambda": (
        source("        twice = lambda v: v + v  # noqa: E731\n        offs = twice(offs) - offs"),
        "Lambda",
        "        twice = lambda v: v + v  # noqa: E731",
    ),
    "return_in_loop": (
        source("        if tile * BLOCK >= n:\n            return"),
        "ReturnInLoop",
        "            return",
    ),
    "break_in_device_function": (
        source(
            "        offs = _clip(offs, n)",
            extra=(
                "@triton.jit\ndef _clip(offs, n):\n    for _ in range(1):\n        if n < 0:\n            break\n"
                "    return offs\n\n"
            ),
        ),
        "Break",
        "            break",
    ),
}


def _walrus_supported() -> bool:
    from tritonlab.engine.interpreter_support import _supported_nodes

    return "NamedExpr" in _supported_nodes()


WALRUS = source("        if (last := tl.cdiv(n, BLOCK) - 1) < 0:\n            offs = offs + last")


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_what_a_gpu_compiles_passes(worker, tmp_path, name):
    result = verify(worker, tmp_path, name, ACCEPTED[name])
    assert result["passed"], (name, result.get("summary"), result.get("error"))


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_a_gpu_refuses_fails_at_its_line(worker, tmp_path, name):
    text, construct, line_text = REFUSED[name]
    result = verify(worker, tmp_path, name, text)
    assert result["passed"] is False
    err = result["error"]
    assert (err["kind"], err.get("cause"), err.get("construct")) == (
        "compile",
        "unsupported-construct",
        construct,
    )
    assert err["line"] == text.splitlines().index(line_text) + 1, err
    en, ja = describe(err, "en"), describe(err, "ja")
    quoted = (
        "Cannot have `return` statements"
        if construct == "ReturnInLoop"
        else f"unsupported AST node type: {construct}"
    )
    assert quoted in en and quoted in ja
    assert f"line {err['line']}" in en and f"{err['line']} 行目" in ja


def test_the_walrus_follows_the_running_triton(worker, tmp_path):
    """Triton 3.9's code generator has visit_NamedExpr, 3.6's has not: the interpreter says what this one says."""
    result = verify(worker, tmp_path, "walrus", WALRUS)
    if _walrus_supported():
        assert result["passed"], result.get("summary")
    else:
        assert result["passed"] is False and result["error"]["construct"] == "NamedExpr", result["error"]
