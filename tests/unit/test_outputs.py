"""engine/outputs.py and its lesson keys: several outputs and gradients are compared output by output, each fact names
its output; a right answer passes and a wrong one fails, whichever output is wrong; bad keys are lesson errors."""

import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from tritonlab.content.loader import load_catalog
from tritonlab.engine import outputs
from tritonlab.paths import kernels_dir

BASE = textwrap.dedent("""
    format = 1
    number = 42
    title = { en = "Test", ja = "テスト" }

    [outcomes."L42.1"]
    sections = { en = ["A"], ja = ["あ"] }
    activities = ["exercise:add"]

    [[exercise]]
    id = "add"
    title = { en = "Add", ja = "加算" }
    starter = "add.py"
    solution = "vector_add.py"
    entry = "add"
    reference = "x + y"
    hints = [{ en = "h", ja = "ヒント" }, { en = "h2", ja = "ヒント2" }]
    [exercise.inputs.x]
    shape = ["n"]
    [exercise.inputs.y]
    shape = ["n"]
    [exercise.verify]
    dtypes = ["float32"]
    interpreter = [{ n = 7 }]
""")


def load(tmp_path: Path, extra: str):
    folder = tmp_path / "42-test"
    folder.mkdir()
    (folder / "lesson.toml").write_text(BASE + extra, encoding="utf-8")
    (folder / "text.en.md").write_text("# A\n", encoding="utf-8")
    (folder / "text.ja.md").write_text("# あ\n", encoding="utf-8")
    (folder / "add.py").write_text("def add(x, y):\n    pass\n", encoding="utf-8")
    return load_catalog(tmp_path, kernels_dir())


def test_grad_keys_load(tmp_path):
    catalog = load(
        tmp_path,
        textwrap.dedent("""
        mode = "grad"
        grad_inputs = ["x", "y"]
        grad_output = "ones"
        deterministic = true
        ops = ["lab::add"]
        compile = true
        output_tolerance = { grad_y = { float32 = { atol = 1e-3, rtol = 0.0 } } }
    """),
    )
    assert not catalog.problems, [str(p) for p in catalog.problems]
    spec = catalog.exercise("42").verify
    assert (spec.mode, spec.grad_inputs, spec.grad_output) == ("grad", ["x", "y"], "ones")
    assert spec.deterministic and spec.compile and spec.ops == ["lab::add"]
    plan = outputs.Plan.for_exercise(catalog.exercise("42"))
    assert plan.names == ["out", "grad_x", "grad_y"]


def test_a_plain_exercise_has_no_plan(tmp_path):
    catalog = load(tmp_path, "")
    assert outputs.Plan.for_exercise(catalog.exercise("42")) is None  # the one-tensor path stays untouched


@pytest.mark.parametrize(
    "extra, fragment",
    [
        ('mode = "gradient"\n', "verify.mode"),
        ('mode = "grad"\n', "grad_inputs needs at least one entry"),
        ('mode = "grad"\ngrad_inputs = ["z"]\n', "names unknown inputs z"),
        ('mode = "grad"\ngrad_inputs = ["x"]\ngrad_output = "zeros"\n', "grad_output"),
        (
            'mode = "grad"\ngrad_inputs = ["x"]\noutput_tolerance = { grad_y = { float32 = { atol = 1.0 } } }\n',
            "not an output",
        ),
        (
            'outputs = ["a", "b"]\noutput_tolerance = { a = { float33 = { atol = 1.0 } } }\n',
            "float33 is not one of",
        ),
        ('ops = ["add"]\n', "namespace::name"),
    ],
)
def test_bad_keys_are_lesson_errors(tmp_path, extra, fragment):
    catalog = load(tmp_path, extra)
    assert len(catalog.problems) == 1 and fragment in catalog.problems[0].message, [
        str(p) for p in catalog.problems
    ]


def plan(names=("out", "grad_x", "grad_w")):
    return outputs.Plan(names=list(names), grad_inputs=["x", "w"], input_names=["x", "w"])


TOLS = {"out": (1e-5, 1e-5), "grad_x": (1e-5, 1e-5), "grad_w": (1e-2, 1e-2)}


def test_right_outputs_pass_and_each_row_is_reported():
    expected = (torch.ones(4), torch.zeros(4), torch.full((4,), 2.0))
    got = (
        torch.ones(4),
        torch.zeros(4),
        torch.full((4,), 2.0 + 5e-3),
    )  # inside grad_w's own, looser tolerance
    diagnoses, case = [], {}
    plan().compare(got, expected, TOLS, diagnoses, case)
    assert diagnoses == []
    assert [(r["name"], r["passed"]) for r in case["outputs"]] == [
        ("out", True),
        ("grad_x", True),
        ("grad_w", True),
    ]
    assert case["outputs"][2]["atol"] == 1e-2


def test_one_wrong_output_is_named_and_only_that_one():
    expected = (torch.ones(4), torch.zeros(4), torch.full((4,), 2.0))
    got = (torch.ones(4), torch.tensor([0.0, 0.0, 0.5, 0.0]), torch.full((4,), 2.0))
    diagnoses, case = [], {}
    plan().compare(got, expected, TOLS, diagnoses, case)
    assert diagnoses and {d["output"] for d in diagnoses} == {"grad_x"}
    assert all(d["message"].startswith("grad_x: ") for d in diagnoses)
    assert [r["passed"] for r in case["outputs"]] == [True, False, True]
    assert case["mismatches"] == 1 and case["max_abs_err"] == pytest.approx(0.5)


def test_missing_gradient_wrong_count_and_wrong_shape():
    expected = (torch.ones(4), torch.zeros(4), torch.zeros(4))
    diagnoses, case = [], {}
    plan().compare((torch.ones(4), None, torch.zeros(3)), expected, TOLS, diagnoses, case)
    assert {(d["kind"], d["output"]) for d in diagnoses} == {
        ("no-gradient", "grad_x"),
        ("wrong-shape", "grad_w"),
    }
    diagnoses = []
    plan().compare((torch.ones(4),), expected, TOLS, diagnoses, {})
    assert [d["kind"] for d in diagnoses] == ["wrong-outputs"]


def test_unwritten_elements_are_reported_per_output():
    expected = (torch.ones(4),)
    got = (torch.tensor([1.0, 1.0, float("nan"), 1.0]),)
    diagnoses = []
    plan(["out"]).compare(got, expected, TOLS, diagnoses, {}, unwritten=lambda t: torch.isnan(t))
    assert diagnoses and diagnoses[0]["output"] == "out"
    assert "unwritten" in {d["kind"] for d in diagnoses}


def test_compare_bits():
    a = (torch.tensor([1.0, 2.0]), torch.tensor([3.0]))
    diagnoses = []
    plan(["out", "grad_x"]).compare_bits(a, (a[0].clone(), a[1].clone()), diagnoses)
    assert diagnoses == []
    nudged = torch.nextafter(a[1], torch.tensor([4.0]))  # one ulp: what a changed summation order produces
    plan(["out", "grad_x"]).compare_bits(a, (a[0].clone(), nudged), diagnoses)
    assert [(d["kind"], d["output"], d["changed"]) for d in diagnoses] == [("nondeterministic", "grad_x", 1)]


def test_grad_wrapper_runs_backward_with_the_same_seeded_dy():
    p = plan(["out", "grad_x", "grad_w"])

    def wrapper(x, w):
        return x * w

    x, w = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
    out, gx, gw = p.wrap(wrapper)(x, w)
    dy = p.upstream(out)
    assert torch.equal(gx, dy * w) and torch.equal(gw, dy * x)
    assert torch.equal(dy, p.upstream(out))  # seeded: the reference sees the same dy
    assert not x.requires_grad  # the inputs themselves are untouched (leaves are detached views)


def test_a_wrapper_outside_autograd_is_reported():
    p = plan(["out", "grad_x", "grad_w"])
    with pytest.raises(outputs.NotDifferentiable):
        p.wrap(lambda x, w: (x * w).detach())(torch.ones(2), torch.ones(2))


def test_reference_through_the_same_backward():
    exercise = SimpleNamespace(
        reference="x * w",
        inputs=[SimpleNamespace(name="x"), SimpleNamespace(name="w")],
        verify=SimpleNamespace(mode="grad", outputs=[], grad_inputs=["x", "w"], ops=[], grad_output="randn"),
    )
    p = outputs.Plan.for_exercise(exercise, seed=3)
    x, w = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
    out, gx, gw = p.reference(exercise, {"x": x, "w": w}, {}, {})
    dy = p.upstream(out)
    assert torch.equal(gx, dy * w) and torch.equal(gw, dy * x)
    assert x.grad is None and not x.requires_grad


def test_op_recorder_sees_dispatched_operators():
    with outputs.OpRecorder(["aten::add", "aten::mul"]) as recorder:
        torch.ones(2) + torch.ones(2)
    assert recorder.missing() == ["aten::mul"]
    diags = outputs.op_diagnoses(recorder, __file__)
    assert [(d["kind"], d["op"]) for d in diags] == [("op-not-used", "aten::mul")]


def test_op_recorder_without_operators_records_nothing():
    with outputs.OpRecorder([]) as recorder:
        torch.ones(2) + torch.ones(2)
    assert recorder.seen == set() and recorder.missing() == []


def test_two_gradients_returned_in_the_wrong_order_are_named_a_swap_and_two_wrong_ones_are_not():
    plan = outputs.Plan(names=["out", "grad_a", "grad_b"], grad_inputs=["a", "b"], input_names=["a", "b"])
    out, ga, gb = torch.ones(4), torch.arange(4.0), torch.arange(4.0) * -3
    tols = {"*": (1e-5, 1e-5)}
    swapped, case = [], {}
    plan.compare((out, gb, ga), (out, ga, gb), tols, swapped, case)
    assert {d["output"]: d.get("cause") for d in swapped} == {"grad_a": "swapped", "grad_b": "swapped"}
    assert swapped[0]["swapped_with"] == "grad_b" and "wrong order" in swapped[0]["message"]
    assert swapped[0]["message"].startswith("grad_a: ")
    wrong, case = [], {}
    plan.compare((out, gb + 1, ga), (out, ga, gb), tols, wrong, case)  # grad_a is not grad_b's values either
    assert all(d.get("cause") != "swapped" for d in wrong), wrong
