"""A tensor's facts (shape, dtype, device, strides) in the learner's language.

The engine sends facts (`engine.inputs.facts`): `run`'s inputs and output carry them; a verify case carries its
inputs as English text too (`engine.inputs.describe`, "(10,) float32 on cpu", kept for `--json` readers), and
as facts under `input_facts` where the engine sends them. `facts_from_text` reads that text back into facts, so
a case that came with text only is still worded in the learner's language."""

from __future__ import annotations

import re
from typing import Any

from tritonlab.present.numbers import shape
from tritonlab.present.words import pick

# exactly what engine.inputs.describe writes for a tensor
_DESCRIBED = re.compile(
    r"\((?P<shape>[0-9, ]*)\) (?P<dtype>[a-z0-9_]+) on (?P<device>[a-z_]+)"
    r"(?:, strides \((?P<strides>[0-9, ]*)\))?"
)


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.replace(" ", "").split(",") if part]


def facts_from_text(text: Any) -> dict:
    """The facts in an `engine.inputs.describe` text; {"repr": text} for anything else (a number, a string)."""
    match = _DESCRIBED.fullmatch(str(text))
    if match is None:
        return {"repr": str(text)}
    out: dict[str, Any] = {
        "shape": _ints(match["shape"]),
        "dtype": match["dtype"],
        "device": match["device"],
    }
    if match["strides"] is not None:
        out["strides"] = _ints(match["strides"])
    return out


def tensor_text(facts: dict, lang: str) -> str:
    """'(10,) float32 on cpu' / '(10,) float32(cpu 上)'; an older worker's `describe`, or a value's repr."""
    if "shape" not in facts:
        return str(facts.get("repr") or facts.get("describe") or "")
    text = f"{shape(facts['shape'])} {facts.get('dtype')}"
    text += pick(lang, f" on {facts.get('device')}", f"({facts.get('device')} 上)")
    if facts.get("strides"):
        text += pick(lang, f", strides {shape(facts['strides'])}", f"、ストライド {shape(facts['strides'])}")
    return text


def case_inputs(case: Any, lang: str) -> list[tuple[str, str]]:
    """A verify case's inputs as (name, words): from its `input_facts`, else from its `inputs` text."""
    get = case.get
    described = get("inputs") or {}
    given = get("input_facts") if isinstance(get("input_facts"), dict) else {}
    names = list(dict.fromkeys([*described, *given]))
    out = []
    for name in names:
        facts = given.get(name)
        if not isinstance(facts, dict):
            facts = facts_from_text(described.get(name, ""))
        out.append((str(name), tensor_text(facts, lang)))
    return out
