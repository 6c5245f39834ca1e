"""Benchmark tab: the report (tritonlab.present.bench, in the app's language) and charts of whatever the bench
result carries.

The bench result is read defensively: `rows`, `sweep` and `roofline` are each optional, and the
charts pick their series by name (GB/s or ms, yours vs torch/baseline). What is missing is simply not drawn.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import HorizontalScroll, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from tritonlab.app.formatting import error_text, number
from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.present import bench as bench_words

SCALAR = (str, int, float, bool, type(None))


def _numeric(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return None


def _label(row: dict, index: int) -> str:
    for key in ("label", "size", "name", "case", "shape", "params", "config"):
        if key in row and row[key] not in (None, ""):
            value = row[key]
            if isinstance(value, dict):
                return ",".join(f"{k}={number(v)}" for k, v in value.items())
            return str(value)
    return str(index + 1)


def _has_numbers(rows: list[dict], key: str) -> bool:
    return any(_numeric(r.get(key)) is not None for r in rows)


def _metric_keys(rows: list[dict]) -> tuple[str | None, str | None]:
    """(yours, baseline) column names: GB/s when measured, else TFLOP/s, else milliseconds."""
    for yours, baseline in (("gbps", "torch_gbps"), ("tflops", "torch_tflops"), ("ms", "torch_ms")):
        if _has_numbers(rows, yours):
            return yours, baseline if _has_numbers(rows, baseline) else None
    return None, None


def sizes_series(result: dict) -> tuple[list[str], str, list[float], str | None, list[float]] | None:
    rows = [r for r in result.get("rows") or [] if isinstance(r, dict)]
    if not rows:
        return None
    yours, baseline = _metric_keys(rows)
    if yours is None:
        return None
    labels = [_label(r, i) for i, r in enumerate(rows)]
    mine = [_numeric(r.get(yours)) or 0.0 for r in rows]
    theirs = [_numeric(r.get(baseline)) or 0.0 for r in rows] if baseline else []
    return labels, yours, mine, baseline, theirs


def sweep_series(result: dict) -> tuple[str, list[str], list[float]] | None:
    """(what was swept, config labels, GB/s) for the configs that were timed."""
    sweep = result.get("sweep")
    if isinstance(sweep, dict):
        points = sweep.get("rows") or sweep.get("points") or []
        param = ", ".join(sweep.get("keys") or []) or sweep.get("param") or "config"
    elif isinstance(sweep, list):
        points, param = sweep, "config"
    else:
        return None
    points = [p for p in points if isinstance(p, dict)]
    if not points:
        return None
    ykey = next((k for k in ("gbps", "tflops") if _has_numbers(points, k)), None)
    if ykey is None:
        return None
    timed = [(p, y) for p in points if (y := _numeric(p.get(ykey))) is not None]
    return param, [_label(p, i) for i, (p, _y) in enumerate(timed)], [y for _p, y in timed]


def roofline_series(result: dict) -> dict | None:
    """Roofs (TFLOP/s against FLOP/byte) and one point per size for yours and torch, when measured."""
    roof = result.get("roofline")
    if not isinstance(roof, dict):
        return None
    points = [
        p
        for p in roof.get("points") or []
        if isinstance(p, dict) and _numeric(p.get("ai")) and _numeric(p.get("tflops"))
    ]
    if not points:
        return None
    return {
        "bandwidth_gbps": _numeric(roof.get("bandwidth_gbps")),
        "peak_tflops": _numeric(roof.get("peak_tflops")),
        "points": points,
    }


def report_blocks(result: dict, lang: str) -> list[tuple[bool, list[str]]]:
    """The bench report as (is_table, lines) runs, from tritonlab.present.bench's blocks: a table keeps its
    columns (and its best row's mark), text wraps. Nothing is guessed from the shape of a line."""
    out: list[tuple[bool, list[str]]] = []
    mark = bench_words.best_mark(lang)
    for block in bench_words.blocks(result, lang, app=True):
        if block[0] == "table":
            _, headers, rows, best = block
            rows = [list(r) + ([mark] if i in best else []) for i, r in enumerate(rows)]
            out.append((True, bench_words.table(headers, rows)))
        elif out and not out[-1][0]:
            out[-1][1].append(block[1])
        else:
            out.append((False, [block[1]]))
    return out


class BenchPanel(LabAppAccess, VerticalScroll):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._result: dict | None = None
        self._profile: dict | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="bench-summary", markup=False)
        profile = Static(id="bench-profile", markup=False)
        profile.display = False  # until shift+F7: one call, kernel by kernel (tritonlab profile)
        yield profile
        yield Vertical(id="bench-report")
        table: DataTable[object] = DataTable(id="bench-table", zebra_stripes=True, cursor_type="none")
        table.display = False
        yield table
        yield Vertical(id="bench-charts")

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._relabel)
        # As in the verify panel: an auto-height DataTable can miss the layout after it measures its rows.
        table = self.query_one("#bench-table", DataTable)
        self.watch(table, "virtual_size", self._table_measured, init=False)

    def _table_measured(self, _size: object) -> None:
        table = self.query_one("#bench-table", DataTable)
        self.call_after_refresh(table.refresh, layout=True)

    def show(self, result: dict) -> None:
        self._result = result
        self._update_view()
        self.scroll_home(animate=False)

    def _relabel(self, _lang: str) -> None:
        self._update_view()
        self._update_profile()

    def show_profile(self, result: dict) -> None:
        """The profile of one call, above the benchmark (which it does not replace)."""
        self._profile = result
        self._update_profile()
        self.scroll_home(animate=False)

    def _update_profile(self) -> None:
        from tritonlab.present.profile import lines as profile_lines

        static = self.query_one("#bench-profile", Static)
        result = self._profile
        if result is None:
            static.display = False
            return
        lang = self.lab_app.lang
        text = Text()
        if result.get("error"):
            text.append_text(error_text(result["error"], lang))
        else:
            body = profile_lines(result, lang)
            text.append(body[0] + "\n", style="bold")
            text.append("\n".join(body[1:]))
        static.update(text)
        static.display = True

    def _update_view(self) -> None:
        lang = self.lab_app.lang
        summary = self.query_one("#bench-summary", Static)
        table = self.query_one("#bench-table", DataTable)
        charts = self.query_one("#bench-charts", Vertical)
        result = self._result
        if result is None:
            summary.update(Text(t("bench_empty", lang), style="dim"))
            return
        text = error_text(result["error"], lang) if result.get("error") else Text()
        summary.update(text)
        summary.display = bool(text)
        report = self.query_one("#bench-report", Vertical)
        report.remove_children()
        # the error above already says why a failing kernel was not timed: the blocks name F6, not repeat it
        drawn = report_blocks(result, lang) if (result.get("verify") or result.get("rows")) else []
        blocks = []
        for is_table, block in drawn:
            body = Static(
                Text("\n".join(block), no_wrap=is_table),
                markup=False,
                classes="bench-table-text" if is_table else "bench-prose",
            )
            blocks.append(HorizontalScroll(body, classes="bench-table-scroll") if is_table else body)
        if blocks:
            report.mount_all(blocks)
        # The report already holds the table, formatted as `tritonlab bench` prints it.
        if drawn:
            table.display = False
        else:
            self._fill_table(table, result)
        charts.remove_children()
        plots = self._charts(result, lang)
        if plots:
            charts.mount_all(plots)

    @staticmethod
    def _fill_table(table: DataTable, result: dict) -> None:
        rows = [r for r in result.get("rows") or [] if isinstance(r, dict)]
        table.clear(columns=True)
        columns: list[str] = []
        for row in rows:
            for key, value in row.items():
                if key not in columns and isinstance(value, SCALAR + (dict,)):
                    columns.append(key)
        table.display = bool(rows and columns)
        if not table.display:
            return
        table.add_columns(*columns)
        for row in rows:
            cells = []
            for key in columns:
                value = row.get(key)
                if isinstance(value, dict):
                    value = ",".join(f"{k}={number(v)}" for k, v in value.items())
                cells.append(number(value))
            table.add_row(*cells)

    def _charts(self, result: dict, lang: str) -> list:
        sizes, sweep, roof = sizes_series(result), sweep_series(result), roofline_series(result)
        if not (sizes or sweep or roof):
            return []
        from textual_plotext import PlotextPlot  # plotext is only paid for when there is something to draw

        plots = []
        if sizes:
            labels, yours_key, mine, _baseline_key, theirs = sizes
            plot = PlotextPlot(classes="bench-chart")
            plt = plot.plt
            if theirs:
                plt.multiple_bar(  # type: ignore[call-arg]  # plotext takes `labels`; textual-plotext's stub says `label`
                    labels, [mine, theirs], labels=[t("yours", lang), t("torch", lang)]
                )
            else:
                plt.bar(labels, mine, label=t("yours", lang))
            plt.title(f"{t('bench_sizes', lang)} ({yours_key})")
            plots.append(plot)
        if sweep:
            param, xs, ys = sweep
            plot = PlotextPlot(classes="bench-chart")
            plot.plt.bar(xs, ys)
            plot.plt.title(t("bench_sweep", lang, param=param) + " (GB/s)")
            plots.append(plot)
        if roof:
            plot = PlotextPlot(classes="bench-chart")
            plt = plot.plt
            ais = [p["ai"] for p in roof["points"]]
            low, high = min(ais + [0.01]) / 4, max(ais + [1.0]) * 8
            xs = [low * (high / low) ** (k / 40) for k in range(41)]
            if roof["bandwidth_gbps"] and roof["peak_tflops"]:
                plt.plot(
                    xs, [min(roof["peak_tflops"], roof["bandwidth_gbps"] * x / 1e3) for x in xs], label="roof"
                )
            for who, marker in (("yours", "●"), ("torch", "◆")):
                theirs_or_mine = [p for p in roof["points"] if p.get("who", "yours") == who]
                if theirs_or_mine:
                    plt.scatter(
                        [p["ai"] for p in theirs_or_mine],
                        [p["tflops"] for p in theirs_or_mine],
                        label=t(who, lang),
                        marker=marker,
                    )
            plt.xscale("log")
            plt.yscale("log")
            plt.xlabel("FLOP/byte")
            plt.ylabel("TFLOP/s")
            plt.title(t("bench_roofline", lang))
            plots.append(plot)
        return plots
