"""Learner files shaped like the official Triton tutorials: correct code passes every case whose contract it meets.

Each file keeps its tutorial's launch pattern (launch-by-lambda, @triton.autotune with a wrapper that takes no tile
sizes, a compiled kernel launched after `warmup`). Contract differences fail with that reason and nothing else.
"""

from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

TUTORIALS = Path(__file__).parent / "tutorials"


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="auto")
    yield client
    client.close()


def verify(worker, exercise, name, **extra):
    args = {"exercise": exercise, "file": str(TUTORIALS / name), **extra}
    result = worker.request("verify", args, timeout=600)
    assert result.get("error") is None, result.get("error")
    return result


def kinds(case) -> set:
    return {d["kind"] for d in case["diagnoses"]}


@pytest.mark.parametrize("exercise, name", [("5/add", "vector_add.py"), ("8/softmax", "fused_softmax.py")])
def test_tutorial_passes_every_case(worker, exercise, name):
    result = verify(worker, exercise, name)
    failed = [(c["name"], kinds(c)) for c in result["cases"] if not c["passed"]]
    assert result["passed"], failed
    assert any("bfloat16" in c["name"] for c in result["cases"]) or exercise != "8/softmax"


def test_tutorial_layer_norm_passes_its_own_contract(worker):
    result = verify(
        worker,
        "1/layer-norm",
        "layer_norm.py",
        lessons_dir=str(TUTORIALS / "lessons"),
        kernels_dir=str(TUTORIALS),
    )
    assert result["passed"], [(c["name"], kinds(c)) for c in result["cases"] if not c["passed"]]


def test_tutorial_matmul_fails_only_where_its_contract_differs(worker):
    """Autotuned, no tile keywords, always float16 out: the fp16 cases pass (the tile variants with a note), the
    fp32 cases fail for the output dtype alone, and the inputs it does not validate are named."""
    result = verify(worker, "9/matmul", "matmul_autotuned.py")
    cases = [c for c in result["cases"] if c.get("kind") != "reject"]
    assert cases
    for case in cases:
        tiles = "BLOCK_M" in case["name"]
        notes = {n["kind"] for n in case.get("notes") or []}
        assert notes == ({"tiles-not-varied"} if tiles else set()), case["name"]
        if case["dtype"] == "float16":
            assert case["passed"], (case["name"], case["diagnoses"])
        else:
            assert (
                not case["passed"]
                and kinds(case) <= {"wrong-dtype", "dtype"}
                and "wrong-dtype" in kinds(case)
            )
            wrong = next(d for d in case["diagnoses"] if d["kind"] == "wrong-dtype")
            assert (wrong["got"], wrong["expected"]) == ("torch.float16", "torch.float32")
    rejects = {c["name"]: c for c in result["cases"] if c.get("kind") == "reject"}
    assert rejects["rejects inner dimensions differ"]["passed"]  # the tutorial asserts this one
    assert not rejects["rejects dtypes differ"]["passed"]  # and does not check dtypes


@pytest.mark.gpu
def test_persistent_softmax_launched_after_warmup_counts_as_the_learners_launch(worker):
    """The tutorial's persistent softmax (warmup, then a launch of the compiled kernel) counts as the learner's
    launch (on the GPU every case failed as "not the kernel's output" until 2026-12-03: the lab's provenance
    watched JITFunction.run only, and this launch goes around it). Its contract ends where a row no longer
    fits shared memory: at 32768 fp32 columns with num_stages=4 it asks for 393,248 bytes (H200: 232,448), a compile-time OutOfResources that the lab reports as such — a
    contract difference, not a wrong verdict."""
    args = {"exercise": "8/softmax", "file": str(TUTORIALS / "fused_softmax_persistent.py")}
    result = worker.request(
        "verify", args, timeout=600
    )  # not verify(): an OutOfResources error is allowed here
    assert not any("no-kernel-launched" in kinds(c) for c in result["cases"])
    passed = [c for c in result["cases"] if c["passed"] and c.get("kind") != "reject"]
    assert len(passed) >= 4, [(c["name"], kinds(c)) for c in result["cases"]]
    failing = [c for c in result["cases"] if not c["passed"]]
    assert all(c.get("params", {}).get("N") == 32768 for c in failing), [
        (c["name"], kinds(c)) for c in failing
    ]
    if not result["passed"]:
        assert "OutOfResources" in str(result["error"]), result["error"]


@pytest.mark.gpu
@pytest.mark.parametrize("exercise, name", [("5/add", "vector_add.py"), ("8/softmax", "fused_softmax.py")])
def test_tutorial_passes_on_the_gpu(exercise, name):
    client = WorkerClient(backend="gpu")
    try:
        result = verify(client, exercise, name)
    finally:
        client.close()
    assert result["backend"] == "gpu" and result["passed"], result.get("summary")
