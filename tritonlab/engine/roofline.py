"""The roofline: attainable TFLOP/s = min(compute peak, arithmetic intensity × memory bandwidth).

Arithmetic intensity (AI) is FLOPs per byte moved, from the lesson's formulas. Left of the ridge point (peak /
bandwidth) a kernel is memory-bound — bytes, not arithmetic, set its time — right of it compute-bound. The
ceilings are the ones measured on this GPU (engine/ceilings.py), the datasheet's beside them.
"""

from __future__ import annotations


def limits(ceilings: dict | None, dtype: str) -> dict | None:
    """Bandwidth (GB/s) and compute peak (TFLOP/s) a `dtype` benchmark is held to; None without ceilings."""
    from tritonlab.engine.ceilings import compute_kind

    if not ceilings or not isinstance(ceilings.get("measured"), dict):
        return None
    measured = ceilings["measured"]
    sheet = ceilings.get("datasheet") or {}
    kind = compute_kind(dtype)
    bandwidth, peak = measured.get("copy_gbps"), measured.get(f"matmul_{kind}_tflops")
    if not bandwidth:
        return None
    return {
        "bandwidth_gbps": bandwidth,
        "peak_tflops": peak,
        "compute": "fp16 tensor-core matmul" if kind == "fp16" else "fp32 matmul (TF32 off)",
        "ridge": ridge(bandwidth, peak),
        "datasheet_bandwidth_gbps": sheet.get("copy_gbps"),
        "datasheet_peak_tflops": sheet.get(f"{kind}_tflops"),
        "datasheet_ridge": ridge(sheet.get("copy_gbps"), sheet.get(f"{kind}_tflops")),
    }


def ridge(bandwidth_gbps: float | None, peak_tflops: float | None) -> float | None:
    """FLOP per byte where the two roofs meet."""
    if not bandwidth_gbps or not peak_tflops:
        return None
    return peak_tflops * 1e3 / bandwidth_gbps


def place(ai: float | None, gbps: float | None, tflops: float | None, lim: dict) -> dict:
    """Where one measurement sits: attainable TFLOP/s at its AI, the bound it is under, and % of that roof.

    With no FLOPs (a copy) the roof is the bandwidth alone and % of peak is GB/s over the measured copy rate.
    """
    bandwidth, peak = lim["bandwidth_gbps"], lim.get("peak_tflops")
    sheet_bandwidth, sheet_peak = lim.get("datasheet_bandwidth_gbps"), lim.get("datasheet_peak_tflops")
    out = {
        "pct_of_bandwidth": (gbps / bandwidth * 100) if gbps is not None else None,
        "pct_of_compute": (tflops / peak * 100) if tflops is not None and peak else None,
        "pct_of_datasheet_bandwidth": (gbps / sheet_bandwidth * 100)
        if gbps is not None and sheet_bandwidth
        else None,
        "pct_of_datasheet_compute": (tflops / sheet_peak * 100)
        if tflops is not None and sheet_peak
        else None,
    }
    if not ai:
        out.update(bound="memory", attainable_tflops=None, pct_of_peak=out["pct_of_bandwidth"])
        return out
    memory_roof = ai * bandwidth / 1e3
    attainable = min(peak, memory_roof) if peak else memory_roof
    ridge_point = ridge(bandwidth, peak)
    bound = "memory" if ridge_point is None or ai < ridge_point else "compute"
    out.update(
        bound=bound,
        attainable_tflops=attainable,
        pct_of_peak=(tflops / attainable * 100) if tflops is not None and attainable else None,
    )
    return out


def summary(rows: list[dict], lim: dict | None) -> dict:
    """The roofline object the app draws: the two roofs, the ridge, one point per size (yours and torch's)."""
    points = []
    for row in rows:
        if row.get("ms") is None:
            continue
        points.append(
            {
                "label": row["label"],
                "who": "yours",
                "ai": row.get("arithmetic_intensity"),
                "tflops": row.get("tflops"),
                "gbps": row.get("gbps"),
                "attainable_tflops": row.get("attainable_tflops"),
                "bound": row.get("bound"),
                "pct_of_peak": row.get("pct_of_peak"),
            }
        )
        if row.get("torch_ms"):
            torch_place = (
                place(row.get("arithmetic_intensity"), row.get("torch_gbps"), row.get("torch_tflops"), lim)
                if lim
                else {}
            )
            points.append(
                {
                    "label": row["label"],
                    "who": "torch",
                    "ai": row.get("arithmetic_intensity"),
                    "tflops": row.get("torch_tflops"),
                    "gbps": row.get("torch_gbps"),
                    "attainable_tflops": torch_place.get("attainable_tflops"),
                    "bound": torch_place.get("bound"),
                    "pct_of_peak": torch_place.get("pct_of_peak"),
                }
            )
    mine = [p for p in points if p["who"] == "yours"]
    last = mine[-1] if mine else {}
    result = {
        "arithmetic_intensity": last.get("ai"),
        "bound": last.get("bound"),
        "points": points,
        "bandwidth_gbps": None,
        "peak_tflops": None,
        "ridge": None,
        "compute": None,
        "datasheet_bandwidth_gbps": None,
        "datasheet_peak_tflops": None,
        "datasheet_ridge": None,
    }
    if lim:
        result.update(lim)
    if not lim:
        result["note"] = "no measured ceilings: the bound cannot be placed"
    elif last:
        result["note"] = explain(last, lim)
    return result


def explain(point: dict, lim: dict) -> str:
    ai, ridge_point = point.get("ai"), lim.get("ridge")
    if not ai:
        return (
            f"no arithmetic to speak of: the kernel is memory-bound, and its roof is the copy bandwidth "
            f"({lim['bandwidth_gbps']:,.0f} GB/s measured); at {point['label']} it reaches "
            f"{_pct(point.get('pct_of_peak'))} of it"
        )
    if ridge_point is None:
        return (
            f"AI {ai:.3g} FLOP/B; no compute ceiling was measured, so only the memory roof applies: "
            f"at {point['label']} it reaches {_pct(point.get('pct_of_peak'))} of it"
        )
    side = "left" if point.get("bound") == "memory" else "right"
    return (
        f"AI {ai:.3g} FLOP/B is {side} of the ridge ({ridge_point:.3g} FLOP/B): {point.get('bound')}-bound; "
        f"at {point['label']} it reaches {_pct(point.get('pct_of_peak'))} of the roof there "
        f"({point.get('attainable_tflops') or 0:.3g} TFLOP/s)"
    )


def _pct(value) -> str:
    if value is None:
        return "—"
    return "<1%" if 0 < value < 1 else f"{value:.0f}%"
