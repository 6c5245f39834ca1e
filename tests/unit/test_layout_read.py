"""The interpreter's layout-read record (memcheck/layout.py): a later launch reading a 2-D buffer an earlier
launch stored along its rows, in another layout, so that most loaded elements belong to another column than the
one the loading program stores (probe round 16c finding 1: stage 2 reading the [P, N] partials as [N, P]). Its
look-alikes — the right stage 2 in several shapes, a buffer stored and read in the same transposed layout, a
one-to-one transposed copy — leave no record.

The kernels run in a child process: TRITON_INTERPRET=1 must be set before triton is imported.
"""

import numpy as np

from tests.interpreted import last_json, run_interpreted
from tritonlab.engine.memcheck.layout import columns, lane_step

KERNELS = r"""
import triton
import triton.language as tl


@triton.jit
def stage1(x_ptr, partial_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    tl.store(partial_ptr + pid * N + cols, tl.load(x_ptr + pid * N + cols, mask=mask) * 2, mask=mask)


@triton.jit
def stage1_transposed(x_ptr, partial_ptr, N, P, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    tl.store(partial_ptr + cols * P + pid, tl.load(x_ptr + pid * N + cols, mask=mask) * 2, mask=mask)


@triton.jit
def stage2(partial_ptr, out_ptr, P, N, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for p in range(0, P):
        total += tl.load(partial_ptr + p * N + cols, mask=mask, other=0.0)
    tl.store(out_ptr + cols, total, mask=mask)


@triton.jit
def stage2_column_major(partial_ptr, out_ptr, P, N, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for p in range(0, P):
        total += tl.load(partial_ptr + cols * P + p, mask=mask, other=0.0)
    tl.store(out_ptr + cols, total, mask=mask)


@triton.jit
def stage2_tile(partial_ptr, out_ptr, P, N, BLOCK_P: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    ps = tl.arange(0, BLOCK_P)
    mask = (ps[:, None] < P) & (cols[None, :] < N)
    tile = tl.load(partial_ptr + ps[:, None] * N + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + cols, tl.sum(tile, axis=0), mask=cols < N)


@triton.jit
def stage2_tile_column_major(partial_ptr, out_ptr, P, N, BLOCK_P: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    ps = tl.arange(0, BLOCK_P)
    mask = (ps[:, None] < P) & (cols[None, :] < N)
    tile = tl.load(partial_ptr + cols[None, :] * P + ps[:, None], mask=mask, other=0.0)
    tl.store(out_ptr + cols, tl.sum(tile, axis=0), mask=cols < N)


@triton.jit
def transpose_rows(src_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    tl.store(out_ptr + row * N + cols, tl.load(src_ptr + cols * N + row, mask=mask), mask=mask)
"""

SCRIPT = r"""
import importlib.util, json, sys
import torch
from tritonlab.engine import interpreter_support
from tritonlab.engine.memcheck import InterpreterMemcheck

interpreter_support.prepare_interpreter()
spec = importlib.util.spec_from_file_location("layout_kernels", sys.argv[1])
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)
P, N = 3, 7
x = torch.arange(P * N, dtype=torch.float32)


def two(second, first="stage1"):
    partial = torch.zeros(P, N)
    if first == "stage1":
        K.stage1[(P,)](x, partial, N, BLOCK=8)
    else:
        K.stage1_transposed[(P,)](x, partial, N, P, BLOCK=8)
    out = torch.zeros(N)
    if second.endswith("tile") or second.endswith("tile_column_major"):
        getattr(K, second)[(1,)](partial, out, P, N, BLOCK_P=4, BLOCK=8)
    else:
        getattr(K, second)[(1,)](partial, out, P, N, BLOCK=8)


def square_transpose():
    a = torch.zeros(N, N)
    K.stage1[(N,)](torch.arange(N * N, dtype=torch.float32), a, N, BLOCK=8)
    K.transpose_rows[(N,)](a, torch.zeros(N, N), N, BLOCK=8)


runs = {
    "right": lambda: two("stage2"),
    "column_major": lambda: two("stage2_column_major"),
    "tile": lambda: two("stage2_tile"),
    "tile_column_major": lambda: two("stage2_tile_column_major"),
    "stored_and_read_transposed": lambda: two("stage2_column_major", first="transposed"),
    "square_transpose": square_transpose,
}
found = {}
for name, run in runs.items():
    with InterpreterMemcheck(sys.argv[1]) as mc:
        run()
    found[name] = mc.stats.layout_reads
print(json.dumps(found))
"""


def _line(text: str) -> int:
    return next(i for i, line in enumerate(KERNELS.splitlines(), 1) if text in line)


def test_a_transposed_read_of_partials_is_recorded_and_its_look_alikes_are_not(tmp_path):
    path = tmp_path / "layout_kernels.py"
    path.write_text(KERNELS)
    found = last_json(run_interpreted(SCRIPT, str(path)))

    (read,) = found["column_major"]
    assert read["kernel"] == "stage2_column_major" and read["argument"] == "partial_ptr", read
    assert read["line"] == _line("total += tl.load(partial_ptr + cols * P + p"), read
    assert read["store_kernel"] == "stage1" and read["store_line"] == _line(
        "tl.store(partial_ptr + pid * N + cols"
    ), read
    assert read["row"] == 7 and read["lanes"] == 21 and read["count"] == 18, read
    assert read["output"] == "out_ptr" and read["output_shape"] == [7], read
    column, stored = read["example"]
    assert column != stored, read

    (tile,) = found["tile_column_major"]
    assert tile["line"] == _line("tile = tl.load(partial_ptr + cols[None, :] * P"), tile

    # the right stage 2 (a loop or one tile), a buffer stored and read in one transposed layout (the
    # kernels agree with each other, not with the tensor's shape), a one-to-one transposed copy
    for calm in ("right", "tile", "stored_and_read_transposed", "square_transpose"):
        assert found[calm] == [], (calm, found[calm])


def test_lane_step_is_the_one_step_between_masked_in_neighbours():
    addrs = np.array([100, 104, 108, 112], dtype=np.uint64)
    assert lane_step(addrs, np.ones(4, dtype=bool), 4) == 1
    assert lane_step(addrs, np.array([True, True, False, False]), 4) == 1
    assert lane_step(np.array([0, 12, 24], dtype=np.uint64), np.ones(3, dtype=bool), 4) == 3
    # one masked-in lane per row, a scalar, mixed steps: no step
    assert lane_step(addrs, np.array([True, False, True, False]), 4) is None
    assert lane_step(np.array(5, dtype=np.uint64), np.array(True), 4) is None
    assert lane_step(np.array([0, 4, 12], dtype=np.uint64), np.ones(3, dtype=bool), 4) is None
    # a 2-D block: the step along the last axis
    tile = np.array([[0, 4], [28, 32]], dtype=np.uint64)
    assert lane_step(tile, np.ones((2, 2), dtype=bool), 4) == 1


def test_columns_are_offsets_modulo_the_row_stride():
    addrs = np.array([1000, 1004, 1028, 1032], dtype=np.uint64)
    assert columns(addrs, 1000, 4, 7).tolist() == [0, 1, 0, 1]
