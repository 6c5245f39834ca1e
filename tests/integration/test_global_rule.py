"""Triton's code generator lets a kernel read only some module globals: tl.constexpr values, modules, @triton.jit
functions, Triton's own names and dtypes, a few Python builtins (code_generator's global_lookup). A GPU compile
refuses the rest ("Cannot access global variable SCALE from within @jit'ed function"; a plain Python function:
"Unsupported function referenced"). The interpreter runs the kernel as Python and read any global, so a learner
without a GPU passed with `SCALE = 2.0` in their kernel, and a plain Python function called from the kernel could
write numpy's answer into the tile (integrity round 14's open fake). Now the interpreter refuses what the GPU
refuses, at the learner's line, and nothing that the GPU accepts (checked against Triton 3.9's compile for sm_90 in
tests/unit/test_global_rule_compile.py)."""

import textwrap
from pathlib import Path

import pytest

from tritonlab.present.diagnoses import describe

WRAPPER = """

def add(x, y):
    if x.device != y.device:
        raise ValueError("x and y are on different devices")
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    return out
"""

HEAD = """import torch
import triton
import triton.language as tl
"""

KERNEL = """

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, BODY, mask=mask)
"""


def source(globals_: str, body: str, extra: str = "") -> str:
    return HEAD + textwrap.dedent(globals_) + extra + KERNEL.replace("BODY", body) + WRAPPER


# what a GPU compiles: each must pass (false-fail guards)
ACCEPTED = {
    "constexpr_global": source("ONE = tl.constexpr(1.0)\n", "(x + y) * ONE"),
    "jit_helper": source(
        "",
        "_sum(x, y)",
        "\n\n@triton.jit\ndef _sum(a, b):\n    return a + b\n",
    ),
    "builtin_alias": source("from triton.language import maximum\n", "maximum(x + y, x + y)"),
    "dtype_global": source("ACC = tl.float32\n", "(x.to(ACC) + y.to(ACC)).to(x.dtype)"),
    "module_global": source("import math\n", "(x + y) * (math.pi / math.pi)"),
    # a refused global in a constexpr branch the launch never takes: Triton never looks it up
    "untaken_branch": source(
        "SCALE = 2.0\n",
        "_pick(x, y, False)",
        "\n\n@triton.jit\ndef _pick(a, b, SCALED: tl.constexpr):\n    if SCALED:\n        return (a + b) * SCALE\n"
        "    return a + b\n",
    ),
    # the grid function runs inside the launch: a global it reads may share a name with an attribute the
    # kernel reads (`element_ty`), which is no global access of the kernel's
    "grid_global_named_like_an_attribute": source(
        "element_ty = 1\n", "(x + y).to(out_ptr.dtype.element_ty)"
    ).replace("(triton.cdiv(n, 256),)", "lambda meta: (triton.cdiv(n, 256) * element_ty,)"),
    # Python's min/max in a kernel are Triton's builtin_min/max (elementwise on blocks) on a GPU; the
    # interpreter ran Python's, which returned one block whole (min(a, a + 1) gave a + 1). The grid lambda,
    # run inside the launch, still gets Python's for its numbers.
    "python_min_max_on_blocks": source("", "max(min(x + y, x + y + 1.0), x + y - 1.0)").replace(
        "(triton.cdiv(n, 256),)", "lambda meta: (max(1, triton.cdiv(n, 256)),)"
    ),
    # the host wrapper may use any global; only the kernel may not
    "host_uses_float": source("BLOCK_HOST = 256\nSCALE = 1.0\n", "x + y").replace(
        "BLOCK=256)", "BLOCK=BLOCK_HOST)\n    out.mul_(SCALE)"
    ),
}

# what a GPU refuses: each must fail at the kernel's line that uses the global (false-pass guards)
REFUSED = {
    "float_global": (source("SCALE = 1.0\n", "(x + y) * SCALE"), "SCALE", False, "1.0"),
    "int_global_in_device_function": (
        source("SHIFT = 0\n", "_shift(x + y)", "\n\n@triton.jit\ndef _shift(v):\n    return v + SHIFT\n"),
        "SHIFT",
        False,
        "0",
    ),
    "plain_function": (
        source("", "_sum(x, y)", "\n\ndef _sum(a, b):\n    return a + b\n"),
        "_sum",
        True,
        None,
    ),
    # an annotation is not a constexpr: Triton's own message says `x: tl.constexpr = 42` is not supported
    "annotated_global": (source("SCALE: tl.constexpr = 1.0\n", "(x + y) * SCALE"), "SCALE", False, "1.0"),
}


def verify(worker, tmp_path: Path, name: str, text: str) -> dict:
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return worker.request("verify", {"exercise": "5", "file": str(path)}, timeout=600)


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_globals_a_gpu_accepts_still_pass(worker, tmp_path, name):
    result = verify(worker, tmp_path, name, ACCEPTED[name])
    assert result["passed"], (name, result.get("summary"), result.get("error"))


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_globals_a_gpu_refuses_fail_at_their_line(worker, tmp_path, name):
    text, global_name, plain, value = REFUSED[name]
    result = verify(worker, tmp_path, name, text)
    assert result["passed"] is False
    err = result["error"]
    assert (err["kind"], err.get("cause"), err.get("name")) == (
        "compile",
        "global-not-constexpr",
        global_name,
    ), err
    use = next(
        n
        for n, line in enumerate(text.splitlines(), 1)
        if global_name in line and not line.startswith((global_name, "def "))
    )
    assert err["line"] == use, (err["line"], use)
    assert err["plain_function"] is plain and err.get("value") == value
    en, ja = describe(err, "en"), describe(err, "ja")
    assert global_name in en and global_name in ja
    if plain:  # the GPU's words for a function differ from its words for a value
        assert "Unsupported function referenced" in en and "@triton.jit" in en and "普通の Python 関数" in ja
    else:
        assert "Cannot access global variable" in en
        assert f"{global_name} = tl.constexpr({value})" in en and f"tl.constexpr({value})" in ja
    assert err["annotated"] is (name == "annotated_global")
    if err["annotated"]:
        assert "the annotation does not make it a constexpr" in en and "型注釈" in ja


def test_the_global_is_back_after_the_refusal(worker, tmp_path):
    """The stand-in lives for one launch: the module's global is the learner's value again afterwards (what a
    later Run prints, and what the host code reads)."""
    text = REFUSED["float_global"][0].replace(
        "    return out\n", "    assert type(SCALE) is float, type(SCALE)\n    return out\n"
    )
    result = verify(worker, tmp_path, "float_after", text)
    assert result["error"]["cause"] == "global-not-constexpr"
    # the refusal comes from the launch, not from the assert after it
    assert "assert" not in (result["error"].get("message") or "")
