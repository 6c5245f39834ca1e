"""A GPU verdict that can only say "every element is wrong" or "NaN" takes the cause the interpreter names when
it replays that very case (`replay.with_replay`), as the app and the CLI do after a failing GPU verify.

On the H100 (twenty-ninth session, `docs/GPU-RESULTS.md`), probe round 15's y-loaded-through-x_ptr add failed
as `all-wrong` and the row-sum atomic into `torch.empty` as a bare `nan`, where the interpreter says `input-unread`
(line 16) and `stored-poison` (lines 30 and 41): the GPU keeps no load records. Here the GPU's side is the
interpreter's own failing case with its diagnoses cut down to what the GPU said, and the replay runs for real
on an interpreter worker."""

from pathlib import Path

import pytest

from tritonlab.engine import replay

ROOT = Path(__file__).parent


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def as_gpu(result: dict, symptom: dict) -> dict:
    """The interpreter's first failing case as a GPU run would report it: the same case, the symptom alone."""
    bad = next(c for c in result["cases"] if not c["passed"])
    case = {k: bad.get(k) for k in ("name", "params", "dtype", "seed", "kwargs")}
    return {
        "backend": "gpu",
        "passed": False,
        "error": None,
        "summary": "0/1 cases pass",
        "cases": [dict(case, passed=False, diagnoses=[dict(symptom)])],
    }


ALL_WRONG = {"kind": "mismatch", "cause": "all-wrong", "count": 1, "message": "every element is wrong"}
NAN = {"kind": "nan", "count": 1, "message": "element 0 (1) are inf/NaN where torch has finite values"}


@pytest.mark.parametrize(
    "exercise, name, symptom, cause, line_text",
    [
        (
            "5/add",
            "probe_round15_a/l05_add_wrong_y_loaded_through_x_ptr.py",
            ALL_WRONG,
            "input-unread",
            "    y = tl.load(",
        ),
        (
            "8/row-sum",
            "probe_round15_b/l08_row_sum_wrong_split_row_atomic_into_uninitialised_output.py",
            NAN,
            "stored-poison",
            "    tl.atomic_add(",
        ),
    ],
)
def test_a_bare_gpu_symptom_takes_the_cause_the_replay_names(
    worker, exercise, name, symptom, cause, line_text
):
    path = ROOT / name
    args = {"exercise": exercise, "file": str(path)}
    interpreted = worker.request("verify", args, timeout=600)
    assert interpreted["passed"] is False
    result = replay.with_replay(as_gpu(interpreted, symptom), args, timeout=600, client=worker)
    diagnoses = result["cases"][0]["diagnoses"]
    assert diagnoses[0]["cause"] == cause and diagnoses[0]["replayed"] is True, diagnoses
    assert diagnoses[0]["line"] == line_of(path, line_text)
    assert diagnoses[1] == symptom  # the GPU's own account stays, after the cause
    from tritonlab.present.verify import summary

    en, ja = summary(result, "en"), summary(result, "ja")
    assert "replaying this case on the interpreter" in en and f"line {diagnoses[0]['line']}" in en
    assert "インタプリタで再実行" in ja and f"{diagnoses[0]['line']} 行目" in ja


def test_a_gpu_failure_the_replay_does_not_reproduce_gets_no_cause(worker):
    """The false-cause side: the reference solution, said to have failed on a GPU (as a race or TF32 would
    make it), passes the replay of that case, so nothing is added to the GPU's symptom."""
    args = {"exercise": "5/add", "solution": True}
    interpreted = worker.request("verify", args, timeout=600)
    assert interpreted["passed"] is True
    case = next(c for c in interpreted["cases"] if c.get("params") and c.get("kind") != "reject")
    gpu = {
        "backend": "gpu",
        "passed": False,
        "error": None,
        "summary": "0/1 cases pass",
        "cases": [
            {k: case.get(k) for k in ("name", "params", "dtype", "seed", "kwargs")}
            | {"passed": False, "diagnoses": [dict(ALL_WRONG)]}
        ],
    }
    result = replay.with_replay(gpu, args, timeout=600, client=worker)
    assert result["cases"][0]["diagnoses"] == [ALL_WRONG]
    assert "likely cause" not in result["summary"]
