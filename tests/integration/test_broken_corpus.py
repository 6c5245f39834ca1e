"""A corpus of broken learner kernels: each must get the right diagnosis kind (and line) — no crash, no hang."""

from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient
from tritonlab.engine.replay import with_replay

BROKEN = Path(__file__).parent / "broken"

# file → (exercise, expected kind (error.kind or a case diagnosis kind), expected line or None)
CORPUS = {
    "unmasked_load.py": ("5", "oob", 11),
    "unmasked_store.py": ("5", "oob", 13),
    "mask_le.py": ("5", "oob", 11),
    "offsets_shifted.py": ("5", "unwritten", None),
    "grid_short.py": ("5", "unwritten", None),
    "first_block_only.py": ("5", "unwritten", None),
    "wrong_dtype.py": ("5", "wrong-dtype", None),
    "wrong_shape.py": ("5", "wrong-shape", None),
    "returns_none.py": ("5", "wrong-shape", None),
    "input_overwritten.py": ("5", "input-modified", None),
    "pure_torch.py": ("5", "no-kernel-launched", None),
    "no_validation.py": ("5", "validation", None),
    "wrong_op.py": ("5", "mismatch", None),
    "python_error.py": ("5", "runtime", 9),
    "stride_ignored_copy2d.py": ("7/copy-2d", "mismatch", None),
    "transpose_swapped_strides.py": ("7/transpose", "mismatch", None),
    "unstable_softmax.py": ("8/softmax", "nan", None),
    "matmul_k_tail_unmasked.py": ("9/matmul", "oob", 57),
    "matmul_store_off_by_one.py": ("9/matmul", "oob", 66),
}


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="auto")
    yield client
    client.close()


def kinds_of(result: dict) -> set:
    found = {d.get("kind") for c in result.get("cases", []) for d in c.get("diagnoses", [])}
    if result.get("error"):
        found.add(result["error"]["kind"])
    return found


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_broken_kernel_gets_the_right_diagnosis(worker, name):
    exercise, kind, line = CORPUS[name]
    args = {"exercise": exercise, "file": str(BROKEN / name)}
    result = with_replay(worker.request("verify", args, timeout=120), args)
    assert result.get("passed") is False
    assert kind in kinds_of(result), (kind, kinds_of(result), result.get("summary"))
    if line is not None:
        if result.get("error"):
            assert result["error"]["kind"] == kind
            assert result["error"]["line"] == line, result["error"]
        else:  # GPU: a guard zone caught the store; the line comes from the interpreter replay
            diag = next(d for c in result["cases"] for d in c["diagnoses"] if d["kind"] == kind)
            assert diag.get("line") == line, diag


def test_the_corpus_covers_at_least_fifteen_bugs():
    assert len(CORPUS) >= 15
    assert sorted(CORPUS) == sorted(p.name for p in BROKEN.glob("*.py"))
