"""`tritonlab verify` in the terminal says an error once: the block above the case, not again under the case and
in the last line (it printed the same sentence three times); other diagnoses of the case are still listed."""

from rich.console import Console

from tritonlab.present.cli import print_verify

ERROR = {
    "kind": "runtime",
    "line": 130,
    "message": "the kernel parameter ACTIVATION is given the str '' and is not a tl.constexpr",
    "cause": "str-argument",
    "param": "ACTIVATION",
    "value": "",
}


def _printed(result: dict, lang: str = "en") -> str:
    console = Console(record=True, width=300)
    print_verify(console, result, lang)
    return console.export_text()


def _result(*diagnoses: dict) -> dict:
    case = {
        "name": "M=1",
        "params": {"M": 1},
        "dtype": "float16",
        "passed": False,
        "diagnoses": list(diagnoses),
    }
    return {
        "exercise": "9/matmul-bias",
        "backend": "interpreter",
        "passed": False,
        "cases": [case],
        "error": ERROR,
    }


def test_an_error_is_said_once_and_the_last_line_names_it():
    for lang, word in (("en", "ACTIVATION: tl.constexpr"), ("ja", "ACTIVATION: tl.constexpr と宣言")):
        out = _printed(_result(dict(ERROR)), lang)
        assert out.count(word) == 1, out
        last = out.strip().splitlines()[-1]
        assert last.startswith(("FAILED", "不合格")) and "130" in last and word not in last, last


def test_a_different_diagnosis_of_the_failing_case_is_still_listed():
    other = {"kind": "mismatch", "count": 3, "atol": 0.01, "rtol": 0.01, "max_abs_err": 1.0}
    out = _printed(_result(dict(ERROR), other))
    assert out.count("ACTIVATION: tl.constexpr") == 1 and "3 elements differ beyond tolerance" in out, out
