"""Probe round 7's fixes where a GPU decides: the GPU compiler's own refusal of a tl.dot below its minimum K
(which the interpreter now applies too), and the autotuner's timing runs in a pinned case (one run of the pinned
config and its twin, as with several configs): split-K into C without reset_to_zero must fail there, and the same
kernel zeroing C in a Config pre_hook must pass."""

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
    result = verify(
        worker, "10/autotune-matmul", "probe_round7_08_10/l10_autotune_wrong_split_k_atomic_no_reset.py"
    )
    assert not result["passed"] and result.get("error") is None, result.get("summary")
    bad = [c for c in result["cases"] if not c["passed"] and c.get("kind") != "reject"]
    assert bad and all("@autotune=" in c["name"] for c in bad), [c["name"] for c in bad]
    assert bad[0]["diagnoses"][0].get("cause") == "autotune-side-effect", bad[0]["diagnoses"][0]


def test_split_k_zeroing_c_in_a_config_pre_hook_passes(worker):
    result = verify(
        worker, "10/autotune-matmul", "probe_round7_08_10/l10_autotune_ok_split_k_config_pre_hook.py"
    )
    assert result["passed"], result.get("summary")
