"""An illegal address on the GPU poisons the CUDA context for good: the lab must say so, run the next request in a
fresh runner,
and name the line by replaying on the interpreter's bounds checker."""

from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient
from tritonlab.engine.replay import with_replay

LEARNERS = Path(__file__).resolve().parents[1] / "integration" / "learners"

pytestmark = pytest.mark.gpu


def test_illegal_address_is_a_cuda_fault_and_the_worker_is_replaced():
    worker = WorkerClient(backend="gpu")
    try:
        args = {"exercise": "5", "file": str(LEARNERS / "illegal_address.py")}
        result = worker.request("verify", args, timeout=180)
        assert result["passed"] is False
        assert result["error"]["kind"] in ("cuda-fault", "crash"), result["error"]
        replayed = with_replay(result, args)
        assert replayed["replay"]["line"] == 12, replayed["replay"]
        again = worker.request("verify", {"exercise": "5", "solution": True}, timeout=180)
        assert again["passed"], again.get("summary")
        # The fault poisoned only that request's runner (a fresh runner per request); the judge, which never
        # runs learner code, keeps its CUDA context and is not restarted.
        assert worker.restarts == 0, "the judge must survive a learner's CUDA fault"
    finally:
        worker.close()
