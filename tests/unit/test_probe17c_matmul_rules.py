"""Rules added for probe round 17c (tests/integration/probe_round17_c/README.md, findings 1 and 5), each tested
both ways: the wrong pattern gets its fact, the right code (or another slip) does not.

- verify._tile_loop_wrong_step: a persistent tile loop that starts at the program id and whose step cannot be the
  program count — the loop's own stop (`range(pid, num_tiles, num_tiles)`), or a BLOCK launch parameter whose
  value differs from the launch's program count. Said as cause `tile-loop` at the loop's line, not `tile-id-map`.
- verify._descriptor_axis_slip: a tensor descriptor's access that gives one axis of its shape a coordinate the
  other accesses give another axis (`b_desc.load([k, off_m])` with A over [M, K], C over [M, N]): cause
  `descriptor-axis` at that access's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tritonlab.engine.tasks import verify
from tritonlab.present.diagnoses import describe

PROBES = Path(__file__).parents[1] / "integration" / "probe_round17_c"
LESSON = Path(__file__).parents[2] / "lessons" / "13-hopper"


def write(tmp_path: Path, source: str) -> str:
    path = tmp_path / f"k{abs(hash(source))}.py"
    path.write_text(source)
    return str(path)


def line_of(file: str, marker: str) -> int:
    return next(i for i, text in enumerate(Path(file).read_text().splitlines(), 1) if marker in text)


# --- the tile loop's step is not the program count ---------------------------------------------------------------

PERSISTENT = """
import triton
import triton.language as tl


@triton.jit
def persistent_kernel(c_ptr, M, N, NUM_PROGRAMS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    for tile_id in LOOP:
        pid_m = tile_id // num_pid_n
        pid_n = tile_id % num_pid_n
        tl.store(c_ptr + pid_m * N + pid_n, 1.0)
"""


def persistent(tmp_path: Path, loop: str) -> str:
    return write(tmp_path, PERSISTENT.replace("LOOP", loop))


def launch(grid: int, **meta: int) -> dict:
    return {"kernel": "persistent_kernel", "grid": [grid, 1, 1], "meta": meta}


@pytest.mark.parametrize(
    "loop",
    [
        "range(pid, num_tiles, num_tiles)",  # the probe's slip, through a program-id name
        "range(tl.program_id(axis=0), num_tiles, num_tiles)",  # the probe's own spelling
        "range(pid, num_tiles, num_pid_m * num_pid_n)",  # the same count, written out
        "tl.range(pid, num_pid_m * num_pid_n, num_tiles, flatten=True)",  # the other way round, tl.range
    ],
)
def test_a_tile_loop_stepping_by_its_own_stop_is_named_at_the_loop(tmp_path, loop):
    file = persistent(tmp_path, loop)
    found = verify._tile_loop_wrong_step(file, [launch(3, BLOCK_M=32, BLOCK_N=32)])
    assert found is not None and found["form"] == "stop", found
    assert found["line"] == line_of(file, "for tile_id in"), found
    assert found["call"] == f"for tile_id in {loop}", found


def test_a_tile_loop_stepping_by_a_block_size_is_named_with_both_numbers(tmp_path):
    file = persistent(tmp_path, "range(pid, num_tiles, BLOCK_M)")
    found = verify._tile_loop_wrong_step(file, [launch(3, BLOCK_M=32, BLOCK_N=32)])
    assert found is not None and found["form"] == "block", found
    assert (found["step"], found["step_value"], found["programs"]) == ("BLOCK_M", 32, 3), found
    assert found["line"] == line_of(file, "for tile_id in"), found


@pytest.mark.parametrize(
    "loop, launches",
    [
        ("range(pid, num_tiles, NUM_PROGRAMS)", [launch(3, BLOCK_M=32)]),  # the hint's loop
        ("range(pid, num_tiles, tl.num_programs(0))", [launch(3, BLOCK_M=32)]),
        ("tl.range(tl.program_id(0), num_tiles, NUM_PROGRAMS, flatten=True)", [launch(3)]),
        ("range(pid, num_tiles, 1)", [launch(3)]),  # a literal step: not this rule's
        # a block size that is the program count at every launch (the learner launched BLOCK_M programs)
        ("range(pid, num_tiles, BLOCK_M)", [launch(4, BLOCK_M=4), launch(8, BLOCK_M=8)]),
        ("range(pid, num_tiles, BLOCK_M)", []),  # no launch seen: no claim about the value
        (
            "range(pid, num_tiles, BLOCK_M)",
            [launch(3, BLOCK_M=32), launch(32, BLOCK_M=32)],
        ),  # one launch fits
        ("range(0, num_tiles, num_tiles)", [launch(3)]),  # not a loop over the program's tiles
    ],
)
def test_a_tile_loop_that_may_step_by_the_program_count_is_not_named(tmp_path, loop, launches):
    assert verify._tile_loop_wrong_step(persistent(tmp_path, loop), launches) is None


def test_the_probe_files_and_the_lesson_loops_step_where_they_should():
    wrong = str(PROBES / "l13_persistent_matmul_wrong_tile_loop_steps_by_num_tiles.py")
    found = verify._tile_loop_wrong_step(wrong, [])
    assert found is not None and found["line"] == line_of(wrong, "    for tile_id in range("), found
    for right in (
        PROBES / "l13_persistent_matmul_ok_rounds_dealt_zigzag_with_guard.py",
        LESSON / "matmul_persistent.py",
        LESSON / "matmul_descriptors.py",
    ):
        assert verify._tile_loop_wrong_step(str(right), [launch(3, BLOCK_M=32)]) is None, right


def test_a_loop_that_steps_by_the_program_count_still_blames_the_mapping(tmp_path):
    # the other side: tile-id-map keeps its files (the loop takes every id; the mapping is wrong)
    file = persistent(tmp_path, "range(pid, num_tiles, NUM_PROGRAMS)")
    assert verify._tile_map_line(file) is not None
    stepped = persistent(tmp_path, "range(pid, num_tiles, num_tiles)")
    assert verify._tile_loop_wrong_step(stepped, []) is not None


@pytest.mark.parametrize("form", ["stop", "block"])
def test_the_tile_loop_step_is_said_in_both_languages(form):
    diag = {
        "kind": "unwritten",
        "cause": "tile-loop",
        "count": 5087,
        "line": 47,
        "call": "for tile_id in range(pid, num_tiles, num_tiles)",
        "step": "num_tiles" if form == "stop" else "BLOCK_M",
        "stop": "num_tiles",
        "form": form,
        **({"step_value": 32, "programs": 3} if form == "block" else {}),
    }
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "line 47" in en and "steps by the program count" not in en, en
    assert "47 行目" in ja and "プログラム数ずつ進みます" not in ja, ja
    if form == "stop":
        assert "its own stop" in en and "first tile" in en, en
        assert "終了値と同じ num_tiles ずつ進む" in ja and "最初のタイルだけ" in ja, ja
    else:
        assert "BLOCK_M = 32" in en and "3 programs" in en, en
        assert "BLOCK_M = 32" in ja and "3 個" in ja, ja


# --- a descriptor's coordinate along the wrong axis --------------------------------------------------------------

DESCRIPTORS = """
import triton
import triton.language as tl


@triton.jit
def kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = B_DESC
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for ki in range(tl.cdiv(K, BLOCK_K)):
        a = A_LOAD
        b = B_LOAD
        acc = tl.dot(a, b, acc)
    C_STORE
"""

B_KN = "tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])"
B_NK = "tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])"


def descriptors(
    tmp_path: Path,
    b_load: str = "b_desc.load([ki * BLOCK_K, off_n])",
    a_load: str = "a_desc.load([off_m, ki * BLOCK_K])",
    c_store: str = "c_desc.store([off_m, off_n], acc.to(c_desc.dtype))",
    b_desc: str = B_KN,
) -> str:
    source = (
        DESCRIPTORS.replace("B_DESC", b_desc)
        .replace("A_LOAD", a_load)
        .replace("B_LOAD", b_load)
        .replace("C_STORE", c_store)
    )
    return write(tmp_path, source)


def test_b_loaded_at_the_row_offset_is_named_at_its_load(tmp_path):
    file = descriptors(tmp_path, b_load="b_desc.load([ki * BLOCK_K, off_m])")
    found = verify._descriptor_axis_slip(file)
    assert found is not None, found
    assert found["line"] == line_of(file, "b = b_desc.load"), found
    assert (found["desc"], found["axis"], found["axis_size"]) == ("b_desc", 1, "N"), found
    assert (found["coordinate"], found["coordinate_axis"], found["instead"]) == ("off_m", "M", "off_n"), found
    assert found["coordinate_line"] == line_of(file, "a = a_desc.load"), found
    assert found["instead_line"] == line_of(file, "c_desc.store"), found


@pytest.mark.parametrize(
    "where, kwargs, axis_size, instead",
    [
        (
            "b = b_desc.load",
            {"b_load": "b_desc.load([ki * BLOCK_K, pid_m * BLOCK_M])"},
            "N",
            "off_n",
        ),  # inline
        (
            "a = a_desc.load",
            {"a_load": "a_desc.load([off_n, ki * BLOCK_K])"},
            "M",
            "off_m",
        ),  # A at the column
        ("c_desc.store", {"c_store": "c_desc.store([off_m, off_m], acc.to(c_desc.dtype))"}, "N", "off_n"),
        # B's coordinates swapped: A's K coordinate looks misplaced too, but B has two misplaced axes
        ("b = b_desc.load", {"b_load": "b_desc.load([off_n, ki * BLOCK_K])"}, "K", "ki * BLOCK_K"),
    ],
)
def test_other_misplaced_coordinates_are_named_at_their_access(tmp_path, where, kwargs, axis_size, instead):
    file = descriptors(tmp_path, **kwargs)
    found = verify._descriptor_axis_slip(file)
    assert found is not None and found["line"] == line_of(file, where), found
    assert (found["axis_size"], found["instead"]) == (axis_size, instead), found


@pytest.mark.parametrize(
    "kwargs",
    [
        {},  # the right kernel
        {"b_load": "b_desc.load([ki * BLOCK_K, pid_n * BLOCK_N])"},  # right, written inline
        {"b_desc": B_NK, "b_load": "b_desc.load([off_n, ki * BLOCK_K]).T"},  # B stored [N, K]: right
        {"b_load": "b_desc.load([ki * BLOCK_K, 0])"},  # wrong, but a literal is no axis's coordinate
        {"b_load": "b_desc.load([ki, off_n])"},  # wrong (a tile number along K): another slip, not this one
    ],
)
def test_coordinates_on_their_own_axes_are_not_named(tmp_path, kwargs):
    assert verify._descriptor_axis_slip(descriptors(tmp_path, **kwargs)) is None


def test_a_square_shape_or_a_descriptor_made_twice_is_not_read(tmp_path):
    square = (
        DESCRIPTORS.replace("shape=[M, K]", "shape=[N, N]")
        .replace("shape=[M, N]", "shape=[N, N]")
        .replace("B_DESC", B_KN.replace("shape=[K, N]", "shape=[N, N]"))
        .replace("A_LOAD", "a_desc.load([off_m, ki * BLOCK_K])")
        .replace("B_LOAD", "b_desc.load([ki * BLOCK_K, off_m])")
        .replace("C_STORE", "c_desc.store([off_m, off_n], acc)")
    )
    assert verify._descriptor_axis_slip(write(tmp_path, square)) is None  # one axis named twice: no guess
    # B transposed under a flag: one name, two shapes (scripts/probe_device_desc.py's kernel)
    twice = (
        DESCRIPTORS.replace(
            "b_desc = B_DESC", f"if FLAG:\n        b_desc = {B_NK}\n    else:\n        b_desc = {B_KN}"
        )
        .replace("A_LOAD", "a_desc.load([off_m, ki * BLOCK_K])")
        .replace("B_LOAD", "b_desc.load([off_n, ki * BLOCK_K]).T")
        .replace("C_STORE", "c_desc.store([off_m, off_n], acc)")
    )
    assert "if FLAG:" in twice
    twice = write(tmp_path, twice)
    assert verify._descriptor_axis_slip(twice) is None


def test_the_probe_file_is_named_and_the_lesson_and_right_probes_are_not():
    wrong = str(PROBES / "l13_matmul_descriptors_wrong_b_tile_loaded_at_off_m.py")
    found = verify._descriptor_axis_slip(wrong)
    assert found is not None and found["line"] == line_of(wrong, "b = b_desc.load([ki * BLOCK_K, off_m])"), (
        found
    )
    right = [
        LESSON / "matmul_descriptors.py",
        *Path(PROBES.parent).glob("probe_*/l13_matmul_descriptors_ok_*.py"),
    ]
    assert len(right) > 3
    for file in right:
        assert verify._descriptor_axis_slip(str(file)) is None, file


def failing(diag: dict, passed: bool = False) -> list[dict]:
    return [
        {"passed": True, "diagnoses": []},
        {"passed": passed, "diagnoses": [diag]},
    ]


def test_the_cause_is_given_to_a_bare_mismatch_only(tmp_path):
    file = descriptors(tmp_path, b_load="b_desc.load([ki * BLOCK_K, off_m])")
    bare = {"kind": "mismatch", "count": 542, "message": "542 elements differ beyond tolerance in rows 0–16"}
    cases = failing(bare)
    verify._descriptor_axis_cause(cases, file)
    diag = cases[1]["diagnoses"][0]
    assert diag["cause"] == "descriptor-axis" and diag["line"] == line_of(file, "b = b_desc.load"), diag
    assert "use off_n" in diag["message"], diag["message"]
    # a more specific cause already given (k-steps, a named line) is kept
    for other in (
        {"kind": "mismatch", "cause": "k-steps", "message": "m"},
        {"kind": "mismatch", "cause": "all-wrong", "line": 9, "message": "m"},
        {"kind": "unwritten", "count": 3, "message": "m"},
    ):
        cases = failing(dict(other))
        verify._descriptor_axis_cause(cases, file)
        assert cases[1]["diagnoses"][0] == other
    # a right file's bare mismatch stays bare (some other slip)
    right = failing(dict(bare))
    verify._descriptor_axis_cause(right, descriptors(tmp_path))
    assert right[1]["diagnoses"][0] == bare


def test_the_descriptor_axis_is_said_in_both_languages():
    diag = {
        "kind": "mismatch",
        "cause": "descriptor-axis",
        "count": 542,
        "atol": 0.01,
        "rtol": 0.01,
        "max_abs_err": 56.8,
        "line": 61,
        "call": "b_desc.load([ki * BLOCK_K, off_m])",
        "desc": "b_desc",
        "axis": 1,
        "axis_size": "N",
        "coordinate": "off_m",
        "coordinate_axis": "M",
        "coordinate_line": 60,
        "instead": "off_n",
        "instead_line": 63,
    }
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "line 61" in en and "along N use off_n, as line 63 does" in en, en
    assert "61 行目" in ja and "N 方向には、63 行目と同じく off_n を使ってください" in ja, ja
