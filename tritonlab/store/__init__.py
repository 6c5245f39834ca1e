"""User data: drafts, progress and settings under one private directory, written atomically.

`data_dir()` is the one patchable place: `$TRITONLAB_HOME` when set, else platformdirs' user data dir.
Nothing here raises on a bad user file or an unwritable folder: the file is set aside, or the write skipped,
and a `Notice` (facts + an en/ja sentence) is queued for the CLI and the app to show once
(`take_notices()`; `pending_notices()` looks without taking).

Modules: files (data dir, atomic writes, set-aside), drafts, progress, settings, notices.
"""

from __future__ import annotations

from tritonlab.store.drafts import (
    conflict_copy_path,
    delete_draft,
    digest,
    disk_digest,
    draft_is_blocked,
    draft_lock,
    draft_path,
    load_draft,
    save_draft,
)
from tritonlab.store.files import atomic_write, cache_dir, data_dir, private_dir, read_json, write_json
from tritonlab.store.notices import Notice
from tritonlab.store.notices import forget as forget_notices
from tritonlab.store.notices import peek as pending_notices
from tritonlab.store.notices import report as report_notice
from tritonlab.store.notices import take as take_notices
from tritonlab.store.progress import (
    IN_PROGRESS,
    NOT_STARTED,
    PROGRESS_FILE,
    VERIFIED,
    exercise_state,
    is_verified,
    load_progress,
    mark_verified,
    record_quiz,
    set_last,
    unmark_verified,
)
from tritonlab.store.settings import DEFAULT_SETTINGS, SETTINGS_FILE, load_settings, save_settings

__all__ = [
    "DEFAULT_SETTINGS",
    "IN_PROGRESS",
    "NOT_STARTED",
    "PROGRESS_FILE",
    "SETTINGS_FILE",
    "VERIFIED",
    "Notice",
    "atomic_write",
    "cache_dir",
    "conflict_copy_path",
    "data_dir",
    "delete_draft",
    "digest",
    "disk_digest",
    "draft_is_blocked",
    "draft_lock",
    "draft_path",
    "exercise_state",
    "is_verified",
    "load_draft",
    "load_progress",
    "load_settings",
    "mark_verified",
    "forget_notices",
    "pending_notices",
    "private_dir",
    "read_json",
    "record_quiz",
    "report_notice",
    "save_draft",
    "save_settings",
    "set_last",
    "unmark_verified",
    "take_notices",
    "write_json",
]
