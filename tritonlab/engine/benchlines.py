"""bench results as plain text lines: the table `tritonlab bench` prints and the app shows as is."""

from __future__ import annotations


def _num(value, digits: int = 3) -> str:
    if value is None:
        return "—"
    if isinstance(value, int) or (isinstance(value, float) and value >= 10**digits):
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def _ms(value) -> str:
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def _pct(value) -> str:
    if value is None:
        return "—"
    return "<1%" if 0 < value < 1 else f"{value:.0f}%"


def _x(value) -> str:
    return "—" if value is None else f"{value:.2f}×"


def _split_errors(rows: list) -> tuple[list, list[str]]:
    """The rows that ran, and one indented line per row that failed (listed under the table)."""
    ok = [row for row in rows if not row.get("error")]
    errors = [f"  {row['label']}: {row['error'].get('message')}" for row in rows if row.get("error")]
    return ok, errors


def table(headers: list[str], rows: list[list[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first `left` columns left-aligned, numbers right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]

    def line(cells):
        parts = [
            str(c).ljust(w) if i < left else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
        ]
        return "  ".join(parts).rstrip()

    return [line(headers)] + [line(r) for r in rows]


def render(result: dict) -> list[str]:
    lines: list[str] = []
    head = f"{result.get('exercise')} on the {result.get('backend')}"
    if result.get("device") and result.get("backend") == "gpu":
        head += f" ({result['device']})"
    verify = result.get("verify") or {}
    if verify.get("summary"):
        head += f" — verify: {verify['summary']}"
    lines.append(head)
    if not result.get("verified"):
        lines.append(
            "not timed: a kernel that gives wrong answers has no speed worth knowing. "
            "Fix it with `tritonlab verify` first."
        )
        return lines
    if result.get("error") and not result.get("rows"):
        return lines
    if result.get("backend") == "gpu":
        lines += _gpu(result)
    else:
        lines += _interpreter(result)
    return lines


def _ceiling_lines(result: dict) -> list[str]:
    ceilings = result.get("ceilings")
    roof = result.get("roofline") or {}
    if not ceilings:
        why = result.get("ceilings_error") or "not measured"
        return [f"ceilings: unavailable ({why}); % of peak is not shown"]
    sheet = ceilings.get("datasheet") or {}
    where = "cached" if ceilings.get("cached") else "measured now"
    bw = roof.get("bandwidth_gbps")
    text = f"ceilings ({where}, {ceilings.get('gpu')}): copy {_num(bw)} GB/s"
    if roof.get("datasheet_bandwidth_gbps"):
        text += f" (datasheet {_num(roof['datasheet_bandwidth_gbps'])})"
    if roof.get("peak_tflops"):
        text += f" · {roof.get('compute')} {_num(roof['peak_tflops'])} TFLOP/s"
        if roof.get("datasheet_peak_tflops"):
            text += f" (datasheet {_num(roof['datasheet_peak_tflops'])})"
    if not sheet:
        text += " · no datasheet entry for this GPU"
    return [text]


def _gpu(result: dict) -> list[str]:
    lines = _ceiling_lines(result)
    rows = result.get("rows") or []
    has_flops = any(r.get("tflops") is not None for r in rows)
    headers = (
        ["size", "ms", "q20–q80", "GB/s"]
        + (["TFLOP/s"] if has_flops else [])
        + ["% peak", "torch ms", "torch GB/s", "speedup"]
    )
    body = []
    timed, errors = _split_errors(rows)
    for row in timed:
        cells = [
            row["label"],
            _ms(row.get("ms")),
            f"{_ms(row.get('ms_q20'))}–{_ms(row.get('ms_q80'))}",
            _num(row.get("gbps")),
        ]
        if has_flops:
            cells.append(_num(row.get("tflops")))
        cells += [
            _pct(row.get("pct_of_peak")),
            _ms(row.get("torch_ms")),
            _num(row.get("torch_gbps")),
            _x(row.get("speedup")),
        ]
        body.append(cells)
    lines.append(
        f"times in ms (median, 20th–80th percentile) by triton.testing.do_bench; baseline: "
        f"{result.get('baseline')}; dtype {result.get('dtype')}"
    )
    lines += table(headers, body)
    lines += errors
    roof = result.get("roofline") or {}
    if roof.get("note"):
        lines.append("roofline: " + roof["note"])
    naive = result.get("naive")
    if naive:
        lines.append("")
        lines.append("the wrong way vs the right way:")
        lines += table(
            ["size", "naive ms", "do_bench ms", "naive / real"],
            [[r["label"], _ms(r["naive_ms"]), _ms(r["ms"]), _x(r["ratio"])] for r in naive["rows"]],
        )
        lines.append(naive["note"])
    lines += _sweep_lines(result.get("sweep"))
    lines += _autotune_lines(result.get("autotune"))
    return lines


def _sweep_lines(sweep: dict | None) -> list[str]:
    if not sweep:
        return []
    lines = ["", f"sweep at {sweep['label']}" + (f" — {sweep['note']}" if sweep.get("note") else "")]
    rows = sweep.get("rows") or []
    timed = any(r.get("ms") is not None for r in rows)
    if timed:
        has_flops = any(r.get("tflops") is not None for r in rows)
        headers = ["config", "ms", "GB/s"] + (["TFLOP/s"] if has_flops else []) + ["% peak", ""]
        body = []
        for r in rows:
            if r.get("status") != "ok":
                body.append(
                    [r["label"], "—", "—"] + (["—"] if has_flops else []) + ["—", r.get("error") or ""]
                )
                continue
            cells = [r["label"], _ms(r.get("ms")), _num(r.get("gbps"))]
            if has_flops:
                cells.append(_num(r.get("tflops")))
            cells += [_pct(r.get("pct_of_peak")), "← best" if r.get("best") else ""]
            body.append(cells)
        lines += table(headers, body)
    else:
        body = [
            [
                r["label"],
                _num(r.get("programs")),
                _num(r.get("bytes_loaded")),
                _num(r.get("bytes_stored")),
                r.get("error") or "",
            ]
            for r in rows
        ]
        lines += table(["config", "programs", "bytes loaded", "bytes stored", ""], body)
    return lines


def _autotune_lines(report: dict | None) -> list[str]:
    if not report:
        return []
    lines = ["", f"autotune explorer: {report.get('kernel') or '—'}"]
    shapes = report.get("shapes") or []
    if shapes and isinstance(shapes[0], dict):
        for shape in shapes:
            lines.append(
                f"shape {shape['label']}"
                + (
                    f" (the autotuner itself picks {shape['autotuner_pick']})"
                    if shape.get("autotuner_pick")
                    else ""
                )
            )
            body = []
            for r in shape["rows"]:
                if r.get("status") != "ok":
                    body.append([r["config"], "—", "—", r.get("error") or ""])
                    continue
                body.append(
                    [
                        r["config"],
                        _ms(r.get("ms")),
                        _num(r.get("tflops") or r.get("gbps")),
                        "← best" if r.get("best") else "",
                    ]
                )
            lines += table(
                ["config", "ms", "TFLOP/s" if any(r.get("tflops") for r in shape["rows"]) else "GB/s", ""],
                body,
            )
        second = report.get("second")
        if second and report.get("winner"):
            lines.append(
                f"the winner on the first shape ({report['winner']}) takes {_ms(second.get('winner_ms'))} ms "
                f"on {second['label']}, where its own best ({second['own_best']}) takes "
                f"{_ms(second.get('own_best_ms'))} ms: {_x(second.get('gap'))} — a config tuned for one "
                "shape can be far from best on another, which is why the autotune key names the sizes"
            )
    else:
        for config in report.get("configs") or []:
            lines.append(f"  {config}")
    if report.get("note"):
        lines.append(report["note"])
    return lines


def _interpreter(result: dict) -> list[str]:
    lines = []
    rows = result.get("rows") or []
    body = []
    counted, errors = _split_errors(rows)
    for row in counted:
        ai = row.get("arithmetic_intensity")
        body.append(
            [
                row["label"],
                _num(row.get("programs")),
                _num(row.get("bytes_loaded")),
                _num(row.get("bytes_stored")),
                _num(row.get("bytes_moved")),
                _num(row.get("bytes")),
                "—" if ai is None else f"{ai:.3g}",
            ]
        )
    lines += table(
        ["size", "programs", "bytes loaded", "bytes stored", "moved", "ideal (formula)", "FLOP/B"], body
    )
    lines += errors
    for row in rows:
        extra = row.get("extra_bytes")
        if extra:
            lines.append(
                f"at {row['label']} your kernel moved {extra:,.0f} bytes more than the formula's "
                f"{row['bytes']:,.0f}: some data is read more than once (or more is written than needed)"
            )
    lines.append(result.get("note") or "")
    naive = result.get("naive")
    if naive:
        lines.append(naive["note"])
    lines += _sweep_lines(result.get("sweep"))
    lines += _autotune_lines(result.get("autotune"))
    return lines
