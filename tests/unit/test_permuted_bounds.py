"""A mask whose bounds are the faulting tensor's sizes in another order (probe 15a-5: the transpose wrapper
passes `n_rows, n_cols = output.shape`, so x's 7 rows are bounded by 13): memcheck records `permuted_bounds`
with what the launch passed; when the runner finds the tensor is a case input (`input`), the judge blames the
sizes passed (`verify._input_bounds`). An output allocated in the wrong shape keeps the allocation sentence."""

from __future__ import annotations

import linecache
from pathlib import Path

import torch

from tritonlab.engine.memcheck.report import OutOfBounds
from tritonlab.engine.tasks.verify import _input_bounds
from tritonlab.present.diagnoses import describe

SOURCE = """
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, output_ptr, n_rows, n_cols, stride_xm, stride_xn, BLOCK_M: tl.constexpr):
    rows = tl.arange(0, 8)
    cols = tl.arange(0, 16)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)


def transpose(x):
    output = x.new_empty((x.shape[1], x.shape[0]))
    n_rows, n_cols = output.shape
    transpose_kernel[(1, 1)](x, output, n_rows, n_cols, x.stride(0), x.stride(1), BLOCK_M=8)
    return output
"""


def _oob(tmp_path: Path) -> OutOfBounds:
    file = tmp_path / "learner.py"
    file.write_text(SOURCE)
    lines = SOURCE.splitlines()
    line = next(i for i, t in enumerate(lines, 1) if "tile = tl.load(" in t)
    launch = next(i for i, t in enumerate(lines, 1) if "transpose_kernel[(1, 1)]" in t)
    return OutOfBounds(
        access="load",
        kernel="transpose_kernel",
        arg="x_ptr",
        program_id=(0, 0, 0),
        lanes=42,
        offsets=[140, 141],
        span=(140, 246),
        extent=133,
        numel=91,
        shape=(7, 13),
        strides=(20, 1),
        file=str(file),
        line=line,
        code=linecache.getline(str(file), line).strip(),
        ints={"n_rows": 13, "n_cols": 7, "stride_xm": 20, "stride_xn": 1},
        launch_line=launch,
    )


def _error(oob: OutOfBounds) -> dict:
    detail = oob.to_dict()
    return {"kind": "oob", "message": oob.message, "line": oob.line, "detail": detail}


def test_the_permuted_sizes_are_recorded_with_their_assignment(tmp_path):
    d = _oob(tmp_path).to_dict()
    terms = d["permuted_bounds"]["terms"]
    assert [(t["bound"], t["value"], t["extent"]) for t in terms] == [("n_rows", 13, 7), ("n_cols", 7, 13)]
    assert terms[0]["assigned"] == "n_rows, n_cols = output.shape", terms[0]
    assert "view's 91 elements lie within 133 elements of its buffer" in d["message"], d["message"]


def test_an_input_bounded_by_the_sizes_in_another_order_blames_the_launch(tmp_path):
    err = _error(_oob(tmp_path))
    err["detail"]["permuted_bounds"]["input"] = "x"  # the runner's find: x_ptr was handed the case's x
    x = torch.empty(7, 20)[:, :13]
    _input_bounds(err, {"x": x})
    message = err["message"]
    assert (
        "bounds rows by n_rows = 13 and cols by n_cols = 7, but x_ptr is the input x, of shape (7, 13)"
        in message
    )
    assert "n_rows must be 7, n_cols must be 13" in message and "output.shape" in message, message
    assert "the address itself is off" not in message
    en, ja = describe(err, "en"), describe(err, "ja")
    assert "x_ptr is the input x, of shape (7, 13)" in en and "output.shape" in en, en
    assert "x_ptr は入力 x(形状 (7, 13))です" in ja and "n_rows は 7、n_cols は 13 でなければ" in ja, ja
    assert "ビューの 91 要素はバッファの 133 要素の範囲にあります" in ja, ja


def test_a_tensor_that_is_no_input_keeps_the_allocation_sentence(tmp_path):
    # the runner found no input behind x_ptr (a buffer the wrapper allocated): its shape may be what is off
    err = _error(_oob(tmp_path))
    before = err["message"]
    _input_bounds(err, {"x": torch.empty(7, 13)})
    assert err["message"] == before and "allocated with (7, 13)" in before, before
    assert "input" not in err["detail"]["permuted_bounds"]
    assert "allocated with" in describe(err, "en") or "allocated" in describe(err, "en")
