"""Output left unwritten exactly where an input's values pass a sign test (probe 15a-4: `mask & (x > 0)` at the
store) is cause `value-masked`, with the store's line when the file computes the store's mask from a tl.load;
other unwritten patterns keep their cause (`verify._value_masked`, `verify._store_mask_from_load`)."""

from __future__ import annotations

import torch

from tritonlab.engine.tasks.verify import _store_mask_from_load, _value_masked
from tritonlab.present.diagnoses import describe

DATA_MASK = """
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    positive = mask & (x > 0)
    tl.store(out_ptr + offs, x, mask=positive)
"""

OFFSET_MASK = """
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n - 1
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)
"""


def _file(tmp_path, text: str) -> str:
    path = tmp_path / "learner.py"
    path.write_text(text)
    return str(path)


def _diag(cause: str, count: int, runs: int) -> dict:
    return {"kind": "unwritten", "cause": cause, "count": count, "runs": runs, "message": "m"}


def _case(n: int = 200):
    x = torch.randn(n, generator=torch.Generator().manual_seed(3))
    return x, torch.relu(x)


def test_the_store_mask_from_a_load_is_found(tmp_path):
    assert _store_mask_from_load(_file(tmp_path, DATA_MASK)) == (12, "positive", "x")
    assert _store_mask_from_load(_file(tmp_path, OFFSET_MASK)) is None


def test_unwritten_where_x_is_not_positive_is_a_value_mask_at_the_store(tmp_path):
    x, expected = _case()
    unwritten = x <= 0
    diag = _diag("scattered", int(unwritten.sum()), 40)
    _value_masked([diag], unwritten, {"x": x}, expected, _file(tmp_path, DATA_MASK))
    assert diag["cause"] == "value-masked" and diag["input"] == "x" and diag["test"] == "<= 0", diag
    assert diag["line"] == 12 and diag["answer_zero"] is True, diag
    assert "tl.program_id" not in diag["message"]
    en = describe(diag, "en")
    assert "exactly those where x <= 0" in en and "line 12" in en, en
    assert "ちょうど x <= 0 の要素" in describe(diag, "ja")


def test_one_element_masked_off_by_its_value_names_the_store(tmp_path):
    x = torch.tensor([-0.5])
    diag = _diag("masked-off", 1, 1)
    _value_masked([diag], torch.tensor([True]), {"x": x}, torch.relu(x), _file(tmp_path, DATA_MASK))
    assert diag["cause"] == "value-masked" and diag["line"] == 12, diag


def test_a_whole_output_unwritten_without_a_data_mask_keeps_its_cause(tmp_path):
    # n = 1, x < 0, the mask one short (offs < n - 1): the unwritten element is also where x <= 0, but the
    # file's store mask comes from the offsets, so nothing says the values decided it
    x = torch.tensor([-0.5])
    diag = _diag("masked-off", 1, 1)
    _value_masked([diag], torch.tensor([True]), {"x": x}, torch.relu(x), _file(tmp_path, OFFSET_MASK))
    assert diag["cause"] == "masked-off", diag


def test_unwritten_offsets_that_match_no_sign_test_keep_their_cause(tmp_path):
    x, expected = _case()
    unwritten = torch.zeros(200, dtype=torch.bool)
    unwritten[64:96] = True
    unwritten[160:170] = True
    diag = _diag("scattered", int(unwritten.sum()), 2)
    _value_masked([diag], unwritten, {"x": x}, expected, _file(tmp_path, DATA_MASK))
    assert diag["cause"] == "scattered", diag


def test_a_sign_pattern_from_the_values_alone_is_said_without_a_line(tmp_path):
    x, expected = _case()
    unwritten = x < 0
    diag = _diag("scattered", int(unwritten.sum()), 40)
    _value_masked([diag], unwritten, {"x": x}, expected, _file(tmp_path, OFFSET_MASK))
    assert diag["cause"] == "value-masked" and "line" not in diag, diag
