"""A value carried from one trip of a compiled `for`/`while` loop to the next must keep its Triton type (scalar or
block, shape, dtype): a GPU compile stops with "Loop-carried variable m has initial type fp32 but is re-assigned to
<['64'], fp32> in loop!" (`_verify_loop_carried_variable` in the code generator, Triton 3.6 and 3.9). The
interpreter ran the loop in Python and carried the new value on, so `m_new = tl.maximum(m, x)` without a
`tl.max` turned a running max into a per-lane block: a misleading NaN verdict, or — when the lanes were merged
after the loop — a pass for a kernel no GPU compiles (probe round 15c). Now the interpreter compares the carried
names' types at the end of each trip (interpreter_support.check_loop_carried_types) and stops at the line that
made the new value. What a GPU accepts must still pass: names local to a trip (Python keeps them alive into the
next one; a GPU compile does not), an unrolled tl.static_range, a runtime `if` that keeps the type.
tests/unit/test_gpu_rules_compile.py compiles the same files for sm_90 and must agree."""

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

# each program walks the tiles pid, pid + programs, …; PRE binds names before the loop, BODY works on x in it
KERNEL = """
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    programs = tl.num_programs(0)
PRE
    for tile in range(tl.program_id(0), tl.cdiv(n, BLOCK), programs):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
BODY
        tl.store(out_ptr + offs, x + y, mask=mask)
"""


def source(pre: str, body: str, extra: str = "") -> str:
    return HEAD + extra + KERNEL.replace("PRE", pre).replace("BODY", body) + WRAPPER


# what a GPU compiles: each must pass (false-fail guards)
ACCEPTED = {
    "scalar_stays_scalar": source(
        '    top = -float("inf")', "        top = tl.maximum(top, tl.max(x, axis=0))"
    ),
    "block_stays_block": source("    acc = tl.zeros([BLOCK], tl.float32)", "        acc += x.to(tl.float32)"),
    "counter": source("    trips = 0", "        trips += 1"),
    "runtime_if_keeps_the_type": source(
        "    last = 0.0",
        "        if tile % 2 == 0:\n            last = tl.sum(x.to(tl.float32), axis=0)\n"
        "        else:\n            last = 0.0",
    ),
    # `twice` is local to each trip of the outer loop (bound in the inner loop, then after it): Python keeps
    # the scalar of the last trip alive into the next, a GPU compile carries nothing
    "stale_local_of_an_earlier_trip": source(
        "    pass",
        "        for j in range(2):\n            twice = x + x\n        twice = 0.0",
    ),
    # an unrolled loop carries nothing: its value may change type from one copy of the body to the next
    "static_range_changes_type": source(
        "    pass",
        "        v = 0.0\n        for i in tl.static_range(2):\n            v = v + x",
    ),
    "while_keeps_the_type": source(
        "    pass",
        "        k = 0\n        while k < 2:\n            k += 1",
    ),
}

# what a GPU refuses: (file, carried name, the line that makes the new value, via)
REFUSED = {
    "scalar_becomes_block": (
        source("    total = 0.0", "        total = total + x"),
        "total",
        "        total = total + x",
        None,
    ),
    "through_a_copy": (
        source(
            '    top = -float("inf")',
            "        new_top = tl.maximum(top, x)\n        top = new_top",
        ),
        "top",
        "        new_top = tl.maximum(top, x)",
        "new_top",
    ),
    "dtype_changes": (
        source("    acc = tl.zeros([BLOCK], tl.float16)", "        acc = acc + x.to(tl.float32)"),
        "acc",
        "        acc = acc + x.to(tl.float32)",
        None,
    ),
    "int32_becomes_int64": (
        source("    seen = 0", "        seen = seen + n.to(tl.int64)"),
        "seen",
        "        seen = seen + n.to(tl.int64)",
        None,
    ),
    "block_gains_an_axis": (
        source("    acc = tl.zeros([BLOCK], tl.float32)", "        acc = (acc + x.to(tl.float32))[None, :]"),
        "acc",
        "        acc = (acc + x.to(tl.float32))[None, :]",
        None,
    ),
    "block_becomes_scalar": (
        source(
            "    acc = tl.zeros([BLOCK], tl.float32)", "        acc = tl.sum(acc + x.to(tl.float32), axis=0)"
        ),
        "acc",
        "        acc = tl.sum(acc + x.to(tl.float32), axis=0)",
        None,
    ),
    "while_loop": (
        source(
            "    pass",
            "        i = 0\n        w = 0.0\n        while i < 1:\n            w = w + x\n            i += 1",
        ),
        "w",
        "            w = w + x",
        None,
    ),
    "in_a_device_function": (
        source(
            "    pass",
            "        unused = _total(x)",
            extra=(
                "@triton.jit\ndef _total(x):\n    t = 0.0\n    for i in range(1):\n        t = t + x\n"
                "    return t\n\n"
            ),
        ),
        "t",
        "        t = t + x",
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_what_a_gpu_compiles_passes(worker, tmp_path, name):
    result = verify(worker, tmp_path, name, ACCEPTED[name])
    assert result["passed"], (name, result.get("summary"), result.get("error"))


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_a_gpu_refuses_fails_at_the_line_that_changed_the_type(worker, tmp_path, name):
    text, carried, line_text, via = REFUSED[name]
    result = verify(worker, tmp_path, name, text)
    assert result["passed"] is False
    err = result["error"]
    assert (err["kind"], err.get("cause"), err.get("name")) == ("compile", "loop-carried-type", carried), err
    lines = text.splitlines()
    assert err["line"] == lines.index(line_text) + 1, err
    assert err.get("via") == via, err
    loop = err["loop_line"]
    assert lines[loop - 1].lstrip().startswith(("for ", "while ")), err
    assert (err["before_shape"], err["before_dtype"]) != (err["after_shape"], err["after_dtype"]), err
    en, ja = describe(err, "en"), describe(err, "ja")
    quoted = f"Loop-carried variable {carried} has initial type {err['before']}"
    assert quoted in en and quoted in ja, (en, ja)
    assert f"line {err['line']}" in en and f"{err['line']} 行目" in ja, (en, ja)
    assert f"(line {loop})" in en and f"({loop} 行目)" in ja, (en, ja)
