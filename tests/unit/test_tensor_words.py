"""A tensor's facts in the learner's words. The verify tab showed a case's inputs as the engine's English text
("x: (0,) float32 on cpu") in Japanese too; the engine's facts (`engine.inputs.facts`) are now worded by
`present.tensors`, and the text a case still carries is read back into the same facts."""

from __future__ import annotations

import pytest
import torch

from tritonlab.engine.inputs import describe, facts
from tritonlab.present.tensors import case_inputs, facts_from_text, tensor_text

TENSORS = [
    torch.empty(0),
    torch.zeros(97, dtype=torch.float16),
    torch.zeros(3, 5, dtype=torch.bfloat16),
    torch.zeros(4, 6).t(),  # not contiguous: strides
    torch.zeros(8, dtype=torch.int64)[::2],
    torch.zeros((), dtype=torch.float32),
]


@pytest.mark.parametrize("tensor", TENSORS, ids=lambda t: f"{tuple(t.shape)}-{t.dtype}-{t.stride()}")
def test_the_engines_text_reads_back_as_its_facts(tensor):
    assert facts_from_text(describe(tensor)) == facts(tensor)


def test_other_values_stay_as_they_were_written():
    assert facts(3) == {"repr": "3"} and describe(3) == "3"
    assert facts_from_text("'cuda'") == {"repr": "'cuda'"}
    assert tensor_text(facts_from_text("None"), "ja") == "None"


def test_a_case_s_inputs_in_japanese_and_english():
    case = {"inputs": {"x": "(0,) float32 on cpu", "w": "(4, 6) float16 on cuda, strides (1, 4)"}}
    assert case_inputs(case, "ja") == [
        ("x", "(0,) float32(cpu 上)"),
        ("w", "(4, 6) float16(cuda 上)、ストライド (1, 4)"),
    ]
    assert case_inputs(case, "en") == [
        ("x", "(0,) float32 on cpu"),
        ("w", "(4, 6) float16 on cuda, strides (1, 4)"),
    ]


def test_facts_sent_with_the_case_come_first():
    case = {
        "inputs": {"x": "(2,) float32 on cpu"},
        "input_facts": {"x": {"shape": [2], "dtype": "float32", "device": "cuda"}},
    }
    assert case_inputs(case, "ja") == [("x", "(2,) float32(cuda 上)")]
