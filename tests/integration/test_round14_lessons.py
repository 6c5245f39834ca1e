"""Probe round 14, items 9-12 (`probe_round14/README.md`, "What to fix"): lesson data and judge rules that let a
wrong file fail with its own cause, each stated both ways — the wrong file fails with the cause (and its line), a
correct file of an earlier probe round in the same exercise still passes.

- 13/persistent-matmul gains the variant { BLOCK_M = 16, BLOCK_N = 64, GROUP_M = 3 } (M = 63: 4 tile rows, a short
  last group) and 10/autotune-matmul the case M = 129 (5 tile rows of the interpreter config's 32, GROUP_M 4): a
  group height of `num_pid_m % GROUP_M or GROUP_M` leaves tile rows unwritten there.
- `_size_threshold` takes no pass as evidence where the zero_row contract made it degenerate (a threshold over the
  rows, or a case of one row): a stage 2 that counts partial row 0 twice passes M = 1 and M = 3 only because row 0
  is all zeros.
- computed-zero says which loop never ran (the kernels never loaded k and v, which only that loop loads) and names
  its bound's line; 11/attention gains S = 17, where a causal key bound of seq_len - 1 drops the last key block.
- rescale-after-add also reads the two statements of a key loop: `acc = tl.dot(p, v, acc); acc = acc * alpha`."""

import ast
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROUND14 = HERE / "probe_round14"
ROOT = HERE.parent.parent


def verify(worker, exercise: str, path: Path) -> dict:
    return worker.request("verify", {"exercise": exercise, "file": str(path)}, timeout=600)


def first_failure(result: dict) -> tuple[dict, dict]:
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad, (bad["diagnoses"][0] if bad.get("diagnoses") else {})


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# --- item 9: a group height that is the remainder in every group --------------------------------------------


def test_persistent_matmul_group_height_remainder_leaves_rows_unwritten(worker):
    path = ROUND14 / "l13_persistent_matmul_wrong_every_group_height_is_the_remainder.py"
    result = verify(worker, "13/persistent-matmul", path)
    assert result["passed"] is False, "a wrong file passed"
    bad, diag = first_failure(result)
    assert bad["kwargs"] == {"BLOCK_M": 16, "BLOCK_N": 64, "GROUP_M": 3}, bad["kwargs"]
    assert (diag.get("kind"), diag.get("cause")) == ("unwritten", "tile-id-map"), diag
    assert diag.get("line") == line_of(path, "pid_m, pid_n = tile_coords("), diag
    assert "min(num_pid_m - first_pid_m, GROUP_M)" in diag["message"], diag["message"]


@pytest.mark.parametrize(
    "name",
    [
        "probe_round7_01_07_13/l13_persistent_matmul_ok_swizzle2d.py",
        "probe_round9_11_14/l13_persistent_matmul_ok_snake_order_in_group.py",
    ],
)
def test_persistent_matmul_grouped_orders_still_pass(worker, name):
    result = verify(worker, "13/persistent-matmul", HERE / name)
    assert result["passed"], result.get("summary")


def test_autotune_matmul_group_height_remainder_leaves_rows_unwritten(worker, tmp_path):
    solution = (ROOT / "kernels" / "autotune_matmul.py").read_text()
    right = "group_size_m = min(num_pid_m - first_pid_m, GROUP_M)"
    assert solution.count(right) == 1
    path = tmp_path / "l10_autotune_wrong_group_height_is_the_remainder.py"
    path.write_text(solution.replace(right, "group_size_m = num_pid_m % GROUP_M or GROUP_M"))
    result = verify(worker, "10/autotune-matmul", path)
    assert result["passed"] is False, "a wrong file passed"
    bad, diag = first_failure(result)
    assert bad["params"] == {"M": 129, "N": 1, "K": 1}, bad["params"]
    assert (diag.get("kind"), diag.get("cause")) == ("unwritten", "tile-map"), diag
    # the group height's own line is named (twenty-sixth session)
    assert (
        diag.get("group_line") == diag.get("line") == line_of(path, "group_size_m = num_pid_m % GROUP_M")
    ), diag
    assert "min(num_pid_m - first_pid_m, GROUP_M)" in diag["message"], diag["message"]


@pytest.mark.parametrize(
    "name",
    [
        "probe_round4/l10_autotune_ok_heuristics_group_m.py",
        "probe_round14/l10_autotune_ok_swizzle2d_order_tl_range_num_stages.py",
    ],
)
def test_autotune_matmul_grouped_orders_still_pass(worker, name):
    result = verify(worker, "10/autotune-matmul", HERE / name)
    assert result["passed"], result.get("summary")


# --- item 10: zero_row and size-threshold ---------------------------------------------------------------------


def test_a_partial_counted_twice_is_a_wrong_grad_w_not_a_size_threshold(worker):
    path = ROUND14 / "l12_rms_backward_wrong_stage2_counts_first_partial_twice.py"
    result = verify(worker, "12/rms-norm-backward", path)
    assert result["passed"] is False, "a wrong file passed"
    _, diag = first_failure(result)
    assert diag.get("kind") == "mismatch" and diag.get("output") == "grad_w", diag
    assert diag.get("cause") not in ("size-threshold", "param-threshold"), diag


@pytest.mark.parametrize(
    "name",
    [
        "probe_round5_11_12/l12_rms_backward_ok_stage2_tile_sum.py",
        "probe_round14/l12_rms_backward_ok_two_rows_per_program_rstd_recomputed_in_kernel.py",
    ],
)
def test_rms_backward_two_stage_files_still_pass(worker, name):
    result = verify(worker, "12/rms-norm-backward", HERE / name)
    assert result["passed"], result.get("summary")


class _Spec:
    def __init__(self, name, shape):
        self.name, self.shape, self.is_scalar = name, shape, False


class _Exercise:
    def __init__(self, contracts):
        self.verify = type("V", (), {"contracts": contracts})()
        self.inputs = [_Spec("x", ["M", "N"]), _Spec("w", ["N"])]


def _cases(rows_cols_passed):
    cases = []
    for m, n, passed in rows_cols_passed:
        diagnoses = [] if passed else [{"kind": "mismatch", "cause": "all-wrong", "message": "x"}]
        cases.append(
            {"params": {"M": m, "N": n}, "dtype": "float32", "passed": passed, "diagnoses": diagnoses}
        )
    return cases


def test_size_threshold_ignores_passes_the_zero_row_made():
    from tritonlab.engine.tasks.verify import _size_threshold

    rows = [(1, 1, True), (3, 7, True), (10, 100, False)]
    zeroed, plain = _cases(rows), _cases(rows)
    _size_threshold(zeroed, {"M", "N"}, _Exercise({"zero_row": "x"}))
    assert zeroed[2]["diagnoses"][0]["cause"] == "all-wrong", zeroed[2]["diagnoses"][0]
    _size_threshold(plain, {"M", "N"}, _Exercise({}))
    assert plain[2]["diagnoses"][0]["cause"] == "size-threshold", plain[2]["diagnoses"][0]


def test_size_threshold_over_columns_keeps_cases_of_several_rows():
    """A threshold over N is still said under zero_row when the passing cases have rows the lab left alone."""
    from tritonlab.engine.tasks.verify import _size_threshold

    cases = _cases([(1, 1, True), (4, 16, True), (4, 64, True), (4, 5000, False)])
    _size_threshold(cases, {"M", "N"}, _Exercise({"zero_row": "x"}))
    diag = cases[3]["diagnoses"][0]
    assert (diag["cause"], diag["param"], diag["passed_up_to"]) == ("size-threshold", "N", 64), diag


# --- item 11: a causal key loop that never runs ---------------------------------------------------------------


def test_a_causal_key_bound_one_short_names_the_loop_that_never_ran(worker):
    path = ROUND14 / "l11_attention_wrong_causal_key_bound_clamped_to_seq_len_minus_one.py"
    result = verify(worker, "11/attention", path)
    assert result["passed"] is False, "a wrong file passed"
    _, diag = first_failure(result)
    assert (diag.get("cause"), diag.get("loop_kind")) == ("computed-zero", "never-ran"), diag
    assert diag.get("line") == line_of(path, "hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len - 1)"), diag
    assert diag.get("loop_line") == line_of(path, "for start_n in tl.range(0, hi, BLOCK_N)"), diag
    assert diag.get("inputs") == ["k", "v"], diag
    # the bound shows on a real case too: S = 17, the last key alone in its block, loses its key
    failed = {
        (c["params"]["S"], bool((c.get("kwargs") or {}).get("causal")))
        for c in result["cases"]
        if not c["passed"] and c.get("params")
    }
    assert (17, True) in failed, failed


@pytest.mark.parametrize(
    "name",
    [
        "probe_round6_11_14/l11_attention_ok_causal_masked_end_unclamped.py",
        "probe_round14/l11_attention_ok_3d_grid_int64_offsets_single_masked_loop.py",
    ],
)
def test_attention_causal_bounds_still_pass(worker, name):
    result = verify(worker, "11/attention", HERE / name)
    assert result["passed"], result.get("summary")


def test_a_zero_output_whose_loop_ran_keeps_the_general_explanation():
    """Every input loaded (the runner's `unread` is empty): no loop is said to have never run."""
    from tritonlab.engine.tasks.verify import _loop_never_ran

    path = ROUND14 / "l11_attention_wrong_causal_key_bound_clamped_to_seq_len_minus_one.py"
    assert _loop_never_ran(str(path), []) is None
    assert _loop_never_ran(str(path), ["q"]) is None  # q is loaded before the loop, not in it
    found = _loop_never_ran(str(path), ["k", "v"])
    assert found is not None and found["bound_line"] == line_of(path, "hi = tl.minimum("), found


# --- item 12: rescale after add in an attention's key loop ----------------------------------------------------


def test_attention_acc_rescaled_after_adding_the_block_is_named(worker):
    path = ROUND14 / "l11_attention_wrong_acc_rescaled_after_adding_block.py"
    result = verify(worker, "11/attention", path)
    assert result["passed"] is False, "a wrong file passed"
    _, diag = first_failure(result)
    assert diag.get("cause") == "rescale-after-add", diag
    assert diag.get("line") == line_of(path, "acc = acc * alpha[:, None]"), diag
    assert (diag.get("name"), diag.get("factor")) == ("acc", "alpha[:, None]"), diag


@pytest.mark.parametrize(
    "name",
    [
        "probe_round6_11_14/l11_attention_ok_lazy_max_threshold.py",
        "probe_round7_11_14/l11_attention_ok_tutorial_stages_l_init_one.py",
    ],
)
def test_attention_rescales_before_the_add_still_pass(worker, name):
    result = verify(worker, "11/attention", HERE / name)
    assert result["passed"], result.get("summary")


def _rescaled(tmp_path: Path, body: str) -> dict | None:
    from tritonlab.engine.tasks.verify import _rescaled_after_add

    path = tmp_path / "k.py"
    path.write_text(
        "import triton.language as tl\n\n\ndef f(q, k, v, m_i, acc, n):\n    for i in range(n):\n"
        + "".join(f"        {line}\n" for line in body.splitlines())
        + "    return acc\n"
    )
    ast.parse(path.read_text())
    return _rescaled_after_add(str(path))


@pytest.mark.parametrize(
    "body",
    [
        "m_new = tl.maximum(m_i, 1.0)\nalpha = tl.exp2(m_i - m_new)\nacc = tl.dot(q, v, acc)\nacc = acc * alpha",
        "alpha = tl.exp(m_i - 1.0)\nacc += tl.dot(q, v)\nacc *= alpha[:, None]",
        "acc = acc + tl.dot(q, v)\nacc = tl.exp2(m_i - 2.0)[:, None] * acc",
        "alpha = tl.exp2(m_i - 1.0)\nacc = tl.dot(q, v, acc=acc)\nif n > 1:\n    acc = acc * alpha[:, None]",
    ],
)
def test_rescale_after_add_in_two_statements_is_found(tmp_path, body):
    found = _rescaled(tmp_path, body)
    assert found is not None and found["name"] == "acc", found


@pytest.mark.parametrize(
    "body",
    [
        "alpha = tl.exp2(m_i - 1.0)\nacc = acc * alpha[:, None]\nacc = tl.dot(q, v, acc)",
        "alpha = tl.exp2(m_i - 1.0)\nacc = acc * alpha[:, None] + tl.dot(q, v)",
        "acc = tl.dot(q, v, acc)\nacc = acc * 0.5",  # not the old max's factor
        "alpha = tl.exp2(m_i - 1.0)\nacc = tl.dot(q, v, acc)\nacc = tl.zeros_like(acc)\nacc = acc * alpha",
    ],
)
def test_rescale_before_add_is_not_found(tmp_path, body):
    assert _rescaled(tmp_path, body) is None


def test_a_small_hidden_case_is_no_threshold_evidence_where_zero_row_made_it_degenerate():
    """CI (f067e83) once named this file size-threshold: the hidden random case drew M = 2 (one row per
    program, partial row 0 all zeros), which passed with an N below the failing case's and made a threshold over
    N. A zero_row exercise's passing case with fewer rows than the failing one is no evidence now; an exercise
    without zero_row still gets the threshold from the same cases."""
    from tritonlab.content.loader import load_catalog
    from tritonlab.engine.tasks import verify as judge

    def cases():
        made = [
            {"params": {"M": m, "N": n}, "passed": True, "diagnoses": []}
            for m, n in ((1, 1), (3, 7), (2, 90))
        ]
        wrong = {"kind": "mismatch", "cause": "all-wrong", "message": "every element is wrong"}
        return made + [{"params": {"M": 10, "N": 100}, "passed": False, "diagnoses": [wrong]}]

    catalog = load_catalog()
    zeroed = cases()
    judge._size_threshold(zeroed, {"M", "N"}, catalog.exercise("12/rms-norm-backward"))
    assert zeroed[-1]["diagnoses"][0]["cause"] == "all-wrong", zeroed[-1]["diagnoses"][0]
    plain = cases()
    judge._size_threshold(plain, {"M", "N"}, catalog.exercise("8/row-sum"))
    assert plain[-1]["diagnoses"][0]["cause"] in ("size-threshold", "param-threshold"), plain[-1][
        "diagnoses"
    ][0]
