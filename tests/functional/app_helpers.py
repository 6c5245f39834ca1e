"""Helpers for driving the real app: a fake worker client for timing-free snapshots, and a way to wait."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_LESSONS = Path(__file__).parent / "fixtures" / "lessons"

FAKE_INFO = {
    "backend": "interpreter",
    "device": "CPU (Triton interpreter)",
    "python": "3.11",
    "torch": "2",
    "triton": "3",
}


class FakeClient:
    """Stands in for WorkerClient where the real worker's timing must not show (snapshots, draft tests).

    Same surface as WorkerClient: start() returns the hello, request() returns a canned result per op.
    """

    def __init__(self, info: dict | None = None, results: dict | None = None):
        self.info = dict(info or FAKE_INFO)
        self.results = dict(results or {})
        self.requests: list[tuple[str, dict]] = []
        self.last_exit = None
        self.cancelled = False

    def start(self, timeout: float = 0) -> dict:
        return self.info

    def request(self, op, args=None, timeout=60.0, on_event=None) -> dict:
        self.requests.append((op, dict(args or {})))
        if on_event:
            on_event({"message": "case 1/1"})
        return dict(
            self.results.get(op) or {"error": {"kind": "usage", "message": f"no fake result for {op}"}}
        )

    def cancel(self) -> None:
        self.cancelled = True

    def close(self) -> None:
        pass


def fixture_catalog():
    from tritonlab.content.loader import load_catalog

    return load_catalog(FIXTURE_LESSONS)


async def settle(pilot) -> None:
    """Wait for every thread worker (worker start, kernel jobs) and for the messages they posted."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def wait_until(pilot, predicate, tries: int = 200) -> None:
    """Let the app run until `predicate()` holds (widgets that lay out over several refreshes), never a bare sleep;
    fails loudly when it never does."""
    for _ in range(tries):
        if predicate():
            return
        await pilot.pause(0.02)
    raise AssertionError(
        f"the app never reached the state the test waits for ({predicate.__doc__ or predicate})"
    )


def screen_text(app) -> str:
    """What the terminal shows now, as plain text (for asserting on rendered words, not widget internals)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        record=True,
        color_system="truecolor",
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)
