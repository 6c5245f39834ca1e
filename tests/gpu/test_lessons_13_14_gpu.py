"""Lessons 13-14 on a GPU: the solutions at the GPU's sizes (TMA descriptors, warp specialization, 128k vocab),
the starters still failing there, and the descriptor kernel's allocator TODO caught as a runtime error (the
interpreter does not need an allocator, so only a GPU can show it)."""

from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "kernels"

pytestmark = pytest.mark.gpu

EXERCISES = [
    "13/persistent-matmul",
    "13/matmul-descriptors",
    "14/swiglu",
    "14/swiglu-backward",
    "14/cross-entropy",
]


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="gpu")
    yield client
    client.close()


@pytest.mark.parametrize("exercise", EXERCISES)
def test_solutions_pass_on_the_gpu(worker, exercise):
    result = worker.request("verify", {"exercise": exercise, "solution": True}, timeout=600)
    assert not result.get("skipped"), result.get("skipped")
    assert result["passed"], result.get("summary")


def test_descriptor_kernel_without_allocator_fails_on_the_gpu(worker, tmp_path):
    source = (KERNELS / "matmul_descriptors.py").read_text(encoding="utf-8")
    line = "    triton.set_allocator(_scratch)\n"
    assert source.count(line) == 1
    path = tmp_path / "no_allocator.py"
    path.write_text(source.replace(line, ""), encoding="utf-8")
    # A fresh process: an allocator set by an earlier test in this worker would hide the missing call.
    client = WorkerClient(backend="gpu")
    try:
        result = client.request(
            "verify", {"exercise": "13/matmul-descriptors", "file": str(path)}, timeout=600
        )
    finally:
        client.close()
    assert result["passed"] is False, result.get("summary")
