"""The CLI with a home it cannot write: verify still verifies (the real worker) and says what is not saved."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tritonlab import cli, store
from tritonlab.store import files

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = (ROOT / "kernels" / "vector_add.py").read_text(encoding="utf-8")


def test_verify_in_a_read_only_home_verifies_without_a_traceback(tmp_path):
    if os.geteuid() == 0:
        home = "/proc/1"  # root can write anywhere else
    else:
        home = tmp_path / "ro"
        home.mkdir()
        home.chmod(0o500)
    env = dict(os.environ, TRITONLAB_HOME=str(home))
    for args, code in ((["--solution"], 0), ([], 1)):  # the solution passes, the starter fails
        done = subprocess.run(
            [sys.executable, "-m", "tritonlab", "verify", "5", "--backend", "interpreter", "--json", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=300,
        )
        assert done.returncode == code, done.stderr
        assert "Traceback" not in done.stderr
        assert json.loads(done.stdout)["passed"] is (code == 0)


def test_a_pass_that_cannot_be_recorded_is_reported(isolated_home, monkeypatch, capsys):
    store.forget_notices()
    store.save_draft("05-vector-add/add", SOLUTION)

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(files.tempfile, "mkstemp", no_space)
        assert cli.main(["verify", "5", "--backend", "interpreter", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["passed"] is True
    assert [n["kind"] for n in data["notices"]] == ["cannot-save"]
    assert "No space left" in err and "cannot be saved" in err
    assert store.exercise_state("05-vector-add/add") != store.VERIFIED
    store.forget_notices()
    assert (
        cli.main(["verify", "5", "--backend", "interpreter", "--json"]) == 0
    )  # false-fail guard: it records
    assert json.loads(capsys.readouterr().out)["notices"] == []
    assert store.exercise_state("05-vector-add/add") == store.VERIFIED
