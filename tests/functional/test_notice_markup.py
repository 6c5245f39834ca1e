"""Notices are plain text: a path or an error message with square brackets reads as it is. Before, Rich markup
swallowed `[draft]` in `/tmp/[draft].py` (seen by the twenty-fifth session's Japanese walkthrough)."""

from __future__ import annotations

import asyncio

from app_helpers import FakeClient, screen_text, settle

from tritonlab.app.app import TritonLabApp

PATH = "/tmp/[draft]/kernel[0].py"


def test_brackets_in_a_notice_are_shown_not_read_as_markup():
    async def main():
        app = TritonLabApp(lang="en", backend="interpreter", client=FakeClient())
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await settle(pilot)
            app.notify(f"saved {PATH}", timeout=60)
            app.screen.notify("[b]not bold[/b] KeyError: '[x]'", timeout=60)  # a screen's notice, too
            for _ in range(10):
                await pilot.pause(0.02)
            shown = screen_text(app)
            assert PATH in shown, shown
            assert "[b]not bold[/b]" in shown and "'[x]'" in shown, shown

    asyncio.run(main())


def test_the_command_palette_speaks_japanese():
    """ctrl+p: Textual's own commands and the search prompt in Japanese (they were English: "Search for
    commands…", Keys, Quit, Screenshot, Theme)."""
    from textual.command import CommandInput, CommandPalette

    async def main():
        app = TritonLabApp(lang="ja", backend="interpreter", client=FakeClient())
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            titles = [c.title for c in app.get_system_commands(app.screen)]
            assert {"テーマ", "終了", "キー", "スクリーンショット"} <= set(titles), titles
            assert not {"Theme", "Quit", "Keys", "Screenshot"} & set(titles), titles
            await pilot.press("ctrl+p")
            for _ in range(10):
                await pilot.pause(0.02)
            assert CommandPalette.is_open(app)
            assert app.screen.query_one(CommandInput).placeholder == "コマンドを検索…"
        english = TritonLabApp(lang="en", backend="interpreter", client=FakeClient())
        async with english.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert "Theme" in [c.title for c in english.get_system_commands(english.screen)]

    asyncio.run(main())
