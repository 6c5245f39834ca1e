"""User data: atomic writes, private permissions, and every unusable file set aside *and reported*."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import pytest

from tritonlab import cli, store

KEY = "05-vector-add/add"


@pytest.fixture(autouse=True)
def fresh_notices():
    store.forget_notices()
    yield
    store.forget_notices()


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def kinds() -> list[str]:
    return [n.kind for n in store.pending_notices()]


def readonly_home(tmp_path, monkeypatch):
    """A data dir the process cannot write: chmod 0500 works unless we are root; root cannot create anything
    in /proc/1 either."""
    if os.geteuid() == 0:
        home = "/proc/1"
    else:
        home = tmp_path / "ro-home"
        home.mkdir()
        home.chmod(0o500)
    monkeypatch.setenv("TRITONLAB_HOME", str(home))
    return home


# ---- basics ----------------------------------------------------------------------------------------


def test_data_dir_follows_tritonlab_home(isolated_home):
    assert store.data_dir() == isolated_home
    assert isolated_home.is_dir()


def test_draft_round_trip_and_delete():
    assert store.load_draft(KEY) is None
    path = store.save_draft(KEY, "print('hi')\n")
    assert path.read_text() == "print('hi')\n"
    assert store.load_draft(KEY) == "print('hi')\n"
    assert store.exercise_state(KEY) == store.IN_PROGRESS
    store.delete_draft(KEY)
    assert store.load_draft(KEY) is None
    assert store.exercise_state(KEY) == store.NOT_STARTED
    assert store.pending_notices() == []


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
    with pytest.raises(OSError):
        store.atomic_write(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


# ---- permissions -------------------------------------------------------------------------------------


def test_folders_are_0700_and_files_0600(isolated_home):
    store.save_draft(KEY, "x = 1\n")
    store.mark_verified(KEY, "interpreter")
    store.save_settings({"lang": "ja"})
    assert mode(isolated_home) == 0o700
    assert mode(isolated_home / "drafts") == 0o700
    assert mode(isolated_home / "drafts" / "05-vector-add") == 0o700
    for path in (
        store.draft_path(KEY),
        isolated_home / store.PROGRESS_FILE,
        isolated_home / store.SETTINGS_FILE,
    ):
        assert mode(path) == 0o600, path
    assert mode(isolated_home / "secret-v1") == 0o600


def test_the_cache_dir_is_private(isolated_home, tmp_path, monkeypatch):
    assert store.cache_dir() == isolated_home / "cache" and mode(isolated_home / "cache") == 0o700
    monkeypatch.delenv("TRITONLAB_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert (
        store.cache_dir() == tmp_path / "xdg" / "tritonlab" and mode(tmp_path / "xdg" / "tritonlab") == 0o700
    )


def test_an_existing_open_data_dir_and_files_are_tightened(isolated_home):
    isolated_home.mkdir(mode=0o755)
    isolated_home.chmod(0o755)  # as an older version left it
    (isolated_home / store.SETTINGS_FILE).write_text('{"lang": "en"}')
    (isolated_home / store.SETTINGS_FILE).chmod(0o644)
    assert store.load_settings()["lang"] == "en"
    assert mode(isolated_home) == 0o700
    assert mode(isolated_home / store.SETTINGS_FILE) == 0o600


# ---- progress ----------------------------------------------------------------------------------------


def test_progress_marks_verified_and_quiz():
    store.mark_verified(KEY, "interpreter")
    store.record_quiz("01-what-is-triton", "stack", False)
    store.record_quiz("01-what-is-triton", "stack", True)
    data = store.load_progress()
    assert data["exercises"][KEY]["verified"] is True
    assert data["quiz"]["01-what-is-triton"]["stack"] == {"correct": True, "tries": 2}
    assert store.exercise_state(KEY) == store.VERIFIED


def test_a_tick_needs_an_entry_the_lab_wrote(isolated_home):
    code = store.save_draft(KEY, "def add(x, y): ...\n")
    assert store.mark_verified(KEY, "interpreter", code_path=code)
    entry = store.load_progress()["exercises"][KEY]
    assert entry["code_sha256"] == store.digest(code.read_bytes())
    assert store.exercise_state(KEY) == store.VERIFIED
    # hand-written (or kernel-written) entries give no tick: no seal, a copied seal, or a changed hash
    data = json.loads((isolated_home / store.PROGRESS_FILE).read_text())
    data["exercises"]["06-other/x"] = {"verified": True, "backend": "gpu"}
    data["exercises"]["07-copy/y"] = dict(entry)
    data["exercises"][KEY]["code_sha256"] = "0" * 64
    (isolated_home / store.PROGRESS_FILE).write_text(json.dumps(data))
    progress = store.load_progress()
    assert store.exercise_state("06-other/x", progress) == store.NOT_STARTED
    assert store.exercise_state("07-copy/y", progress) == store.NOT_STARTED
    assert store.exercise_state(KEY, progress) == store.IN_PROGRESS


def test_corrupt_progress_is_set_aside_and_reported(isolated_home):
    store.data_dir()
    (isolated_home / store.PROGRESS_FILE).write_text("{ not json")
    data = store.load_progress()
    assert data["exercises"] == {}
    aside = [p for p in isolated_home.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_text() == "{ not json"
    (notice,) = store.pending_notices()
    assert (notice.kind, notice.reason, notice.lost) == ("set-aside", "not-json", "progress")
    assert notice.moved_to == str(aside[0]) and notice.file == str(isolated_home / store.PROGRESS_FILE)
    assert "moved to" in notice.text("en") and aside[0].name in notice.text("en")
    assert "進捗" in notice.text("ja") and aside[0].name in notice.text("ja")
    store.mark_verified("5/add", "gpu")  # and a fresh file is written
    assert json.loads((isolated_home / store.PROGRESS_FILE).read_text())["exercises"]["5/add"]["verified"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\xff\xfe\x00", "not-utf8"),
        (b"[1, 2]", "wrong-shape"),
        (b'{"exercises": 3, "quiz": []}', "wrong-shape"),
    ],
)
def test_unusable_progress_files_are_reported(isolated_home, content, reason):
    store.data_dir()
    (isolated_home / store.PROGRESS_FILE).write_bytes(content)
    assert store.load_progress()["exercises"] == {}
    assert [(n.kind, n.reason) for n in store.pending_notices()] == [("set-aside", reason)]


def test_wrongly_shaped_progress_keeps_what_is_good_and_names_what_was_dropped(isolated_home):
    store.data_dir()
    good = {"exercises": [], "quiz": {"01": {"q": {"correct": True, "tries": 1}, "bad": 7}}, "last": KEY}
    (isolated_home / store.PROGRESS_FILE).write_text(json.dumps(good))
    data = store.load_progress()
    assert data["quiz"]["01"] == {"q": {"correct": True, "tries": 1}} and data["last"] == KEY
    (notice,) = store.pending_notices()
    assert notice.kind == "entries-dropped" and notice.lost == "exercises, quiz.01.bad"
    assert (
        json.loads((isolated_home / store.PROGRESS_FILE).read_text())["exercises"] == {}
    )  # repaired on disk
    assert "exercises" in json.loads(Path(notice.moved_to).read_text())


def test_a_good_progress_file_is_not_reported(isolated_home):
    store.record_quiz("01", "q", True)
    store.set_last(KEY)
    assert store.load_progress()["last"] == KEY
    assert store.pending_notices() == []
    assert not [p for p in isolated_home.iterdir() if ".corrupt-" in p.name]


def test_a_folder_where_progress_belongs_is_set_aside(isolated_home):
    (isolated_home / store.PROGRESS_FILE).mkdir(parents=True)
    assert store.load_progress()["exercises"] == {}
    assert [(n.kind, n.reason) for n in store.pending_notices()] == [("set-aside", "is-a-directory")]
    assert store.set_last(KEY) and store.load_progress()["last"] == KEY


# ---- settings ----------------------------------------------------------------------------------------


def test_settings_of_the_wrong_type_fall_back_to_defaults_with_a_notice(isolated_home):
    store.data_dir()
    (isolated_home / store.SETTINGS_FILE).write_text(
        json.dumps({"lang": 5, "backend": ["gpu"], "theme": "nord"})
    )
    settings = store.load_settings()
    assert settings == {"lang": None, "backend": "auto", "theme": "nord"}
    assert sorted(n.key for n in store.pending_notices() if n.kind == "settings-value") == ["backend", "lang"]
    lang_notice = next(n for n in store.pending_notices() if n.key == "lang")
    assert "lang = 5" in lang_notice.text("en") and "既定値" in lang_notice.text("ja")
    store.load_settings()  # the same fact is not queued twice
    assert len(store.pending_notices()) == 2


def test_valid_settings_give_no_notice(isolated_home):
    store.save_settings({"lang": "ja", "backend": "interpreter", "theme": None})
    assert store.load_settings()["lang"] == "ja"
    assert store.pending_notices() == []


def test_corrupt_settings_fall_back_to_defaults(isolated_home):
    store.data_dir()
    (isolated_home / store.SETTINGS_FILE).write_text("[1, 2, 3]")
    assert store.load_settings() == store.DEFAULT_SETTINGS
    assert [(n.kind, n.lost) for n in store.pending_notices()] == [("set-aside", "settings")]


def test_lost_settings_are_said_in_grammatical_english_and_in_japanese(isolated_home):
    """It said "your settings was lost" (and "your settings is not available")."""
    store.data_dir()
    (isolated_home / store.SETTINGS_FILE).write_text('{"lang": ')
    store.load_settings()
    (notice,) = store.pending_notices()
    assert "; your settings were lost and the old file was moved to " in notice.text("en"), notice.text("en")
    assert "設定は失われ、元のファイルは" in notice.text("ja")
    progress = store.Notice("set-aside", "p.json", reason="not-json", lost="progress", moved_to="p.old")
    assert "your progress was lost" in progress.text("en")
    stuck = store.Notice("not-set-aside", "s.json", reason="not-json", lost="settings")
    assert stuck.text("en").endswith("your settings are not available in this session.")


def test_an_invalid_setting_whose_default_is_null_says_what_is_used(isolated_home):
    """lang = "fr" said 'the default (null) is used instead': null means the locale's language (the standard
    theme for theme); --json keeps the fact `default: "null"`."""
    store.data_dir()
    (isolated_home / store.SETTINGS_FILE).write_text(json.dumps({"lang": "fr", "theme": 3, "backend": "x"}))
    store.load_settings()
    said = {n.key: (n.text("en"), n.text("ja"), n.to_dict("en")) for n in store.pending_notices()}
    en, ja, facts = said["lang"]
    assert "the default (the language of your locale) is used instead" in en and "null" not in en, en
    assert "既定値（ロケールの言語）を使います" in ja and "null" not in ja, ja
    assert facts["default"] == "null"
    assert "the default (the standard theme)" in said["theme"][0] and "標準のテーマ" in said["theme"][1]
    assert 'the default ("auto") is used instead' in said["backend"][0]


# ---- drafts ------------------------------------------------------------------------------------------


def test_a_folder_where_the_draft_belongs_is_reported_not_replaced():
    path = store.draft_path(KEY)
    path.mkdir(parents=True)
    (path / "keep.txt").write_text("mine")
    assert store.load_draft(KEY) is None
    assert kinds() == ["draft-not-a-file"]
    with pytest.raises(OSError):
        store.save_draft(KEY, "x = 1\n")
    store.delete_draft(KEY)
    assert (path / "keep.txt").read_text() == "mine"
    assert store.exercise_state(KEY) == store.NOT_STARTED


def test_a_non_utf8_draft_is_set_aside_and_reported():
    path = store.draft_path(KEY)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"x = '\xff'\n")
    assert store.load_draft(KEY) is None
    (notice,) = store.pending_notices()
    assert (notice.kind, notice.reason, notice.lost) == ("set-aside", "not-utf8", "draft")
    assert Path(notice.moved_to).read_bytes() == b"x = '\xff'\n"


def test_windows_on_one_exercise_see_each_other_and_dead_ones_are_forgotten():
    from tritonlab.store import drafts

    mine = drafts.open_window(KEY, "aaaa")
    assert drafts.other_windows(KEY, "aaaa") == []
    theirs = drafts.open_window(KEY, "bbbb")  # a second window (same process, as in a Pilot test)
    assert drafts.other_windows(KEY, "aaaa") == [os.getpid()]
    dead = mine.with_name(mine.name.replace(f"{os.getpid()}-aaaa", "999999999-cccc"))
    dead.touch()
    drafts.close_window(theirs)
    assert drafts.other_windows(KEY, "aaaa") == []
    assert not dead.exists()


# ---- a folder that cannot be written -----------------------------------------------------------------


def test_a_read_only_home_keeps_working_and_says_saving_is_off(tmp_path, monkeypatch):
    readonly_home(tmp_path, monkeypatch)
    assert store.load_progress()["exercises"] == {}
    assert store.load_settings() == store.DEFAULT_SETTINGS
    assert store.mark_verified(KEY, "interpreter") is False
    assert store.set_last(KEY) is False
    assert store.save_settings({"lang": "ja"}) is False
    with pytest.raises(OSError):
        store.save_draft(KEY, "x = 1\n")
    assert "cannot-save" in kinds()
    text = next(n for n in store.pending_notices() if n.kind == "cannot-save").text("en")
    assert "drafts and progress cannot be saved" in text
    assert "保存できません" in next(n for n in store.pending_notices() if n.kind == "cannot-save").text("ja")


def test_a_full_disk_keeps_the_old_file_and_is_reported(isolated_home, monkeypatch):
    store.set_last("1/a")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", full)
        assert store.set_last("2/b") is False
    assert store.load_progress()["last"] == "1/a"
    (notice,) = store.pending_notices()
    assert notice.kind == "cannot-save" and "No space left" in notice.text("en")
    assert [p.name for p in isolated_home.iterdir() if p.name.endswith(".tmp")] == []


# ---- the CLI reports notices -------------------------------------------------------------------------


def test_cli_prints_notices_on_stderr_and_in_json(isolated_home, capsys):
    store.data_dir()
    (isolated_home / store.PROGRESS_FILE).write_text('{"exercises": []}')
    assert cli.main(["list", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert [n["kind"] for n in data["notices"]] == ["entries-dropped"]
    assert data["notices"][0]["moved_to"].startswith(str(isolated_home))
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "progress-v1.json" in lines[0] and "moved to" in lines[0]
    # false-pass guard: a second run has nothing to say
    store.forget_notices()
    assert cli.main(["--lang", "ja", "list", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["notices"] == [] and err == ""


def test_cli_notices_follow_the_language(isolated_home, capsys):
    store.data_dir()
    (isolated_home / store.PROGRESS_FILE).write_bytes(b"\xff")
    assert cli.main(["list", "--lang", "ja"]) == 0
    err = capsys.readouterr().err
    assert "UTF-8 のテキストではありません" in err and "moved" not in err


def test_cli_verify_reports_a_folder_in_the_drafts_place_and_uses_the_starter(capsys):
    from types import SimpleNamespace

    from tritonlab.content.loader import load_catalog

    exercise = load_catalog().exercise(KEY)
    opts = SimpleNamespace(solution=False, file=None)
    store.save_draft(KEY, "x = 1\n")
    assert cli._code_args(opts, exercise) == {"exercise": KEY, "file": str(store.draft_path(KEY))}
    store.delete_draft(KEY)
    store.draft_path(KEY).mkdir()
    assert cli._code_args(opts, exercise) == {"exercise": KEY}
    assert kinds() == ["draft-not-a-file"] and store.draft_path(KEY).is_dir()
