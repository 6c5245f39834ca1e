"""The judge's half of a verify plan (engine/tasks/verify.py): what the runner says it returned is rebuilt into
the plan's outputs, a subclass or a missing tensor is named, torch.compile's outcome and the operator facts are
judged here. Each check has a case that must pass and one that must fail."""

import torch

from tritonlab.engine import outputs
from tritonlab.engine.tasks import verify


def plan():
    return outputs.Plan(names=["out", "grad_x"], grad_inputs=["x"], input_names=["x"])


def test_plain_tensors_come_back_in_plan_order():
    a, b = torch.ones(3), torch.zeros(3)
    diagnoses = []
    got = verify._plan_tensors(["Tensor", "Tensor"], {"0": a, "1": b}, diagnoses, "f")
    assert got[0] is a and got[1] is b and diagnoses == []


def test_a_missing_gradient_stays_none_and_the_comparison_names_it():
    diagnoses, case = [], {}
    got = verify._plan_tensors(["Tensor", None], {"0": torch.ones(3)}, diagnoses, "f")
    plan().compare(got, (torch.ones(3), torch.ones(3)), {"*": (1e-5, 1e-5)}, diagnoses, case)
    assert [d["kind"] for d in diagnoses] == ["no-gradient"] and diagnoses[0]["output"] == "grad_x"


def test_a_subclass_or_a_tensor_that_did_not_arrive_is_not_a_plain_tensor():
    diagnoses, case = [], {}
    got = verify._plan_tensors(["subclass:Liar", "Tensor"], {"0": torch.ones(3)}, diagnoses, "f")
    assert [d["kind"] for d in diagnoses] == ["not-a-plain-tensor", "not-a-plain-tensor"]
    plan().compare(got, (torch.ones(3), torch.ones(3)), {"*": (1e-5, 1e-5)}, diagnoses, case)
    assert not any(row["passed"] for row in case["outputs"])


def test_too_few_values_is_wrong_outputs():
    diagnoses = []
    got = verify._plan_tensors(["Tensor"], {"0": torch.ones(3)}, diagnoses, "f")
    plan().compare(got, (torch.ones(3), torch.ones(3)), {"*": (1e-5, 1e-5)}, diagnoses, {})
    assert [d["kind"] for d in diagnoses] == ["wrong-outputs"]


def test_compile_outcome_is_judged_here():
    eager = (torch.ones(3), torch.ones(3))
    tols = {"*": (1e-5, 1e-5)}
    found = []
    same = verify._judge_compile(
        plan(), {"checked": True, "graph_breaks": 0}, {"0": eager[0], "1": eager[1]}, eager, tols, found
    )
    assert same["passed"] and found == []
    differs = verify._judge_compile(
        plan(), {"checked": True, "graph_breaks": 0}, {"0": eager[0], "1": eager[1] * 2}, eager, tols, found
    )
    assert not differs["passed"] and {d["kind"] for d in found} == {"compiled-differs"}
    assert found[0]["differs_as"] == "mismatch" and found[0]["message"].startswith("compiled: ")
    from tritonlab.present.diagnoses import describe

    said = describe(found[0], "en")
    assert "under torch.compile" in said and "elements differ" in said, said  # the mismatch's own words
    assert "torch.compile" in describe(found[0], "ja")
    found = []
    broke = verify._judge_compile(
        plan(), {"checked": True, "graph_breaks": 1, "message": "graph break"}, None, eager, tols, found
    )
    assert not broke["passed"] and [d["kind"] for d in found] == ["graph-break"]


def test_operator_facts_are_judged_here(tmp_path):
    from types import SimpleNamespace

    exercise = SimpleNamespace(verify=SimpleNamespace(ops=["lab::fwd", "lab::bwd"]))
    mine = str(tmp_path / "mine.py")
    ok = verify._op_diagnoses(
        exercise,
        {"ops_seen": ["lab::fwd", "lab::bwd"], "ops_origin": {"lab::fwd": mine, "lab::bwd": mine}},
        mine,
    )
    assert ok == []
    missing = verify._op_diagnoses(
        exercise, {"ops_seen": ["lab::fwd"], "ops_origin": {"lab::fwd": mine}}, mine
    )
    assert [(d["kind"], d["op"]) for d in missing] == [("op-not-used", "lab::bwd")]
    other = verify._op_diagnoses(
        exercise,
        {"ops_seen": ["lab::fwd", "lab::bwd"], "ops_origin": {"lab::fwd": "/else/sol.py", "lab::bwd": mine}},
        mine,
    )
    assert [(d["kind"], d["op"]) for d in other] == [("op-not-yours", "lab::fwd")]


def test_compile_is_not_compared_when_the_eager_outputs_already_fail():
    eager = (torch.ones(3), None)  # a missing gradient: the eager run already failed
    found = [{"kind": "no-gradient"}]
    facts = verify._judge_compile(
        plan(), {"checked": True, "graph_breaks": 0}, {"0": eager[0]}, eager, {"*": (1e-5, 1e-5)}, found
    )
    assert facts["why"] == "eager-fails" and [d["kind"] for d in found] == ["no-gradient"]
