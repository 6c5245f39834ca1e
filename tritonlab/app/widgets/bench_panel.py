"""Benchmark tab: the result's lines and rows as a table, and charts of whatever the bench result carries.

The bench result is read defensively: `lines`, `rows`, `sweep` and `roofline` are each optional, and the
charts pick their series by name (GB/s or ms, yours vs torch/baseline). What is missing is simply not drawn.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from tritonlab.app.formatting import error_text, number
from tritonlab.app.strings import t

SCALAR = (str, int, float, bool, type(None))
BASELINE_WORDS = ("torch", "baseline", "ref")


def _numeric(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return None


def _label(row: dict, index: int) -> str:
    for key in ("label", "size", "name", "case", "shape", "params"):
        if key in row and row[key] not in (None, ""):
            value = row[key]
            if isinstance(value, dict):
                return ",".join(f"{k}={number(v)}" for k, v in value.items())
            return str(value)
    return str(index + 1)


def _metric_keys(rows: list[dict]) -> tuple[str | None, str | None]:
    """(yours, baseline) column names: GB/s when present, else milliseconds."""
    keys = [k for k in rows[0] if any(_numeric(r.get(k)) is not None for r in rows)]
    for unit in ("gbps", "gb/s", "gb_s", "tflops", "ms", "us"):
        matching = [k for k in keys if unit in k.lower().replace(" ", "")]
        if not matching:
            continue
        baseline = next((k for k in matching if any(w in k.lower() for w in BASELINE_WORDS)), None)
        yours = next((k for k in matching if k != baseline and "naive" not in k.lower()), None)
        if yours:
            return yours, baseline
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
    """(parameter, values, GB/s) from `sweep` as a list of points or {param, points|rows}."""
    sweep = result.get("sweep")
    param = None
    points = sweep
    if isinstance(sweep, dict):
        param = sweep.get("param") or sweep.get("name")
        points = sweep.get("points") or sweep.get("rows") or sweep.get("results")
        if points is None and param and isinstance(sweep.get("values"), list):
            ys = sweep.get("gbps") or sweep.get("GB/s") or sweep.get("y")
            if isinstance(ys, list) and len(ys) == len(sweep["values"]):
                return param, [str(v) for v in sweep["values"]], [_numeric(y) or 0.0 for y in ys]
    if not isinstance(points, list) or not points or not all(isinstance(p, dict) for p in points):
        return None
    if param is None:
        param = next((k for k in points[0] if k.isupper() or k in ("value", "block_size")), None)
    if param is None:
        return None
    yours, _ = _metric_keys(points)
    ykey = yours or next((k for k in ("gbps", "GB/s", "value_gbps") if k in points[0]), None)
    if ykey is None:
        return None
    return param, [str(p.get(param, p.get("value"))) for p in points], [_numeric(p.get(ykey)) or 0.0 for p in points]


def roofline_point(result: dict) -> dict | None:
    """{intensity, achieved, peak_compute, peak_bandwidth} in FLOP/byte and GFLOP/s, when the result has them."""
    roof = result.get("roofline")
    if not isinstance(roof, dict):
        return None

    def pick(*names):
        for name in names:
            value = _numeric(roof.get(name))
            if value is not None:
                return value
        return None

    intensity = pick("intensity", "arithmetic_intensity", "ai", "flops_per_byte")
    achieved = pick("achieved_gflops", "gflops")
    if achieved is None and pick("achieved_tflops", "tflops") is not None:
        achieved = pick("achieved_tflops", "tflops") * 1e3
    peak = pick("peak_gflops")
    if peak is None and pick("peak_tflops") is not None:
        peak = pick("peak_tflops") * 1e3
    bandwidth = pick("peak_gbps", "peak_bandwidth_gbps", "bandwidth_gbps")
    if intensity is None or achieved is None:
        return None
    return {"intensity": intensity, "achieved": achieved, "peak_compute": peak, "peak_bandwidth": bandwidth}


class BenchPanel(VerticalScroll):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._result: dict | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="bench-summary", markup=False)
        table = DataTable(id="bench-table", zebra_stripes=True, cursor_type="none")
        table.display = False
        yield table
        yield Vertical(id="bench-charts")

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self._update_view())

    def show(self, result: dict) -> None:
        self._result = result
        self._update_view()
        self.scroll_home(animate=False)

    def _update_view(self) -> None:
        lang = self.app.lang
        summary = self.query_one("#bench-summary", Static)
        table = self.query_one("#bench-table", DataTable)
        charts = self.query_one("#bench-charts", Vertical)
        result = self._result
        if result is None:
            summary.update(Text(t("bench_empty", lang), style="dim"))
            return
        text = Text()
        if result.get("error"):
            text.append_text(error_text(result["error"], lang))
            text.append("\n")
        for line in result.get("lines") or []:
            text.append(f"{line}\n")
        summary.update(text)
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
        sizes, sweep, roof = sizes_series(result), sweep_series(result), roofline_point(result)
        if not (sizes or sweep or roof):
            return []
        from textual_plotext import PlotextPlot  # plotext is only paid for when there is something to draw

        plots = []
        if sizes:
            labels, yours_key, mine, base_key, theirs = sizes
            plot = PlotextPlot(classes="bench-chart")
            plt = plot.plt
            if theirs:
                plt.multiple_bar(labels, [mine, theirs], labels=[t("yours", lang), t("torch", lang)])
            else:
                plt.bar(labels, mine, label=t("yours", lang))
            plt.title(f"{t('bench_sizes', lang)} ({yours_key})")
            plots.append(plot)
        if sweep:
            param, xs, ys = sweep
            plot = PlotextPlot(classes="bench-chart")
            plot.plt.bar(xs, ys)
            plot.plt.title(t("bench_sweep", lang, param=param))
            plots.append(plot)
        if roof:
            plot = PlotextPlot(classes="bench-chart")
            plt = plot.plt
            xs = [2.0 ** k for k in range(-4, 9)]
            if roof["peak_bandwidth"] and roof["peak_compute"]:
                ceiling = [min(roof["peak_compute"], roof["peak_bandwidth"] * x) for x in xs]
                plt.plot(xs, ceiling, label="roof")
            plt.scatter([roof["intensity"]], [roof["achieved"]], label=t("yours", lang), marker="●")
            plt.xscale("log")
            plt.yscale("log")
            plt.xlabel("FLOP/byte")
            plt.ylabel("GFLOP/s")
            plt.title(t("bench_roofline", lang))
            plots.append(plot)
        return plots
