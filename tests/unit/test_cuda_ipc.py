"""The judge's side of CUDA IPC refuses a malformed or forged descriptor before it maps anything; the payload
helpers keep the nesting. (Mapping real handles: tests/gpu/test_cuda_ipc_gpu.py.)"""

import pytest
import torch

from tritonlab.engine import cuda_ipc
from tritonlab.engine.tasks.verify import _empty_tree, _load_output

GOOD = {"handle": "ab" * 64, "offset": 0, "shape": [4, 3], "strides": [3, 1], "dtype": "torch.float32"}


@pytest.mark.parametrize(
    "change",
    [
        {"dtype": "torch.complex64"},
        {"dtype": "float32"},
        {"shape": [4]},
        {"strides": [3, -1]},
        {"offset": -8},
        {"shape": [0, 3]},
        {"shape": "4x3"},
        {"handle": None, "offset": "x"},
    ],
)
def test_a_malformed_descriptor_is_refused_before_anything_is_mapped(change, monkeypatch):
    mapped = []
    monkeypatch.setattr(cuda_ipc.Opener, "_map", lambda self, h: mapped.append(h) or (1 << 40, 1 << 30))
    with pytest.raises(cuda_ipc.IpcError):
        cuda_ipc.Opener("cpu").tensor(dict(GOOD, **change))
    assert mapped == []


def test_a_descriptor_reaching_past_its_mapping_is_refused(monkeypatch):
    # the mapping holds 48 bytes: 12 float32 from offset 0 fit, from offset 4 they do not
    monkeypatch.setattr(cuda_ipc.Opener, "_map", lambda self, h: (1 << 40, 48))
    opener = cuda_ipc.Opener("cpu")
    with pytest.raises(cuda_ipc.IpcError, match="past"):
        opener.tensor(dict(GOOD, offset=4))
    with pytest.raises(cuda_ipc.IpcError, match="past"):
        opener.tensor(dict(GOOD, strides=[4, 1]))  # last element at 3*4+2 = 14: 60 bytes


def test_span_counts_the_bytes_a_strided_tensor_reaches():
    assert cuda_ipc._span_bytes([4, 3], [3, 1], 4) == 48
    assert cuda_ipc._span_bytes([3, 4], [1, 3], 2) == 24  # a transpose spans the same bytes
    assert (
        cuda_ipc._span_bytes([5, 2], [0, 1], 4) == 8
    )  # an expanded (stride 0) dimension reaches nothing more
    assert cuda_ipc._span_bytes([0, 7], [7, 1], 4) == 0


def test_merge_puts_shared_tensors_back_where_they_were():
    a, b = torch.ones(2), torch.zeros(3)
    merged = cuda_ipc.merge({"inputs": {}, "outputs": {"1": b}}, {"outputs": {"0": a}, "out": a})
    assert merged["outputs"]["0"] is a and merged["outputs"]["1"] is b and merged["out"] is a
    assert merged["inputs"] == {}


def test_what_is_left_besides_shared_tensors_can_only_be_empty_dicts():
    assert _empty_tree({"inputs": {}, "x": 3, "again": {"y": "z", "k": {}}}) == {
        "inputs": {},
        "again": {"k": {}},
    }
    assert _empty_tree(["not", "a", "dict"]) == {}


def test_shared_tensors_the_judge_did_not_offer_are_not_an_output(tmp_path):
    message = {"shared": {"out": dict(GOOD)}, "rest": {}}
    assert "missing" in _load_output(str(tmp_path / "none.pt"), "cpu", message, None)


def test_a_mapping_that_fails_is_the_labs_transport_failing_not_the_learner(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITONLAB_CUDA_IPC", "fail")
    message = {"shared": {"out": dict(GOOD)}, "rest": {}}
    payload = _load_output(str(tmp_path / "none.pt"), "cpu", message, cuda_ipc.Opener("cpu"))
    assert payload.get("transport") and "TRITONLAB_CUDA_IPC=fail" in payload["transport"]


def test_a_descriptor_tree_deeper_than_a_payload_is_refused():
    deep: dict = {"out": dict(GOOD)}
    for _ in range(6):
        deep = {"k": deep}
    with pytest.raises(cuda_ipc.IpcError, match="deeper"):
        cuda_ipc.Opener("cpu").payload(deep)
    assert _empty_tree({"a": {"b": {"c": {"d": {"e": {"f": {}}}}}}}) == {"a": {"b": {"c": {"d": {}}}}}
