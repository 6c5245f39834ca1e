"""`profile` in words: the kernels of one call and where the time went (GPU), or its launches (interpreter)."""

from __future__ import annotations

from typing import Any

from tritonlab.present.bench import table
from tritonlab.present.diagnoses import verbatim
from tritonlab.present.words import Said, pick


def _us(value: Any) -> str:
    if value is None:
        return "—"
    return f"{value:,.1f}" if value < 1000 else f"{value:,.0f}"


def lines(result: Any, lang: str) -> list[str]:
    """The report as plain text lines (the CLI prints them; the app shows them in its Profile tab)."""
    out: list[str] = []
    label, dtype = result.get("label") or "", result.get("dtype") or ""
    method = result.get("method")
    if result.get("timed") == "backward":
        label += pick(lang, " (one backward pass)", "(逆伝播 1 回)")
    if method == "interpreter":
        out.append(
            Said(
                f"the launches of one call at {label} · {dtype} (the interpreter: no times, see below)",
                f"{label} · {dtype} での 1 回の呼び出しの起動(インタプリタ: 時間は計りません。下を参照)",
            ).in_(lang)
        )
        rows = [
            [
                str(launch.get("kernel")),
                pick(lang, "yours", "あなた") if launch.get("yours") else pick(lang, "not yours", "ほか"),
                "×".join(str(g) for g in launch.get("grid") or []) or "—",
                f"{launch['programs']:,}" if isinstance(launch.get("programs"), int) else "—",
            ]
            for launch in result.get("launches") or []
        ]
        headers = [
            pick(lang, "kernel", "カーネル"),
            pick(lang, "from", "出どころ"),
            pick(lang, "grid", "グリッド"),
            pick(lang, "programs", "プログラム数"),
        ]
        out += (
            table(headers, rows)
            if rows
            else [pick(lang, "no kernel was launched", "カーネルは起動されていません")]
        )
        out.append(
            Said(
                "Times need a GPU: the interpreter runs each program in Python, one after another. On a GPU, "
                "profile lists every kernel of the call with its time, and the host time around them.",
                "時間の計測には GPU が必要です。インタプリタは各プログラムを Python で 1 つずつ実行するからです。"
                "GPU 上では、呼び出しのすべてのカーネルとその時間、そしてその周りのホスト側の時間を示します。",
            ).in_(lang)
        )
        return out
    calls = result.get("calls")
    out.append(
        Said(
            f"one call at {label} · {dtype}, mean of {calls} calls after warm-up ({method})",
            f"{label} · {dtype} での 1 回の呼び出し(ウォームアップ後 {calls} 回の平均、{method})",
        ).in_(lang)
    )
    kernels = result.get("kernels") or []
    if kernels:
        rows = [
            [
                str(k.get("name")),
                pick(lang, "yours", "あなた") if k.get("yours") else pick(lang, "not yours", "ほか"),
                f"{k.get('per_call', 0):g}",
                _us(k.get("us_per_call")),
                f"{k['share'] * 100:.0f}%" if k.get("share") is not None else "—",
            ]
            for k in kernels
        ]
        headers = [
            pick(lang, "GPU kernel", "GPU カーネル"),
            pick(lang, "from", "出どころ"),
            pick(lang, "launches/call", "起動/呼び出し"),
            pick(lang, "µs/call", "µs/呼び出し"),
            pick(lang, "share", "割合"),
        ]
        out += table(headers, rows)
    out.append(
        Said(
            f"wall time per call {_us(result.get('wall_us'))} µs · GPU busy {_us(result.get('device_us'))} µs · "
            f"host and gaps {_us(result.get('host_us'))} µs · CUDA events {_us(result.get('events_us'))} µs",
            f"1 回あたりの経過時間 {_us(result.get('wall_us'))} µs・GPU 稼働 {_us(result.get('device_us'))} µs・"
            f"ホスト側と隙間 {_us(result.get('host_us'))} µs・CUDA イベント {_us(result.get('events_us'))} µs",
        ).in_(lang)
    )
    others = [k for k in kernels if not k.get("yours")]
    if others:
        spent = sum(k.get("us_per_call") or 0 for k in others)
        out.append(
            Said(
                f"{len(others)} kernel(s) not from your file take {_us(spent)} µs per call: copies "
                "(.contiguous(), .to()), fills (torch.zeros) or torch ops in your wrapper. Each is a full pass "
                "over its memory.",
                f"あなたのファイル以外のカーネル {len(others)} 個が 1 回あたり {_us(spent)} µs 使っています。"
                "ラッパーの中のコピー(.contiguous()、.to())、初期化(torch.zeros)、torch の演算です。"
                "どれもメモリ全体をもう一度読み書きします。",
            ).in_(lang)
        )
    host, wall = result.get("host_us"), result.get("wall_us")
    if host is not None and wall and host > 0.5 * wall:
        out.append(
            Said(
                "Most of the wall time is on the host (Python, launches, allocations), not on the GPU: at this "
                "size the call is launch-bound. Larger inputs, fewer launches per call or CUDA graphs help.",
                "経過時間の大半は GPU ではなくホスト側(Python、起動、メモリ確保)です。このサイズでは呼び出しは"
                "起動律速です。入力を大きくする、呼び出しあたりの起動を減らす、CUDA グラフを使う、が効きます。",
            ).in_(lang)
        )
    if method == "cuda-events":
        why = verbatim(result.get("profiler_error") or "no kernel recorded (CUPTI missing?)")
        out.append(
            Said(
                f"torch.profiler recorded no GPU kernel here ({why}): only the CUDA events' total per call is "
                "shown",
                f"ここでは torch.profiler が GPU カーネルを記録できませんでした({why})。"
                "CUDA イベントによる 1 回あたりの合計だけを示します",
            ).in_(lang)
        )
    return out
