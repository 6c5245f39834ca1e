"""Probe round 17c, findings 4 and 6 (`engine/value_slips.py`): a gradient equal to its right value times an
input (`grad-times-input`, the dw accumulation of g = dy · w named) and an output equal to the reference with
sigmoid(-t) for sigmoid(t) (`sigmoid-sign`, the flipped exp named). Each rule is checked both ways: values and
files with the slip it must name (false-pass side of the explanation), and right values, other slips and right
files it must leave alone (false-fail side)."""

from __future__ import annotations

import glob
import re
from pathlib import Path
from types import SimpleNamespace

import torch
import torch.nn.functional as F

from tritonlab.engine.value_slips import (
    accumulation_carrying,
    carry,
    flipped_sigmoid,
    grad_times_input,
    sigmoid_shapes,
    sigmoid_sign,
)
from tritonlab.present.diagnoses import describe

ROOT = Path(__file__).resolve().parents[2]
PROBE = ROOT / "tests" / "integration" / "probe_round17_c"
JAPANESE = re.compile(r"[ぁ-んァ-ン一-龥]")


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# --- grad-times-input: the line ---------------------------------------------------------------------------------

STAGE1 = """
import triton
import triton.language as tl


@triton.jit
def bwd(dy_ptr, x_ptr, W_ARG, rstd_ptr, dx_ptr, partial_ptr, M, N, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    w = tl.load(W_ARG + cols, mask=mask, other=0.0)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for row in range(pid, M, tl.num_programs(0)):
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0)
        dy = tl.load(dy_ptr + row * N + cols, mask=mask, other=0.0)
        rstd = tl.load(rstd_ptr + row)
        x_hat = x * rstd
        g = dy * w
        dx = rstd * (g - x_hat * (tl.sum(g * x_hat, axis=0) / N))
        tl.store(dx_ptr + row * N + cols, dx, mask=mask)
        ACC
    tl.store(partial_ptr + pid * N + cols, acc, mask=mask)
"""


def _stage1(tmp_path, acc: str, pointer: str = "w_ptr") -> tuple[str, str]:
    text = STAGE1.replace("W_ARG", pointer).replace("ACC", acc)
    path = tmp_path / "k.py"
    path.write_text(text)
    return str(path), text


def test_the_accumulation_of_g_is_named_through_g(tmp_path):
    path, text = _stage1(tmp_path, "acc += g * x_hat")
    assert accumulation_carrying(path, "w") == {
        "line": _line(text, "acc += g * x_hat"),
        "term": "g * x_hat",
        "target": "acc",
        "via": "g",
        "via_line": _line(text, "g = dy * w"),
    }


def test_other_spellings_of_the_same_accumulation_are_named(tmp_path):
    path, text = _stage1(tmp_path, "acc = acc + dy * w * x_hat")
    found = accumulation_carrying(path, "w")
    assert found is not None and found["line"] == _line(text, "acc = acc + dy * w") and "via" not in found
    path, text = _stage1(tmp_path, "acc += g * x_hat", pointer="weight_ptr")  # a one-letter input's word
    assert (accumulation_carrying(path, "w") or {}).get("line") == _line(text, "acc += g * x_hat")
    path, text = _stage1(tmp_path, "tl.atomic_add(partial_ptr + cols, g * x_hat, mask=mask)")
    assert (accumulation_carrying(path, "w") or {}).get("line") == _line(text, "tl.atomic_add(")


def test_a_right_accumulation_or_an_ambiguous_file_gets_no_line(tmp_path):
    path, _ = _stage1(tmp_path, "acc += dy * x_hat")  # right: nothing accumulated carries w
    assert accumulation_carrying(path, "w") is None
    path, _ = _stage1(tmp_path, "acc += g * x_hat\n        acc += g * x")  # two: which one is not known
    assert accumulation_carrying(path, "w") is None
    path, _ = _stage1(tmp_path, "acc += g * x_hat", pointer="gamma_ptr")  # no pointer named for w
    assert accumulation_carrying(path, "w") is None


def test_the_probe_files(tmp_path):
    wrong = PROBE / "l12_rms_backward_wrong_dw_accumulates_g_not_dy.py"
    text = wrong.read_text()
    found = accumulation_carrying(str(wrong), "w")
    assert (
        found is not None
        and found["line"] == _line(text, "        dw_acc += g * x_hat")
        and found["via"] == "g"
    )
    right = PROBE / "l12_rms_backward_ok_stage2_pairwise_tree_of_launches.py"
    assert accumulation_carrying(str(right), "w") is None


# --- grad-times-input: the values -------------------------------------------------------------------------------

PLAN = SimpleNamespace(names=["out", "grad_x", "grad_w"], grad_inputs=["x", "w"])
TOLS = {"*": (1e-3, 1e-4)}


def _values(seed: int = 0):
    gen = torch.Generator().manual_seed(seed)
    x, w = torch.randn(5, 7, generator=gen), torch.randn(7, generator=gen)
    out, grad_x, grad_w = (
        torch.randn(5, 7, generator=gen),
        torch.randn(5, 7, generator=gen),
        torch.randn(7, generator=gen),
    )
    return {"x": x, "w": w, "eps": 1e-6}, (out, grad_x, grad_w)


def _diag(output: str, cause: str | None = "all-wrong") -> dict:
    return {
        "kind": "mismatch",
        "cause": cause,
        "output": output,
        "count": 7,
        "message": f"{output}: 7 elements differ beyond tolerance: every element of this gradient is wrong",
    }


def test_a_weight_gradient_times_the_weight_is_named_with_its_line(tmp_path):
    path, text = _stage1(tmp_path, "acc += g * x_hat")
    inputs, expected = _values()
    got = (expected[0], expected[1], expected[2] * inputs["w"])
    diagnoses = [_diag("grad_w")]
    grad_times_input(PLAN, inputs, got, expected, TOLS, diagnoses, path)
    diag = diagnoses[0]
    assert diag["cause"] == "grad-times-input" and diag["input"] == "w" and diag["per"] == "element", diag
    assert diag["line"] == _line(text, "acc += g * x_hat") and diag["via"] == "g", diag
    assert f"line {diag['line']} accumulates g * x_hat, and g carries w" in diag["message"], diag["message"]


def test_a_2d_gradient_times_a_weight_per_column_is_named():
    inputs, expected = _values(1)
    got = (expected[0], expected[1] * inputs["w"][None, :], expected[2])
    diagnoses = [_diag("grad_x", None)]
    grad_times_input(PLAN, inputs, got, expected, TOLS, diagnoses, None)
    assert diagnoses[0]["cause"] == "grad-times-input" and diagnoses[0]["per"] == "column", diagnoses[0]
    assert "line" not in diagnoses[0]  # no file: the values alone, no line guessed


def test_other_wrong_gradients_are_not_called_times_an_input(tmp_path):
    path, _ = _stage1(tmp_path, "acc += g * x_hat")
    inputs, expected = _values(2)
    w = inputs["w"]
    for wrong in (
        expected[2] * 2.0,  # a constant scale
        expected[2] * w.flip(0),  # another column's weight
        expected[2] * w + 0.5,  # times w, plus something
        expected[2] / w,  # divided by w
        torch.zeros(7),
    ):
        diagnoses = [_diag("grad_w")]
        grad_times_input(PLAN, inputs, (expected[0], expected[1], wrong), expected, TOLS, diagnoses, path)
        assert diagnoses[0]["cause"] == "all-wrong" and "line" not in diagnoses[0], diagnoses[0]


def test_a_constant_input_an_explained_diagnosis_or_no_gradients_are_left_alone(tmp_path):
    path, _ = _stage1(tmp_path, "acc += g * x_hat")
    inputs, expected = _values(3)
    flat = dict(inputs, w=torch.full((7,), 1.5))  # one value everywhere: a scale, said elsewhere
    diagnoses = [_diag("grad_w")]
    grad_times_input(
        PLAN, flat, (expected[0], expected[1], expected[2] * 1.5), expected, TOLS, diagnoses, path
    )
    assert diagnoses[0]["cause"] == "all-wrong"
    got = (expected[0], expected[1], expected[2] * inputs["w"])
    explained = [_diag("grad_w", "upstream-ignored")]
    grad_times_input(PLAN, inputs, got, expected, TOLS, explained, path)
    assert explained[0]["cause"] == "upstream-ignored"
    forward = SimpleNamespace(names=["out", "grad_w"], grad_inputs=[])
    diagnoses = [_diag("grad_w")]
    grad_times_input(forward, inputs, got[::2], expected[::2], TOLS, diagnoses, path)
    assert diagnoses[0]["cause"] == "all-wrong"


# --- sigmoid-sign: the line -------------------------------------------------------------------------------------

SWIGLU = """
import triton
import triton.language as tl

NEG_LOG2_E = tl.constexpr(-1.4426950408889634)


@triton.jit
def k(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask).to(tl.float32)
    GATE
    tl.store(c_ptr + offs, a * gate * b, mask=mask)
"""


def _swiglu(tmp_path, gate: str) -> tuple[str, str]:
    text = SWIGLU.replace("GATE", gate)
    path = tmp_path / "s.py"
    path.write_text(text)
    return str(path), text


def test_each_flipped_sigmoid_is_found_at_its_exp(tmp_path):
    for gate, form in (
        ("gate = 1.0 / (1.0 + tl.exp(a))", "hand"),
        ("gate = 1 / (tl.exp2(a * 1.4426950408889634) + 1)", "hand"),
        ("gate = tl.exp(-a) / (1.0 + tl.exp(-a))", "hand"),
        ("gate = tl.sigmoid(-a)", "call"),
        ("gate = tl.sigmoid(0.0 - a)", "call"),
    ):
        path, text = _swiglu(tmp_path, gate)
        found = flipped_sigmoid(path)
        assert found is not None and found["line"] == _line(text, "gate =") and found["form"] == form, gate
        assert [flipped for flipped, _ in sigmoid_shapes(path)] == [True], gate
    path, text = _swiglu(tmp_path, "e = tl.exp(a)\n    gate = 1.0 / (1.0 + e)")
    assert flipped_sigmoid(path) == {
        "line": _line(text, "e = tl.exp(a)"),
        "call": "tl.exp(a)",
        "expr": "1.0 / (1.0 + e)",
        "expr_line": _line(text, "gate ="),
        "form": "hand",
    }


def test_right_sigmoids_are_never_called_flipped(tmp_path):
    for gate in (
        "gate = 1.0 / (1.0 + tl.exp(-a))",
        "gate = 1.0 / (1.0 + tl.exp2(a * NEG_LOG2_E))",
        "gate = 1.0 / (1.0 + tl.exp2(-a * 1.4426950408889634))",
        "gate = tl.exp(a) / (1.0 + tl.exp(a))",
        "gate = tl.sigmoid(a)",
        "e = tl.exp(-tl.abs(a))\n    gate = tl.where(a >= 0, 1.0 / (1.0 + e), e / (1.0 + e))",
        "gate = 0.5 * (1.0 + (1.0 - 2.0 / (tl.exp(a) + 1.0)))",  # via tanh(a / 2): no sign to read
    ):
        path, _ = _swiglu(tmp_path, gate)
        assert not any(flipped for flipped, _ in sigmoid_shapes(path)), gate
    path, _ = _swiglu(tmp_path, "gate = tl.sigmoid(a)")
    assert flipped_sigmoid(path) is None  # a right tl.sigmoid is never the line


def test_only_the_flipped_file_is_flipped_across_the_corpora():
    """Every learner file of the probe, broken, tamper and tutorial corpora, the lab's kernels and lessons: only
    the file written with the slip has a visibly flipped sigmoid (the others' hand-written sigmoids and tanh's
    stay unflipped)."""
    files = [
        Path(f)
        for pattern in ("tests/integration/**/*.py", "kernels/*.py", "lessons/*/*.py")
        for f in glob.glob(str(ROOT / pattern), recursive=True)
    ]
    assert len(files) > 500
    flipped = {f.name for f in files if any(is_flipped for is_flipped, _ in sigmoid_shapes(str(f)))}
    assert flipped == {"l14_swiglu_wrong_sigmoid_exponent_sign_flipped.py"}, flipped


# --- sigmoid-sign: the values -----------------------------------------------------------------------------------

SWIGLU_EXERCISE = SimpleNamespace(reference="(F.silu(a.float()) * b.float()).to(a.dtype)", inputs=[])


def _ab(dtype=torch.float32):
    gen = torch.Generator().manual_seed(7)
    a, b = torch.randn(3, 257, generator=gen) * 3, torch.randn(3, 257, generator=gen)
    return {"a": a.to(dtype), "b": b.to(dtype)}


def _check(got, inputs, path, exercise=SWIGLU_EXERCISE, tol=(1e-5, 1.3e-6), cause="all-wrong") -> dict:
    expected = eval(exercise.reference, {"F": F, "torch": torch, **inputs})  # noqa: S307 - the test's own text
    diagnoses = [
        {"kind": "mismatch", "cause": cause, "count": 9, "message": "9 elements differ: every element"}
    ]
    sigmoid_sign(diagnoses, exercise, got, expected, inputs, {}, {}, *tol, path)
    return diagnoses[0]


def test_an_output_with_sigmoid_of_minus_a_is_named_at_the_flipped_exp(tmp_path):
    path, text = _swiglu(tmp_path, "gate = 1.0 / (1.0 + tl.exp(a))")
    inputs = _ab()
    a, b = inputs["a"], inputs["b"]
    diag = _check(a * torch.sigmoid(-a) * b, inputs, path)
    assert (
        diag["cause"] == "sigmoid-sign" and diag["line"] == _line(text, "gate =") and diag["form"] == "hand"
    )
    assert f"line {diag['line']} computes 1.0 / (1.0 + tl.exp(a))" in diag["message"], diag["message"]
    half = _ab(torch.float16)  # a 16-bit case: the flipped formula rounded to fp16, within its tolerance
    a16, b16 = half["a"].float(), half["b"].float()
    got = (a16 * torch.sigmoid(-a16) * b16).half()
    assert _check(got, half, path, tol=(1e-3, 1e-3), cause=None)["cause"] == "sigmoid-sign"


def test_other_wrong_outputs_are_not_called_a_flipped_sigmoid(tmp_path):
    path, _ = _swiglu(tmp_path, "gate = 1.0 / (1.0 + tl.exp(a))")
    inputs = _ab()
    a, b = inputs["a"], inputs["b"]
    for got in (
        F.silu(a) * b * 1.5,  # scaled
        a / (1.0 + torch.exp2(-a)) * b,  # exp2 without log2(e) (round 16c's slip)
        F.silu(a),  # b never multiplied
        torch.sigmoid(-a) * b,  # flipped, and a dropped: not the flipped formula
    ):
        diag = _check(got, inputs, path)
        assert diag["cause"] == "all-wrong" and "line" not in diag, got
    plain = SimpleNamespace(reference="(a.float() + b.float()).to(a.dtype)", inputs=[])  # no sigmoid to flip
    assert _check(a - b, inputs, path, exercise=plain)["cause"] == "all-wrong"
    explained = _check(a * torch.sigmoid(-a) * b, inputs, path, cause="input-unread")
    assert explained["cause"] == "input-unread"


def test_a_near_fit_under_a_loose_tolerance_is_not_a_flipped_sigmoid(tmp_path):
    # within a wide tolerance of the flipped formula, but not ten times closer to it than to the right one
    path, _ = _swiglu(tmp_path, "gate = 1.0 / (1.0 + tl.exp(a))")
    inputs = _ab()
    a, b = inputs["a"], inputs["b"]
    flipped, right = a * torch.sigmoid(-a) * b, F.silu(a) * b
    halfway = flipped + 0.3 * (right - flipped).clamp(-1.0, 1.0)
    assert _check(halfway, inputs, path, tol=(0.5, 0.0))["cause"] == "all-wrong"


def test_a_one_element_case_only_fits_and_takes_the_cause_from_a_larger_case(tmp_path):
    path, text = _swiglu(tmp_path, "gate = 1.0 / (1.0 + tl.exp(a))")
    one = {"a": torch.tensor([[1.7]]), "b": torch.tensor([[-0.4]])}
    tiny = _check(one["a"] * torch.sigmoid(-one["a"]) * one["b"], one, path)
    assert tiny["cause"] == "all-wrong" and tiny["fits"] == {"cause": "sigmoid-sign"}, (
        tiny
    )  # 1 element: no claim
    inputs = _ab()
    a, b = inputs["a"], inputs["b"]
    big = _check(a * torch.sigmoid(-a) * b, inputs, path)
    cases = [{"diagnoses": [tiny]}, {"diagnoses": [big]}]
    carry(cases)
    assert tiny["cause"] == "sigmoid-sign" and tiny["line"] == _line(text, "gate =") and "fits" not in tiny
    assert (
        tiny["message"].startswith("9 elements differ: ")
        and "computes 1.0 / (1.0 + tl.exp(a))" in tiny["message"]
    )
    alone = _check(one["a"] * torch.sigmoid(-one["a"]) * one["b"], one, path)
    carry([{"diagnoses": [alone]}, {"diagnoses": [_check(F.silu(a) * b * 2, inputs, path)]}])
    assert (
        alone["cause"] == "all-wrong" and "fits" not in alone and "line" not in alone
    )  # nothing confirmed it


# --- words ------------------------------------------------------------------------------------------------------


def test_both_causes_have_english_and_japanese_words():
    base = {"kind": "mismatch", "count": 7, "atol": 0.001, "rtol": 0.0001, "max_abs_err": 2.3}
    grad = {
        **base,
        "output": "grad_w",
        "cause": "grad-times-input",
        "input": "w",
        "per": "element",
        "line": 59,
        "term": "g * x_hat",
        "via": "g",
        "via_line": 56,
    }
    en, ja = describe(grad, "en"), describe(grad, "ja")
    assert "grad_w is its right value times w" in en and "line 59 accumulates g * x_hat" in en, en
    assert "g carries w (line 56)" in en and "accumulate it without w" in en, en
    assert "59 行目で g * x_hat を累積" in ja and "56 行目" in ja and JAPANESE.search(ja), ja
    lineless = {k: v for k, v in grad.items() if k not in ("line", "term", "via", "via_line")}
    assert "check what the backward multiplies" in describe(lineless, "en")
    assert "line" not in describe(lineless, "en").split("):")[-1]
    sig = {
        **base,
        "cause": "sigmoid-sign",
        "line": 18,
        "call": "tl.exp(a)",
        "expr": "1.0 / (1.0 + tl.exp(a))",
    }
    sig["form"] = "hand"
    en, ja = describe(sig, "en"), describe(sig, "ja")
    assert (
        "sigmoid(-t) where sigmoid(t) belongs" in en and "line 18 computes 1.0 / (1.0 + tl.exp(a))" in en
    ), en
    assert "18 行目は 1.0 / (1.0 + tl.exp(a)) を計算" in ja and "sigmoid(-t)" in ja and JAPANESE.search(ja), (
        ja
    )
    call = dict(sig, form="call", expr="tl.sigmoid(-a)", call="tl.sigmoid(-a)")
    assert "takes tl.sigmoid(-a), the sigmoid of the negated argument" in describe(call, "en")
    assert "18 行目は tl.sigmoid(-a) を計算" in describe(call, "ja")
