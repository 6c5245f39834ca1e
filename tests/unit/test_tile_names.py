"""The GEMM tile's two sides, whatever a learner named them (contracts.tile_names / tile_of): the pinned
autotune cases pick the smallest and largest tile by them, and an unwritten output is explained per tile."""

from __future__ import annotations

import pytest

from tritonlab.engine.contracts import tile_names, tile_of


@pytest.mark.parametrize(
    "keys, names",
    [
        (["BLOCK_M", "BLOCK_N", "BLOCK_K"], ("BLOCK_M", "BLOCK_N")),
        (["BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M"], ("BLOCK_SIZE_M", "BLOCK_SIZE_N")),
        (["BM", "BN", "BK"], ("BM", "BN")),
        (["TILE_M", "TILE_N"], ("TILE_M", "TILE_N")),
        (["BLOCK_M", "BM", "BLOCK_N"], ("BLOCK_M", "BLOCK_N")),  # the BLOCK_ spelling first
    ],
)
def test_tile_names_are_found(keys, names):
    assert tile_names(keys) == names


@pytest.mark.parametrize(
    "keys",
    [["BLOCK_SIZE", "num_warps"], ["BLOCK_M", "BLOCK_K"], ["GROUP_M", "GROUP_N"], ["M", "N", "K"], ["BK"]],
)
def test_no_tile_without_both_sides(keys):
    assert tile_names(keys) is None


def test_tile_of_reads_values_and_refuses_non_ints():
    assert tile_of({"BM": 16, "BN": 32, "BK": 64}) == (16, 32)
    assert tile_of({"BM": 16, "BN": None}) is None
    assert tile_of({"BLOCK_SIZE": 1024}) is None
