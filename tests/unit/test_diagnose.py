"""diagnose(): counts, first bad elements, text maps and sentences on crafted outputs."""

from __future__ import annotations

import json

import pytest
import torch

from tritonlab.engine.diagnose import LEGEND, diagnose
from tritonlab.present.diagnoses import describe

N = 98432


def _kinds(result: dict) -> list[str]:
    return [d["kind"] for d in result["diagnoses"]]


def _diag(result: dict, kind: str) -> dict:
    [d] = [d for d in result["diagnoses"] if d["kind"] == kind]
    return d


@pytest.fixture
def expected() -> torch.Tensor:
    return torch.randn(N, generator=torch.Generator().manual_seed(0))


def test_matching_output_has_no_diagnoses(expected):
    r = diagnose(expected.clone(), expected, atol=1e-6, rtol=1e-6, block_size=1024)
    assert r["mismatches"] == 0 and r["diagnoses"] == [] and r["first"] == [] and r["max_abs_err"] == 0.0
    assert set(r["map"].splitlines()[1]) == {"."}
    json.dumps(r)


def test_unwritten_tail_blames_the_grid(expected):
    unwritten = torch.zeros(N, dtype=torch.bool)
    unwritten[98304:] = True
    got = torch.where(unwritten, torch.tensor(float("nan")), expected)
    r = diagnose(got, expected, atol=1e-5, rtol=1e-5, unwritten_mask=unwritten, block_size=1024)
    assert _kinds(r) == ["unwritten"]
    d = _diag(r, "unwritten")
    assert d["count"] == 128 and d["ranges"] == [[98304, 98431]]
    assert d["message"].startswith(
        "elements 98304–98431 were never written: the last program was not launched"
    )
    assert "check the grid" in d["message"]
    assert r["first"][0] == {
        "index": [98304],
        "got": r["first"][0]["got"],
        "expected": expected[98304].item(),
        "kind": "unwritten",
    }
    lines = r["map"].splitlines()
    assert lines[0] == "elements 0–98431, 49 cells (2 programs each)"
    assert lines[1] == "." * 48 + "u" and lines[2] == LEGEND


def test_only_first_block_written(expected):
    unwritten = torch.ones(N, dtype=torch.bool)
    unwritten[:1024] = False
    r = diagnose(expected, expected, atol=0, rtol=0, unwritten_mask=unwritten, block_size=1024)
    assert _diag(r, "unwritten")["message"].startswith("only the first block (elements 0–1023) was written")
    assert r["mismatches"] == N - 1024


def test_nothing_written():
    exp = torch.ones(10)
    r = diagnose(exp, exp, atol=0, rtol=0, unwritten_mask=torch.ones(10, dtype=torch.bool))
    assert _diag(r, "unwritten")["message"].startswith("no element was written")


def test_skipped_programs_are_named():
    exp = torch.arange(1024.0)
    unwritten = torch.zeros(1024, dtype=torch.bool)
    unwritten[128:256] = True
    unwritten[512:640] = True
    r = diagnose(exp, exp, atol=0, rtol=0, unwritten_mask=unwritten, block_size=128)
    d = _diag(r, "unwritten")
    assert d["programs"] == [[1, 1], [4, 4]] and "programs 1, 4 wrote nothing" in d["message"]
    assert r["map"].splitlines()[1] == ".u..u..."


def test_mismatch_names_programs(expected):
    got = expected.clone()
    got[3072:4096] += 1
    r = diagnose(got, expected, atol=1e-5, rtol=1e-5, block_size=1024)
    d = _diag(r, "mismatch")
    assert d["count"] == 1024 and d["programs"] == [[3, 3]] and d["ranges"] == [[3072, 4095]]
    assert "programs 3 (of 97), elements 3072–4095" in d["message"]
    assert abs(r["max_abs_err"] - 1.0) < 1e-5 and r["mismatches"] == 1024


def test_mismatch_in_last_partial_block(expected):
    got = expected.clone()
    got[-5:] = 0
    d = _diag(diagnose(got, expected, atol=1e-5, rtol=1e-5, block_size=1024), "mismatch")
    assert "only in the last, partial block" in d["message"] and d["programs"] == [[96, 96]]


def test_all_zero_output():
    d = _diag(diagnose(torch.zeros(100), torch.ones(100), atol=0, rtol=0), "mismatch")
    assert "every element is 0" in d["message"]


def test_unstable_softmax_row():
    x = torch.randn(64, 781, generator=torch.Generator().manual_seed(1))
    expected = torch.softmax(x, dim=1)
    got = expected.clone()
    got[3, 10:20] = float("nan")
    got[3, 30] = float("inf")
    r = diagnose(got, expected, atol=1e-5, rtol=1e-5)
    d = _diag(r, "nan")
    assert d["rows"] == [3] and d["count"] == 11
    assert d["message"] == "row 3 has inf/NaN where torch has finite values: subtract the row max before exp"
    assert _kinds(r) == ["nan"]


def test_two_dimensional_map_and_unwritten_columns():
    expected = torch.randn(1823, 781)
    unwritten = torch.zeros_like(expected, dtype=torch.bool)
    unwritten[:, 512:] = True
    r = diagnose(expected, expected, atol=0, rtol=0, unwritten_mask=unwritten)
    d = _diag(r, "unwritten")
    assert d["rows"] == [[0, 1822]] and d["cols"] == [[512, 780]]
    assert d["message"].startswith("rows 0–1822, columns 512–780 were never written")
    lines = r["map"].splitlines()
    assert lines[0] == "rows 0–1822 (114 per line) × columns 0–780 (17 per character)"
    grid = lines[1:-1]
    assert len(grid) == 16 and all(len(row) == 46 for row in grid)
    assert all(row == "." * 30 + "u" * 16 for row in grid)


def test_two_dimensional_mismatch_names_tiles():
    expected = torch.zeros(256, 256)
    got = expected.clone()
    got[64:128, 192:256] = 1
    d = _diag(diagnose(got, expected, atol=0, rtol=0, block_size=(64, 64)), "mismatch")
    assert d["rows"] == [[64, 127]] and d["cols"] == [[192, 255]] and d["tile_ids"] == [[1, 3]]
    assert "rows 64–127, columns 192–255 (programs (1, 3))" in d["message"]
    en, ja = describe(d, "en"), describe(d, "ja")
    assert "rows 64–127, columns 192–255 (tiles (1, 3))" in en and "(タイル (1, 3))" in ja, (en, ja)


def test_cut_lists_end_in_an_ellipsis_and_single_indices_are_singular():
    # 20 separate wrong elements in 20 programs: the engine sends the first 8 runs and the totals
    expected = torch.zeros(20 * 64)
    got = expected.clone()
    got[::64] = 1
    d = _diag(diagnose(got, expected, atol=0, rtol=0, block_size=64), "mismatch")
    assert len(d["ranges"]) == 8 and d["ranges_total"] == 20 and d["programs_total"] == 1
    assert d["programs"] == [[0, 19]]
    en = describe(d, "en")
    assert "programs 0–19 (of 20)" in en and en.endswith("448, …"), en
    # one wrong element in one program of several: singular words, no ellipsis
    got = expected.clone()
    got[70] = 1
    en = describe(_diag(diagnose(got, expected, atol=0, rtol=0, block_size=64), "mismatch"), "en")
    assert "program 1 (of 20), element 70" in en and "…" not in en, en


def test_genuine_nan_in_both_is_equal():
    exp = torch.tensor([1.0, float("nan"), float("inf")])
    assert diagnose(exp.clone(), exp, atol=0, rtol=0)["mismatches"] == 0


@pytest.mark.parametrize(
    "got, expected",
    [
        (torch.tensor(1.0), torch.tensor(2.0)),
        (torch.empty(0), torch.empty(0)),
        (torch.arange(10), torch.arange(10) * (torch.arange(10) < 8)),
        (torch.ones(5, dtype=torch.bool), torch.zeros(5, dtype=torch.bool)),
        (torch.zeros(2, 3, 4), torch.zeros(2, 3, 4)),
        (torch.ones(5), torch.zeros(6)),
        (torch.ones(6), torch.zeros(2, 3)),
        (torch.ones(3, dtype=torch.float16), torch.ones(3)),
        (torch.ones(3, dtype=torch.complex64), torch.ones(3, dtype=torch.complex64) * 2),
        (None, torch.zeros(3)),
        ("junk", torch.zeros(3)),
        ([1.0, 2.0, 3.0], torch.tensor([1.0, 2.0, 4.0])),
    ],
)
def test_odd_inputs_never_raise(got, expected):
    r = diagnose(got, expected, atol=1e-5, rtol=1e-5, unwritten_mask="not a mask", block_size=(1, 2, 3))
    assert {"max_abs_err", "max_rel_err", "mismatches", "first", "map", "diagnoses"} <= set(r)
    json.dumps(r, default=str)


def test_odd_input_details():
    assert diagnose(torch.tensor(1.0), torch.tensor(2.0), atol=0, rtol=0)["first"][0]["index"] == []
    assert diagnose(torch.empty(0), torch.empty(0), atol=0, rtol=0)["mismatches"] == 0
    ints = diagnose(torch.arange(10), torch.arange(10) * (torch.arange(10) < 8), atol=0, rtol=0)
    assert ints["first"][0] == {"index": [8], "got": 8, "expected": 0, "kind": "wrong"}
    assert _kinds(diagnose(torch.ones(5), torch.zeros(6), atol=0, rtol=0)) == ["shape"]
    assert _kinds(diagnose(None, torch.zeros(3), atol=0, rtol=0)) == ["type"]
    assert "dtype" in _kinds(diagnose(torch.ones(3, dtype=torch.float16), torch.zeros(3), atol=0, rtol=0))
    folded = diagnose(torch.zeros(2, 3, 4), torch.zeros(2, 3, 4), atol=0, rtol=0)["map"]
    assert "leading dimensions folded into rows" in folded


def test_every_program_that_wrote_nothing_is_named_not_only_those_where_a_gap_starts():
    """Elements 1024–3071 and 4000–4001 of 5000 never written, BLOCK_SIZE 1024: programs 1 and 2 wrote nothing
    (the first gap spans both; before, only the program where a gap starts was looked at: "program 1")."""
    expected = torch.arange(5000, dtype=torch.float32)
    got = expected.clone()
    unwritten = torch.zeros(5000, dtype=torch.bool)
    unwritten[1024:3072] = True
    unwritten[4000:4002] = True
    got[unwritten] = float("nan")
    diag = diagnose(got, expected, atol=1e-5, rtol=1e-5, unwritten_mask=unwritten, block_size=1024)[
        "diagnoses"
    ][0]
    assert diag["kind"] == "unwritten" and diag["cause"] == "scattered", diag
    assert diag["programs"] == [[1, 2]] and diag["programs_total"] == 1, diag
    assert "programs 1–2 wrote nothing" in diag["message"]


def test_many_runs_are_counted_without_listing_them_all():
    """A stride-2 store leaves every other element wrong: 500,000 runs; the report keeps the first few and the
    count, and reads the same as a list of runs would."""
    from tritonlab.engine.diagnose import _index_runs

    mask = torch.zeros(1_000_000, dtype=torch.bool)
    mask[::2] = True
    runs = _index_runs(mask)
    assert len(runs) == 500_000 and runs[0] == (0, 0) and runs[-1] == (999_998, 999_998)
    assert runs[:3] == [(0, 0), (2, 2), (4, 4)]
    single = _index_runs(torch.tensor([False, True, True, False]))
    assert single == [(1, 2)] and list(single) == [(1, 2)] and single != [(1, 1)]
    assert _index_runs(torch.zeros(3, dtype=torch.bool)) == []
    expected = torch.randn(1_000_000)
    got = expected.clone()
    got[::2] += 1.0
    diag = diagnose(got, expected, atol=1e-5, rtol=1e-5)["diagnoses"][0]
    assert diag["ranges_total"] == 500_000 and diag["ranges"][:2] == [[0, 0], [2, 2]], diag
