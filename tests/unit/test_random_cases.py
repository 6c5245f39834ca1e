"""Random verify cases: drawn from the judge's secret seed, within the lesson's sizes, never a public size."""

import random

from tritonlab.content.loader import load_catalog
from tritonlab.engine.inputs import jittered, size_names
from tritonlab.engine.tasks.verify import iter_cases


def test_random_sizes_differ_from_every_public_size_and_per_seed():
    exercise = load_catalog().exercise("5")
    public = {p["n"] for p in exercise.verify.interpreter}
    seen = set()
    for seed in range(200):
        cases = list(iter_cases(exercise, "interpreter", seed=seed))
        fixed = len(exercise.verify.interpreter) * len(exercise.verify.dtypes)
        extra = cases[fixed:]
        assert len(extra) == 1
        for params, dtype, _case_seed, _kw in extra:
            assert dtype in exercise.verify.dtypes
            assert params["n"] not in public
            assert 1 <= params["n"] <= max(public) * 1.3
            seen.add(params["n"])
    assert len(seen) > 20  # not a handful of sizes a learner could list


def test_a_replay_has_no_random_cases():
    exercise = load_catalog().exercise("5")
    only = [{"params": {"n": 77}, "dtype": "float16", "seed": 3}]
    assert list(iter_cases(exercise, "interpreter", only, seed=123)) == [({"n": 77}, "float16", 3, {})]


def test_only_size_parameters_move():
    exercise = load_catalog().exercise("3")  # cases carry n and BLOCK; BLOCK is not a size of any input
    names = size_names(exercise)
    assert "BLOCK" not in names
    moved = jittered({"n": 1000, "BLOCK": 256}, random.Random(1), names)
    assert moved["BLOCK"] == 256
