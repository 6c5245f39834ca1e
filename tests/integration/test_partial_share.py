"""Lesson 12's two-stage dw: a grad_w off by exactly one program's partial says so (`_one_partial`).

- stage 2 that starts from partial[0] and then adds every partial from 0 (probe round 14): `partial-twice`;
- a loop over the partials that starts at 1, or stops before the last: `partial-missing`, naming the program;
- stage 2 reading partial[0] alone stays `one-partial`; the reference solution still passes (the readings only
  run on a failing grad_w) and a dw with a wrong formula is not given any of these causes."""

from pathlib import Path

from tritonlab.present.diagnoses import describe

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
SOLUTION = (ROOT / "kernels" / "rms_norm_backward.py").read_text()
LOOP = "    for start in range(0, P, BLOCK_P):\n"
TILE = "        tile = (rows[:, None] < P) & mask[None, :]\n"
DW_TERM = "dy * x_hat"


def _verify(worker, tmp_path, source: str) -> dict:
    path = tmp_path / "rms_backward.py"
    path.write_text(source)
    return worker.request("verify", {"exercise": "12/rms-norm-backward", "file": str(path)}, timeout=600)


def _grad_w(result: dict) -> dict:
    for case in result["cases"]:
        for diag in case.get("diagnoses") or []:
            if diag.get("output") == "grad_w" and diag.get("kind") == "mismatch":
                return diag
    raise AssertionError(f"no grad_w mismatch: {result.get('summary')}")


def test_the_solution_still_passes(worker, tmp_path):
    assert SOLUTION.count(LOOP) == 1 and SOLUTION.count(TILE) == 1
    result = _verify(worker, tmp_path, SOLUTION)
    assert result["passed"], result.get("summary")


def test_partial_zero_added_twice(worker):
    path = HERE / "probe_round14" / "l12_rms_backward_wrong_stage2_counts_first_partial_twice.py"
    result = worker.request("verify", {"exercise": "12/rms-norm-backward", "file": str(path)}, timeout=600)
    assert result["passed"] is False
    diag = _grad_w(result)
    assert diag.get("cause") == "partial-twice" and diag.get("program") == 0, diag
    assert "partial[0] twice" in describe(diag, "en") and "2 回" in describe(diag, "ja")


def test_the_first_partial_left_out(worker, tmp_path):
    result = _verify(worker, tmp_path, SOLUTION.replace(LOOP, LOOP.replace("range(0, P", "range(1, P")))
    assert result["passed"] is False
    diag = _grad_w(result)
    assert diag.get("cause") == "partial-missing" and diag.get("program") == 0, diag
    assert "never adds partial[0]" in describe(diag, "en")


def test_the_last_partial_left_out(worker, tmp_path):
    result = _verify(worker, tmp_path, SOLUTION.replace(TILE, TILE.replace("< P)", "< P - 1)")))
    assert result["passed"] is False
    diag = _grad_w(result)
    assert diag.get("cause") == "partial-missing" and diag.get("program") == diag.get("programs") - 1, diag
    assert f"partial[{diag['program']}]" in describe(diag, "ja")


def test_a_wrong_dw_formula_gets_none_of_these(worker, tmp_path):
    assert SOLUTION.count(DW_TERM) >= 1
    result = _verify(worker, tmp_path, SOLUTION.replace(DW_TERM, "dy * x_hat * 2.0", 1))
    assert result["passed"] is False
    diag = _grad_w(result)
    assert diag.get("cause") not in ("partial-twice", "partial-missing", "one-partial"), diag
