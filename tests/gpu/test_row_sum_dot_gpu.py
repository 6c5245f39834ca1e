"""Lesson 8's row sum written as a tl.dot with a column of ones, on a GPU (twenty-fifth session). With
input_precision="ieee" the dot adds each row serially in float32: correct, and it failed the 64 x 65537 case on an
H100 until the row sum's atol grew to its float32 rounding (`sum_rounding`). With the default precision the dot
rounds every input to TF32: a true failure, named with the dot's line (cause "tf32-dot")."""

from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

pytestmark = pytest.mark.gpu

OK = (
    Path(__file__).resolve().parents[1]
    / "integration"
    / "probe_round13"
    / "l08_row_sum_ok_dot_with_ones_column.py"
)


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="gpu")
    yield client
    client.close()


def test_the_ieee_dot_row_sum_passes_every_gpu_case(worker):
    result = worker.request("verify", {"exercise": "8/row-sum", "file": str(OK)}, timeout=300)
    assert result["passed"] is True, result.get("summary")
    widened = [c for c in result["cases"] if "atol_declared" in c]
    assert any(c["params"] == {"M": 64, "N": 65537} for c in widened), [c["params"] for c in widened]


def test_the_default_precision_dot_fails_by_tf32_at_its_line(worker, tmp_path):
    source = OK.read_text()
    assert source.count(', input_precision="ieee")') == 1
    path = tmp_path / "row_sum_tf32.py"
    path.write_text(source.replace(', input_precision="ieee")', ")"))
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "tl.dot(" in text)
    result = worker.request("verify", {"exercise": "8/row-sum", "file": str(path)}, timeout=300)
    assert result["passed"] is False and not result.get("error"), result.get("summary")
    first = next(c for c in result["cases"] if not c["passed"])
    assert first["dtype"] == "float32", first["name"]
    diag = first["diagnoses"][0]
    assert (diag["kind"], diag.get("cause"), diag.get("line")) == ("mismatch", "tf32-dot", line), diag
