"""Round 6's causes for lessons 11-12 (engine/refit.py, verify._masked_block): each fires on the wrong output it
names and stays quiet on a nearby different bug and on a right output.

- `scale`: FlashAttention's output equals the reference at another sm_scale (the scale applied twice);
- `padding-counted`: the output equals the reference with the streamed axis zero-padded to the block (keys past
  seq_len with score 0; a softmax row's padding loaded as 0);
- `masked-block`: only the causal cases fail, with inf/NaN in exactly the first rows of each sequence;
- `along-input`: every wrong row of grad_x is off by a multiple of its row of x (the mean over BLOCK_N).
"""

import math

import torch
import torch.nn.functional as F

from tritonlab.engine import exercise_env, outputs, refit
from tritonlab.engine.tasks.verify import _case_patterns
from tritonlab.present.diagnoses import describe

LOG2_E = math.log2(math.e)


def _attention():
    return exercise_env.catalog().exercise("11/attention")


def _qkv(S=20, D=32, B=1, H=2, dtype=torch.float16, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return {n: torch.randn(B, H, S, D, generator=gen).to(dtype) for n in ("q", "k", "v")}


def _sdpa(inputs, causal=False, scale=None):
    q, k, v = (inputs[n].float() for n in ("q", "k", "v"))
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale).to(inputs["q"].dtype)


def _mismatch():
    return [{"kind": "mismatch", "cause": None, "message": "99 elements differ beyond tolerance: x"}]


def _explain(got, inputs, kwargs, S, block=16, atol=3e-3, rtol=1e-2):
    diagnoses = _mismatch()
    params = {"B": 1, "H": 2, "S": S, "D": inputs["q"].shape[-1]}
    refit.explain(
        diagnoses, _attention(), got, inputs, params, kwargs, {"BLOCK_M": 32, "BLOCK_N": block}, atol, rtol
    )
    return diagnoses[0]


# --- scale -------------------------------------------------------------------------------------------------------


def test_scores_scaled_twice_are_the_reference_at_another_scale_causal_or_not():
    inputs = _qkv(S=16)
    right = 32**-0.5  # the default 1/sqrt(d)
    plain = _explain(_sdpa(inputs, scale=right * right * LOG2_E), inputs, {}, 16)
    assert plain["cause"] == "scale" and plain["form"] == "twice-log2e", plain
    assert "flatter" in plain["message"] and "applied twice" in plain["message"]
    causal = _explain(_sdpa(inputs, True, 0.5 * 0.5 * LOG2_E), inputs, {"causal": True, "sm_scale": 0.5}, 16)
    assert causal["cause"] == "scale" and causal["keyword"] == "sm_scale" and causal["right"] == 0.5
    assert abs(causal["factor"] - 0.5 * LOG2_E) < 0.01 and causal["form"] == "twice-log2e"
    sharp = _explain(_sdpa(inputs, scale=1.0), inputs, {}, 16)  # no scale: 1 where 1/sqrt(32) belongs
    assert sharp["cause"] == "scale" and sharp["form"] == "missing" and "sharper" in sharp["message"]


def test_a_scale_is_not_claimed_for_another_bug_or_for_noise():
    inputs = _qkv(S=16)
    flipped = _explain(_sdpa(inputs, causal=False, scale=0.5), inputs, {"causal": True, "sm_scale": 0.5}, 16)
    assert flipped["cause"] is None, flipped  # the causal mask left out: no scale makes it causal
    right = _sdpa(inputs)
    noise = torch.randn(right.shape, generator=torch.Generator().manual_seed(1)) * 0.05
    noisy = _explain((right.float() + noise).to(right.dtype), inputs, {}, 16)
    assert noisy["cause"] is None, noisy


def test_a_scale_needs_the_exercise_to_name_its_scale_keyword():
    exercise = exercise_env.catalog().exercise("11/online-softmax")  # no `scale` contract
    x = torch.randn(3, 40)
    got = torch.softmax(x * 0.5, dim=-1)
    assert refit.scale_fit(exercise, {"x": x}, {"M": 3, "N": 40}, {}, got, 1e-6, 1e-5) is None


# --- padding counted in ------------------------------------------------------------------------------------------


def _padded_keys(inputs, width, scale=None):
    S = inputs["q"].shape[2]
    pad = {n: torch.cat([t, t.new_zeros(*t.shape[:2], width - S, t.shape[3])], 2) for n, t in inputs.items()}
    return _sdpa(pad, scale=scale)[:, :, :S]


def test_keys_past_the_sequence_end_summed_in_are_the_padding():
    inputs = _qkv(S=20)
    found = _explain(_padded_keys(inputs, 32), inputs, {}, 20)
    assert found["cause"] == "padding-counted" and (found["size"], found["padded_to"]) == (20, 32), found
    assert "past the end" in found["message"] and "divide by N" not in found["message"]
    one = _qkv(S=1, D=16)
    single = _explain(_padded_keys(one, 16), one, {}, 1)  # S = 1: looked like "every element off by a factor"
    assert single["cause"] == "padding-counted" and single["padded_to"] == 16


def test_padding_is_not_claimed_for_a_whole_block_another_width_or_another_bug():
    whole = _qkv(S=32)
    assert refit.padded(_attention(), whole, {"S": 32}, {}, {"BLOCK_N": 16}, _sdpa(whole)) is None
    inputs = _qkv(S=20)
    other = _explain(_padded_keys(inputs, 24), inputs, {}, 20)  # padded to 24, the launch's block is 16
    assert other["cause"] is None, other
    twice = _explain(_sdpa(inputs, scale=(32**-0.5) ** 2 * LOG2_E), inputs, {}, 20)
    assert twice["cause"] == "scale", twice  # a wrong scale is not padding


def test_a_softmax_row_padded_with_zeros_is_the_padding_too():
    exercise = exercise_env.catalog().exercise("11/online-softmax")  # loop = ["N", "BLOCK_SIZE"]
    x = torch.randint(-100, 100, (3, 37)).float()
    got = torch.softmax(torch.cat([x, torch.zeros(3, 11)], 1), dim=-1)[:, :37]
    diagnoses = _mismatch()
    refit.explain(diagnoses, exercise, got, {"x": x}, {"M": 3, "N": 37}, {}, {"BLOCK_SIZE": 16}, 1e-6, 1e-5)
    assert diagnoses[0]["cause"] == "padding-counted" and diagnoses[0]["padded_to"] == 48
    right = _mismatch()
    scaled = torch.softmax(x, dim=-1) * 0.5  # off by a factor: not padding
    refit.explain(right, exercise, scaled, {"x": x}, {"M": 3, "N": 37}, {}, {"BLOCK_SIZE": 16}, 1e-6, 1e-5)
    assert right[0]["cause"] is None


# --- causal rows that see only masked keys -----------------------------------------------------------------------


def test_nan_in_the_first_rows_of_each_sequence_is_recorded_and_nan_in_the_last_rows_is_not():
    expected = torch.zeros(1, 2, 37, 16)
    first = expected.clone()
    first[:, :, :16] = float("nan")
    diag = [{"kind": "nan", "cause": None}]
    refit.lead_rows(diag, _attention(), first, expected, {"S": 37})
    assert diag[0]["lead_rows"] == 16 and diag[0]["lead_of"] == 37
    last = expected.clone()
    last[:, :, -1] = float("nan")  # the causal condition flipped: the last row sees no key
    kept = [{"kind": "nan", "cause": None}]
    refit.lead_rows(kept, _attention(), last, expected, {"S": 37})
    assert "lead_rows" not in kept[0]


def _case(S, causal, passed, lead=None, kind="nan"):
    kwargs = {"causal": True, "sm_scale": 0.5} if causal else {}
    case = {
        "params": {"B": 1, "H": 1, "S": S, "D": 16},
        "dtype": "float16",
        "kwargs": kwargs,
        "passed": passed,
    }
    case["meta"] = {"BLOCK_M": 32, "BLOCK_N": 16}
    case["diagnoses"] = (
        [] if passed else [{"kind": kind, "cause": None, "rows": [0], "message": "rows 0-15: x"}]
    )
    if lead and not passed:
        case["diagnoses"][0]["lead_rows"] = lead
    return case


def test_only_causal_cases_with_nan_in_their_first_rows_name_the_masked_block():
    cases = [_case(1, False, True), _case(1, True, True), _case(37, False, True), _case(37, True, False, 16)]
    cases += [_case(45, False, True), _case(45, True, False, 16)]
    _case_patterns(cases, ["float16"], {"loop": ["S", "BLOCK_N"]})
    first = cases[3]["diagnoses"][0]
    assert first["cause"] == "masked-block" and first["lead_rows"] == 16, first
    assert "causal=True" in first["message"] and "-inf" in first["message"]


def test_the_masked_block_is_not_named_without_its_evidence():
    # NaN rows not the first ones (no lead_rows): the loop-steps pattern stands
    cases = [_case(1, True, True), _case(37, False, True), _case(37, True, False), _case(45, True, False)]
    _case_patterns(cases, ["float16"], {"loop": ["S", "BLOCK_N"]})
    assert cases[2]["diagnoses"][0]["cause"] != "masked-block"
    # non-causal multi-step cases fail too: not a causal-only failure
    mixed = [_case(1, False, True), _case(37, False, False, 16), _case(37, True, False, 16)]
    _case_patterns(mixed, ["float16"], {"loop": ["S", "BLOCK_N"]})
    assert mixed[1]["diagnoses"][0]["cause"] != "masked-block"
    # no passing case without the keywords that takes several steps: the loop may be the cause
    short = [_case(1, False, True), _case(37, True, False, 16)]
    _case_patterns(short, ["float16"], {"loop": ["S", "BLOCK_N"]})
    assert short[1]["diagnoses"][0]["cause"] != "masked-block"
    # wrong values, not inf/NaN
    values = [_case(37, False, True), _case(37, True, False, 16, kind="mismatch")]
    _case_patterns(values, ["float16"], {"loop": ["S", "BLOCK_N"]})
    assert values[1]["diagnoses"][0]["cause"] != "masked-block"


# --- the mean of a norm's backward -------------------------------------------------------------------------------


def _rms_case(M=5, N=7, divide_by=None, outer_rstd=True):
    exercise = exercise_env.catalog().exercise("12/rms-norm-backward")
    plan = outputs.Plan.for_exercise(exercise, 0)
    gen = torch.Generator().manual_seed(3)
    x, w = torch.randn(M, N, generator=gen), torch.randn(N, generator=gen)
    x[0] = 0.0  # the zero_row contract
    inputs = {"x": x, "w": w, "eps": 1e-6}
    params = {"M": M, "N": N}
    expected = plan.reference(exercise, dict(inputs), params, {})
    dy = plan.upstream(expected[0]).float()
    rstd = torch.rsqrt((x * x).mean(1) + 1e-6)
    x_hat, g = x * rstd[:, None], dy * w
    mean = (g * x_hat).sum(1) / (divide_by or N)
    dx = g - x_hat * mean[:, None]
    dx = dx * rstd[:, None] if outer_rstd else dx
    got = (expected[0], dx, expected[2])
    diagnoses: list = []
    tols = {"*": (1e-4, 1e-4)}
    plan.compare(got, expected, tols, diagnoses, {})
    mine = [{"phase": "backward", "meta": {"BLOCK_N": 16}, "grid": [4]}]
    refit.along_input(exercise, plan, inputs, params, got, expected, tols, mine, diagnoses)
    return diagnoses


def test_a_mean_over_block_n_moves_each_row_along_x_by_n_over_block_n():
    diagnoses = _rms_case(divide_by=16)
    diag = next(d for d in diagnoses if d["output"] == "grad_x")
    assert diag["cause"] == "along-input" and diag["mean_block"] == "BLOCK_N", diag
    assert (
        abs(diag["mean_weight"] - 7 / 16) < 0.01
        and "BLOCK_N" in diag["message"]
        and "mean" in diag["message"]
    )
    assert 0 not in diag["rows_along"]  # the zeroed row is right


def test_a_right_gradient_or_another_gradient_bug_is_not_the_mean():
    assert _rms_case() == []  # right: no diagnosis to explain
    other = _rms_case(outer_rstd=False)  # dx without its outer rstd: wrong, but not along x
    diag = next(d for d in other if d["output"] == "grad_x")
    assert diag.get("cause") != "along-input", diag
    divided = _rms_case(divide_by=10)  # along x, but 7/10 is no block of the launch: no BLOCK_N claim
    diag = next(d for d in divided if d["output"] == "grad_x")
    assert (
        diag["cause"] == "along-input" and "mean_block" not in diag and abs(diag["mean_weight"] - 0.7) < 0.01
    )


# --- words -------------------------------------------------------------------------------------------------------


def test_each_new_cause_has_english_and_japanese_words():
    base = {"count": 10, "atol": 0.003, "rtol": 0.01, "max_abs_err": 0.5}
    said = {
        "scale": (
            {
                "kind": "mismatch",
                "cause": "scale",
                "keyword": "sm_scale",
                "right": 0.5,
                "fitted": 0.36,
                "factor": 0.7213,
                "form": "twice-log2e",
                **base,
            },
            ("sm_scale", "flatter", "applied twice"),
            ("sm_scale", "平坦", "2 回"),
        ),
        "padding-counted": (
            {
                "kind": "mismatch",
                "cause": "padding-counted",
                "param": "S",
                "block": "BLOCK_N",
                "size": 37,
                "padded_to": 48,
                **base,
            },
            ("padding", "past the end of S", "37 → 48"),
            ("パディング", "37 → 48", "-inf"),
        ),
        "masked-block": (
            {
                "kind": "nan",
                "cause": "masked-block",
                "variant": {"causal": True},
                "lead_rows": 16,
                "param": "S",
                "block": "BLOCK_N",
                "rows": [0, 1],
                "rows_count": 32,
                "count": 512,
            },
            ("causal=True", "first 16", "-inf"),
            ("causal=True", "最初の 16 行", "-inf"),
        ),
        "along-input": (
            {
                "kind": "mismatch",
                "cause": "along-input",
                "output": "grad_x",
                "input": "x",
                "mean_weight": 0.4375,
                "mean_block": "BLOCK_N",
                "block_value": 16,
                "n": 7,
                **base,
            },
            ("mean", "BLOCK_N", "7/16"),
            ("平均", "BLOCK_N", "7/16"),
        ),
    }
    for cause, (facts, en_words, ja_words) in said.items():
        en, ja = describe(facts, "en"), describe(facts, "ja")
        assert all(w in en for w in en_words), (cause, en)
        assert all(w in ja for w in ja_words), (cause, ja)
        assert "the output" not in ja and "check" not in ja, (cause, ja)
