"""The app opens its home screen over a lessons folder full of broken lessons (issue #14 item 3): every broken
lesson is listed as broken with its `NN-slug/file:line: message`, in the app's language, and the good lesson
opens."""

from __future__ import annotations

import asyncio
import io

from app_helpers import FakeClient, settle
from rich.console import Console
from textual.widgets import OptionList

from tests.broken_lessons import CASES, expected_location, make_duplicate, make_lessons
from tritonlab.app.app import TritonLabApp
from tritonlab.app.screens.home import HomeScreen
from tritonlab.app.screens.lesson import LessonScreen


def plain(prompt) -> str:
    """An option's prompt as the text a learner reads (a lesson row is a rich Table with its summary)."""
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(prompt)
    return console.export_text()


def _where(path, line, lessons) -> str:
    return f"{path.relative_to(lessons)}:{line}: "


def test_home_lists_every_broken_lesson_and_opens_the_good_one(tmp_path, monkeypatch):
    lessons = tmp_path / "lessons"
    folders = make_lessons(lessons, CASES)
    duplicate = make_duplicate(lessons)
    monkeypatch.setenv("TRITONLAB_LESSONS_DIR", str(lessons))
    expected = [_where(*expected_location(case, folders[case.name]), lessons) for case in CASES]
    expected.append(_where(duplicate / "lesson.toml", 3, lessons))

    async def main():
        app = TritonLabApp(lang="en", backend="interpreter", client=FakeClient())  # loads the catalog itself
        async with app.run_test(size=(160, 60)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, HomeScreen)
            options = app.screen.query_one(OptionList)
            prompts = [plain(o.prompt) for o in options.options]
            text = "\n".join(prompts)
            assert "Fixture: vector add once more" in text
            for where in expected:
                line = next((p for p in prompts if where in p), None)
                assert line is not None and "✗" in line, f"{where} not listed as broken"
            english = next(p for p in prompts if "22-broken-number-as-text" in p)
            assert "number must be an integer, not text" in english

            await pilot.press("ctrl+l")
            await pilot.pause()
            prompts = [plain(o.prompt) for o in app.screen.query_one(OptionList).options]
            japanese = next(p for p in prompts if "22-broken-number-as-text" in p)
            assert "number は整数で書いてください（文字列になっています）" in japanese, japanese

            options = app.screen.query_one(OptionList)
            index = next(i for i, o in enumerate(options.options) if o.id == "exercise:11-fixture-scale/add")
            options.highlighted = index
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, LessonScreen), "the good lesson still opens"

    asyncio.run(main())
