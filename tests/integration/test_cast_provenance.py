"""A wrapper may cast its kernel's output (`return out32.to(x.dtype)`, `out.copy_(out32)`): the returned
tensor is then torch's memory, but its values are the kernel's, rounded once. Provenance follows a whole-tensor
cast back to the buffer a learner launch wrote (round-10 probe, a false fail before). What must still fail:
a cast made before the kernel wrote, a cast buffer torch changed afterwards, and torch's own answer cast. A view
of the cast and a chain of casts are followed too (probe round 11: both were false fails)."""

from pathlib import Path

import pytest

KERNEL = """
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float32)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x, y):
    if x.device != y.device:
        raise ValueError("x and y are on different devices")
    n = x.numel()
    out32 = torch.empty(n, dtype=torch.float32, device=x.device)
"""

LAUNCH = "    add_kernel[(triton.cdiv(n, 1024),)](x, y, out32, n, BLOCK_SIZE=1024)\n"

WRAPPERS = {
    # right: the kernel's float32 sums, rounded by torch's cast (or copied into a buffer of x's dtype)
    "cast_back": (LAUNCH + "    return out32.to(x.dtype)\n", True),
    "copy_into": (LAUNCH + "    out = torch.empty_like(x)\n    out.copy_(out32)\n    return out\n", True),
    # right (probe round 11): a view of the cast, and a cast of a cast copied into a buffer of x's dtype
    "cast_then_view": (LAUNCH + "    return out32.to(x.dtype).reshape(1, -1)[0, :n]\n", True),
    "cast_chain": (
        LAUNCH + "    res = torch.empty_like(x)\n    res.copy_(out32.double().type_as(x))\n    return res\n",
        True,
    ),
    # wrong: the cast was taken before the kernel wrote, so it holds whatever the buffer held
    "cast_before_launch": ("    early = out32.to(x.dtype)\n" + LAUNCH + "    return early\n", False),
    # wrong: torch's own sum, cast; the kernel's buffer is thrown away
    "torch_sum_cast": (LAUNCH + "    return (x.float() + y.float()).to(x.dtype)\n", False),
    # wrong: the cast kernel output is then overwritten in part by torch
    "cast_then_patched": (
        LAUNCH + "    out = out32.to(x.dtype)\n    out[: n // 2] = (x + y)[: n // 2]\n    return out\n",
        False,
    ),
}


def verify(worker, tmp_path: Path, name: str) -> dict:
    body, _ = WRAPPERS[name]
    path = tmp_path / f"{name}.py"
    path.write_text(KERNEL + "    if n == 0:\n        return out32.to(x.dtype)\n" + body, encoding="utf-8")
    return worker.request("verify", {"exercise": "5/add", "file": str(path)}, timeout=600)


def kinds(result: dict) -> set:
    return {d["kind"] for c in result["cases"] for d in c.get("diagnoses", [])}


@pytest.mark.parametrize("name", [n for n, (_, ok) in WRAPPERS.items() if ok])
def test_a_cast_of_the_kernels_output_passes(worker, tmp_path, name):
    result = verify(worker, tmp_path, name)
    assert result["passed"], result.get("summary")


@pytest.mark.parametrize("name", [n for n, (_, ok) in WRAPPERS.items() if not ok])
def test_a_cast_is_no_way_around_provenance(worker, tmp_path, name):
    result = verify(worker, tmp_path, name)
    assert result["passed"] is False, result.get("summary")
    # none of these returns a cast of what the kernel wrote as it stands: the memory is torch's
    assert "not-kernel-output" in kinds(result), kinds(result)
