"""Probe round 6's program-map causes (engine/tasks/verify.py `_block_values`), each in both directions: it names
the cause on the wrong output it is for, and stays silent on a nearby different bug and on a right output.

The expected output holds one value per program's block (program p's block holds p). `block-offsets`: the
values are the programs' own, but their boundaries sit at the wrong elements (offsets = pid + tl.arange(...)
overlaps the blocks). `varies-in-block`: the values change from lane to lane inside a block (the lane index or
the offsets stored instead of the program id)."""

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
    assert diag["cause"] == "varies-in-block", diag


# --- varies-in-block --------------------------------------------------------------------------------------------


def test_the_lane_index_stored_names_the_pid_and_tl_arange():
    expected = program_map(97, 32)
    diag = judged((torch.arange(97) % 32).to(torch.int32), expected, 32)
    assert diag["cause"] == "varies-in-block", diag
    assert (diag["lane"], diag["offsets"], diag["pid_values"]) == (True, False, True)
    assert (diag["program"], diag["block_value"], diag["block_values_seen"]) == (0, 0, [0, 1, 2, 3])
    assert "pid" in diag["message"] and "tl.arange(0, BLOCK_SIZE) was stored" in diag["message"]
    assert "dtype=tl.int32" in diag["message"], diag["message"]


def test_the_offsets_stored_name_the_pid_and_the_offsets():
    expected = program_map(1000, 256)
    diag = judged(torch.arange(1000, dtype=torch.int32), expected, 256)
    assert diag["cause"] == "varies-in-block" and (diag["lane"], diag["offsets"]) == (False, True), diag
    assert "offsets themselves" in diag["message"] and "program id, pid" in diag["message"]


def test_one_block_cannot_tell_the_lane_from_the_offsets():
    diag = judged(torch.arange(15, dtype=torch.int32), program_map(15, 16), 16)
    assert diag["cause"] == "varies-in-block" and diag["lane"] and diag["offsets"], diag


def test_a_block_value_that_is_not_the_pid_is_said_without_tl_full():
    expected = (torch.arange(64) // 16 * 10).float()  # one value per block, not the program id
    got = expected + (torch.arange(64) % 16).float()
    diag = judged(got, expected, 16)
    assert diag["cause"] == "varies-in-block" and not diag["pid_values"], diag
    assert "tl.program_id(0)" in diag["message"] and "tl.full" not in diag["message"], diag["message"]


def test_varies_stays_silent_where_the_expected_values_vary_inside_a_block():
    """A vector add: the expected values differ from lane to lane, so a lane-varying output says nothing."""
    torch.manual_seed(0)
    expected = torch.randn(97)
    got = expected.clone()
    got[40:50] += 1.0
    diag = judged(got, expected, 32)
    assert diag["cause"] is None and "pid" not in diag["message"], diag


def test_varies_stays_silent_on_noise_within_tolerance_and_on_a_right_output():
    expected = program_map(64, 16).float()
    noisy = expected + torch.where(torch.arange(64) % 2 == 0, 0.0, 1e-6)
    assert judged(noisy, expected, 16)["cause"] is None
    assert judged(expected.clone(), expected, 16)["cause"] is None


def test_both_stay_silent_without_a_block_in_2d_and_behind_another_cause():
    expected = program_map(64, 16)
    lanes = (torch.arange(64) % 16).to(torch.int32)
    assert judged(lanes, expected, None)["cause"] is None
    assert judged(lanes.reshape(8, 8), expected.reshape(8, 8), 16)["cause"] is None
    named = dict(mismatch(), cause="tail-block")
    assert judged(lanes, expected, 16, diag=named)["cause"] == "tail-block"


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


def test_varies_in_block_in_both_languages():
    facts = {
        "kind": "mismatch",
        "count": 16,
        "max_abs_err": 15.0,
        "atol": ATOL,
        "rtol": RTOL,
        "cause": "varies-in-block",
        "program": 0,
        "block_value": 0,
        "block_values_seen": [0, 1, 2, 3],
        "block_values_more": True,
        "lane": True,
        "offsets": False,
        "pid_values": True,
        "dtype": "int32",
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "its program id, pid" in en and "0, 1, 2, 3, …" in en and "tl.arange(0, BLOCK_SIZE) was" in en, en
    assert "tl.full((BLOCK_SIZE,), pid, dtype=tl.int32)" in en, en
    assert "プログラムの ID(pid)" in ja and "レーン番号 tl.arange(0, BLOCK_SIZE)" in ja, ja
    assert "pid をすべてのレーンにストア" in ja, ja
    offsets = dict(facts, lane=False, offsets=True, pid_values=False)
    assert "offsets themselves" in describe(offsets, "en") and "tl.full" not in describe(offsets, "en")
    assert "オフセットそのもの" in describe(offsets, "ja") and "tl.program_id(0) だけから" in describe(
        offsets, "ja"
    )
