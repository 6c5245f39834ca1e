"""`tritonlab --lang ja …` prints no English prose: verify/run/bench/ir/doctor/quiz over broken and correct
files.

English prose here means a run of three or more plain English words. Code identifiers (anything with `_`, `.`,
digits, brackets, `=`), units, and text quoted verbatim — in «…» (Python's or Triton's own exception text, as
the lab quotes it), in backticks, or in '…' (as lessons quote an error message) — are not prose. The compiler
stage printed by `ir` is code and is not read.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "integration" / "broken"
LEARNERS = ROOT / "tests" / "integration" / "learners"

_QUOTED = re.compile(r"«[^»]*»|`[^`]*`|(?<![A-Za-z])'[^']*'(?![A-Za-z])")
_TOKEN = re.compile(r"\S+")
_WORD = re.compile(r"^[(\[]?([A-Za-z]{2,})[)\],;:!?]*$")


def english_runs(text: str) -> list[str]:
    """Runs of 3+ plain English words, per line (quoted text and code identifiers break a run)."""
    found = []
    for line in text.splitlines():
        line = _QUOTED.sub(" | ", line)
        run: list[str] = []
        for token in _TOKEN.findall(line) + ["|"]:
            match = _WORD.match(token)
            if match and token.strip("()[],;:!?") == match.group(1) and not _is_code(token):
                run.append(match.group(1))
                continue
            if len(run) >= 3:
                found.append(" ".join(run))
            run = []
    return found


def _is_code(token: str) -> bool:
    return any(c in token for c in "_.=/<>*%#@") or any(c.isdigit() for c in token)


def test_the_prose_detector_sees_english_and_spares_code():
    assert english_runs("the kernel never stored to this output") == [
        "the kernel never stored to this output"
    ]
    assert english_runs("プログラム 0 の out_ptr へのストア: offsets < n_elements") == []
    assert english_runs("Python が読めません: «SyntaxError: invalid syntax here»") == []
    assert english_runs("cases pass, first failure") == ["cases pass, first failure".replace(",", "")]
    assert english_runs("tl.store pointer and tl.load mask") == []  # 2-word pieces between identifiers
    assert english_runs("num_warps 4 · num_stages 3 · GB/s TFLOP/s") == []
    assert english_runs("拒否します（'Pointer argument cannot be accessed'）が") == []
    assert english_runs("the kernel doesn't mask the load") == ["mask the load"]  # an apostrophe is no quote


def tritonlab(*args: str, home: Path) -> str:
    env = dict(os.environ, TRITONLAB_HOME=str(home), COLUMNS="200")
    out = subprocess.run(
        [sys.executable, "-m", "tritonlab", "--lang", "ja", "--backend", "interpreter", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=env,
    )
    return out.stdout + out.stderr


CASES = [
    ("verify", "5", BROKEN / "grid_short.py"),
    ("verify", "5", BROKEN / "unmasked_store.py"),
    ("verify", "5", BROKEN / "wrong_op.py"),
    ("verify", "5", BROKEN / "pure_torch.py"),
    ("verify", "5", BROKEN / "no_validation.py"),
    ("verify", "5", BROKEN / "input_overwritten.py"),
    ("verify", "5", BROKEN / "python_error.py"),
    ("verify", "5", LEARNERS / "syntax_error.py"),
    ("verify", "5", None),
    ("run", "5", BROKEN / "wrong_op.py"),
    ("run", "5", BROKEN / "unmasked_store.py"),
    ("bench", "5", BROKEN / "wrong_op.py"),
    ("bench", "5", None),
    ("ir", "5", None),
]


@pytest.mark.parametrize(
    "command,exercise,path", CASES, ids=[f"{c}-{p.name if p else 'solution'}" for c, _, p in CASES]
)
def test_japanese_output_has_no_english_prose(command, exercise, path, tmp_path):
    code = ["--file", str(path)] if path else ["--solution"]
    text = tritonlab(command, exercise, *code, home=tmp_path)
    if command == "ir":  # the compiler stage after the heading is code
        text = "\n".join(line for line in text.splitlines() if not line.startswith(("#", "module", " ", "}")))
    assert text.strip()
    assert re.search(r"[ぁ-んァ-ン一-龥]", text), text
    assert english_runs(text) == [], text


def test_doctor_and_quiz_in_japanese(tmp_path):
    for args in (["doctor"], ["quiz", "5", "--answers", "a,b,c,d,a,b"]):
        text = tritonlab(*args, home=tmp_path)
        assert re.search(r"[ぁ-んァ-ン一-龥]", text), text
        assert english_runs(text) == [], (args, text)
