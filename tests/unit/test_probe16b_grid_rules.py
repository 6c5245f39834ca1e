"""Probe round 16b, findings 2, 4 and 8: a ROWS-per-program 2-D store is not read as a flat 1-D copy
(`contracts.stores_2d_tile`) and its unscaled row start is named (`contracts.unscaled_start`); an out-of-bounds
access in a program past the output's tiles names the grid (`verify._grid_over`); a passing case whose kernel
divided an integer scalar by zero fails (`verify._zero_division_passed`, `verify._scalar_divisor`)."""

from __future__ import annotations

from types import SimpleNamespace

import torch

from tritonlab.engine import contracts
from tritonlab.engine.tasks import verify
from tritonlab.present.diagnoses import describe

ROWS_KERNEL = """
import triton
import triton.language as tl


@triton.jit
def k(out_ptr, x_ptr, stride, n_rows, n_cols, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    rows = tl.program_id(axis=0) + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask)
    tl.store(out_ptr + rows[:, None] * stride + cols[None, :], x, mask=mask)
"""

FLAT_KERNEL = """
import triton
import triton.language as tl


@triton.jit
def k(out_ptr, x_ptr, n, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=offsets < n), mask=offsets < n)
"""


def _file(tmp_path, text: str, name: str = "k.py") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_rows_tile_store_is_2d_and_a_flat_copy_is_not(tmp_path):
    assert contracts.stores_2d_tile(_file(tmp_path, ROWS_KERNEL, "rows.py"), "k")
    assert not contracts.stores_2d_tile(_file(tmp_path, FLAT_KERNEL, "flat.py"), "k")
    assert not contracts.stores_2d_tile(None, "k")


def test_the_unscaled_row_start_is_found_and_a_scaled_one_is_not(tmp_path):
    wrong = _file(tmp_path, ROWS_KERNEL, "wrong.py")
    right = _file(
        tmp_path,
        ROWS_KERNEL.replace("tl.program_id(axis=0) + ", "tl.program_id(axis=0) * ROWS + "),
        "right.py",
    )
    assert contracts.unscaled_start(wrong, "k") == (
        8,
        "rows = tl.program_id(axis=0) + tl.arange(0, ROWS)",
        "ROWS",
    )
    assert contracts.unscaled_start(right, "k") is None
    assert contracts.unscaled_start(_file(tmp_path, FLAT_KERNEL, "flat.py"), "k") is None


def test_flat_2d_stays_out_for_a_rows_tile_and_reads_a_flat_copy(tmp_path):
    def diag():
        return {"kind": "unwritten", "cause": "rows-short", "ranges": [[36, 98]], "runs": 1, "count": 63}

    launch = {"grid": [9, 1, 1], "meta": {"BLOCK_SIZE": 4}, "kernel": "k"}
    rows = diag()
    got = contracts._explain_flat_2d(
        rows, dict(launch, file=_file(tmp_path, ROWS_KERNEL, "rows.py")), 9, [9, 1, 1, 1, 1], 4, [33, 3]
    )
    assert got is False and rows["cause"] == "rows-short"
    flat = diag()
    got = contracts._explain_flat_2d(
        flat, dict(launch, file=_file(tmp_path, FLAT_KERNEL, "flat.py")), 9, [9, 1, 1, 1, 1], 4, [33, 3]
    )
    assert got is True and flat["cause"] == "grid-fewer-programs"


def test_overlap_names_the_unscaled_start_in_both_languages(tmp_path):
    wrong = _file(tmp_path, ROWS_KERNEL, "wrong.py")
    stats = {"overlaps": [{"kernel": "k", "file": wrong, "argument": "out_ptr", "count": 30}]}
    diags = [{"kind": "unwritten", "cause": "rows-short", "count": 63, "rows": [12, 32], "cols": [0, 2]}]
    verify._overlapped(diags, stats, wrong)
    assert diags[0]["cause"] == "overlap" and diags[0]["line"] == 8 and diags[0]["start_size"] == "ROWS"
    assert "tl.program_id(0) * ROWS" in describe(diags[0], "en")
    assert "tl.program_id(0) * ROWS" in describe(diags[0], "ja")
    right = _file(
        tmp_path,
        ROWS_KERNEL.replace("tl.program_id(axis=0) + ", "tl.program_id(axis=0) * ROWS + "),
        "right.py",
    )
    stats = {"overlaps": [{"kernel": "k", "file": right, "argument": "out_ptr", "count": 30}]}
    diags = [{"kind": "unwritten", "cause": "rows-short", "count": 63}]
    verify._overlapped(diags, stats, right)
    assert diags[0]["cause"] == "overlap" and "line" not in diags[0]


GEMM = """
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    tl.store(c_ptr + pid_m * N + pid_n, 0.0)


def matmul(a, b, c):
    M, N = c.shape
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_M"]),)
    mm[grid](a, b, c, M, N, 1, BLOCK_M=16, BLOCK_N=32, GROUP_M=8)
"""

PERSISTENT = GEMM.replace(
    "    pid = tl.program_id(axis=0)\n",
    "    pid = tl.program_id(axis=0)\n    for tile in range(pid, 20, 36):\n        pass\n",
)


def _oob(path: str, program: int) -> dict:
    detail = {
        "access": "load",
        "arg": "b_ptr",
        "kernel": "mm",
        "file": path,
        "program_id": [program, 0, 0],
        "grid": [36, 1, 1],
        "message": "load from b_ptr out of bounds",
    }
    return {"kind": "oob", "line": 17, "message": detail["message"], "detail": detail}


def _exercise(store_once: bool = False):
    contracts_ = {"tiles_over": "c", **({"store_once": True} if store_once else {})}
    return SimpleNamespace(verify=SimpleNamespace(contracts=contracts_))


def _launches(path: str) -> list:
    return [{"kernel": "mm", "file": path, "grid": [36, 1, 1], "meta": {"BLOCK_M": 16, "BLOCK_N": 32}}]


def test_an_oob_in_a_program_past_the_tiles_names_the_grid(tmp_path):
    path = _file(tmp_path, GEMM, "gemm.py")
    error = _oob(path, 26)
    inputs = {"c": torch.empty(63, 129)}
    verify._grid_over(error, _launches(path), _exercise(), inputs, {}, {}, path)
    assert error["cause"] == "grid-over" and error["line"] == 22, error
    over = error["detail"]["grid_over"]
    assert (over["programs"], over["tiles"], over["program"], over["access_line"]) == (36, 20, 26, 17)
    en, ja = describe(error, "en"), describe(error, "ja")
    assert "36 programs for 20 tiles" in en and "(line 22)" in en and "mask the load" not in en
    assert "22 行目" in ja and "20 タイル" in ja


def test_an_oob_inside_the_tiles_or_in_a_persistent_kernel_keeps_its_reading(tmp_path):
    path = _file(tmp_path, GEMM, "gemm.py")
    inputs = {"c": torch.empty(63, 129)}
    inside = _oob(path, 5)  # program 5 has a tile: its access is its own
    verify._grid_over(inside, _launches(path), _exercise(), inputs, {}, {}, path)
    assert "cause" not in inside and inside["line"] == 17
    once = _oob(path, 26)  # contract store_once: a persistent kernel launches extra programs on purpose
    verify._grid_over(once, _launches(path), _exercise(store_once=True), inputs, {}, {}, path)
    assert "cause" not in once
    looped = _file(tmp_path, PERSISTENT, "persistent.py")
    loop = _oob(looped, 26)
    verify._grid_over(loop, _launches(looped), _exercise(), inputs, {}, {}, looped)
    assert "cause" not in loop
    right = _oob(path, 26)  # a grid of exactly the tiles: nothing past them
    right["detail"]["grid"] = [20, 1, 1]
    launches = [dict(_launches(path)[0], grid=[20, 1, 1])]
    verify._grid_over(right, launches, _exercise(), inputs, {}, {}, path)
    assert "cause" not in right


WARNED = [
    {"category": "RuntimeWarning", "message": "divide by zero encountered in fmod", "line": 15},
]


def test_a_passing_case_that_divides_a_scalar_by_zero_fails(tmp_path):
    path = _file(tmp_path, GEMM, "gemm.py")
    assert verify._scalar_divisor(path, 15)
    diagnoses: list = []
    verify._zero_division_passed(diagnoses, WARNED, path)
    assert len(diagnoses) == 1 and diagnoses[0]["kind"] == "zero-division", diagnoses
    zero = diagnoses[0]["zero_division"]
    assert zero["line"] == 15 and zero["divisor"] == "group_size_m"
    assert diagnoses[0]["line"] == 15  # no floor count behind it (tl.cdiv): the division's own line
    floored = _file(tmp_path, GEMM.replace("tl.cdiv(M, BLOCK_M)", "M // BLOCK_M"), "floored.py")
    diagnoses = []
    verify._zero_division_passed(diagnoses, WARNED, floored)
    assert diagnoses[0]["line"] == 9 and diagnoses[0]["zero_division"]["floor_line"] == 9
    assert "line 15" in describe(diagnoses[0], "en") and "What followed" not in describe(diagnoses[0], "en")
    assert "15 行目" in describe(diagnoses[0], "ja")


LANES = """
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    q = x // y
    tl.store(out_ptr + offs, q, mask=mask)
"""


def test_a_lane_division_or_no_warning_adds_nothing(tmp_path):
    lanes = _file(tmp_path, LANES, "lanes.py")
    assert not verify._scalar_divisor(lanes, 12)  # masked lanes loaded as 0: their quotient is never used
    cols = _file(tmp_path, LANES.replace("q = x // y", "q = offs % n"), "cols.py")
    assert not verify._scalar_divisor(cols, 12)  # lanes divided by a scalar: the lanes may all be masked
    diagnoses: list = []
    warned = [
        {"category": "RuntimeWarning", "message": "divide by zero encountered in floor_divide", "line": 12}
    ]
    verify._zero_division_passed(diagnoses, warned, lanes)
    assert diagnoses == []
    path = _file(tmp_path, GEMM, "gemm.py")
    verify._zero_division_passed(diagnoses, [], path)  # a kernel that never divides by zero gets nothing
    verify._zero_division_passed(
        diagnoses,
        [{"category": "RuntimeWarning", "message": "overflow encountered in exp", "line": 15}],
        path,
    )
    assert diagnoses == []
