"""inf/NaN in a plan case (several outputs and gradients) made by a load without other=: the runner runs the case
again with that padding left 0 (as run_case does for one output) and the judge names the load, also over the
zero-row cause (the lab zeroes row 0 of x, so every NaN row range of an RMS norm holds row 0). Both ways: the
tutorial's weight load without other= in the backward names that load, not eps; a forward missing eps keeps
zero-row (row 0 stays NaN with the padding left 0), and a right backward with the tutorial's forward passes."""

from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient
from tritonlab.engine.tasks.verify import _padding_reached_plan
from tritonlab.present.diagnoses import describe

PROBE = (
    Path(__file__).parents[1]
    / "integration"
    / "probe_round8_11_14"
    / "l12_rms_backward_wrong_tutorial_w_load_without_other.py"
)
BACKWARD_W = "    w = tl.load(W + cols, mask=mask).to(tl.float32)\n    rstd = tl.load(Rstd + row)"
EPS = "rstd = 1 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)"


def _zero_row_diag(rows: list) -> dict:
    return {
        "kind": "nan",
        "output": "grad_x",
        "count": 7 * len(rows),
        "rows": rows,
        "rows_count": len(rows),
        "cause": "zero-row",
        "input": "x",
        "message": "grad_x: rows 0–2 (3 rows) have inf/NaN where torch has finite values: look for overflow "
        "(row 0 of x is all zeros: eps is missing or added too late)",
    }


def test_a_nan_the_padding_made_names_the_load_over_the_zero_row():
    diag = _zero_row_diag([0, 1, 2])
    padding = {"grad_x": {"cleared": True, "rows_left": [], "lines": [40, 24]}}
    _padding_reached_plan([diag], padding)
    assert diag["cause"] == "no-other" and diag["line"] == 40 and "input" not in diag, diag
    assert diag["message"].startswith("grad_x: rows 0–2 (3 rows) have inf/NaN"), diag["message"]
    assert "eps" not in diag["message"] and "other=" in diag["message"]
    assert "other=" in describe(diag, "ja") and "eps" not in describe(diag, "ja")


def test_row_0_still_nan_without_the_padding_keeps_the_zero_row():
    diag = _zero_row_diag([0, 1, 2])
    _padding_reached_plan([diag], {"grad_x": {"cleared": True, "rows_left": [0], "lines": [40]}})
    assert diag["cause"] == "zero-row" and "eps" in diag["message"], diag


@pytest.mark.parametrize(
    "padding",
    [
        None,  # no rerun (no padded load, a GPU)
        {"grad_x": {"cleared": False, "rows_left": [0, 1, 2], "lines": [24]}},  # every inf/NaN stayed
        {"grad_w": {"cleared": True, "lines": [40]}},  # another output's
        {"grad_x": {"cleared": True, "rows_left": [], "lines": []}},  # no line to name
        {"grad_x": "yes"},
    ],
)
def test_no_rerun_or_no_inf_nan_cleared_leaves_the_cause(padding):
    diag = _zero_row_diag([0, 1, 2])
    _padding_reached_plan([diag], padding)
    assert diag["cause"] == "zero-row", diag


def test_a_nan_without_a_cause_is_named_too():
    diag = {"kind": "nan", "output": "out", "ranges": [[0, 4]], "message": "out: elements 0–4 are inf/NaN: x"}
    _padding_reached_plan([diag], {"out": {"cleared": True, "lines": [12]}})
    assert diag["cause"] == "no-other" and diag["line"] == 12 and diag["message"].startswith("out: elements")


# ---- through the worker: exercise 12/rms-norm-backward -------------------------------------------------------


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="interpreter")
    yield client
    client.close()


def _verify(worker, tmp_path: Path, name: str, source: str) -> dict:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return worker.request("verify", {"exercise": "12/rms-norm-backward", "file": str(path)}, timeout=600)


def _first(result: dict) -> dict:
    failed = [c for c in result["cases"] if not c["passed"]]
    assert failed, "expected a failing case"
    return failed[0]["diagnoses"][0]


def _line(source: str, text: str, after: str) -> int:
    lines = source.splitlines()
    start = next(i for i, line in enumerate(lines) if after in line)
    return next(i for i, line in enumerate(lines) if i > start and text in line) + 1


def test_the_backwards_weight_load_without_other_is_named_not_eps(worker, tmp_path):
    source = PROBE.read_text(encoding="utf-8")
    result = _verify(worker, tmp_path, "w_without_other.py", source)
    diag = _first(result)
    assert diag["kind"] == "nan" and diag["cause"] == "no-other" and diag["output"] == "grad_x", diag
    assert diag["line"] == _line(source, "w = tl.load(W + cols, mask=mask)", "def rms_bwd_dx_fused"), diag


def test_the_tutorials_forward_with_a_right_backward_passes(worker, tmp_path):
    """The forward's weight load without other= is padded (stored under the same mask): no rerun, a pass."""
    source = PROBE.read_text(encoding="utf-8")
    assert source.count(BACKWARD_W) == 1
    fixed = source.replace(BACKWARD_W, BACKWARD_W.replace("mask=mask)", "mask=mask, other=0.0)"))
    result = _verify(worker, tmp_path, "right.py", fixed)
    assert result["passed"] is True, [c["diagnoses"][:1] for c in result["cases"] if not c["passed"]]


@pytest.mark.parametrize("backward_other", [True, False])
def test_a_forward_missing_eps_keeps_the_zero_row(worker, tmp_path, backward_other):
    """Loads padded (the forward's weight; with backward_other False the backward's too) and row 0 inf/NaN:
    the rerun with the padding left 0 keeps row 0 inf/NaN, so eps is named."""
    source = PROBE.read_text(encoding="utf-8")
    if backward_other:
        source = source.replace(BACKWARD_W, BACKWARD_W.replace("mask=mask)", "mask=mask, other=0.0)"))
    assert source.count(EPS) == 1
    result = _verify(worker, tmp_path, "no_eps.py", source.replace(EPS, EPS.replace(" + eps)", ")")))
    diag = _first(result)
    assert diag["kind"] == "nan" and diag["cause"] == "zero-row" and "eps" in diag["message"], diag
    for case in result["cases"]:
        for found in case["diagnoses"]:
            if found.get("output") in ("out", "grad_x"):
                assert found["cause"] == "zero-row", (case["name"], found)
