"""`tritonlab verify` on a GPU: the verdict is printed first, then the interpreter audit's follow-up (en and
ja); --json carries the final, truthful `passed` and an `audit` key; progress follows the final verdict."""

from __future__ import annotations

import json

import pytest

from tritonlab import cli, store
from tritonlab.engine.lab import Lab
from tritonlab.present.verify import audit_line

GPU_PASS = {
    "exercise": "05-vector-add/add",
    "backend": "gpu",
    "passed": True,
    "error": None,
    "cases": [
        {
            "name": "n=8",
            "params": {"n": 8},
            "dtype": "float32",
            "seed": 0,
            "kwargs": {},
            "passed": True,
            "diagnoses": [],
        }
    ],
}
OOB = {
    "backend": "interpreter",
    "passed": False,
    "cases": [],
    "error": {"kind": "oob", "line": 11, "detail": {"access": "load", "arg": "x_ptr"}},
}
CLEAN = {"backend": "interpreter", "passed": True, "cases": [], "error": None}


class Fake:
    def __init__(self, answer: dict, log: list, name: str):
        self.answer, self.log, self.name, self.info, self.last_exit = answer, log, name, {}, None

    def request(self, op, args=None, timeout=60.0, on_event=None):
        self.log.append(self.name)
        return json.loads(json.dumps(self.answer))

    def cancel(self):
        pass

    def close(self):
        pass


@pytest.fixture
def lab_with(monkeypatch):
    def install(audit_answer: dict) -> list:
        log: list = []
        monkeypatch.setattr(
            cli,
            "_lab",
            lambda opts: Lab(
                "gpu", client=Fake(GPU_PASS, log, "gpu"), replay_client=Fake(audit_answer, log, "audit")
            ),
        )
        return log

    return install


def test_the_cli_prints_the_gpu_verdict_then_the_audit_that_withdraws_it(lab_with, capsys):
    log = lab_with(OOB)
    assert cli.main(["verify", "5", "--lang", "en"]) == cli.EXIT_FAIL
    out = capsys.readouterr().out
    verdict, pending, found = out.find("PASS"), out.find("auditing on the interpreter"), out.find("withdrew")
    assert log == ["gpu", "audit"]
    assert 0 <= verdict < pending < found, out
    assert "line 11" in out[found:]
    assert not store.is_verified("05-vector-add/add", store.load_progress())


def test_a_clean_audit_keeps_the_pass_and_marks_progress_in_japanese_too(lab_with, capsys):
    lab_with(CLEAN)
    assert cli.main(["verify", "5", "--lang", "ja"]) == cli.EXIT_OK
    out = capsys.readouterr().out.replace("\n", "")  # rich wraps at the terminal width
    assert "インタプリタで監査中" in out and "GPU での合格はそのままです" in out and "auditing" not in out
    assert store.is_verified("05-vector-add/add", store.load_progress())


def test_json_has_the_final_verdict_and_the_audit_key(lab_with, capsys):
    lab_with(OOB)
    assert cli.main(["verify", "5", "--json"]) == cli.EXIT_FAIL
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] is False and data["audit"] == {"state": "found"}
    assert data["error"]["kind"] == "oob" and data["error"]["line"] == 11

    lab_with(CLEAN)
    assert cli.main(["verify", "5", "--json"]) == cli.EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] is True and data["audit"] == {"state": "clean"}


def test_audit_words_exist_in_both_languages_and_none_when_no_audit_applies():
    for state in ("pending", "clean", "incomplete"):
        en, ja = audit_line({"audit": {"state": state}}, "en"), audit_line({"audit": {"state": state}}, "ja")
        assert en and ja and en != ja
    assert audit_line({"passed": True, "backend": "interpreter"}, "en") is None


def test_unmark_withdraws_only_the_pass_of_the_audited_code(tmp_path):
    code = tmp_path / "add.py"
    code.write_text("audited\n")
    store.mark_verified("05-vector-add/add", "gpu", code_path=code)
    audited = store.digest(code.read_bytes())
    code.write_text("later, other code\n")
    store.mark_verified("05-vector-add/add", "gpu", code_path=code)  # a newer pass of other code
    assert not store.unmark_verified("05-vector-add/add", audited)
    assert store.is_verified("05-vector-add/add", store.load_progress())
    assert store.unmark_verified("05-vector-add/add", store.digest(code.read_bytes()))
    assert not store.is_verified("05-vector-add/add", store.load_progress())
