"""The app in Japanese at 80×24: notices (Textual toasts) and lesson-list rows show every character.

Textual cuts each screen line at every edge of every widget on it, the widgets under a toast included, and a
double-width character cut in half turns into spaces (https://github.com/Textualize/textual/issues/6357).
Over the lesson list, whose scrollbar edges fall inside a toast at 80 columns, Japanese notices lost
characters: 「ジョブの実行中です — 先に Esc で中止してください」 showed without 「中止」.
"""

from __future__ import annotations

import asyncio

from app_helpers import FakeClient, fixture_catalog, screen_text, settle
from rich.cells import cell_len
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets._toast import Toast

from tritonlab.app.app import TritonLabApp
from tritonlab.app.strings import t
from tritonlab.app.widgets.toast import fit_lines
from tritonlab.store.notices import Notice

BUSY = "ジョブの実行中です — 先に Esc で中止してください"


def run(scenario, catalog=None, **app_args) -> None:
    """The app in Japanese at 80×24 with notices shown (run_test hides them unless asked); the shipped lessons
    unless `catalog` is given: their list is long enough to have a scrollbar under the notices."""

    async def main():
        app = TritonLabApp(lang="ja", backend="interpreter", client=FakeClient(), catalog=catalog, **app_args)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            await scenario(app, pilot)

    asyncio.run(main())


def cells(row: str, start: int, end: int) -> str:
    """The characters of `row` that lie wholly within cells [start, end)."""
    out, pos = [], 0
    for char in row:
        width = cell_len(char)
        if pos >= start and pos + width <= end:
            out.append(char)
        pos += width
    return "".join(out)


def toast_words(app, message: str) -> str:
    """What the terminal shows inside the toast of `message`, its lines joined, without spaces and border."""
    rows = screen_text(app).splitlines()
    toast = next(toast for toast in app.screen.query(Toast) if toast._notification.message == message)
    region = toast.content_region
    return "".join(cells(rows[y], region.x, region.right) for y in range(region.y, region.bottom)).replace(
        " ", ""
    )


async def say(app, pilot, message: str) -> None:
    app.clear_notifications()
    app.notify(message, timeout=60)
    for _ in range(10):
        await pilot.pause(0.02)


def test_a_japanese_notice_over_the_lesson_list_keeps_every_character():
    """Guards the fix for Textual issue 6357 in our toasts (widgets/toast.py): the 'busy' notice over the home
    screen's lesson list reads whole. Before it, 「中止」 straddled the list scrollbar's edges and vanished."""

    async def scenario(app, pilot):
        await say(app, pilot, BUSY)
        toast = app.screen.query_one(Toast)
        region = toast.content_region
        cuts = app.screen._compositor.cuts
        # the case the fix is for: a widget edge under the toast's words (the lesson list's scrollbar)
        assert any(region.x < cut < region.right for y in range(region.y, region.bottom) for cut in cuts[y])
        assert toast_words(app, BUSY) == BUSY.replace(" ", "")

    run(scenario)


def test_every_japanese_notice_the_app_says_reads_whole_over_the_lesson_list():
    """Guards every notice sentence the app's screens say in Japanese (app.py, lesson.py, drafts.py): each,
    shown over the lesson list at 80×24, reads whole; without the fix 「中止」「外部エディタ」 and others lost
    characters at the scrollbar's edges."""
    path = "/home/learner/.tritonlab/drafts/05-vector-add/add.py"
    messages = [
        t("busy", "ja"),
        t("editor_missing", "ja"),
        t("suspend_unsupported", "ja"),
        t("editor_failed", "ja", editor="vim", error="ファイルがありません"),
        t("job_failed", "ja", message="RuntimeError: ワーカーが応答しません"),
        t("badge_failed", "ja", message="ImportError: torch が見つかりません"),
        t("lang_session", "ja", code="ja"),
        t("reloaded", "ja", path=path),
        t("wrap_on", "ja"),
        t("wrap_off", "ja"),
        Notice("changed-outside", path, kept_in=path + ".window-1").text("ja"),
        Notice("reloaded-outside", path).text("ja"),
    ]

    async def scenario(app, pilot):
        lost = []
        for message in messages:
            await say(app, pilot, message)
            if toast_words(app, message) != message.replace(" ", ""):
                lost.append((message, toast_words(app, message)))
        assert lost == []

    run(scenario)


def test_fitted_lines_keep_wide_characters_off_the_cuts():
    """Guards `fit_lines`, the layout the toasts use: no double-width character starts at a blocked column (it
    would be cut in half), no line is wider than asked, and no character is dropped."""
    text = "ジョブの実行中です — 先に Esc で中止してください。" * 3
    blocked = {0: {5, 6}, 1: {0, 33}, 2: {31, 32, 33}}
    lines = fit_lines(Content(text), 36, lambda i: blocked.get(i, set()))
    assert "".join(line.plain for line in lines).replace(" ", "") == text.replace(" ", "")
    for i, line in enumerate(lines):
        assert line.cell_length <= 36, line.plain
        pos = 0
        for char in line.plain:
            assert not (cell_len(char) == 2 and pos in blocked.get(i, set())), (i, pos, line.plain)
            pos += cell_len(char)


def _row_starts(app, words: str) -> list[int]:
    """The cell column where each screen row holding `words` starts them."""
    found = []
    for row in screen_text(app).splitlines():
        if words in row:
            found.append(cell_len(row[: row.index(words)]))
    return found


def test_a_long_exercise_title_wraps_under_its_title_not_the_list_edge():
    """Guards the lesson list's exercise rows (widgets/lesson_list.py) at 80 columns: a title too long for
    one line goes on under its first character. Before, 「register_autograd）  未着手」 started at the
    list's edge, under the lesson numbers."""

    async def scenario(app, pilot):
        await pilot.press("end")
        await pilot.pause(0.1)
        (title,) = _row_starts(app, "カーネルを演算子として登録する")
        (wrapped,) = _row_starts(app, "register_autograd）")
        assert wrapped == title

    run(scenario)


def test_choosing_a_broken_lesson_says_its_problem_in_words():
    """Guards the notice for a lesson that failed to load, chosen in the list: it says the row's words (the
    row is now laid out as a grid, whose str() is no sentence)."""

    async def scenario(app, pilot):
        options = app.screen.query_one(OptionList)
        index = next(i for i, o in enumerate(options.options) if (o.id or "").startswith("problem:"))
        options.highlighted = index
        await pilot.press("enter")
        await pilot.pause(0.1)
        (notice,) = [n.message for n in app._notifications]
        assert notice.endswith("03-broken/lesson.toml:1: text.ja.md がありません"), notice
        assert "✗" in notice

    run(scenario, catalog=fixture_catalog())
