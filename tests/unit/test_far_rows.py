"""The far_rows contract (lesson 14's cross-entropy): a case whose input has its rows 2**30 elements apart, so a
row offset computed in int32 wraps at row 2, made without touching the 4 GiB between the rows; the bounds
checker's `int32_wrap` fact; the case pattern that names it when a GPU reads wrapped memory that exists."""

from __future__ import annotations

import resource
from types import SimpleNamespace

import torch

from tritonlab.content.model import InputSpec
from tritonlab.engine import memcheck
from tritonlab.engine.exercise_env import case_name
from tritonlab.engine.inputs import place_inputs
from tritonlab.engine.memcheck.report import OutOfBounds
from tritonlab.engine.tasks.verify import _case_patterns, _far_rows_case, _random_count, iter_cases


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def test_far_rows_view_leaves_the_span_between_rows_untouched():
    allocator = memcheck.GuardedAllocator("cpu", guard_elems=64)
    before = _rss_mib()
    x = allocator.empty((3, 300), torch.float16, layout="far-rows", name="logits")
    assert x.shape == (3, 300) and x.stride() == (2**30, 1)
    assert x.untyped_storage().nbytes() >= (2 * 2**30 + 300) * 2  # 4 GiB of address space
    assert _rss_mib() - before < 64  # the pages between the rows were never written
    assert bool(memcheck.is_poison(x).all())  # the rows start poisoned, like every lab input
    band = x.untyped_storage()
    after_row0 = torch.empty(0, dtype=torch.float16).set_(band, 64 + 300, (600,), (1,))
    assert bool(memcheck.is_poison(after_row0, guard=True).all())  # a stride-ignoring kernel reads NaN guards
    x.copy_(torch.ones(3, 300))
    assert allocator.check() == []
    assert allocator.sparse_storages() == {x.untyped_storage().data_ptr()}


def test_far_rows_guard_after_the_last_row_catches_a_store_past_it():
    allocator = memcheck.GuardedAllocator("cpu", guard_elems=64)
    x = allocator.empty((3, 8), torch.float32, layout="far-rows", name="x")
    x.as_strided((10,), (1,), x.storage_offset() + 2 * 2**30)[8:].fill_(1.0)  # two elements past row 2
    problems = allocator.check()
    assert [(p["name"], p["side"], p["changed"]) for p in problems] == [("x", "after", 2)]


def _exercise(far="logits", dtypes=("float32", "float16", "bfloat16")):
    spec = SimpleNamespace(
        gpu=[{"M": 1, "V": 1}, {"M": 64, "V": 128256}, {"M": 4, "V": 300}],
        interpreter=[{"M": 1, "V": 1}, {"M": 4, "V": 300}, {"M": 3, "V": 1000}],
        dtypes=list(dtypes),
        seeds=[0],
        variants=[{}],
        hidden=None,
        contracts={"far_rows": far} if far else {},
    )
    logits = InputSpec(name="logits", shape=["M", "V"])
    target = InputSpec(name="target", shape=["M"], dtype="int64")
    return SimpleNamespace(verify=spec, inputs=[logits, target])


def test_the_far_rows_case_takes_the_smallest_wide_case_three_rows_and_the_narrowest_dtype():
    ex = _exercise()
    case = _far_rows_case(ex, ex.verify.gpu, [{}])
    assert case == ({"M": 3, "V": 300}, "float16", 0, {"@far_rows": "logits"})
    cases = list(iter_cases(ex, "interpreter", seed=7))
    assert sum("@far_rows" in c[3] for c in cases) == 1
    assert _random_count(cases, ex, "interpreter", {}) == 1  # the far-rows case is not the random one
    assert case_name(*case) == "M=3, V=300 · float16 · logits.stride(0)=2**30"


def test_no_far_rows_case_without_the_contract_or_for_a_1d_input():
    assert _far_rows_case(_exercise(far=None), [{"M": 4, "V": 300}], [{}]) is None
    assert _far_rows_case(_exercise(far="target"), [{"M": 4, "V": 300}], [{}]) is None
    assert not any("@far_rows" in c[3] for c in iter_cases(_exercise(far=None), "gpu"))


def test_place_inputs_puts_only_the_named_input_of_a_far_rows_case_far_apart():
    ex = _exercise()
    values = {"logits": torch.randn(3, 5), "target": torch.tensor([0, 1, 4])}
    allocator = memcheck.GuardedAllocator("cpu", guard_elems=16)
    placed = place_inputs(ex, {"M": 3, "V": 5}, "float32", values, allocator, {"@far_rows": "logits"})
    assert placed["logits"].stride() == (2**30, 1) and torch.equal(placed["logits"], values["logits"])
    assert placed["target"].is_contiguous() and torch.equal(placed["target"], values["target"])
    plain = place_inputs(ex, {"M": 3, "V": 5}, "float32", values, memcheck.GuardedAllocator("cpu", 16))
    assert plain["logits"].stride() == (5, 1)


def _oob(span, extent=2 * 2**30 + 300, strides=(2**30, 1)):
    return OutOfBounds(
        access="load",
        kernel="k",
        arg="logits_ptr",
        program_id=(2, 0, 0),
        lanes=300,
        offsets=list(range(span[0], span[0] + 8)),
        extent=extent,
        numel=900,
        shape=(3, 300),
        strides=strides,
        reason="before_start",
        span=span,
        file=None,
        line=None,
    )


def test_an_offset_before_the_tensor_that_is_an_inside_offset_minus_2_32_is_an_int32_wrap():
    wrapped = _oob((-(2**31), -(2**31) + 299))
    assert wrapped.int32_wrap == {"offset": 2**31, "row": 2, "row_stride": 2**30}
    assert "int32" in wrapped.message and "int64" in wrapped.message
    assert wrapped.to_dict()["int32_wrap"]["row"] == 2


def test_a_plain_negative_offset_is_not_called_an_int32_wrap():
    assert _oob((-1, 8)).int32_wrap is None  # one element before the start: a mask or an off-by-one
    assert _oob((-300, -1)).int32_wrap is None
    assert (
        _oob((-(2**31), -(2**31) + 299), extent=900, strides=(300, 1)).int32_wrap is None
    )  # beyond the view
    assert "int32" not in _oob((-300, -1)).message


def _pcase(far, passed, kind="mismatch"):
    case = {
        "params": {"M": 3, "V": 300},
        "dtype": "float16",
        "kwargs": {"@far_rows": "logits"} if far else {},
        "passed": passed,
    }
    case["diagnoses"] = [] if passed else [{"kind": kind, "cause": None, "message": "1 element differs: x"}]
    return case


def test_only_the_far_rows_case_failing_with_wrong_values_names_the_int32_row_offset():
    cases = [_pcase(False, True), _pcase(False, True), _pcase(True, False)]
    _case_patterns(cases, ["float16"])
    diag = cases[2]["diagnoses"][0]
    assert diag["cause"] == "far-rows" and diag["input"] == "logits" and "int64" in diag["message"]


def test_far_rows_is_not_blamed_when_other_cases_fail_too_or_for_an_out_of_bounds_access():
    cases = [_pcase(False, False), _pcase(False, True), _pcase(True, False)]
    _case_patterns(cases, ["float16"])
    assert all(d.get("cause") != "far-rows" for c in cases for d in c["diagnoses"])
    oob = [_pcase(False, True), _pcase(True, False, kind="oob")]
    _case_patterns(oob, ["float16"])
    assert oob[1]["diagnoses"][0].get("cause") is None


def test_the_wrap_and_the_far_rows_cause_are_said_in_both_languages():
    from tritonlab.present.diagnoses import describe

    detail = _oob((-(2**31), -(2**31) + 299)).to_dict()
    en, ja = (describe({"kind": "oob", "line": 19, "detail": detail}, lang) for lang in ("en", "ja"))
    assert "2,147,483,648" in en and "int32" in en and "tl.int64" in en and "row 2" in en
    assert "折り返" in ja and "int64" in ja and "行 2" in ja
    plain = _oob((-300, -1)).to_dict()
    assert "int32" not in describe({"kind": "oob", "line": 19, "detail": plain}, "en")
    far = {"kind": "mismatch", "cause": "far-rows", "input": "logits", "message": "x"}
    assert "logits.stride(0)" in describe(far, "en") and "logits.stride(0)" in describe(far, "ja")
    assert "2**30" in describe(far, "ja") and "int64" in describe(far, "ja")


def test_a_gpu_fault_in_the_far_rows_case_replays_that_case_on_the_interpreter_and_names_the_wrap():
    """On the H200 the int32 file's wrapped load faults (illegal address); the exact case, far-rows layout
    included (its "@far_rows" travels in the case's kwargs), replays on the bounds checker, which names it."""
    from pathlib import Path

    from tritonlab.engine.replay import replay_on_interpreter

    probe = Path(__file__).resolve().parents[1] / "integration" / "probe_round6_11_14"
    case = {"params": {"M": 3, "V": 300}, "dtype": "float16", "seed": 0, "kwargs": {"@far_rows": "logits"}}
    args = {
        "exercise": "14/cross-entropy",
        "file": str(probe / "l14_cross_entropy_wrong_int32_row_offset.py"),
    }
    found = replay_on_interpreter(args, timeout=300, case=case, exact_only=True)
    assert found["line"] == 19 and found["detail"]["int32_wrap"]["row"] == 2, found
    args["file"] = str(probe / "l14_cross_entropy_ok_contiguous_copy_first.py")
    assert replay_on_interpreter(args, timeout=300, case=case, exact_only=True).get("line") is None


def test_a_gpu_too_small_for_the_far_rows_layout_runs_the_case_contiguous_and_says_so():
    """False-fail guard: a GPU allocates all 4 GiB of the span (the CPU only the pages written); with too little
    free memory the case runs with contiguous rows and a note instead of dying of out-of-memory."""
    from tritonlab.present.diagnoses import describe

    allocator = memcheck.GuardedAllocator("cpu", guard_elems=16)
    assert allocator.far_rows_shortfall((3, 300), torch.float16) is None  # the CPU: pages on demand
    short = allocator.far_rows_shortfall((3, 300), torch.float16, free=3 * 2**30)
    assert short is not None and short["needed"] > 4 * 10**9 and short["free"] == 3 * 2**30
    assert allocator.far_rows_shortfall((3, 300), torch.float16, free=40 * 2**30) is None

    class Small(memcheck.GuardedAllocator):
        def far_rows_shortfall(self, shape, dtype, free=None):
            return super().far_rows_shortfall(shape, dtype, free=2 * 2**30)

    ex = _exercise()
    values = {"logits": torch.randn(3, 5), "target": torch.tensor([0, 1, 4])}
    small = Small("cpu", guard_elems=16)
    placed = place_inputs(ex, {"M": 3, "V": 5}, "float32", values, small, {"@far_rows": "logits"})
    assert placed["logits"].stride() == (5, 1) and small.far_rows_declined["input"] == "logits"
    from tritonlab.engine import contracts

    note = contracts.far_rows_contiguous(
        "logits", {k: v for k, v in small.far_rows_declined.items() if k != "input"}
    )
    assert note["kind"] in contracts.NOTE_KINDS
    en, ja = describe(note, "en"), describe(note, "ja")
    assert "contiguous" in en and "2.0 GiB are free" in en and "int32" in en
    assert "連続" in ja and "2.0 GiB" in ja


def test_a_passing_summary_says_its_notes_once_in_the_learners_language():
    from tritonlab.engine import contracts
    from tritonlab.present.verify import summary

    note = contracts.far_rows_contiguous("logits", {"needed": 4 * 2**30 + 8192, "free": 2 * 2**30})
    tiles = contracts.tiles_not_varied(["BLOCK_M"], "matmul")
    cases = [
        {"name": "a", "passed": True, "notes": [note]},
        {"name": "b", "passed": True, "notes": [tiles]},
        {"name": "c", "passed": True, "notes": [tiles]},
        {"name": "d", "passed": True},
    ]
    result = {"passed": True, "backend": "gpu", "cases": cases}
    en, ja = summary(result, "en"), summary(result, "ja")
    assert en.startswith("all 4 cases pass") and "note:" in en and en.count("BLOCK_M") == 1
    assert "the rows of logits contiguous" in en and "注記" in ja and "連続" in ja
    assert "note" not in summary({"passed": True, "backend": "gpu", "cases": cases[3:]}, "en")


def test_the_far_rows_span_is_added_to_the_runners_address_space_and_not_taken_from_the_learner():
    from tritonlab.engine.tasks.verify import _far_rows_bytes

    ex = _exercise()
    far = _far_rows_case(ex, ex.verify.interpreter, [{}])
    extra = _far_rows_bytes(ex, *far)
    assert 4 * 2**30 < extra < 5 * 2**30  # 2 * 2**30 float16 elements and some slack
    assert _far_rows_bytes(ex, {"M": 3, "V": 300}, "float16", 0, {}) == 0


def test_a_far_rows_allocation_refused_by_the_address_space_limit_falls_back_to_contiguous():
    class Refusing(memcheck.GuardedAllocator):
        def far_rows(self, shape, dtype=torch.float32, name=None):
            raise RuntimeError("DefaultCPUAllocator: can't allocate memory")

    ex = _exercise()
    values = {"logits": torch.randn(3, 5), "target": torch.tensor([0, 1, 4])}
    refusing = Refusing("cpu", guard_elems=16)
    placed = place_inputs(ex, {"M": 3, "V": 5}, "float32", values, refusing, {"@far_rows": "logits"})
    assert placed["logits"].stride() == (5, 1) and torch.equal(placed["logits"], values["logits"])
    assert refusing.far_rows_declined["free"] is None and refusing.far_rows_declined["input"] == "logits"
    from tritonlab.engine import contracts
    from tritonlab.present.diagnoses import describe

    note = contracts.far_rows_contiguous("logits", {"needed": 2**32, "free": None})
    assert "address-space" in note["message"] and "TRITONLAB_RUNNER_AS" in describe(note, "en")
    assert "アドレス空間" in describe(note, "ja")


# ---- lesson data: a far_rows or row contract that names the wrong input is a problem at its line --------------


def _contract_lab(root, contracts: str, extra: str = ""):
    from tests.unit.test_loader import make_lesson
    from tests.unit.test_optional_inputs import LESSON, kernel

    text = LESSON.replace("VARIANTS", "[{}]") + extra + "    [exercise.verify.contracts]\n" + contracts + "\n"
    make_lesson(root / "lessons", "42-test", text.replace("optional = true\n", ""))
    (root / "kernels").mkdir(parents=True, exist_ok=True)
    (root / "kernels" / "add_bias_solution.py").write_text(kernel(), encoding="utf-8")
    from tritonlab.content.loader import load_catalog

    return load_catalog(root / "lessons", root / "kernels")


def test_far_rows_on_a_2d_input_loads(tmp_path):
    catalog = _contract_lab(tmp_path, '    far_rows = "x"')
    assert not catalog.problems, [str(p) for p in catalog.problems]
    assert catalog.exercise("42").verify.contracts == {"far_rows": "x"}


def test_far_rows_naming_an_unknown_or_1d_input_is_a_problem(tmp_path):
    (problem,) = _contract_lab(tmp_path / "a", '    far_rows = "logits"').problems
    assert problem.code == "unknown-inputs" and problem.values["names"] == ["logits"], problem
    assert problem.line is not None and "far_rows" in problem.text("en")
    (problem,) = _contract_lab(tmp_path / "b", '    far_rows = "bias"').problems
    assert problem.code == "far-rows-input" and problem.values["shape"] == ["N"], problem
    assert "2D" in problem.text("en") and "2 次元" in problem.text("ja")


def test_a_misspelt_row_contract_is_a_problem(tmp_path):
    (problem,) = _contract_lab(tmp_path, '    zero_row = "xx"').problems
    assert problem.code == "unknown-inputs" and "zero_row" in problem.values["key"], problem


def test_far_rows_with_a_verify_plan_is_a_problem(tmp_path):
    # the plan (several outputs, gradients, ops) calls the wrapper without the case's far-rows layout
    (problem,) = _contract_lab(tmp_path, '    far_rows = "x"', '    outputs = ["out"]\n').problems
    assert problem.code == "far-rows-plan" and problem.values["name"] == "x", problem
    assert "outputs" in problem.text("en") and "併用できません" in problem.text("ja")
