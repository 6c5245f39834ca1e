"""User data: atomic writes, drafts, progress, and corrupt files set aside instead of crashing."""

import json
import os

from tritonlab import store


def test_data_dir_follows_tritonlab_home(isolated_home):
    assert store.data_dir() == isolated_home
    assert isolated_home.is_dir()


def test_draft_round_trip_and_delete():
    key = "05-vector-add/add"
    assert store.load_draft(key) is None
    path = store.save_draft(key, "print('hi')\n")
    assert path.read_text() == "print('hi')\n"
    assert store.load_draft(key) == "print('hi')\n"
    assert store.exercise_state(key) == store.IN_PROGRESS
    store.delete_draft(key)
    assert store.load_draft(key) is None
    assert store.exercise_state(key) == store.NOT_STARTED


def test_atomic_write_leaves_no_temp_files(tmp_path):
    target = tmp_path / "x.json"
    store.atomic_write(target, "one")
    store.atomic_write(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_atomic_write_keeps_old_file_when_writing_fails(tmp_path, monkeypatch):
    target = tmp_path / "x.json"
    store.atomic_write(target, "old")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    try:
        store.atomic_write(target, "new")
    except OSError:
        pass
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_progress_marks_verified_and_quiz():
    store.mark_verified("05-vector-add/add", "interpreter")
    store.record_quiz("01-what-is-triton", "stack", False)
    store.record_quiz("01-what-is-triton", "stack", True)
    data = store.load_progress()
    assert data["exercises"]["05-vector-add/add"]["verified"] is True
    assert data["quiz"]["01-what-is-triton"]["stack"] == {"correct": True, "tries": 2}
    assert store.exercise_state("05-vector-add/add") == store.VERIFIED


def test_corrupt_progress_is_set_aside_not_raised(isolated_home):
    store.notices.clear()
    store.data_dir()
    (isolated_home / store.PROGRESS_FILE).write_text("{ not json")
    data = store.load_progress()
    assert data["exercises"] == {}
    aside = [p.name for p in isolated_home.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1
    assert store.notices and "moved" in store.notices[0]
    store.mark_verified("5/add", "gpu")  # and a fresh file is written
    assert json.loads((isolated_home / store.PROGRESS_FILE).read_text())["exercises"]["5/add"]["verified"]


def test_corrupt_settings_fall_back_to_defaults(isolated_home):
    store.data_dir()
    (isolated_home / store.SETTINGS_FILE).write_text("[1, 2, 3]")
    assert store.load_settings() == store.DEFAULT_SETTINGS
