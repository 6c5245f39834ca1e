"""Progress: verified exercises, quiz answers and the last exercise opened.

A verified entry carries the digest of the code that passed and a seal (an HMAC with a per-install secret kept
0600 in the data dir): `tritonlab list` ticks only entries the lab itself wrote, not `{"verified": true}`
typed into the file by hand or by a kernel.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from pathlib import Path

from tritonlab.store.drafts import digest, draft_path
from tritonlab.store.files import atomic_write, data_dir, read_json, write_json

PROGRESS_FILE = "progress-v1.json"
SECRET_FILE = "secret-v1"
NOT_STARTED, IN_PROGRESS, VERIFIED = "not started", "in progress", "verified"


def _check(value: dict) -> tuple[dict, list[str]]:
    """Keep what has the right shape; name what does not (`["*"]`: nothing usable)."""
    exercises, quiz, last = value.get("exercises", {}), value.get("quiz", {}), value.get("last")
    if not isinstance(exercises, dict) and not isinstance(quiz, dict):
        return {}, ["*"]
    dropped: list[str] = []
    if not isinstance(exercises, dict):
        dropped.append("exercises")
        exercises = {}
    if not isinstance(quiz, dict):
        dropped.append("quiz")
        quiz = {}
    kept_exercises = {}
    for key, entry in exercises.items():
        if isinstance(entry, dict):
            kept_exercises[key] = entry
        else:
            dropped.append(f"exercises.{key}")
    kept_quiz: dict = {}
    for lesson, answers in quiz.items():
        if not isinstance(answers, dict):
            dropped.append(f"quiz.{lesson}")
            continue
        kept_quiz[lesson] = {}
        for question, answer in answers.items():
            if isinstance(answer, dict) and isinstance(answer.get("tries", 0), int):
                kept_quiz[lesson][question] = answer
            else:
                dropped.append(f"quiz.{lesson}.{question}")
    if last is not None and not isinstance(last, str):
        dropped.append("last")
        last = None
    kept = dict(value)
    kept.update(exercises=kept_exercises, quiz=kept_quiz, last=last)
    return kept, dropped


def load_progress() -> dict:
    data = read_json(
        PROGRESS_FILE, {"exercises": {}, "quiz": {}, "last": None}, lost="progress", check=_check
    )
    data.setdefault("exercises", {})
    data.setdefault("quiz", {})
    data.setdefault("last", None)
    return data


def _secret(create: bool) -> bytes | None:
    path = data_dir() / SECRET_FILE
    try:
        return path.read_bytes()
    except OSError:
        if not create:
            return None
    try:
        atomic_write(path, secrets.token_hex(32))
        return path.read_bytes()
    except OSError:
        return None


def _seal(secret: bytes, exercise_key: str, entry: dict) -> str:
    message = f"{exercise_key}\0{entry.get('backend')}\0{entry.get('code_sha256')}\0{entry.get('when')}"
    return hmac.new(secret, message.encode("utf-8"), hashlib.sha256).hexdigest()


def mark_verified(exercise_key: str, backend: str, code_path: str | Path | None = None) -> bool:
    """Record a pass of the code in `code_path` (its digest is kept). False when it could not be saved."""
    code_sha256 = None
    if code_path is not None:
        try:
            code_sha256 = digest(Path(code_path).read_bytes())
        except OSError:
            code_sha256 = None
    secret = _secret(create=True)
    if secret is None:
        return write_json(PROGRESS_FILE, load_progress())  # reports the unwritable folder
    data = load_progress()
    entry = {
        "verified": True,
        "backend": backend,
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "code_sha256": code_sha256,
    }
    entry["seal"] = _seal(secret, exercise_key, entry)
    data["exercises"][exercise_key] = entry
    return write_json(PROGRESS_FILE, data)


def unmark_verified(exercise_key: str, code_sha256: str | None) -> bool:
    """Withdraw the pass of the code with this digest (an audit after the verdict found a fault in it). A
    later pass of other code is left alone. False when nothing was withdrawn or it could not be saved."""
    data = load_progress()
    entry = data["exercises"].get(exercise_key)
    if not isinstance(entry, dict) or entry.get("code_sha256") != code_sha256:
        return False
    del data["exercises"][exercise_key]
    return write_json(PROGRESS_FILE, data)


def is_verified(exercise_key: str, progress: dict) -> bool:
    entry = progress.get("exercises", {}).get(exercise_key)
    if (
        not isinstance(entry, dict)
        or entry.get("verified") is not True
        or not isinstance(entry.get("seal"), str)
    ):
        return False
    secret = _secret(create=False)
    return secret is not None and hmac.compare_digest(entry["seal"], _seal(secret, exercise_key, entry))


def record_quiz(lesson_id: str, question_id: str, correct: bool) -> bool:
    data = load_progress()
    answers = data["quiz"].setdefault(lesson_id, {})
    previous = answers.get(question_id, {})
    answers[question_id] = {
        "correct": bool(correct) or bool(previous.get("correct")),
        "tries": previous.get("tries", 0) + 1,
    }
    return write_json(PROGRESS_FILE, data)


def set_last(exercise_key: str) -> bool:
    data = load_progress()
    data["last"] = exercise_key
    return write_json(PROGRESS_FILE, data)


def exercise_state(exercise_key: str, progress: dict | None = None) -> str:
    progress = progress if progress is not None else load_progress()
    if is_verified(exercise_key, progress):
        return VERIFIED
    if os.path.isfile(draft_path(exercise_key)):
        return IN_PROGRESS
    return NOT_STARTED
