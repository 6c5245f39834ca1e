"""A long sum's own rounding (`[exercise.verify] sum_rounding`, engine/exercise_env.rounding_atol): lesson 8's row
sum at the GPU case 64 × 65537 rounds differently in every summation order. A serial float32 sum (one lane, or a
tl.dot with a column of ones) is a correct row sum 4× beyond the declared atol, found on an H100 (probe round 13's
dot-with-ones file); a sum that drops one term or rounds its inputs to fp16 must still fail."""

import pytest
import torch

from tritonlab.content.loader import load_catalog
from tritonlab.engine import exercise_env
from tritonlab.engine.diagnose import diagnose


@pytest.fixture(scope="module")
def row_sum_case():
    exercise = load_catalog().exercise("8/row-sum")
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(64, 65537, generator=gen)
    params = {"M": 64, "N": 65537}
    expected = exercise_env.reference(exercise, {"x": x}, params, {})
    atol, rtol = exercise_env.tolerance(exercise, "float32")
    return exercise, x, params, expected, atol, rtol


def lanes(x: torch.Tensor, width: int) -> torch.Tensor:
    """A row sum the way a kernel with `width` float32 lanes walks the row: each lane adds its column of every
    chunk in order, then the lanes are summed."""
    pad = (-x.shape[1]) % width
    chunks = torch.nn.functional.pad(x, (0, pad)).view(x.shape[0], -1, width)
    acc = torch.zeros(x.shape[0], width)
    for i in range(chunks.shape[1]):
        acc = acc + chunks[:, i]
    return acc.sum(dim=-1)


def mismatches(got, expected, atol, rtol) -> int:
    return diagnose(got, expected, atol=atol, rtol=rtol)["mismatches"]


def test_a_serial_float32_sum_is_beyond_the_declared_atol_but_inside_the_rounding_bound(row_sum_case):
    exercise, x, params, expected, atol, rtol = row_sum_case
    serial = lanes(x, 1)
    assert mismatches(serial, expected, atol, rtol) > 0  # the false fail this key exists for
    widened = exercise_env.rounding_atol(exercise, {"x": x}, params, {}, atol)
    bound = float(x.double().abs().sum(dim=-1).max()) * torch.finfo(torch.float32).eps
    assert widened == pytest.approx(exercise.verify.sum_rounding * bound) and widened > atol
    for width in (1, 16, 1024):
        assert mismatches(lanes(x, width), expected, widened, rtol) == 0, width


def test_a_missing_term_or_inputs_rounded_to_fp16_still_fail(row_sum_case):
    exercise, x, params, expected, atol, rtol = row_sum_case
    widened = exercise_env.rounding_atol(exercise, {"x": x}, params, {}, atol)
    assert mismatches(lanes(x[:, :-1], 1024), expected, widened, rtol) > 32  # the last column left out
    halved = lanes(x.half().float(), 1024)
    assert mismatches(halved, expected, widened, rtol) > 32  # 16-bit inputs: not float32 rounding


def test_a_short_row_keeps_the_declared_atol(row_sum_case):
    exercise, _, _, _, atol, _ = row_sum_case
    x = torch.randn(3, 7, generator=torch.Generator().manual_seed(1))
    assert exercise_env.rounding_atol(exercise, {"x": x}, {"M": 3, "N": 7}, {}, atol) == atol


def test_an_exercise_without_the_key_keeps_its_atol():
    exercise = load_catalog().exercise("5/add")
    x, y = torch.randn(100) * 1e6, torch.randn(100) * 1e6
    assert exercise_env.rounding_atol(exercise, {"x": x, "y": y}, {"n": 100}, {}, 1e-5) == 1e-5


def test_the_mismatch_says_its_atol_is_the_sums_rounding_in_both_languages():
    from tritonlab.present.diagnoses import describe

    fact = {"kind": "mismatch", "count": 3, "max_abs_err": 0.5, "numel": 64, "atol": 0.025, "rtol": 1e-5}
    plain = describe(dict(fact), "en")
    assert "declared" not in plain
    widened = describe(dict(fact, atol_declared=1e-4), "en")
    assert "float32 rounding, 0.025, not the declared 0.0001" in widened, widened
    ja = describe(dict(fact, atol_declared=1e-4), "ja")
    assert "宣言された 0.0001 ではなく" in ja and "丸め誤差 0.025" in ja, ja
