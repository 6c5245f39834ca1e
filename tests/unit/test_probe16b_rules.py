"""Rules added for probe round 16b (tests/integration/probe_round16_b/README.md), each tested both ways: the
wrong pattern gets its fact, the right code does not.

- _mask_other_axis: a mask that bounds an index of the pointer only along the other axis (B's K mask pasted
  from A's: offs_k[None, :] where the pointer has offs_k[:, None])."""

from __future__ import annotations

import linecache
from pathlib import Path

import pytest

from tritonlab.engine.memcheck.report import OutOfBounds, _mask_other_axis
from tritonlab.present.diagnoses import describe


def write(tmp_path: Path, source: str) -> str:
    path = tmp_path / f"k{abs(hash(source))}.py"
    path.write_text(source)
    linecache.checkcache(str(path))
    return str(path)


def line_of(file: str, marker: str) -> int:
    return next(i for i, text in enumerate(Path(file).read_text().splitlines(), 1) if marker in text)


# --- the mask bounds an index along the other axis ------------------------------------------------------------

B_LOAD = """
def matmul_kernel(a_ptr, b_ptr, N, K, stride_bk, stride_bn, BLOCK_N, BLOCK_K):
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        b = tl.load(b_ptrs, mask=MASK, other=0.0)
"""


def b_load(tmp_path: Path, mask: str) -> OutOfBounds:
    file = write(tmp_path, B_LOAD.replace("MASK", mask))
    line = line_of(file, "b = tl.load")
    return OutOfBounds(
        access="load",
        kernel="matmul_kernel",
        arg="b_ptr",
        program_id=(0, 0, 0),
        lanes=31,
        offsets=[1, 2],
        extent=1,
        file=file,
        line=line,
        code=linecache.getline(file, line).strip(),
        shape=(1, 1),
        strides=(1, 1),
        ints={"N": 1, "K": 1, "stride_bk": 1, "stride_bn": 1, "BLOCK_N": 32, "BLOCK_K": 32},
    )


def test_a_k_mask_on_the_column_axis_is_named_with_both_axes(tmp_path):
    oob = b_load(tmp_path, "(offs_k[None, :] < k_remaining) & (offs_n[None, :] < N)")
    d = oob.to_dict()
    assert d["unbounded"] == [{"name": "offs_k", "axis": 0, "mask_axis": 1}], d
    assert d["bounded"] is False and "bounds every index" not in oob.message, oob.message
    assert "bounds offs_k along columns (offs_k[None, :])" in oob.message, oob.message
    assert "uses it along rows (offs_k[:, None])" in oob.message, oob.message
    error = {"kind": "oob", "detail": d}
    en, ja = describe(error, "en"), describe(error, "ja")
    assert en.split(" — ", 1)[1] == oob.message.split(" — ", 1)[1], (en, oob.message)
    assert "列方向(offs_k[None, :])で制限" in ja and "行方向(offs_k[:, None])に使っています" in ja, ja


@pytest.mark.parametrize(
    "mask",
    [
        "(offs_k[:, None] < k_remaining) & (offs_n[None, :] < N)",  # the right mask
        "(offs_k[:, None] < k_remaining) & (offs_k[None, :] < K) & (offs_n[None, :] < N)",  # both axes
        "(offs_k < k_remaining)[:, None] & (offs_n[None, :] < N)",  # bare: the axis is not read from the name
    ],
)
def test_a_k_mask_on_the_pointers_axis_is_not_called_crossed(tmp_path, mask):
    d = b_load(tmp_path, mask).to_dict()
    assert not any(u.get("mask_axis") is not None for u in d["unbounded"] or []), d


def test_mask_other_axis_reads_only_explicit_broadcasts():
    assert _mask_other_axis({"offs_k": 0}, "offs_k[None, :] < K") == [
        {"name": "offs_k", "axis": 0, "mask_axis": 1}
    ]
    assert _mask_other_axis({"offs_k": 0}, "offs_k[:, None] < K") == []
    assert _mask_other_axis({"offs_k": 0}, "mask_k[None, :]") == []
    assert _mask_other_axis({"rows": 0, "cols": 1}, "(rows[:, None] < M) & (cols[None, :] < N)") == []


# --- a K loop over offsets whose body multiplies the offset by the step again ---------------------------------

K_LOOP = """
import triton
import triton.language as tl


@triton.jit
def kernel(a_ptr, K, BLOCK_K: tl.constexpr):
    offs_k = tl.arange(0, BLOCK_K)
    for k in LOOP:
        k_remaining = K - k * BLOCK_K
        a = tl.load(a_ptr + offs_k, mask=offs_k < k_remaining, other=0.0)
"""


def test_an_offset_loop_scaled_again_is_found(tmp_path):
    from tritonlab.engine.tasks.verify import _offset_loop_scaled

    file = write(tmp_path, K_LOOP.replace("LOOP", "range(0, K, BLOCK_K)"))
    found = _offset_loop_scaled(file)
    assert found == {
        "line": line_of(file, "k_remaining ="),
        "code": "k_remaining = K - k * BLOCK_K",
        "loop_line": line_of(file, "for k in"),
        "var": "k",
        "step": "BLOCK_K",
    }, found


@pytest.mark.parametrize(
    "loop", ["range(0, tl.cdiv(K, BLOCK_K))", "range(0, K, 1)", "tl.range(0, K, BLOCK_K)"]
)
def test_a_step_count_loop_is_not_called_scaled(tmp_path, loop):
    from tritonlab.engine.tasks.verify import _offset_loop_scaled

    if loop.startswith("tl.range"):  # tl.range counts too: k * BLOCK_K over offsets is the same slip
        assert _offset_loop_scaled(write(tmp_path, K_LOOP.replace("LOOP", loop))) is not None
        return
    assert _offset_loop_scaled(write(tmp_path, K_LOOP.replace("LOOP", loop))) is None


def _mismatch() -> list[dict]:
    return [{"kind": "mismatch", "count": 1, "message": "1 element differs"}]


def test_k_loop_names_an_output_of_the_first_k_step_only(tmp_path):
    import torch

    from tritonlab.engine.tasks.verify import _k_loop

    file = write(tmp_path, K_LOOP.replace("LOOP", "range(0, K, BLOCK_K)"))
    torch.manual_seed(0)
    a, b = torch.randn(5, 40), torch.randn(40, 6)
    first = a[:, :16] @ b[:16]
    diags = _mismatch()
    _k_loop(diags, first, {"a": a, "b": b}, {"K": 40}, {"BLOCK_K": 16}, {}, 1e-4, 1e-4, file)
    assert diags[0]["first_step"]["line"] == line_of(file, "k_remaining ="), diags
    assert "cause" not in diags[0], diags  # the k-steps pattern across cases says it
    right = _mismatch()  # the right product (a mismatch elsewhere): no first-step fact
    _k_loop(right, a @ b, {"a": a, "b": b}, {"K": 40}, {"BLOCK_K": 16}, {}, 1e-4, 1e-4, file)
    assert "first_step" not in right[0], right


def test_k_steps_with_the_first_step_only_names_the_line():
    from tritonlab.engine.tasks.verify import _case_patterns
    from tritonlab.present.diagnoses import describe

    only = {"steps": 3, "line": 44, "code": "k_remaining = K - k * BLOCK_K", "loop_line": 43, "var": "k"}
    only["step"] = "BLOCK_K"

    def case(k: int, passed: bool) -> dict:
        diag = {"kind": "mismatch", "count": 5, "message": "5 elements differ", "first_step": dict(only)}
        return {
            "params": {"M": 8, "N": 8, "K": k},
            "dtype": "float16",
            "meta": {"BLOCK_K": 32},
            "passed": passed,
            "diagnoses": [] if passed else [diag],
        }

    cases = [case(65, False), case(16, True), case(32, True), case(100, False)]
    _case_patterns(cases, ["float16"])
    diag = cases[0]["diagnoses"][0]
    assert diag["cause"] == "k-steps" and diag["line"] == 44, diag
    assert "exactly the first K step's product" in diag["message"] and "K mask" in diag["message"], diag
    assert diag["message"].endswith(describe(diag, "en").split(": ", 1)[1].split(" — ", 1)[1]), diag
    assert "最初の K ステップの積" in describe(diag, "ja"), describe(diag, "ja")


# --- a chunk loop that starts chunk c at column c -------------------------------------------------------------

ROW_SUM = """
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for c in range(0, tl.cdiv(n_cols, BLOCK_SIZE)):
        cols = OFFSETS
        acc += tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0)
"""


def test_a_chunk_started_at_its_index_is_found(tmp_path):
    from tritonlab.engine.tasks.verify import _chunk_index_offset

    file = write(tmp_path, ROW_SUM.replace("OFFSETS", "c + tl.arange(0, BLOCK_SIZE)"))
    found = _chunk_index_offset(file)
    assert found is not None and found["line"] == line_of(file, "cols = c +"), found
    assert (found["var"], found["block"], found["loop_line"]) == (
        "c",
        "BLOCK_SIZE",
        line_of(file, "for c"),
    ), found


@pytest.mark.parametrize(
    "offsets", ["c * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)", "tl.arange(0, BLOCK_SIZE) + c * 4"]
)
def test_a_chunk_started_at_its_offset_is_not_found(tmp_path, offsets):
    from tritonlab.engine.tasks.verify import _chunk_index_offset

    assert _chunk_index_offset(write(tmp_path, ROW_SUM.replace("OFFSETS", offsets))) is None


def _threshold_cases(unread: list | None) -> list[dict]:
    def case(n: int, passed: bool) -> dict:
        diag = {"kind": "mismatch", "count": 1, "message": "1 element differs", "cause": "all-wrong"}
        stats = {"bytes_loaded": 4 * 8192 if n == 5000 else 4 * n, "bytes_stored": 4, "programs": 1}
        if unread is not None and n == 5000:
            stats["unread"] = unread
        return {
            "params": {"M": 1, "N": n},
            "dtype": "float32",
            "passed": passed,
            "stats": stats,
            "diagnoses": [] if passed else [diag],
        }

    return [case(3, True), case(100, True), case(5000, False)]


class _Spec:
    def __init__(self, name, shape):
        self.name, self.shape, self.is_scalar, self.dtype, self.optional = name, shape, False, "case", False


class _Exercise:
    inputs = [_Spec("x", ["M", "N"])]
    verify = None


def test_size_threshold_with_unread_elements_does_not_say_all_was_read(tmp_path):
    from tritonlab.engine.tasks.verify import _size_threshold
    from tritonlab.present.diagnoses import describe

    file = write(tmp_path, ROW_SUM.replace("OFFSETS", "c + tl.arange(0, BLOCK_SIZE)"))
    unread = [{"input": "x", "unread": 903, "numel": 5000, "first": [0, 4097], "last": [0, 4999]}]
    cases = _threshold_cases(unread)
    _size_threshold(cases, {"M", "N"}, _Exercise(), file)
    diag = cases[-1]["diagnoses"][0]
    assert diag["cause"] == "size-threshold" and "loaded_all" not in diag, diag
    assert diag["line"] == line_of(file, "cols = c +") and "accumulator" not in diag["message"], diag
    assert "never loaded 903 of the 5000 elements of x (x[0, 4097] to x[0, 4999])" in diag["message"], diag
    assert "c * BLOCK_SIZE" in describe(diag, "en") and "一度も読み込んでいません" in describe(diag, "ja")


def test_size_threshold_with_every_element_read_keeps_the_reset_question(tmp_path):
    from tritonlab.engine.tasks.verify import _size_threshold

    cases = _threshold_cases(None)  # 8192 lanes of 5000 elements, and no element left unread
    _size_threshold(cases, {"M", "N"}, _Exercise(), None)
    diag = cases[-1]["diagnoses"][0]
    assert diag.get("loaded_all") is True and "accumulator reset" in diag["message"], diag


def test_partly_read_counts_distinct_elements_not_lanes():
    import numpy as np
    import torch

    from tritonlab.engine.tasks.verify_runner import Provenance

    x = torch.arange(20, dtype=torch.float32).reshape(2, 10)
    base, size = x.untyped_storage().data_ptr(), x.element_size()
    watch = Provenance("k.py", "interpreter")
    watch.launch_loaded, watch.launch_seen_load = [{base}], [True]

    def lanes(elements) -> np.ndarray:
        return np.asarray([base + size * e for e in elements], dtype=np.uint64)

    watch.loads = [lanes(range(0, 8)), lanes(range(1, 9)), lanes(range(10, 20))]  # 26 lanes, element 9 never
    assert watch.partly_read({"x": x}) == [
        {"input": "x", "unread": 1, "numel": 20, "first": [0, 9], "last": [0, 9]}
    ]
    watch.loads.append(lanes([9]))
    assert watch.partly_read({"x": x}) == []
    watch.loads_whole = False  # some addresses were not kept: nothing is said
    watch.loads = [lanes(range(0, 5))]
    assert watch.partly_read({"x": x}) == []


# --- a softmax whose sum counts the padding as exp(0 - max) ---------------------------------------------------

SOFTMAX = """
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    row = tl.load(x_ptr + offs, mask=mask, other=-float("inf"))
    row_max = tl.max(row, axis=0)
    row = tl.where(mask, row, 0.0)
    num = tl.exp(row - row_max)
"""


class _Softmax:
    reference = "torch.softmax(x.float(), dim=-1).to(x.dtype)"


def _padded_output(x, pad: int):
    m = x.double().amax(dim=1, keepdim=True)
    e = (x.double() - m).exp()
    return (e / (e.sum(dim=1, keepdim=True) + pad * (-m).exp())).float()


def test_a_sum_with_the_padding_counted_in_is_named_with_its_line(tmp_path):
    import torch

    from tritonlab.engine.refit import padding_in_sum
    from tritonlab.present.diagnoses import describe

    torch.manual_seed(0)
    x = torch.randn(6, 13) - 2.0
    file = write(tmp_path, SOFTMAX)
    diags = _mismatch()
    padding_in_sum(diags, _Softmax(), _padded_output(x, 3), {"x": x}, {"BLOCK_SIZE": 16}, 1e-6, 1e-5, file)
    d = diags[0]
    assert (d.get("cause"), d.get("padding"), d.get("block_value")) == ("padding-in-sum", 3, 16), d
    assert d["line"] == line_of(file, "row = tl.where(mask, row, 0.0)"), d
    assert "3 padding lanes of the 16-wide block" in describe(d, "en") and "パディング 3 レーン" in describe(
        d, "ja"
    )


def test_a_right_softmax_or_another_padding_count_is_not_called_padding_in_sum(tmp_path):
    import torch

    from tritonlab.engine.refit import padding_in_sum

    torch.manual_seed(0)
    x = torch.randn(6, 13) - 2.0
    right = _mismatch()
    padding_in_sum(right, _Softmax(), torch.softmax(x, -1), {"x": x}, {"BLOCK_SIZE": 16}, 1e-6, 1e-5, None)
    # one padding lane counted where the block has three: no block of the launch pads 13 columns by 1
    before = _mismatch()
    padding_in_sum(before, _Softmax(), _padded_output(x, 1), {"x": x}, {"BLOCK_SIZE": 16}, 1e-6, 1e-5, None)
    assert "cause" not in right[0] and "cause" not in before[0], (right, before)


# --- each chunk of columns scaled by its own factor -----------------------------------------------------------

WRITE_PASS = """
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, out_ptr, n_cols, CHUNK: tl.constexpr):
    offs = tl.arange(0, CHUNK)
    for start in range(0, n_cols, CHUNK):
        x = tl.load(x_ptr + start + offs, mask=start + offs < n_cols, other=-float("inf"))
        chunk_max = tl.max(x, axis=0)
        tl.store(out_ptr + start + offs, tl.exp(x - chunk_max), mask=start + offs < n_cols)
"""


def _chunked(x, width: int):
    m = x.double().amax(dim=1, keepdim=True)
    s = (x.double() - m).exp().sum(dim=1, keepdim=True)
    parts = [
        (x.double()[:, i : i + width] - x.double()[:, i : i + width].amax(dim=1, keepdim=True)).exp() / s
        for i in range(0, x.shape[1], width)
    ]
    return torch_cat(parts).float()


def torch_cat(parts):
    import torch

    return torch.cat(parts, dim=1)


def test_chunks_scaled_by_their_own_max_are_named_per_chunk(tmp_path):
    import torch

    from tritonlab.engine.refit import chunk_scale
    from tritonlab.present.diagnoses import describe

    torch.manual_seed(0)
    x = torch.randn(3, 1000)
    file = write(tmp_path, WRITE_PASS)
    diags = _mismatch()
    chunk_scale(diags, _chunked(x, 256), torch.softmax(x, -1), None, 1e-6, 1e-5, file)
    d = diags[0]
    assert (d.get("cause"), d.get("block_value")) == ("per-chunk-scale", 256), d
    assert len(d["factors"]) == 4 and 1.0 in d["factors"], d
    assert d["line"] == line_of(file, "chunk_max = tl.max"), d
    assert "each chunk of 256 columns" in describe(d, "en") and "256 列ずつのチャンク" in describe(d, "ja")


def test_a_row_scale_a_zeroed_chunk_or_the_answer_is_not_called_per_chunk(tmp_path):
    import torch

    from tritonlab.engine.refit import chunk_scale

    torch.manual_seed(0)
    x = torch.randn(3, 1000)
    right = torch.softmax(x, -1)
    for got in (right, right * 1.5, torch.cat([right[:, :512], torch.zeros(3, 488)], dim=1)):
        diags = _mismatch()
        chunk_scale(diags, got, right, {"BLOCK_SIZE": 256}, 1e-6, 1e-5, None)
        assert "cause" not in diags[0], diags


def test_a_row_scale_beside_a_chunk_whose_answer_is_zero_is_not_per_chunk():
    # a chunk whose answer is all 0 (underflow) fits any factor and was counted as 1: a row-scaled output
    # (an online softmax with exp for exp2, probe round 5) read as "1.216, 1" per chunk. It still fits, but
    # shows nothing: the row's other chunks share one factor
    import torch

    from tritonlab.engine.refit import chunk_scale

    torch.manual_seed(0)
    right = torch.softmax(torch.randn(2, 64), -1)
    right[1, 32:] = 0.0
    got = right * torch.tensor([[1.5], [1.216]])
    diags = _mismatch()
    chunk_scale(diags, got, right, {"BLOCK_SIZE": 32}, 1e-6, 1e-5, None)
    assert "cause" not in diags[0], diags
    per_chunk = right.clone()
    per_chunk[0, 32:] *= 1.3  # row 0's two known chunks differ: that is per chunk
    diags = _mismatch()
    chunk_scale(diags, per_chunk, right, {"BLOCK_SIZE": 32}, 1e-6, 1e-5, None)
    assert diags[0].get("cause") == "per-chunk-scale" and diags[0]["row"] == 0, diags
