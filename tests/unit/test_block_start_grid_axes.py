"""Probe round 16a: a load without its block start (`verify.load_without_block_start`, cause `all-but-first`
with the load's line), a 2-D grid with its axes swapped (`contracts.swapped_grid_axes`, cause
`grid-axes-swapped`), and the lines of `grid-size` and `output-layout` facts (`contracts.grid_line`,
`contracts.returned_line`). Each rule with a file or facts it must not fire on."""

import ast

from tritonlab.engine import contracts
from tritonlab.engine.tasks.verify import _case_patterns, load_without_block_start
from tritonlab.present.diagnoses import describe

KERNEL = """
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, w_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    w = tl.load({w}, mask=mask)
    tl.store(y_ptr + offsets, x * w, mask=mask)
"""


def _load(w: str) -> dict | None:
    return load_without_block_start(ast.parse(KERNEL.replace("{w}", w)))


def test_the_one_load_without_the_program_id_is_named():
    found = _load("w_ptr + tl.arange(0, BLOCK_SIZE)")
    assert found == {
        "line": 12,
        "address": "w_ptr + tl.arange(0, BLOCK_SIZE)",
        "pointer": "w_ptr",
        "instead": "offsets",
    }
    lanes = KERNEL.replace("{w}", "w_ptr + lanes").replace(
        "    mask =", "    lanes = tl.arange(0, BLOCK_SIZE)\n    mask ="
    )
    assert (load_without_block_start(ast.parse(lanes)) or {}).get("address") == "w_ptr + lanes"


def test_loads_that_follow_the_program_id_or_read_a_scalar_are_not_named():
    assert _load("w_ptr + offsets") is None  # right
    assert _load("w_ptr + pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)") is None  # right, written inline
    assert _load("w_ptr") is None  # a scalar: every program reads the same value on purpose
    assert _load("w_ptr + 1") is None
    two = KERNEL.replace("{w}", "w_ptr + tl.arange(0, BLOCK_SIZE)").replace(
        "x_ptr + offsets", "x_ptr + tl.arange(0, BLOCK_SIZE)"
    )
    assert load_without_block_start(ast.parse(two)) is None  # two such loads: no guess
    still = KERNEL.replace("{w}", "w_ptr + tl.arange(0, BLOCK_SIZE)").replace(
        "y_ptr + offsets", "y_ptr + tl.arange(0, BLOCK_SIZE)"
    )
    assert load_without_block_start(ast.parse(still)) is None  # the store does not move either
    assert load_without_block_start(None) is None


def _mismatch_in(programs, n_programs, cause=None):
    diag = {"kind": "mismatch", "cause": cause, "programs": programs, "n_programs": n_programs}
    diag["message"] = "3 elements differ beyond tolerance (x) in programs"
    if cause == "tail-block":
        diag["message"] = "1 element differs, only in the last, partial block (x): check the mask and other="
    return {"params": {"n": 1}, "dtype": "float32", "passed": False, "diagnoses": [diag]}


def test_all_but_first_whatever_the_first_case_said_and_every_tail_claim_withdrawn(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(KERNEL.replace("{w}", "w_ptr + tl.arange(0, BLOCK_SIZE)"))
    cases = [_mismatch_in([[1, 3]], 4), _mismatch_in([[1, 1]], 2, "tail-block"), _mismatch_in([[1, 4]], 5)]
    cases.append({"params": {"n": 1}, "dtype": "float32", "passed": True, "diagnoses": []})
    _case_patterns(cases, ["float32"], {}, str(path))
    first = cases[0]["diagnoses"][0]
    assert (first["cause"], first["line"], first["pointer"]) == ("all-but-first", 12, "w_ptr"), first
    assert "w_ptr + tl.arange(0, BLOCK_SIZE)" in first["message"]
    later = cases[1]["diagnoses"][0]
    assert later["cause"] == "all-but-first" and "other=" not in later["message"], later
    # the same pattern in a file whose loads all follow the program id: the cause, no line
    right = tmp_path / "right.py"
    right.write_text(KERNEL.replace("{w}", "w_ptr + offsets"))
    cases = [_mismatch_in([[1, 3]], 4), _mismatch_in([[1, 1]], 2, "tail-block")]
    _case_patterns(cases, ["float32"], {}, str(right))
    assert cases[0]["diagnoses"][0]["cause"] == "all-but-first" and "line" not in cases[0]["diagnoses"][0]


def test_no_all_but_first_where_program_0_is_wrong_or_only_tails_fail(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(KERNEL.replace("{w}", "w_ptr + tl.arange(0, BLOCK_SIZE)"))
    cases = [_mismatch_in([[0, 3]], 4), _mismatch_in([[1, 1]], 2, "tail-block")]  # program 0 wrong too
    _case_patterns(cases, ["float32"], {}, str(path))
    assert cases[0]["diagnoses"][0]["cause"] is None and "line" not in cases[0]["diagnoses"][0]
    tails = [_mismatch_in([[1, 1]], 2), _mismatch_in([[1, 1]], 2, "tail-block")]  # two programs everywhere
    _case_patterns(tails, ["float32"], {}, str(path))
    assert tails[1]["diagnoses"][0]["cause"] == "tail-block" and tails[0]["diagnoses"][0]["cause"] is None


def test_the_named_load_in_both_languages():
    facts = {
        "kind": "mismatch",
        "count": 766,
        "atol": 1e-5,
        "rtol": 1e-5,
        "cause": "all-but-first",
        "line": 15,
        "address": "w_ptr + tl.arange(0, BLOCK_SIZE)",
        "pointer": "w_ptr",
        "instead": "offsets",
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "line 15 loads from «w_ptr + tl.arange(0, BLOCK_SIZE)»" in en and "use offsets" in en, en
    assert "15 行目" in ja and "w_ptr の先頭ブロック" in ja and "offsets を使って" in ja, ja


def test_swapped_grid_axes_only_for_the_tile_counts_reversed_with_the_rows_they_miss():
    # M = 127, N = 129 in tiles of 32 x 64: 4 row tiles, 3 column tiles; grid (3, 4): rows 96-126 missed
    assert contracts.swapped_grid_axes([3, 4, 1], [127, 129], [32, 64], 31 * 129) == [4, 3]
    assert contracts.swapped_grid_axes([3, 4, 1], [127, 129], [32, 64], 100) is None  # another count
    assert contracts.swapped_grid_axes([4, 3, 1], [127, 129], [32, 64], 31 * 129) is None  # in order
    assert contracts.swapped_grid_axes([2, 2, 1], [33, 65], [32, 64], 0) is None  # equal counts
    assert contracts.swapped_grid_axes([3, 4, 2], [127, 129], [32, 64], 31 * 129) is None  # a third axis
    # a flat grid of 33 programs over one row tile (M = 20) and 33 column tiles (N = 1056) reads as (33, 1, 1)
    assert contracts.swapped_grid_axes([33, 1, 1], [20, 1056], [32, 32], 0) is None
    assert contracts.swapped_grid_axes([33, 1, 1], [20, 1056], [32, 32], 20 * 1024) is None
    # a kernel that takes its column tile from axis 0 on purpose, launched (column tiles, row tiles):
    # nothing unwritten, so nothing to explain; launched (row tiles, column tiles) it is not this rule's
    assert contracts.swapped_grid_axes([4, 3, 1], [127, 129], [32, 64], 127 * 129 - 127 * 129) is None


def test_the_swapped_grid_in_both_languages():
    facts = {
        "kind": "unwritten",
        "cause": "grid-axes-swapped",
        "count": 3999,
        "numel": 16383,
        "grid": [3, 4, 1],
        "tile_counts": [4, 3],
        "blocks": [32, 64],
        "line": 48,
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "the grid is 3 x 4 (line 48)" in en and "4 row tiles and 3 column tiles" in en and "swapped" in en
    assert "48 行目" in ja and "行方向に 4 個" in ja and "軸が逆" in ja, ja


LAUNCH = """
import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    pass


def wrapper(x, BLOCK=16):
    n = x.numel()
    output = {alloc}
    grid = lambda meta: (max(1, n // meta["BLOCK"]),)
    k[grid](x, n, BLOCK=BLOCK)
    return output
"""


def _file(tmp_path, text: str) -> str:
    path = tmp_path / "w.py"
    path.write_text(text)
    return str(path)


def test_the_grid_line_and_the_returned_tensor_line(tmp_path):
    plain = _file(tmp_path, LAUNCH.replace("{alloc}", "torch.empty_like(x.t())"))
    assert contracts.grid_line(plain, "k") == 15
    assert contracts.returned_line(plain, "wrapper") == 14
    inline = _file(tmp_path, LAUNCH.replace("k[grid]", "k[(triton.cdiv(n, BLOCK),)]"))
    assert contracts.grid_line(inline, "k") == 16  # written in the brackets: the launch's own line
    made = _file(tmp_path, LAUNCH.replace("    return output", "    return output.t()"))
    assert contracts.returned_line(made, "wrapper") == 17


def test_no_line_where_it_is_not_one_line(tmp_path):
    twice = _file(
        tmp_path, LAUNCH.replace("    return output", "    k[grid](x, n, BLOCK=BLOCK)\n    return output")
    )
    assert contracts.grid_line(twice, "k") is None  # two launch sites
    assert contracts.grid_line(twice, "other") is None  # no launch of that kernel
    regrid = _file(tmp_path, LAUNCH.replace("    k[grid]", "    grid = (1,)\n    k[grid]"))
    assert contracts.grid_line(regrid, "k") is None  # the grid's name assigned twice
    again = _file(tmp_path, LAUNCH.replace("    grid =", "    output = output.t()\n    grid ="))
    assert contracts.returned_line(again, "wrapper") is None  # the output's name assigned twice
    assert contracts.returned_line(again, "missing") is None
    assert contracts.grid_line(None, "k") is None and contracts.returned_line(None, "wrapper") is None


def test_grid_size_and_output_layout_say_their_line_in_both_languages():
    grid = {"kind": "grid-size", "launched": 1, "expected": 2, "line": 19}
    assert "the grid at line 19 launched 1 program for 2 blocks" in describe(grid, "en")
    assert "19 行目のグリッド" in describe(grid, "ja")
    layout = {"kind": "output-layout", "strides": [1, 13], "shape": [13, 7], "transposed": True, "line": 37}
    assert "the output made at line 37 is laid out transposed" in describe(layout, "en")
    assert describe(layout, "ja").startswith("37 行目で作った出力")
    assert "made at line" not in describe({**layout, "line": None}, "en")
