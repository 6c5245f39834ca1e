"""Optional inputs (`optional = true` on an input, `"@with" = [...]` on a variant): a case that passes the input
calls the wrapper with it by keyword, the judge and the runner build it alike, and the reference sees it (None
where it is not passed). Both ways: a case that passes it catches a wrong epilogue that no other case runs; a right
file passes; a wrapper without the parameter is told so."""

import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from tests.unit.test_loader import make_lesson
from tritonlab.content.loader import load_catalog
from tritonlab.content.model import InputSpec
from tritonlab.engine import contracts
from tritonlab.engine.client import WorkerClient
from tritonlab.engine.exercise_env import case_name, reference
from tritonlab.engine.inputs import call_args, case_inputs, digest, make_inputs, optional_passed
from tritonlab.present.diagnoses import describe

LESSON = textwrap.dedent("""
    format = 1
    number = 42
    title = { en = "Test", ja = "テスト" }

    [outcomes."L42.1"]
    sections = { en = ["A"], ja = ["あ"] }
    activities = ["exercise:add"]

    [[exercise]]
    id = "add"
    title = { en = "Add a bias", ja = "バイアスの加算" }
    starter = "add.py"
    solution = "add_bias_solution.py"
    entry = "add_bias"
    reference = "x + (0 if bias is None else bias)"
    hints = [{ en = "h", ja = "ヒント" }, { en = "h2", ja = "ヒント2" }]
    [exercise.inputs.x]
    shape = ["M", "N"]
    [exercise.inputs.bias]
    shape = ["N"]
    optional = true
    [exercise.verify]
    dtypes = ["float32"]
    interpreter = [{ M = 3, N = 5 }, { M = 4, N = 8 }]
    variants = VARIANTS
""")
WITH_BIAS = '[{}, { "@with" = ["bias"] }]'

KERNEL = textwrap.dedent("""
    import torch
    import triton
    import triton.language as tl


    @triton.jit
    def add_bias_kernel(x_ptr, b_ptr, out_ptr, N, stride_xm, stride_om, HAS_BIAS: tl.constexpr,
                        BLOCK_N: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0)
        if HAS_BIAS:
            x += BIAS_LOAD
        tl.store(out_ptr + row * stride_om + cols, x, mask=mask)


    def add_bias(x, SIGNATURE):
        PRELUDE
        M, N = x.shape
        out = torch.empty_like(x)
        add_bias_kernel[(M,)](x, bias if bias is not None else x, out, N, x.stride(0), out.stride(0),
                              HAS_BIAS=bias is not None, BLOCK_N=triton.next_power_of_2(N))
        return out
""")
RIGHT = "tl.load(b_ptr + cols, mask=mask, other=0.0)"
BY_ROW = "tl.load(b_ptr + row)"  # bias[i] added to all of row i: in bounds while M <= N


def kernel(load: str = RIGHT, signature: str = "bias=None") -> str:
    prelude = "pass" if "bias" in signature else "bias = None  # no bias parameter"
    return KERNEL.replace("BIAS_LOAD", load).replace("SIGNATURE", signature).replace("PRELUDE", prelude)


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="interpreter")
    yield client
    client.close()


def lab(root: Path, variants: str = WITH_BIAS) -> dict:
    make_lesson(root / "lessons", "42-test", LESSON.replace("VARIANTS", variants))
    kernels = root / "kernels"
    kernels.mkdir(parents=True, exist_ok=True)
    (kernels / "add_bias_solution.py").write_text(kernel(), encoding="utf-8")
    return {"lessons_dir": str(root / "lessons"), "kernels_dir": str(kernels)}


def verify(worker, dirs: dict, root: Path, source: str, name: str) -> dict:
    path = root / name
    path.write_text(source, encoding="utf-8")
    return worker.request("verify", {"exercise": "42", "file": str(path), **dirs}, timeout=300)


# ---- lesson data ---------------------------------------------------------------------------------------------


def test_the_lesson_data_loads_and_says_which_variant_passes_the_input(tmp_path):
    dirs = lab(tmp_path)
    catalog = load_catalog(Path(dirs["lessons_dir"]), Path(dirs["kernels_dir"]))
    assert not catalog.problems, [str(p) for p in catalog.problems]
    exercise = catalog.exercise("42")
    assert [(i.name, i.optional) for i in exercise.inputs] == [("x", False), ("bias", True)]
    assert exercise.verify.variants == [{}, {"@with": ["bias"]}]


def test_with_not_optional_is_a_problem_at_its_line(tmp_path):
    dirs = lab(tmp_path, '[{ "@with" = ["x"] }]')
    catalog = load_catalog(Path(dirs["lessons_dir"]), Path(dirs["kernels_dir"]))
    (problem,) = catalog.problems
    assert problem.code == "with-not-optional" and problem.values["names"] == ["x"], problem
    assert problem.line is not None and "@with" in problem.text("en")
    assert "optional = true" in problem.text("ja")


def test_with_must_be_a_list_of_names(tmp_path):
    dirs = lab(tmp_path, '[{ "@with" = "bias" }]')
    (problem,) = load_catalog(Path(dirs["lessons_dir"]), Path(dirs["kernels_dir"])).problems
    assert problem.code == "wrong-type", problem


def test_optional_inputs_and_a_verify_plan_are_a_problem(tmp_path):
    # the plan (several outputs, gradients) passes every input by position
    dirs = lab(tmp_path, '[{}]\noutputs = ["out"]')
    (problem,) = load_catalog(Path(dirs["lessons_dir"]), Path(dirs["kernels_dir"])).problems
    assert problem.code == "optional-plan" and problem.values["names"] == ["bias"], problem


# ---- the engine's pure parts -----------------------------------------------------------------------------------


class _PlainAllocator:
    def __init__(self, device):
        self.device = device

    def empty(self, shape, dtype, layout="contiguous", name=None):
        return torch.empty(shape, dtype=dtype, device=self.device)


def _exercise():
    return SimpleNamespace(
        inputs=[InputSpec("x", shape=["M", "N"]), InputSpec("bias", shape=["N"], optional=True)],
        reference="x + (0 if bias is None else bias)",
        verify=SimpleNamespace(contracts={}),
    )


def test_an_optional_input_is_made_only_when_the_variant_passes_it():
    ex, cpu = _exercise(), torch.device("cpu")
    assert optional_passed(ex, {}) == [] and optional_passed(ex, {"@with": ["bias"], "k": 1}) == ["bias"]
    plain = make_inputs(ex, {"M": 2, "N": 3}, "float32", 0, cpu, allocator=_PlainAllocator(cpu))
    assert list(plain) == ["x"]
    both = case_inputs(ex, {"M": 2, "N": 3}, "float32", 0, cpu, {"@with": ["bias"]})
    assert list(both) == ["x", "bias"] and tuple(both["bias"].shape) == (3,)
    # the runner rebuilds the same bits from the same variant: the digest covers the optional input too
    again = case_inputs(ex, {"M": 2, "N": 3}, "float32", 0, cpu, {"@with": ["bias"]})
    assert digest(both) == digest(again) and "bias" in digest(both)
    positional, keywords = call_args(ex, both)
    assert len(positional) == 1 and list(keywords) == ["bias"]


def test_the_reference_sees_none_for_an_input_not_passed():
    ex, cpu = _exercise(), torch.device("cpu")
    plain = case_inputs(ex, {"M": 2, "N": 3}, "float32", 0, cpu, {})
    assert torch.equal(reference(ex, plain, {}, {}), plain["x"])
    both = case_inputs(ex, {"M": 2, "N": 3}, "float32", 0, cpu, {"@with": ["bias"]})
    assert torch.equal(reference(ex, both, {}, {}), both["x"] + both["bias"])


def test_keywords_the_reference_reads():
    read = contracts.reference_keywords(
        "F.relu(y) if kw.get('activation') == 'relu' else y * kw['scale'] if 'eps' in kw else y"
    )
    assert read == {"activation", "scale", "eps"}
    assert contracts.reference_keywords("x + y") == set()


def test_a_missing_parameter_is_a_missing_keyword_not_a_tile_note():
    def without(a, b, config=None):
        return a

    def with_all(a, b, bias=None, activation=None):
        return a

    ex = SimpleNamespace(reference="y if kw.get('activation') is None else y")
    _, dropped = contracts.split_kwargs(without, {"activation": "relu", "BLOCK_M": 16})
    assert contracts.missing_keywords(ex, without, {"bias": 1}, dropped) == ["bias", "activation"]
    _, dropped = contracts.split_kwargs(with_all, {"activation": "relu"})
    assert contracts.missing_keywords(ex, with_all, {"bias": 1}, dropped) == []


def test_case_names_show_the_inputs_passed():
    assert case_name({"M": 2}, "float16", 0, {"@with": ["bias"], "activation": "silu"}) == (
        "M=2 · float16 · @with=bias, activation=silu"
    )


# ---- through the judge and a runner ----------------------------------------------------------------------------


def test_a_case_that_passes_the_bias_catches_it_added_by_row(worker, tmp_path):
    dirs = lab(tmp_path)
    result = verify(worker, dirs, tmp_path, kernel(BY_ROW), "by_row.py")
    assert not result["passed"] and result["error"] is None, result.get("error")
    failed = [c for c in result["cases"] if not c["passed"]]
    assert failed and all(c["kwargs"] == {"@with": ["bias"]} for c in failed)
    diag = failed[0]["diagnoses"][0]
    assert diag["kind"] == "mismatch" and diag["cause"] == "input-axis" and diag["input"] == "bias", diag
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "one value per output column" in en and "[None, :]" in en, en
    assert "列ごと" in ja and "[None, :]" in ja, ja


def test_without_a_case_that_passes_it_the_same_file_passes(worker, tmp_path):
    # what the field is for: lesson 9's matmul-fast passed a bias added by row before it had one
    dirs = lab(tmp_path, "[{}]")
    assert verify(worker, dirs, tmp_path, kernel(BY_ROW), "by_row.py")["passed"]


def test_the_right_file_passes_with_and_without_the_bias(worker, tmp_path):
    dirs = lab(tmp_path)
    result = verify(worker, dirs, tmp_path, kernel(), "right.py")
    assert result["passed"], result.get("summary")
    assert {bool(c.get("kwargs")) for c in result["cases"]} == {False, True}


def test_a_wrapper_without_the_parameter_is_told_so(worker, tmp_path):
    dirs = lab(tmp_path)
    result = verify(worker, dirs, tmp_path, kernel(signature="scale=1"), "no_param.py")
    assert not result["passed"] and result["error"] is None, result.get("error")
    failed = [c for c in result["cases"] if not c["passed"]]
    assert failed and all(c["kwargs"] == {"@with": ["bias"]} for c in failed)
    diag = failed[0]["diagnoses"][0]
    assert diag["kind"] == "keyword-missing" and diag["names"] == ["bias"], diag
    assert "add_bias(..., bias=bias)" in describe(diag, "en")
    assert "引数に取りません" in describe(diag, "ja")
