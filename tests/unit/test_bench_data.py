"""bench times kernels on realistic data (randn, or the exercise's bench.init), never on verify's adversarial data."""

import dataclasses

import pytest
import torch

from tritonlab.content.exercises import _init_call
from tritonlab.content.toml_source import FileProblem, KeyLines
from tritonlab.content.where import Where
from tritonlab.engine import exercise_env
from tritonlab.engine.inputs import make_inputs
from tritonlab.engine.tasks.bench import bench_inputs

CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def softmax():
    return exercise_env.catalog().exercise("8/softmax")


def test_softmax_bench_data_is_randn_while_verify_data_stays_integers(softmax):
    params = {"M": 64, "N": 256}
    verify_x = make_inputs(softmax, params, "float32", 0, CPU)["x"]
    bench_x = bench_inputs(softmax, softmax.bench, params, CPU)["x"]
    assert (
        torch.equal(verify_x, verify_x.round()) and verify_x.abs().max() > 88.7
    )  # the adversarial data is intact
    assert not torch.equal(bench_x, bench_x.round())  # timed data: real-valued
    assert 0.9 < float(bench_x.std()) < 1.1 and float(bench_x.abs().max()) < 8


def test_declared_bench_init_wins(softmax):
    spec = dataclasses.replace(softmax.bench, init={"x": ("randint", (-100, 100))})
    bench_x = bench_inputs(softmax, spec, {"M": 8, "N": 128}, CPU)["x"]
    assert torch.equal(bench_x, bench_x.round()) and bench_x.abs().max() > 50


def test_bench_init_is_validated(tmp_path):
    where = Where(tmp_path / "lesson.toml", KeyLines(""), {}, ("exercise", 0, "bench", "init", "x"))
    assert _init_call("randint(-5, 5)", where) == ("randint", (-5, 5))
    with pytest.raises(FileProblem) as caught:
        _init_call("gaussian", where)
    assert caught.value.problems[0].code == "unknown-choice"
