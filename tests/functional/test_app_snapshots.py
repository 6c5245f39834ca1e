"""Snapshots of the home and lesson screens in English and Japanese, narrow (80×24) and wide (120×36).

They use fixture lessons (tests/functional/fixtures/lessons) and a fake worker client with a fixed hello, so
neither lesson edits nor the worker's start-up time change them. Update with `pytest --snapshot-update`.
"""

from __future__ import annotations

import pytest
from app_helpers import FakeClient, fixture_catalog, settle

from tritonlab.app.app import TritonLabApp

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]
LANGS = ["en", "ja"]


async def _ready(pilot) -> None:
    await settle(pilot)
    for editor in pilot.app.screen.query("#editor"):
        editor.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_home(snap_compare, lang, size):
    app = TritonLabApp(lang=lang, backend="interpreter", client=FakeClient(), catalog=fixture_catalog())
    assert snap_compare(app, terminal_size=size, run_before=_ready)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_lesson(snap_compare, lang, size):
    app = TritonLabApp(
        exercise_ref="5/add", lang=lang, backend="interpreter", client=FakeClient(), catalog=fixture_catalog()
    )
    assert snap_compare(app, terminal_size=size, run_before=_ready)
