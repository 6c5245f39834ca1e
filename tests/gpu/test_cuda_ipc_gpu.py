"""CUDA IPC carries a runner's outputs to the judge (engine/cuda_ipc.py): exact values, the same verdicts as
files on right and wrong code, forged descriptors refused, and a failed mapping falls back to files."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
LEARNERS = ROOT / "tests" / "integration" / "learners"
TAMPER = ROOT / "tests" / "integration" / "tamper" / "files"

EXPORTER = r"""
import json, sys, torch
from tritonlab.engine import cuda_ipc, sandbox
sandbox._prctl(4, 0)        # PR_SET_DUMPABLE 0, as a runner is
sandbox.guard_signals()     # and the runner's seccomp filter
torch.manual_seed(0)
payload = {"a": torch.randn(4097, device="cuda"), "h": torch.randn(1 << 20, device="cuda").half(),
           "n": {"t": torch.randn(300, 200, device="cuda").t(), "b": torch.randn(333, device="cuda").bfloat16(),
                 "k": torch.arange(10, device="cuda") % 3 == 0}}
rest, shared = cuda_ipc.Sharer().split(payload)
payload["a"].zero_()        # the learner's buffer changes after the case: the judge must see the old values
print(json.dumps({"shared": shared, "rest": rest}), flush=True)
sys.stdin.readline()
"""


def test_tensors_cross_bit_for_bit_and_forged_descriptors_are_refused():
    import torch

    from tritonlab.engine import cuda_ipc

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen(
        [sys.executable, "-c", EXPORTER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        sent = json.loads(child.stdout.readline())
        assert sent["rest"] == {"n": {}}
        opener = cuda_ipc.Opener("cuda")
        got = opener.payload(sent["shared"])
        opener.close()
        torch.manual_seed(0)
        want = {"a": torch.randn(4097, device="cuda"), "h": torch.randn(1 << 20, device="cuda").half()}
        want_t = torch.randn(300, 200, device="cuda").t()
        want_b = torch.randn(333, device="cuda").bfloat16()
        assert torch.equal(got["a"], want["a"]) and torch.equal(got["h"], want["h"])
        assert torch.equal(got["n"]["t"], want_t) and got["n"]["t"].stride() == (1, 200)
        assert torch.equal(got["n"]["b"], want_b) and got["n"]["b"].dtype == torch.bfloat16
        assert got["n"]["k"].dtype == torch.bool and got["n"]["k"].tolist() == [i % 3 == 0 for i in range(10)]
        forged = sent["shared"]["a"]
        for change in ({"offset": 1 << 40}, {"shape": [1 << 31]}, {"handle": "00" * 64}, {"handle": "ab"}):
            bad = cuda_ipc.Opener("cuda")
            with pytest.raises(cuda_ipc.IpcError):
                bad.tensor(dict(forged, **change))
            bad.close()
        assert torch.cuda.synchronize() is None  # the judge's context is still healthy
    finally:
        child.stdin.write("\n")
        child.stdin.flush()
        child.wait(30)


def _verify(exercise: str, env: dict, **args) -> dict:
    client = WorkerClient(backend="gpu", env=env)
    try:
        return client.request("verify", {"exercise": exercise, **args}, timeout=300)
    finally:
        client.close()


def _kinds(result: dict) -> list:
    """What failed and why, per case; a random case's size differs from run to run, so only its kinds count."""
    return [
        ("random" if c["name"].endswith("random") else c["name"], sorted({d["kind"] for d in c["diagnoses"]}))
        for c in result["cases"]
        if not c["passed"]
    ]


@pytest.mark.parametrize(
    "exercise, learner, passes",
    [
        ("5", LEARNERS / "tutorial_add.py", True),
        ("5", LEARNERS / "reused_output_buffer.py", True),
        ("5", TAMPER / "t19b_honest_wrong.py", False),
        ("5", TAMPER / "t34_torch_computes_kernel_copies.py", False),
    ],
)
def test_the_verdict_is_the_same_through_ipc_and_through_files(exercise, learner, passes):
    ipc = _verify(exercise, {"TRITONLAB_CUDA_IPC": "on"}, file=str(learner))
    files = _verify(exercise, {"TRITONLAB_CUDA_IPC": "off"}, file=str(learner))
    assert ipc["judge"]["transport"] == "cuda-ipc" and files["judge"]["transport"] == "files"
    assert ipc["passed"] is passes and files["passed"] is passes, (_kinds(ipc), _kinds(files))
    assert _kinds(ipc) == _kinds(files)


def test_a_plan_with_gradients_crosses_through_ipc():
    result = _verify("12/rms-norm-backward", {"TRITONLAB_CUDA_IPC": "on"}, solution=True)
    assert result["judge"]["transport"] == "cuda-ipc"
    assert result["passed"], _kinds(result)


def test_a_mapping_that_fails_falls_back_to_files_and_still_judges():
    result = _verify("5", {"TRITONLAB_CUDA_IPC": "fail"}, solution=True)
    assert result["passed"], result.get("error")
    assert (
        result["judge"]["transport"] == "files"
        and "TRITONLAB_CUDA_IPC=fail" in result["judge"]["transport_failed"]
    )
