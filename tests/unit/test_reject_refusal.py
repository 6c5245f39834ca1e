"""A reject case passes only on a refusal: an exception raised before the launch that is not a bug in the check
(a misspelled exception name raises NameError) and, where the exercise names classes (`refuse_with`), of one of
them (add-checked: ValueError, TypeError or RuntimeError — an assert disappears under python -O)."""

from types import SimpleNamespace

from tritonlab.engine.tasks.verify import judge_reject
from tritonlab.present.diagnoses import describe

REJECT = SimpleNamespace(name="device mismatch", why={"en": "x and y differ", "ja": "x と y が違う"})
ADD_CHECKED = ["ValueError", "TypeError", "RuntimeError"]


def facts(exc: BaseException, line: int | None = 21) -> dict:
    return {
        "raised": f"{type(exc).__name__}: {exc}",
        "raised_types": [c.__name__ for c in type(exc).__mro__],
        "raised_line": line,
        "launched": False,
    }


class AddInputError(ValueError):
    pass


def test_a_value_error_and_its_subclass_are_refusals():
    for exc in (ValueError("x is on cpu, y on meta"), AddInputError("bad"), RuntimeError("sizes differ")):
        case = judge_reject(REJECT, facts(exc), "learner.py", ADD_CHECKED)
        assert case["passed"], case
        assert case["raised"].startswith(type(exc).__name__)


def test_a_misspelled_exception_is_a_broken_check_not_a_refusal():
    case = judge_reject(REJECT, facts(NameError("name 'ValueErorr' is not defined")), "learner.py")
    assert not case["passed"]
    diag = case["diagnoses"][0]
    assert (diag["kind"], diag["cause"], diag["line"]) == ("validation", "broken-check", 21)
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "line 21" in en and "ValueErorr" in en and "bug in the check" in en, en
    assert "21 行目" in ja and "バグ" in ja, ja


def test_attribute_error_in_the_check_is_a_broken_check_everywhere():
    case = judge_reject(
        REJECT, facts(AttributeError("'Tensor' object has no attribute 'is_contigous'")), "f.py"
    )
    assert not case["passed"] and case["diagnoses"][0]["cause"] == "broken-check"


def test_an_assert_passes_where_the_exercise_names_no_class():
    # the official tutorials refuse with assert (5/add's device mismatch, 9/matmul's inner dimensions)
    case = judge_reject(REJECT, facts(AssertionError("devices differ")), "learner.py")
    assert case["passed"], case


def test_an_assert_fails_where_the_exercise_asks_for_value_or_type_error():
    case = judge_reject(REJECT, facts(AssertionError("devices differ"), line=20), "learner.py", ADD_CHECKED)
    assert not case["passed"]
    diag = case["diagnoses"][0]
    assert diag["cause"] == "refused-with" and diag["expected_types"] == ADD_CHECKED
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "ValueError, TypeError or RuntimeError" in en and "python -O" in en and "line 20" in en, en
    assert "ValueError、TypeError か RuntimeError" in ja and "python -O" in ja, ja


def test_facts_without_types_fall_back_to_the_exception_name():
    old = {"raised": "NameError: name 'ValueErorr' is not defined", "launched": False}
    assert not judge_reject(REJECT, old, "learner.py")["passed"]
    assert judge_reject(REJECT, {"raised": "ValueError: no", "launched": False}, "learner.py", ADD_CHECKED)[
        "passed"
    ]
