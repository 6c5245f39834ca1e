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


PROBES = ROOT / "tests" / "integration" / "probe_round6_11_14"


def _far_rows_cases(result) -> list:
    return [c for c in result["cases"] if "@far_rows" in (c.get("kwargs") or {})]


def test_the_far_rows_case_runs_on_the_gpu_and_fails_an_int32_row_offset(worker):
    """The solution passes the case whose logits rows lie 2**30 apart (4 GiB of address space on the device);
    the int32 `row * stride_m` fails it, by a fault replayed on the interpreter or by wrong values there."""
    solution = worker.request("verify", {"exercise": "14/cross-entropy", "solution": True}, timeout=600)
    far = _far_rows_cases(solution)
    assert len(far) == 1 and far[0]["passed"], far
    for name in (
        "l14_cross_entropy_wrong_int32_row_offset.py",
        "l14_cross_entropy_wrong_rows_stepped_by_width.py",
    ):
        # a fresh worker each: a wrapped address can fault, and a fault replaces the runner
        client = WorkerClient(backend="gpu")
        try:
            result = client.request(
                "verify", {"exercise": "14/cross-entropy", "file": str(PROBES / name)}, timeout=600
            )
        finally:
            client.close()
        bad = [c for c in result["cases"] if not c["passed"]]
        assert result["passed"] is False and bad, (name, result.get("summary"))
        assert all("@far_rows" in (c.get("kwargs") or {}) for c in bad), (name, [c["name"] for c in bad])


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
