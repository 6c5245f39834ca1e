"""A float32 case on a GPU whose errors fit TF32's rounding of a `tl.dot` left at its default precision is named
(cause "tf32-dot", the dot's line; verify.py `_tf32_dot`). CPU emulation of what an H100 does: a row sum written
as a dot with a column of ones without input_precision="ieee" rounds every input to TF32 (10 mantissa bits) —
6x the row sum's widened allowance at 64 x 65537 in the twenty-fifth session's emulation. A kernel with
input_precision="ieee", a wrong kernel whose error TF32 cannot make, and the interpreter (no TF32) are not named."""

import pytest
import torch

from tritonlab.content.loader import load_catalog
from tritonlab.engine import exercise_env
from tritonlab.engine.diagnose import diagnose
from tritonlab.engine.tasks import verify
from tritonlab.present.diagnoses import describe

DOT_DEFAULT = """import triton.language as tl


def kernel(x_ptr, BLOCK_K: tl.constexpr):
    acc = tl.zeros((16, 16), dtype=tl.float32)
    acc = tl.dot(x, ones, acc)
"""


def tf32(x: torch.Tensor) -> torch.Tensor:
    """x rounded to TF32 (10 mantissa bits, round to nearest)."""
    bits = x.contiguous().view(torch.int32)
    return ((bits + 0x1000) & ~0x1FFF).view(torch.float32)


@pytest.fixture(scope="module")
def case():
    exercise = load_catalog().exercise("8/row-sum")
    x = torch.randn(64, 4096, generator=torch.Generator().manual_seed(0))
    params = {"M": 64, "N": 4096}
    expected = exercise_env.reference(exercise, {"x": x}, params, {})
    atol, rtol = exercise_env.tolerance(exercise, "float32")
    atol = exercise_env.rounding_atol(exercise, {"x": x}, params, {}, atol)
    return exercise, x, params, expected, atol, rtol


def judged(case, got, source: str, tmp_path, on_gpu=True) -> list:
    exercise, x, params, expected, atol, rtol = case
    path = tmp_path / "kernel.py"
    path.write_text(source)
    diagnoses = diagnose(got, expected, atol=atol, rtol=rtol)["diagnoses"]
    verify._tf32_dot(diagnoses, exercise, {"x": x}, params, {}, got, expected, str(path), on_gpu=on_gpu)
    return diagnoses


def test_a_default_precision_dot_on_the_gpu_is_named_with_its_line(case, tmp_path):
    _, x, *_ = case
    got = tf32(x).double().sum(dim=-1).float()  # what the dot with ones computes: TF32 inputs, fp32 sum
    found = judged(case, got, DOT_DEFAULT, tmp_path)
    assert found and found[0]["cause"] == "tf32-dot" and found[0]["line"] == 6, found
    en, ja = describe(found[0], "en"), describe(found[0], "ja")
    assert 'input_precision="ieee"' in en and "line 6" in en and "TF32" in en, en
    assert "6 行目" in ja and "TF32" in ja, ja


def test_not_named_where_the_dot_says_ieee_on_the_interpreter_or_for_a_real_slip(case, tmp_path):
    _, x, *_ = case
    rounded = tf32(x).double().sum(dim=-1).float()
    ieee = DOT_DEFAULT.replace("tl.dot(x, ones, acc)", 'tl.dot(x, ones, acc, input_precision="ieee")')
    assert all(d.get("cause") != "tf32-dot" for d in judged(case, rounded, ieee, tmp_path))
    assert all(
        d.get("cause") != "tf32-dot" for d in judged(case, rounded, DOT_DEFAULT, tmp_path, on_gpu=False)
    )
    dropped = x[:, :-1].sum(dim=-1)  # one column missing: more than TF32 can move a sum
    found = judged(case, dropped, DOT_DEFAULT, tmp_path)
    assert found and all(d.get("cause") != "tf32-dot" for d in found), found
