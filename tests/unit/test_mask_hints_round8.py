"""Out-of-bounds hints for five slips of probe round 8 whose mask is not (or not alone) the culprit, each a fact of
memcheck/report.py that present/diagnoses.py words in English and Japanese:

- swapped_bounds: (rows < n_cols) & (cols < n_rows) on the lab's input, the names saying the mask is swapped;
- double_step: `a_ptrs + k * BLOCK_K * stride_ak` while the loop also advances a_ptrs;
- other_index: the pointer's index on an axis is another variable than the one the mask bounds there;
- base_offset: the index the mask leaves out covers its whole axis, so the base offset is off (`Q += z * sqh`);
- strides_in_bytes: every stride passed is the tensor's times one element size.

Each rule fires on the wrong pattern and stays silent on the right code and on a neighbouring pattern. Read from
the learner's source (written to a temporary file) and the launch's integers: neither torch nor triton runs."""

from __future__ import annotations

import linecache
from pathlib import Path

import pytest

from tritonlab.engine.memcheck.report import OutOfBounds, _mask_facts
from tritonlab.present.diagnoses import describe


def write(tmp_path: Path, source: str) -> str:
    path = tmp_path / f"k{abs(hash(source))}.py"
    path.write_text(source)
    linecache.checkcache(str(path))
    return str(path)


def line_of(file: str, marker: str) -> int:
    return next(i for i, text in enumerate(Path(file).read_text().splitlines(), 1) if marker in text)


def facts_at(tmp_path: Path, source: str, marker: str) -> dict:
    file = write(tmp_path, source)
    line = line_of(file, marker)
    return _mask_facts(linecache.getline(file, line), file, line)


def report(tmp_path: Path, source: str, marker: str, **fields) -> OutOfBounds:
    file = write(tmp_path, source)
    line = line_of(file, marker)
    given = dict(
        access="load",
        kernel="kernel",
        arg="x_ptr",
        program_id=(1, 0, 0),
        lanes=4,
        offsets=[100, 101],
        extent=91,
        file=file,
        line=line,
        code=linecache.getline(file, line).strip(),
    )
    given.update(fields)
    return OutOfBounds(**given)


def both(oob: OutOfBounds) -> tuple[str, str]:
    """The UI's English and Japanese sentences for the report; the English hint must be the engine's."""
    error = {"kind": "oob", "detail": oob.to_dict()}
    en, ja = describe(error, "en"), describe(error, "ja")
    assert en.split(" — ", 1)[1] == oob.message.split(" — ", 1)[1], (en, oob.message)
    return en, ja


# --- swapped_bounds ------------------------------------------------------------------------------------------

SOFTMAX_ROWS = """
def softmax_rows_kernel(output_ptr, input_ptr, input_row_stride, input_col_stride, n_rows, n_cols, ROWS, BLOCK):
    rows = tl.program_id(axis=0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = MASK
    x_ptrs = input_ptr + rows[:, None] * input_row_stride + cols[None, :] * input_col_stride
    x = tl.load(x_ptrs, mask=mask, other=-float("inf"))
"""
ROWS_INTS = {"input_row_stride": 13, "input_col_stride": 1, "n_rows": 6, "n_cols": 13, "ROWS": 4, "BLOCK": 16}


def softmax_rows(tmp_path, mask: str, **fields) -> OutOfBounds:
    fields = {"arg": "input_ptr", "shape": (6, 13), "strides": (13, 1), "ints": ROWS_INTS, **fields}
    return report(tmp_path, SOFTMAX_ROWS.replace("MASK", mask), "x = tl.load", **fields)


def test_bounds_swapped_in_the_mask_are_named_with_the_sizes_they_need(tmp_path):
    oob = softmax_rows(tmp_path, "(rows[:, None] < n_cols) & (cols[None, :] < n_rows)")
    d = oob.to_dict()
    assert "wrong_bound" not in d, d
    assert [(p["index"], p["bound"], p["expected"]) for p in d["swapped_bounds"]["pairs"]] == [
        ("rows", "n_cols", "n_rows"),
        ("cols", "n_rows", "n_cols"),
    ]
    assert "compares rows with n_cols and cols with n_rows: the bounds are swapped" in oob.message
    assert (
        "compare rows with n_rows and cols with n_cols" in oob.message and "itself is off" not in oob.message
    )
    en, ja = both(oob)
    assert (
        "範囲の上限が入れ替わっています" in ja and "rows は n_rows と、cols は n_cols と比べてください" in ja
    ), ja


def test_m_and_n_names_count_as_rows_and_columns(tmp_path):
    source = SOFTMAX_ROWS.replace("n_rows, n_cols", "M, N").replace(
        "MASK", "(rows[:, None] < N) & (cols[None, :] < M)"
    )
    ints = {k: v for k, v in ROWS_INTS.items() if k not in ("n_rows", "n_cols")} | {"M": 6, "N": 13}
    oob = report(tmp_path, source, "x = tl.load", arg="input_ptr", shape=(6, 13), strides=(13, 1), ints=ints)
    assert "compare rows with M and cols with N" in oob.message, oob.message


@pytest.mark.parametrize(
    "mask",
    [
        "(rows[:, None] < n_rows) & (cols[None, :] < n_cols)",  # the right mask
        "(rows[:, None] < n_rows) & (cols[None, :] < n_rows)",  # one wrong term: wrong_bound's, not this rule
    ],
)
def test_right_or_half_wrong_masks_are_not_called_swapped(tmp_path, mask):
    assert "swapped_bounds" not in softmax_rows(tmp_path, mask).to_dict()


def test_an_output_allocated_like_x_keeps_the_allocation_sentence(tmp_path):
    # the transpose's output allocated (7, 13) like x: the mask's names match its bounds, the shape is off
    source = """
def transpose_kernel(x_ptr, output_ptr, n_rows, n_cols, stride_om, stride_on):
    rows = tl.arange(0, 8)
    cols = tl.arange(0, 16)
    tl.store(output_ptr + cols[:, None] * stride_om + rows[None, :] * stride_on, t, mask=(cols[:, None] < n_cols) & (rows[None, :] < n_rows))
"""
    ints = {"n_rows": 7, "n_cols": 13, "stride_om": 13, "stride_on": 1}
    oob = report(
        tmp_path,
        source,
        "tl.store(",
        access="store",
        arg="output_ptr",
        shape=(7, 13),
        strides=(13, 1),
        ints=ints,
    )
    assert "swapped_bounds" not in oob.to_dict() and "allocated with (7, 13)" in oob.message, oob.message


def test_names_that_say_nothing_leave_the_allocation_sentence(tmp_path):
    source = SOFTMAX_ROWS.replace("n_rows, n_cols", "P, Q").replace("rows", "a").replace("cols", "b")
    source = source.replace("MASK", "(a[:, None] < Q) & (b[None, :] < P)")
    ints = {k: v for k, v in ROWS_INTS.items() if k not in ("n_rows", "n_cols")} | {"P": 6, "Q": 13}
    oob = report(tmp_path, source, "x = tl.load", arg="input_ptr", shape=(6, 13), strides=(13, 1), ints=ints)
    assert "swapped_bounds" not in oob.to_dict() and "bounds every index" in oob.message, oob.message


# --- double_step ---------------------------------------------------------------------------------------------

MATMUL = """
def matmul_kernel(a_ptr, b_ptr, M, K, stride_am, stride_ak, stride_bk, BLOCK_M, BLOCK_K):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk
    for k in RANGE:
        k_mask = (k * BLOCK_K + offs_k) < K
        a = tl.load(LOAD, mask=(offs_m[:, None] < M) & k_mask[None, :], other=0.0)
        ADVANCE
        b_ptrs += BLOCK_K * stride_bk
"""


def matmul_facts(tmp_path, load: str, advance: str, loop: str = "range(0, tl.cdiv(K, BLOCK_K))") -> dict:
    source = MATMUL.replace("RANGE", loop).replace("LOAD", load).replace("ADVANCE", advance)
    return facts_at(tmp_path, source, "a = tl.load(")


def test_an_offset_added_to_a_pointer_the_loop_also_advances_is_a_double_step(tmp_path):
    facts = matmul_facts(tmp_path, "a_ptrs + k * BLOCK_K * stride_ak", "a_ptrs += BLOCK_K * stride_ak")
    step = facts["double_step"]
    assert (step["pointer"], step["offset"], step["step"], step["loop_var"]) == (
        "a_ptrs",
        "k * BLOCK_K * stride_ak",
        "BLOCK_K * stride_ak",
        "k",
    )
    source = Path(next(Path(tmp_path).glob("*.py"))).read_text().splitlines()
    assert source[step["line"] - 1].strip() == "a_ptrs += BLOCK_K * stride_ak"


def test_a_start_loop_with_an_advance_is_a_double_step_too(tmp_path):
    facts = matmul_facts(
        tmp_path, "a_ptrs + k * stride_ak", "a_ptrs += BLOCK_K * stride_ak", loop="range(0, K, BLOCK_K)"
    )
    assert facts["double_step"]["offset"] == "k * stride_ak"


@pytest.mark.parametrize(
    "load, advance",
    [
        ("a_ptrs", "a_ptrs += BLOCK_K * stride_ak"),  # the lesson's pointer increments
        ("a_ptrs + k * BLOCK_K * stride_ak", "pass"),  # the tutorials' K offsets
        ("a_ptrs + k * BLOCK_K * stride_ak", "a_ptr += 0"),  # another name advances: not this pointer
        ("a_ptrs + offs_k[None, :]", "a_ptrs += BLOCK_K * stride_ak"),  # added offset does not move with k
    ],
)
def test_one_way_of_walking_k_is_no_double_step(tmp_path, load, advance):
    assert "double_step" not in matmul_facts(tmp_path, load, advance)


def test_the_double_step_hint_in_both_languages(tmp_path):
    source = MATMUL.replace("RANGE", "range(0, tl.cdiv(K, BLOCK_K))")
    source = source.replace("LOAD", "a_ptrs + k * BLOCK_K * stride_ak").replace(
        "ADVANCE", "a_ptrs += BLOCK_K * stride_ak"
    )
    ints = {"M": 17, "K": 65, "stride_am": 65, "stride_ak": 1, "stride_bk": 33, "BLOCK_M": 32, "BLOCK_K": 32}
    oob = report(tmp_path, source, "a = tl.load(", arg="a_ptr", shape=(17, 65), strides=(65, 1), ints=ints)
    assert "lets these lanes through" not in oob.message, oob.message
    assert "the loop's offset is applied twice" in oob.message and "a_ptrs += line" in oob.message
    en, ja = both(oob)
    assert "二重にかかる" in ja and "a_ptrs += の行を削除" in ja, ja


# --- other_index ---------------------------------------------------------------------------------------------

ATTENTION = """
def attn_fwd(Q, K, stride_qm, stride_kn, seq_len, HEAD_DIM, BLOCK_M, BLOCK_N):
    start_m = tl.program_id(0)
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    k_ptrs = K + KEYS[None, :] * stride_kn + offs_d[:, None]
    for start_n in range(0, seq_len, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_ptrs + start_n * stride_kn, mask=MASK < seq_len, other=0.0)
"""


def attention_facts(tmp_path, keys: str, mask: str = "cols[None, :]") -> dict:
    return facts_at(tmp_path, ATTENTION.replace("KEYS", keys).replace("MASK", mask), "k = tl.load(")


def test_a_pointer_built_from_another_index_than_the_mask_bounds_is_named(tmp_path):
    other = attention_facts(tmp_path, "rows")["other_index"]
    assert other == {
        "pointer": "k_ptrs",
        "assigned": "K + rows[None, :] * stride_kn + offs_d[:, None]",
        "line": 7,
        "index": "rows",
        "mask_index": "cols",
        "mask_expr": "start_n + offs_n",
        "axis": 1,
    }


@pytest.mark.parametrize(
    "keys, mask",
    [
        ("offs_n", "cols[None, :]"),  # the right keys: cols is made from offs_n
        ("rows", "rows[None, :]"),  # the mask bounds the pointer's own index
        ("rows", "(start_n + offs_n)[None, :]"),  # no named index in the mask: nothing to compare
    ],
)
def test_a_pointer_and_mask_on_the_same_index_get_no_such_fact(tmp_path, keys, mask):
    assert "other_index" not in attention_facts(tmp_path, keys, mask)


def test_the_other_index_hint_in_both_languages(tmp_path):
    source = ATTENTION.replace("KEYS", "rows").replace("MASK", "cols[None, :]")
    ints = {"stride_qm": 16, "stride_kn": 16, "seq_len": 37, "HEAD_DIM": 16, "BLOCK_M": 16, "BLOCK_N": 16}
    oob = report(
        tmp_path, source, "k = tl.load(", arg="K", shape=(1, 2, 37, 16), strides=(1184, 592, 16, 1), ints=ints
    )
    assert "lets these lanes through" not in oob.message, oob.message
    assert "the pointer's index on axis 1 is rows (k_ptrs = K + rows[None, :] * stride_kn" in oob.message
    assert "(cols = start_n + offs_n)" in oob.message
    en, ja = both(oob)
    assert "7 行目: k_ptrs = K + rows[None, :]" in ja and "食い違っています" in ja, ja


# --- base_offset ---------------------------------------------------------------------------------------------

FLASH = """
def flash_fwd(Q, sqz, sqh, sqm, H, seq_len, HEAD_DIM, BLOCK_M):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    z = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    Q += BASE
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, WIDTH)
    q = tl.load(Q + offs_m[:, None] * sqm + offs_d[None, :], mask=offs_m[:, None] < seq_len, other=0.0)
"""
FLASH_INTS = {"sqz": 1184, "sqh": 592, "sqm": 16, "H": 2, "seq_len": 37, "HEAD_DIM": 16, "BLOCK_M": 32}


def flash(tmp_path, base: str = "z * sqh + h * sqz", width: str = "HEAD_DIM", **ints) -> OutOfBounds:
    source = FLASH.replace("BASE", base).replace("WIDTH", width)
    return report(
        tmp_path,
        source,
        "q = tl.load(",
        arg="Q",
        shape=(1, 2, 37, 16),
        strides=(1184, 592, 16, 1),
        ints=FLASH_INTS | ints,
    )


def test_an_index_over_its_whole_axis_points_at_the_base_offset(tmp_path):
    oob = flash(tmp_path)
    base = oob.to_dict()["base_offset"]
    assert base["whole"] == [{"name": "offs_d", "expr": "tl.arange(0, HEAD_DIM)", "axis": 3, "extent": 16}]
    assert (base["code"], base["line"]) == ("Q += z * sqh + h * sqz", 7)
    assert base["swapped"] == {"indices": ["z", "h"], "strides": ["sqh", "sqz"]}
    assert "offs_d" not in oob.message and "never bounds" not in oob.message, oob.message
    assert "the address itself is off" in oob.message and "Q += z * sqh + h * sqz (line 7)" in oob.message
    assert "those two strides look swapped (z goes with sqz, h with sqh)" in oob.message
    en, ja = both(oob)
    assert "7 行目の Q += z * sqh + h * sqz" in ja and "z には sqz、h には sqh" in ja, ja


def test_strides_named_the_right_way_round_are_not_called_swapped(tmp_path):
    base = flash(tmp_path, base="z * sqz + h * sqh").to_dict()["base_offset"]
    assert base["swapped"] is None and base["code"] == "Q += z * sqz + h * sqh"


def test_an_index_that_can_overrun_its_axis_is_still_the_missing_bound(tmp_path):
    oob = flash(tmp_path, width="BLOCK_D", BLOCK_D=32)  # 32 columns over an axis of 16
    assert "base_offset" not in oob.to_dict()
    assert "never bounds offs_d (axis 1)" in oob.message, oob.message


def test_an_arange_whose_pointer_advances_in_a_loop_is_still_the_missing_bound(tmp_path):
    # offs_k covers BLOCK_K <= K columns, but a_ptrs walks K: the K bound is what is missing
    source = MATMUL.replace("RANGE", "range(0, tl.cdiv(K, BLOCK_K))").replace(
        "ADVANCE", "a_ptrs += BLOCK_K * stride_ak"
    )
    source = source.replace(
        "LOAD, mask=(offs_m[:, None] < M) & k_mask[None, :]", "a_ptrs, mask=offs_m[:, None] < M"
    )
    ints = {"M": 17, "K": 65, "stride_am": 65, "stride_ak": 1, "stride_bk": 33, "BLOCK_M": 32, "BLOCK_K": 32}
    oob = report(tmp_path, source, "a = tl.load(", arg="a_ptr", shape=(17, 65), strides=(65, 1), ints=ints)
    assert "base_offset" not in oob.to_dict() and "never bounds offs_k (axis 1)" in oob.message, oob.message


# --- strides_in_bytes ----------------------------------------------------------------------------------------

COPY_2D = """
def copy_2d_kernel(x_ptr, output_ptr, n_rows, n_cols, stride_xm, stride_xn, BLOCK_M, BLOCK_N):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
"""


def copy_2d(tmp_path, strides: tuple, stride_xm: int, stride_xn: int) -> OutOfBounds:
    ints = {
        "n_rows": 7,
        "n_cols": 13,
        "stride_xm": stride_xm,
        "stride_xn": stride_xn,
        "BLOCK_M": 64,
        "BLOCK_N": 64,
    }
    return report(tmp_path, COPY_2D, "tile = tl.load(", shape=(7, 13), strides=strides, ints=ints)


def test_strides_passed_in_bytes_are_named_as_bytes(tmp_path):
    oob = copy_2d(tmp_path, (1, 7), 4, 28)  # a transposed float32 view, strides times 4
    assert oob.to_dict()["strides_in_bytes"] == {
        "element_size": 4,
        "strides": [
            {"name": "stride_xm", "value": 4, "elements": 1},
            {"name": "stride_xn", "value": 28, "elements": 7},
        ],
    }
    assert "stride_xm = 4, stride_xn = 28: that is x_ptr's strides (1, 7) times 4" in oob.message, oob.message
    assert "counts elements, not bytes" in oob.message and "element_size()" in oob.message
    en, ja = both(oob)
    assert "バイトではなく要素の数" in ja and "(1, 7) の 4 倍" in ja, ja
    assert copy_2d(tmp_path, (13, 1), 26, 2).to_dict()["strides_in_bytes"]["element_size"] == 2  # float16


@pytest.mark.parametrize(
    "stride_xm, stride_xn",
    [
        (13, 1),  # the right strides: no out-of-bounds to explain, and no fact
        (13, 13),  # a wrong stride, but not the tensor's times an element size
        (4, 52),  # in bytes AND swapped: each is x's other axis's stride, not a byte count of its own
    ],
)
def test_strides_that_are_not_a_byte_count_keep_their_hint(tmp_path, stride_xm, stride_xn):
    oob = copy_2d(tmp_path, (13, 1), stride_xm, stride_xn)
    assert "strides_in_bytes" not in oob.to_dict() and "bytes" not in oob.message, oob.message
