"""The engine refuses a request with facts (a `usage` error's `code` and values), and the learner reads the
refusal in their language: `tritonlab bench 3/program-map` (no [exercise.bench]) and `tritonlab ir --arch
sm_banana` printed "エラー: «… declares no [exercise.bench]: nothing to time»" under --lang ja, the engine's
English quoted. English is unchanged; --json carries the facts and the English `message`."""

from __future__ import annotations

import json

import pytest

from tritonlab import cli
from tritonlab.engine.kernel_ir import ArchError, parse_arch
from tritonlab.engine.results import BenchResult, IrResult
from tritonlab.present.diagnoses import describe
from tritonlab.present.usage import refusal

NO_BENCH = {
    "kind": "usage",
    "line": None,
    "message": "03-programming-model/program-map declares no [exercise.bench]: nothing to time",
    "code": "no-bench",
    "exercise": "03-programming-model/program-map",
    "op": "bench",
}
BAD_ARCH = {
    "kind": "usage",
    "line": None,
    "message": "--arch 'sm_banana': expected sm_NN such as sm_80, sm_89, sm_90 or sm_100",
    "code": "arch-format",
    "arch": "sm_banana",
}

#: every code the engine refuses with, and the words each must carry in Japanese
REFUSALS = [
    (NO_BENCH, "計測するもの"),
    (dict(NO_BENCH, op="profile"), "プロファイル"),
    (BAD_ARCH, "sm_NN の形"),
    ({"kind": "usage", "code": "arch-too-old", "arch": "sm_70", "minimum": "sm_75"}, "sm_75 以降"),
    ({"kind": "usage", "code": "unknown-stage", "stage": "asm", "stages": ["ttir", "ptx"]}, "ttir、ptx"),
    (
        {"kind": "usage", "code": "bad-size", "size": "n=-1", "exception": "negative dimension"},
        "入力を作れません",
    ),
    ({"kind": "usage", "code": "unknown-op", "op": "autotune"}, "リクエスト"),
    ({"kind": "usage", "code": "no-gpu", "cause": "start"}, "CUDA GPU が見えません"),
    (
        {"kind": "usage", "code": "unknown-ref", "what": "lesson", "ref": "99", "known": ["1", "2"]},
        "ありません",
    ),
]


@pytest.mark.parametrize(("facts", "ja"), REFUSALS)
def test_every_refusal_code_is_worded_in_both_languages(facts, ja):
    said = refusal(facts)
    assert said is not None
    assert ja in said.ja, said.ja
    assert "«" not in said.ja.replace("«negative dimension»", ""), said.ja  # the lab's own words, not quoted
    # the app words an error through describe: the same sentence, not "the request was not valid: «…»"
    assert describe(facts, "ja") == said.ja and describe(facts, "en") == said.en


def test_the_english_sentence_is_the_engines_message():
    for facts in (NO_BENCH, BAD_ARCH):
        assert describe(facts, "en") == facts["message"]


def test_a_refusal_without_a_known_code_is_still_quoted():
    facts = {"kind": "usage", "message": "something new"}
    assert refusal(facts) is None
    assert describe(facts, "ja") == "リクエストが正しくありません: «something new»"


def test_parse_arch_refuses_with_facts():
    with pytest.raises(ArchError) as bad:
        parse_arch("sm_banana")
    assert bad.value.facts == {"code": "arch-format", "arch": "sm_banana"}
    with pytest.raises(ValueError) as old:  # still a ValueError for older callers
        parse_arch("sm_70")
    assert old.value.facts == {"code": "arch-too-old", "arch": "sm_70", "minimum": "sm_75"}  # type: ignore[attr-defined]


class _Lab:
    """A Lab that refuses every request with one engine error."""

    def __init__(self, result) -> None:
        self.result = result

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def request(self, op, args, **kwargs):
        return self.result


@pytest.mark.parametrize(
    ("argv", "result", "ja", "en"),
    [
        (
            ["bench", "3/program-map"],
            BenchResult.from_json({"exercise": NO_BENCH["exercise"], "error": NO_BENCH}),
            "エラー: 03-programming-model/program-map には [exercise.bench] の指定がないため、計測するものがありません",
            "error: 03-programming-model/program-map declares no [exercise.bench]: nothing to time",
        ),
        (
            ["ir", "5", "--arch", "sm_banana"],
            IrResult.from_json({"exercise": "05-vector-add/add", "error": BAD_ARCH}),
            "エラー: --arch 'sm_banana': sm_80、sm_89、sm_90、sm_100 のような sm_NN の形で指定してください",
            "error: --arch 'sm_banana': expected sm_NN such as sm_80, sm_89, sm_90 or sm_100",
        ),
    ],
)
def test_the_cli_words_the_engines_refusal_in_the_learners_language(
    monkeypatch, capsys, argv, result, ja, en
):
    monkeypatch.setattr(cli, "_lab", lambda opts: _Lab(result))
    assert cli.main(["--lang", "ja", *argv]) == 2
    err = capsys.readouterr().err
    assert ja in err and "«" not in err and "declares" not in err, err
    assert cli.main(["--lang", "en", *argv]) == 2
    assert en in capsys.readouterr().err

    assert cli.main(["--lang", "ja", *argv, "--json"]) == 2
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["error"] == dict(result.error.to_json()), data  # the facts and the English message
    assert ja in out.err


def test_a_worker_that_refuses_to_start_sends_its_code(monkeypatch):
    """`--backend gpu` without a GPU: the worker's refusal reaches the UI as facts (it was quoted in English)."""
    from tritonlab.engine.client import WorkerClient, WorkerStartError

    client = WorkerClient(backend="gpu")
    message = "--backend gpu was asked for, but torch sees no CUDA GPU (torch.cuda.is_available() is False)"

    def refuse(timeout: float = 0.0) -> dict:
        raise WorkerStartError(message, kind="usage", code="no-gpu")

    monkeypatch.setattr(client, "_ensure_started", refuse)
    try:
        err = client.request("run", {"exercise": "5"})["error"]
    finally:
        client.close()
    assert err["kind"] == "usage" and err["code"] == "no-gpu" and err["cause"] == "start", err
    assert describe(err, "ja").startswith("--backend gpu が指定されましたが"), describe(err, "ja")
    assert describe(err, "en") == message
