"""Probe round 6's program-map causes (engine/tasks/verify.py `_block_values`), each in both directions: it names
the cause on the wrong output it is for, and stays silent on a nearby different bug and on a right output.

The expected output holds one value per program's block (program p's block holds p). `block-offsets`: the
values are the programs' own, but their boundaries sit at the wrong elements (offsets = pid + tl.arange(...)
overlaps the blocks)."""

import torch

from tritonlab.engine.tasks.verify import _block_values
from tritonlab.present.diagnoses import describe

ATOL, RTOL = 1e-5, 1.3e-6


def program_map(n: int, block: int) -> torch.Tensor:
    """The right output: each element holds the id of the program whose block it is in."""
    return torch.arange(n, dtype=torch.int32) // block


def overlapping(n: int, block: int) -> torch.Tensor:
    """offsets = pid + tl.arange(0, BLOCK_SIZE), programs run in order (the interpreter): later programs
    overwrite; poison (-1 here) where no program reached."""
    out = torch.full((n,), -1, dtype=torch.int32)
    for pid in range(-(-n // block)):
        out[pid : min(n, pid + block)] = pid
    return out


def mismatch() -> dict:
    return {"kind": "mismatch", "cause": None, "message": "15 elements differ beyond tolerance in programs 0"}


def judged(got, expected, block, unwritten=None, twice=0, diag=None) -> dict:
    diagnoses = [diag if diag is not None else mismatch()]
    _block_values(diagnoses, got, expected, block, ATOL, RTOL, unwritten, twice)
    return diagnoses[0]


# --- block-offsets ----------------------------------------------------------------------------------------------


def test_overlapping_blocks_name_the_offsets_and_where_the_boundary_should_be():
    diag = judged(overlapping(17, 16), program_map(17, 16), 16, twice=15)
    assert diag["cause"] == "block-offsets", diag
    assert (diag["at"], diag["owner"], diag["owner_start"], diag["stored_twice"]) == (1, 1, 16, 15)
    assert "pid * BLOCK_SIZE" in diag["message"] and "offsets" in diag["message"], diag["message"]
    assert "element 1 holds program 1's value" in diag["message"], diag["message"]


def test_overlapping_blocks_with_unwritten_elements_judge_only_what_was_written():
    got = overlapping(97, 32)  # programs 0-3 cover 0-34 only: the rest keeps the poison
    unwritten = got == -1
    diag = judged(got, program_map(97, 32), 32, unwritten=unwritten, twice=33)
    assert diag["cause"] == "block-offsets" and diag["owner_start"] == 32, diag


def test_blocks_shifted_by_one_are_offsets_too():
    expected = program_map(64, 16)
    got = torch.full((64,), -1, dtype=torch.int32)
    for pid in range(4):  # offsets = pid * BLOCK_SIZE + 1 + tl.arange(...): element 0 never written
        got[pid * 16 + 1 : min(64, pid * 16 + 17)] = pid
    diag = judged(got, expected, 16, unwritten=got == -1)
    assert diag["cause"] == "block-offsets", diag


def test_offsets_stay_silent_on_constant_wrong_values_permuted_blocks_and_a_right_output():
    expected = program_map(97, 32)
    for got in (expected + 1, torch.zeros_like(expected), 3 - expected, expected.clone()):
        diag = judged(got, expected, 32)
        assert diag["cause"] is None, (got, diag)


def test_values_alternating_between_program_ids_are_not_offsets():
    """lane % 2 stores only 0 and 1, both programs' values, but from lane to lane: no block pattern."""
    expected = program_map(64, 32)
    got = (torch.arange(64) % 2).to(torch.int32)
    diag = judged(got, expected, 32)
    assert diag["cause"] != "block-offsets", diag


# --- words --------------------------------------------------------------------------------------------------------


def test_block_offsets_in_both_languages():
    facts = {
        "kind": "mismatch",
        "count": 15,
        "max_abs_err": 1.0,
        "atol": ATOL,
        "rtol": RTOL,
        "cause": "block-offsets",
        "at": 1,
        "owner": 1,
        "owner_start": 16,
        "stored_twice": 15,
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "element 1 holds program 1's value" in en and "starts at element 16" in en, en
    assert "15 elements were stored by more than one program" in en and "pid * BLOCK_SIZE" in en, en
    assert "要素 1 にプログラム 1 の値" in ja and "要素 16 から始まります" in ja, ja
    assert "15 要素は複数のプログラムから" in ja and "pid * BLOCK_SIZE から始めて" in ja, ja
    bare = describe(dict(facts, owner=None, stored_twice=0), "en")
    assert "holds program" not in bare and "more than one program" not in bare, bare
