"""Contract `loop = [param, block]` on a GPU. A wrapper that sizes its block to the whole streamed dimension
(BLOCK_V = 131,072 after a small first launch; BLOCK_KV = 8192 for S = 4099 keys) made the GPU case run out
the verify's time (a timeout, not `loop-once`: twenty-third session, and probe rounds 11 and 12 on the H100 in
the twenty-fourth). The GPU runner now calls the wrapper at the largest size with launches recorded and not
compiled, and stops before the cases when one block covers the dimension: the verdict names loop-once in
seconds, and the rejects it never ran are not reported as accepted (they were, in the first GPU run of this
change). The solutions, whose blocks stream, still pass with every case run."""

import time
from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

INTEGRATION = Path(__file__).resolve().parents[1] / "integration"

pytestmark = pytest.mark.gpu

WHOLE_ROW = [
    (
        "14/cross-entropy",
        "probe_round11/l14_cross_entropy_fake_whole_row_block_after_small_first_launch.py",
        ("V", 128256, 131072),
    ),
    ("11/attention", "probe_round12/l11_attention_fake_one_key_block_named_block_kv.py", ("S", 4099, 8192)),
    (
        "11/attention",
        "probe_round9_11_14/l11_attention_wrong_whole_sequence_one_key_block.py",
        ("S", 4099, 8192),
    ),
]


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="gpu")
    yield client
    client.close()


@pytest.mark.parametrize(
    "exercise, name, sizes", WHOLE_ROW, ids=[n.split("/")[1][:-3] for _, n, _ in WHOLE_ROW]
)
def test_a_whole_row_block_is_named_before_any_case_runs(worker, exercise, name, sizes):
    began = time.perf_counter()
    result = worker.request("verify", {"exercise": exercise, "file": str(INTEGRATION / name)}, timeout=300)
    assert time.perf_counter() - began < 90, "the launch-only call should spare the compile of the wide block"
    assert result["passed"] is False and not result.get("error"), result.get("summary")
    (case,) = result["cases"]  # no case ran, and no reject was judged without running
    diag = case["diagnoses"][0]
    assert (case["kind"], diag["kind"], diag["launched_only"]) == ("gpu-scale", "loop-once", True)
    assert (diag["param"], diag["value"], diag["block_value"]) == sizes


@pytest.mark.parametrize(
    "exercise, rejects", [("11/online-softmax", False), ("11/attention", True), ("14/cross-entropy", True)]
)
def test_streaming_solutions_run_every_case_and_pass(worker, exercise, rejects):
    result = worker.request("verify", {"exercise": exercise, "solution": True}, timeout=600)
    assert result["passed"], result.get("summary")
    assert not [c for c in result["cases"] if c.get("kind") == "gpu-scale"]
    assert any(c.get("kind") == "reject" for c in result["cases"]) is rejects  # the rejects ran as before
