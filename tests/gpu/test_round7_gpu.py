"""Probe round 7's fixes where a GPU decides: the GPU compiler's own refusal of a tl.dot below its minimum K
(which the interpreter now applies too), and the autotuner's timing runs in a pinned case (one run of the pinned
config and its twin, as with several configs): split-K into C without reset_to_zero must fail there, and the same
kernel zeroing C in a Config pre_hook must not fail for the timing runs (its float16 partial sums still round)."""

from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

pytestmark = pytest.mark.gpu

PROBES = Path(__file__).resolve().parents[1] / "integration"


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="gpu")
    yield client
    client.close()


def verify(worker, exercise, path):
    return worker.request("verify", {"exercise": exercise, "file": str(PROBES / path)}, timeout=600)


def test_a_dot_below_the_minimum_is_the_gpu_compilers_refusal_with_the_labs_cause(worker):
    result = verify(
        worker, "11/attention", "probe_round7_11_14/l11_attention_wrong_block_n_below_16_at_short_seq.py"
    )
    assert not result["passed"]
    error = result.get("error") or {}
    assert error.get("kind") == "compile" and error.get("cause") == "dot-too-small", error


def test_split_k_without_reset_fails_on_the_autotuners_timing_runs(worker):
    """On the H200 (2026-12-05) every case failed, not only the pinned ones: a GPU's autotuner times every
    config at each new key, and each timing run adds into C (on the interpreter only the pinned cases time)."""
    result = verify(
        worker, "10/autotune-matmul", "probe_round7_08_10/l10_autotune_wrong_split_k_atomic_no_reset.py"
    )
    assert not result["passed"] and result.get("error") is None, result.get("summary")
    bad = [c for c in result["cases"] if not c["passed"] and c.get("kind") != "reject"]
    assert any("@autotune=" not in c["name"] for c in bad), [c["name"] for c in bad]


def test_split_k_zeroing_c_in_a_config_pre_hook_fails_only_as_float16_precision(worker):
    """The pre_hook's zeroing is right (no case fails for the timing runs), but on the H200 (2026-12-05) the
    GPU's M=16, N=4096, K=4096 float16 case failed (largest error 0.078): each split's partial sum is added
    into a float16 C and rounded there, which the interpreter's small K never shows. The lab names that."""
    result = verify(
        worker, "10/autotune-matmul", "probe_round7_08_10/l10_autotune_ok_split_k_config_pre_hook.py"
    )
    bad = [c for c in result["cases"] if not c["passed"] and c.get("kind") != "reject"]
    assert all(c["dtype"] == "float16" for c in bad), [c["name"] for c in bad]
    causes = {d.get("cause") for c in bad for d in c["diagnoses"]}
    assert "autotune-side-effect" not in causes, causes
    if bad:
        assert bad[0]["diagnoses"][0].get("cause") == "dtype-only", bad[0]["diagnoses"][0]
