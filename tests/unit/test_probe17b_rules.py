"""Rules changed for probe round 17b (tests/integration/probe_round17_b/README.md), each tested both ways: the
wrong pattern gets its fact and line, the right (or a differently wrong) code does not.

- refit.chunk_scale: a chunk's factor must differ beyond what the tolerance leaves free (finding 2: fp16's atol
  let a 64-wide block of tiny values take any factor in a row that one factor fits).
- verify._unshifted_exp: the exp that subtracts no max, per exp and per branch (finding 3: a regex over the
  whole file said "your kernel already subtracts a maximum" for a ROWS == 1 branch that did not).
- OutOfBounds.promise_size: a flag whose promise holds for the size passed (EVEN_K, K a multiple of BLOCK_K)
  over a tensor shorter than that size (finding 6: K_pad passed as K, B left with K rows).
- verify._zero_divisor / _zero_config: the operator of the learner's line (finding 7: the interpreter's // warns
  "fmod" too), and the triton.Config that sets the divisor's factor to 0 (finding 8)."""

from __future__ import annotations

import linecache
import zlib
from pathlib import Path

import pytest
import torch

from tritonlab.present.diagnoses import describe


def write(tmp_path: Path, source: str, name: str = "") -> str:
    path = tmp_path / (name or f"k{zlib.crc32(source.encode())}.py")
    path.write_text(source)
    linecache.checkcache(str(path))
    return str(path)


def line_of(file: str, marker: str) -> int:
    return next(i for i, text in enumerate(Path(file).read_text().splitlines(), 1) if marker in text)


def _mismatch() -> list[dict]:
    return [{"kind": "mismatch", "count": 1, "message": "1 element differs"}]


# --- finding 2: a per-chunk scale needs factors the tolerance does not leave free -----------------------------


def _lane_sums(x: torch.Tensor, chunk: int = 512) -> torch.Tensor:
    """The probe's slip in torch: per-lane online max and sum over chunks, the lane sums added without
    exp(m_lane - m) — one factor per row."""
    x = x.float()
    rows, cols = x.shape
    padded = torch.nn.functional.pad(x, (0, (-cols) % chunk), value=-float("inf")).reshape(rows, -1, chunk)
    m_lane = padded.amax(dim=1)
    s_lane = torch.where(
        m_lane > -float("inf"), torch.exp(padded - m_lane[:, None]).nan_to_num(0.0).sum(dim=1), 0.0
    )
    return torch.exp(x - m_lane.amax(dim=1, keepdim=True)) / s_lane.sum(dim=1, keepdim=True)


def _softmax_input(seed: int) -> torch.Tensor:
    gen = torch.Generator()
    gen.manual_seed(seed * 1_000_003 + 17)
    return torch.randint(-100, 100, (2, 5000), generator=gen).float().half()


@pytest.mark.parametrize("seed", range(6))
def test_a_row_scale_in_fp16_is_never_read_per_chunk(seed):
    from tritonlab.engine.refit import chunk_scale

    x = _softmax_input(seed)
    got, right = _lane_sums(x).half(), torch.softmax(x.float(), -1).half()
    diags = _mismatch()
    chunk_scale(diags, got, right, {}, 1e-3, 1e-2, None)  # 8/softmax's float16 tolerance
    assert "cause" not in diags[0], diags


def test_the_row_scale_that_fooled_the_old_rule_is_found():
    # the old rule read this one as "each chunk of 64 columns" (a spread of factors among chunks of values
    # below atol); the check that one factor fits each row is what turns it away
    from tritonlab.engine.refit import _one_factor_fits

    hits = 0
    for seed in range(40):
        x = _softmax_input(seed)
        got, right = _lane_sums(x).half().double(), torch.softmax(x.float(), -1).half().double()
        assert bool(_one_factor_fits(got, right, 1e-3, 1e-2).all()), seed
        hits += 1
    assert hits == 40


def test_one_factor_fits_per_row_both_ways():
    from tritonlab.engine.refit import _one_factor_fits

    right = torch.softmax(torch.randn(3, 64, dtype=torch.float64), -1)
    got = right * torch.tensor([[1.0], [0.5], [2.0]], dtype=torch.float64)
    assert _one_factor_fits(got, right, 1e-6, 1e-5).tolist() == [True, True, True]
    got[1, 32:] *= 1.3  # row 1's second half on a factor of its own
    assert _one_factor_fits(got, right, 1e-6, 1e-5).tolist() == [True, False, True]
    zero = right.clone()
    zero[2] = 0.0
    got2 = right.clone()
    assert _one_factor_fits(got2, zero, 1e-6, 1e-5).tolist() == [True, True, False]  # nothing fits a 0 there


@pytest.mark.parametrize("dtype, atol, rtol", [("float32", 1e-6, 1e-5), ("float16", 1e-3, 1e-2)])
def test_chunks_scaled_by_their_own_max_are_still_per_chunk(dtype, atol, rtol):
    from tritonlab.engine.refit import chunk_scale

    torch.manual_seed(0)
    x = torch.randn(3, 1000) * 3
    m = x.amax(dim=1, keepdim=True)
    s = (x - m).exp().sum(dim=1, keepdim=True)
    parts = [
        (x[:, i : i + 256] - x[:, i : i + 256].amax(1, keepdim=True)).exp() / s for i in range(0, 1000, 256)
    ]
    got, right = torch.cat(parts, dim=1), torch.softmax(x, -1)
    if dtype == "float16":
        got, right = got.half(), right.half()
    diags = _mismatch()
    chunk_scale(diags, got, right, {"BLOCK_SIZE": 256}, atol, rtol, None)
    assert (diags[0].get("cause"), diags[0].get("block_value")) == ("per-chunk-scale", 256), diags


# --- finding 3: the exp that subtracts no max, per exp -----------------------------------------------------------

ONE_ROW = """
import triton
import triton.language as tl


@triton.jit
def kernel(out_ptr, in_ptr, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    if ROWS == 1:
        row = tl.load(in_ptr + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        numerator = tl.exp(row)
        out = numerator / tl.sum(numerator, axis=0)
        tl.store(out_ptr + cols, out, mask=cols < n_cols)
    else:
        x = tl.load(in_ptr + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        row_max = tl.max(x, axis=0)
        numerator = tl.exp(x - row_max)
        tl.store(out_ptr + cols, numerator / tl.sum(numerator, axis=0), mask=cols < n_cols)
"""


ONE_ROW_EXP = next(i for i, text in enumerate(ONE_ROW.splitlines(), 1) if "tl.exp(row)" in text)


def test_an_unshifted_exp_in_one_branch_is_named(tmp_path):
    from tritonlab.engine.tasks.verify import _unshifted_exp

    file = write(tmp_path, ONE_ROW)
    assert _unshifted_exp(file) == {"line": line_of(file, "numerator = tl.exp(row)"), "call": "tl.exp(row)"}


SHIFTED = """
import triton
import triton.language as tl


@triton.jit
def _shift(x, m):
    return tl.exp(x)


@triton.jit
def kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    row = tl.load(in_ptr + cols - 1, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
    BODY
"""

SHIFTED_BODIES = [
    "e = tl.exp(row - tl.max(row, axis=0))",
    "row -= tl.max(row, axis=0)\n    e = tl.exp(row)",
    "z = row - tl.max(row, axis=0)\n    e = tl.exp(z)",
    "m = tl.max(row, axis=0)\n    e = tl.exp2((row - m) * 1.4426950408889634)",
    "m = tl.max(row, axis=0)\n    e = tl.exp(tl.where(cols < n_cols, row - m, -float('inf')))",
    "m = tl.full([BLOCK], -float('inf'), tl.float32)\n    for i in range(2):\n"
    "        m_new = tl.maximum(m, row)\n        a = tl.exp(m - m_new)\n        m = m_new",
    "e = _shift(row, tl.max(row, axis=0))",  # a helper's exp of its parameter: no claim
]


@pytest.mark.parametrize("body", SHIFTED_BODIES)
def test_an_exp_that_subtracts_a_max_is_not_called_unshifted(tmp_path, body):
    from tritonlab.engine.tasks.verify import _unshifted_exp

    assert _unshifted_exp(write(tmp_path, SHIFTED.replace("BODY", body))) is None


def _nan_case(tmp_path, source: str, top: float):
    from tritonlab.engine.tasks.verify import _explain_values

    x = torch.zeros(2, 8)
    if top > 0:
        x[0, 3] = top  # one value past exp's overflow
    else:
        x[0] = top  # a whole row below exp's underflow
    got = torch.full((2, 8), float("nan"))
    expected = torch.softmax(x, -1)
    diag = {
        "kind": "nan",
        "cause": "softmax",
        "rows": [0],
        "count": 8,
        "message": "row 0 has inf/NaN where torch has finite values: subtract the row max before exp",
    }
    _explain_values([diag], got, expected, {"x": x}, 1e-6, 1e-5, write(tmp_path, source))
    return diag


@pytest.mark.parametrize("top", [120.0, -120.0])
def test_an_unshifted_exp_is_the_cause_of_a_softmax_nan(tmp_path, top):
    diag = _nan_case(tmp_path, ONE_ROW, top)
    assert diag["cause"] == "unshifted-exp" and diag["line"] == ONE_ROW_EXP == 11, diag
    assert "already subtracts a maximum" not in diag["message"], diag["message"]
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "line 11 takes «tl.exp(row)» with no max subtracted" in en, en
    assert ("overflows" if top > 0 else "underflows") in en, en
    assert "11 行目の «tl.exp(row)» は、引数から最大値を引いていません" in ja, ja
    assert (
        diag["message"].split(": ", 1)[1].replace("«", "").replace("»", "").split(" (these")[0]
        == (en.split(": ", 1)[1].replace("«", "").replace("»", "").split(" (these")[0])
    )


def test_a_file_whose_every_exp_subtracts_keeps_nan_reduction(tmp_path):
    diag = _nan_case(tmp_path, SHIFTED.replace("BODY", SHIFTED_BODIES[0]), 120.0)
    assert diag["cause"] == "nan-reduction" and "line" not in diag, diag


def test_rows_that_cannot_overflow_are_not_blamed_on_the_exp(tmp_path):
    diag = _nan_case(tmp_path, ONE_ROW, 50.0)
    assert diag["cause"] == "nan-reduction" and "line" not in diag, diag


# --- finding 6: the promise holds for the size passed; the size is what the tensor lacks -------------------------

PADDED_K = """
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, N, K, stride_bk, stride_bn, EVEN_K: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    n_ok = offs_n[None, :] < N
    if EVEN_K:
        b = tl.load(b_ptrs, mask=n_ok, other=0.0)


def matmul(a, b):
    K_pad = 32
    matmul_kernel[(1,)](
        a, b, 1, SIZE, 1, 1,
        EVEN_K=True, BLOCK_N=32, BLOCK_K=32,
    )
"""


def _b_load(tmp_path: Path, size: str, ints: dict, shape: tuple):
    from tritonlab.engine.memcheck.report import OutOfBounds

    file = write(tmp_path, PADDED_K.replace("SIZE", size))
    line = line_of(file, "b = tl.load")
    return OutOfBounds(
        access="load",
        kernel="matmul_kernel",
        arg="b_ptr",
        program_id=(0, 0, 0),
        lanes=31,
        offsets=list(range(1, 32)),
        extent=shape[0] * shape[1],
        file=file,
        line=line,
        code=linecache.getline(file, line).strip(),
        shape=shape,
        strides=(shape[1], 1),
        promise={
            "name": "EVEN_K",
            "value": True,
            "branch": True,
            "line": line_of(file, "EVEN_K=True"),
            "expr": "True",
        },
        ints={"N": 1, "stride_bk": 1, "stride_bn": 1, "BLOCK_N": 32, **ints},
        launch_line=line_of(file, "matmul_kernel[(1,)]("),
    )


def test_a_padded_size_past_the_tensor_names_the_size_not_the_flag(tmp_path):
    oob = _b_load(tmp_path, "K_pad", {"K": 32, "BLOCK_K": 32}, (1, 1))
    d = oob.to_dict()
    short = d["promise_size"]
    assert {k: short[k] for k in ("size", "value", "block_value", "index", "axis", "extent", "passed")} == {
        "size": "K",
        "value": 32,
        "block_value": 32,
        "index": "offs_k",
        "axis": 0,
        "extent": 1,
        "passed": "K_pad",
    }, short
    assert short["passed_line"] == line_of(oob.file or "", "a, b, 1, K_pad"), short
    assert "fix how the wrapper computes EVEN_K" not in oob.message, oob.message
    assert "the launch passes K_pad as K (line" in oob.message, oob.message
    error = {"kind": "oob", "detail": d}
    en, ja = describe(error, "en"), describe(error, "ja")
    assert en.split(" — ", 1)[1] == oob.message.split(" — ", 1)[1], (en, oob.message)
    assert "K_pad を K として渡して" in ja and "ラッパーでの EVEN_K の計算を直して" not in ja, ja


@pytest.mark.parametrize(
    "size, ints, shape",
    [
        ("K", {"K": 1, "BLOCK_K": 32}, (1, 1)),  # EVEN_K=True with K = 1: the flag's promise is false
        ("K", {"K": 32, "BLOCK_K": 32}, (32, 1)),  # the tensor holds K rows: the size is not what is wrong
    ],
)
def test_a_false_promise_or_a_size_the_tensor_has_is_not_called_short(tmp_path, size, ints, shape):
    oob = _b_load(tmp_path, size, ints, shape)
    assert oob.promise_size is None and oob.to_dict()["promise_size"] is None
    if ints["K"] == 1:
        assert "fix how the wrapper computes EVEN_K" in oob.message, oob.message


# --- findings 7 and 8: the operator of the line, and the config that made the divisor 0 -------------------------

AUTOTUNED = """
import triton
import triton.language as tl

CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "GROUP_M": 8}, num_warps=4),
    triton.Config({"BLOCK_M": 16, "BLOCK_N": 32, "GROUP_M": GROUP}, num_warps=4),
]


@triton.autotune(configs=CONFIGS, key=["M", "N"])
@triton.jit
def k(M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = FACTOR * num_pid_n
    group_id = pid // num_pid_in_group
    pid_n = pid % num_pid_in_group
"""

WARNED = [
    {"category": "RuntimeWarning", "message": "divide by zero encountered in fmod", "line": 17},
    {"category": "RuntimeWarning", "message": "divide by zero encountered in floor_divide", "line": 17},
]
SMALL = {"BLOCK_M": 16, "BLOCK_N": 32, "GROUP_M": 0}
LARGE = {"BLOCK_M": 128, "BLOCK_N": 128, "GROUP_M": 8}


def _divided(tmp_path, group: str = "0", factor: str = "GROUP_M", pinned=None, warned=None) -> dict:
    from tritonlab.engine.tasks.verify import _zero_division

    file = write(tmp_path, AUTOTUNED.replace("GROUP}", group + "}").replace("FACTOR", factor))
    assert line_of(file, "group_id = pid //") == 17
    diag = {"kind": "unwritten", "cause": "tile-map", "count": 3, "message": "m"}
    _zero_division([diag], WARNED if warned is None else warned, file, pinned)
    return diag


def test_a_floor_division_warned_as_fmod_is_called_a_floor_division(tmp_path):
    zero = _divided(tmp_path, group="1")["zero_division"]
    assert (zero["op"], zero["divisor"]) == ("//", "num_pid_in_group"), zero


def test_a_modulo_line_keeps_its_percent(tmp_path):
    warned = [{"category": "RuntimeWarning", "message": "divide by zero encountered in fmod", "line": 18}]
    zero = _divided(tmp_path, group="1", warned=warned)["zero_division"]
    assert (zero["line"], zero["op"]) == (18, "%"), zero


def test_the_config_that_sets_the_factor_to_zero_is_named(tmp_path):
    diag = _divided(tmp_path, pinned=SMALL)
    zero = diag["zero_division"]
    assert (zero["zero_param"], zero["config"], zero["config_line"], zero["config_timed"]) == (
        "GROUP_M",
        SMALL,
        7,
        False,
    ), zero
    assert "(an integer // whose divisor is 0;" in diag["message"], diag["message"]
    assert "the autotune config at line 7 sets GROUP_M = 0" in diag["message"], diag["message"]
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert en.startswith("in this case your kernel divided an integer by zero at line 17 (an integer //"), en
    assert "the autotune config at line 7 sets GROUP_M = 0 — make GROUP_M nonzero there" in en, en
    assert "7 行目のオートチューンの config が GROUP_M = 0 にしています" in ja, ja


def test_a_case_pinned_to_another_config_says_the_autotuner_timed_it(tmp_path):
    diag = _divided(tmp_path, pinned=LARGE)
    assert diag["zero_division"]["config_timed"] is True, diag
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert en.startswith(
        "in this case, while the autotuner timed the config at line 7, your kernel divided"
    ), en
    assert ja.startswith("このケースでは、オートチューナーが 7 行目の config を計測している間に"), ja
    assert diag["message"].startswith("in this case, while the autotuner timed the config at line 7"), diag


@pytest.mark.parametrize(
    "group, factor",
    [
        ("1", "GROUP_M"),  # no config sets it to 0: where the divisor is computed, no config
        ("0", "(GROUP_M + 1)"),  # a sum does not carry the 0
        ("0", "BLOCK_M"),  # a config sets GROUP_M = 0, but the divisor is not made of GROUP_M
    ],
)
def test_a_config_is_not_named_for_a_divisor_it_does_not_make_zero(tmp_path, group, factor):
    diag = _divided(tmp_path, group=group, factor=factor, pinned=SMALL)
    zero = diag["zero_division"]
    assert "config_line" not in zero and "zero_params" not in zero, zero
    assert "autotune config" not in diag["message"] and "check why it is 0 there" in diag["message"], diag
