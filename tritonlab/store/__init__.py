"""User data: drafts, progress and settings under one directory, written atomically.

`data_dir()` is the one patchable place: `$TRITONLAB_HOME` when set, else platformdirs' user data dir.
A corrupt file is set aside (renamed `*.corrupt-<time>`) and reported, never raised.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

SETTINGS_FILE = "settings-v1.json"
PROGRESS_FILE = "progress-v1.json"

#: Notices about files that were set aside, for the UI/CLI to show once.
notices: list[str] = []


def data_dir() -> Path:
    home = os.environ.get("TRITONLAB_HOME")
    if home:
        path = Path(home).expanduser()
    else:
        try:
            from platformdirs import user_data_dir

            path = Path(user_data_dir("tritonlab", appauthor=False))
        except ImportError:  # the engine can run without the UI's dependencies (e.g. on a bare GPU image)
            base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
            path = Path(base) / "tritonlab"
    path.mkdir(parents=True, exist_ok=True)
    return path


def atomic_write(path: Path, text: str) -> None:
    """Temp file in the same folder, flush, fsync, os.replace: a crash leaves the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _set_aside(path: Path, why: str) -> None:
    target = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        os.replace(path, target)
        notices.append(f"{path.name} was unreadable ({why}); it was moved to {target.name} and a new one started.")
    except OSError:
        notices.append(f"{path.name} is unreadable ({why}) and could not be moved aside.")


def read_json(name: str, default: dict) -> dict:
    path = data_dir() / name
    if not path.exists():
        return dict(default)
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(value, dict):
            raise ValueError("not a JSON object")
        return value
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        _set_aside(path, str(exc) or type(exc).__name__)
        return dict(default)


def write_json(name: str, value: dict) -> None:
    atomic_write(data_dir() / name, json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))


# ---- drafts -------------------------------------------------------------------------------------


def draft_path(exercise_key: str) -> Path:
    lesson_id, _, exercise_id = exercise_key.partition("/")
    return data_dir() / "drafts" / lesson_id / f"{exercise_id}.py"


def load_draft(exercise_key: str) -> str | None:
    path = draft_path(exercise_key)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        _set_aside(path, str(exc))
        return None


def save_draft(exercise_key: str, code: str) -> Path:
    path = draft_path(exercise_key)
    atomic_write(path, code)
    return path


def delete_draft(exercise_key: str) -> None:
    try:
        draft_path(exercise_key).unlink()
    except FileNotFoundError:
        pass


# ---- progress -----------------------------------------------------------------------------------

NOT_STARTED, IN_PROGRESS, VERIFIED = "not started", "in progress", "verified"


def load_progress() -> dict:
    data = read_json(PROGRESS_FILE, {"exercises": {}, "quiz": {}, "last": None})
    data.setdefault("exercises", {})
    data.setdefault("quiz", {})
    data.setdefault("last", None)
    return data


def mark_verified(exercise_key: str, backend: str) -> None:
    data = load_progress()
    entry = data["exercises"].setdefault(exercise_key, {})
    entry.update({"verified": True, "backend": backend, "when": time.strftime("%Y-%m-%dT%H:%M:%S")})
    write_json(PROGRESS_FILE, data)


def record_quiz(lesson_id: str, question_id: str, correct: bool) -> None:
    data = load_progress()
    answers = data["quiz"].setdefault(lesson_id, {})
    previous = answers.get(question_id, {})
    answers[question_id] = {"correct": bool(correct) or bool(previous.get("correct")), "tries": previous.get("tries", 0) + 1}
    write_json(PROGRESS_FILE, data)


def set_last(exercise_key: str) -> None:
    data = load_progress()
    data["last"] = exercise_key
    write_json(PROGRESS_FILE, data)


def exercise_state(exercise_key: str, progress: dict | None = None) -> str:
    progress = progress if progress is not None else load_progress()
    if progress["exercises"].get(exercise_key, {}).get("verified"):
        return VERIFIED
    if draft_path(exercise_key).exists():
        return IN_PROGRESS
    return NOT_STARTED


# ---- settings -----------------------------------------------------------------------------------

DEFAULT_SETTINGS = {"lang": None, "backend": "auto", "theme": None}


def load_settings() -> dict:
    settings = dict(DEFAULT_SETTINGS)
    settings.update(read_json(SETTINGS_FILE, DEFAULT_SETTINGS))
    return settings


def save_settings(settings: dict) -> None:
    write_json(SETTINGS_FILE, settings)
