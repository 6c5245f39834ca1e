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
