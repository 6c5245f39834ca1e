"""Notices (Textual's `notify` toasts) whose double-width characters survive the widgets drawn under them.

Textual (8.2.8) cuts every screen line at each edge of every visible widget on it, the widgets hidden under a
toast included (`Compositor.cuts`), and a double-width character cut in half becomes two spaces
(`Segment.split_cells`). A Japanese notice over the lesson list lost the characters that straddled the edges
of the list's scrollbar: at 80×24 「ジョブの実行中です — 先に Esc で中止してください」 read 「… 先に Esc で」
「してください」. Upstream: https://github.com/Textualize/textual/issues/6357 (open; CJK toast text vanishes
where it overlaps an underlying widget's border).

`FittedToast` lays its lines out itself: where a double-width character would straddle a cut, a space goes
before it, and a line that grows too long wraps earlier. The cuts change when what lies under the toast
changes (a scrollbar comes, another toast goes, another screen), so each composition compares them with the
ones the lines were laid out for and lays them out again when they differ. `install()` makes Textual's toast
rack build these toasts (it names `Toast` from its module when it mounts one).
"""

from __future__ import annotations

from collections.abc import Callable, Set

from rich._wrap import divide_line
from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import _toast

_MAX_REFITS = 8  # layouts per toast prompted by moved cuts (a toast that moves as it grows cannot loop)


def _shift(line: Content, bad: Set[int]) -> Content:
    """`line` with a space before each double-width character that would start at a column of `bad`."""
    if not bad:
        return line
    pieces: list[Content | str] = []
    start = pos = 0
    for index, char in enumerate(line.plain):
        width = cell_len(char)
        if width == 2 and pos in bad:
            pieces.append(line[start:index])
            while pos in bad:
                pieces.append(" ")
                pos += 1
            start = index
        pos += width
    if not pieces:
        return line
    pieces.append(line[start:])
    return Content.assemble(*pieces)


def fit_lines(content: Content, width: int, blocked: Callable[[int], Set[int]]) -> list[Content]:
    """`content` broken into lines of at most `width` cells (where Textual would break them: at spaces and,
    with `present.cjk_wrap` installed, between CJK characters), with no double-width character starting at a
    column of `blocked(i)` on line i: such a character moves one cell right."""
    lines: list[Content] = []
    for paragraph in content.split("\n", allow_blank=True):
        rest = paragraph
        while True:
            bad = blocked(len(lines))
            limit = width
            while True:
                offsets = divide_line(rest.plain, limit, fold=True)
                end = offsets[0] if offsets else len(rest.plain)
                line = _shift(rest[:end].rstrip(), bad)
                over = line.cell_length - width
                if over <= 0 or limit <= 2:
                    break
                limit = max(2, limit - over)
            lines.append(line)
            rest = rest[end:]
            if not rest.plain.strip():
                break
    return lines


class FittedToast(_toast.Toast):
    """Textual's toast, its lines laid out clear of the cuts of the rows it covers."""

    _fitted_for: tuple | None = None  # (x, width, rows, blocked columns per row) the last layout assumed
    _refits = 0

    def _blocked(self, x: int, width: int, row: int) -> frozenset[int]:
        """Columns (from the toast's content edge) where a double-width character on screen row `row` would be
        cut in half by Textual's compositor."""
        compositor = getattr(self.screen, "_compositor", None)
        cuts = getattr(compositor, "cuts", None) or []
        if not 0 <= row < len(cuts):
            return frozenset()
        return frozenset(cut - x - 1 for cut in cuts[row] if x < cut < x + width)

    def _placement(self, rows: range) -> tuple:
        x, width = self.content_region.x, self.size.width
        return (x, width, (rows.start, rows.stop), tuple(self._blocked(x, width, row) for row in rows))

    def render(self) -> Content:
        content = super().render()
        width = self.size.width
        if width <= 0:  # not laid out yet: Textual's own wrapping; the first composition lays it out here
            self._fitted_for = None
            return content
        x = self.content_region.x
        # Toasts stack up from the bottom of the screen: a toast that grows keeps its last row and moves up.
        bottom = self.content_region.bottom
        count = max(1, self.size.height)
        lines: list[Content] = []
        for _ in range(4):
            top = bottom - count

            def blocked(line: int, top: int = top) -> frozenset[int]:
                return self._blocked(x, width, top + line)

            lines = fit_lines(content, width, blocked)
            if len(lines) == count:
                break
            count = len(lines)
        self._fitted_for = self._placement(range(bottom - len(lines), bottom))
        return Content("\n").join(lines)

    def render_lines(self, crop: Region) -> list[Strip]:
        content = self.content_region
        if self._refits < _MAX_REFITS and (
            self._fitted_for is None or self._placement(range(content.y, content.bottom)) != self._fitted_for
        ):
            self._refits += 1
            self.refresh(layout=True)
        return super().render_lines(crop)


def install() -> None:
    """Toasts mounted from now on are `FittedToast`s (Textual's rack builds `_toast.Toast`)."""
    _toast.Toast = FittedToast  # type: ignore[misc]
