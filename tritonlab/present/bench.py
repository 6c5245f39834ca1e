"""A bench result as blocks of text and tables, in English or Japanese, made from the result's facts.

`blocks()` is what the app's bench panel and the CLI both render: ("text", line) and ("table", headers, rows,
best) items, so no one has to find a table in prose again. `lines()` flattens them into the plain text that
`tritonlab bench` prints and that `--json` keeps under its old `lines` key.
"""

from __future__ import annotations

from typing import Any

from tritonlab.present.diagnoses import describe, verbatim
from tritonlab.present.verify import backend_name
from tritonlab.present.words import Said, pick

Block = tuple  # ("text", str) | ("table", headers, rows, best_row_indexes)


def _num(value: Any, digits: int = 3) -> str:
    if value is None:
        return "—"
    if isinstance(value, int) or (isinstance(value, float) and value >= 10**digits):
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def _ms(value: Any) -> str:
    if value is None:
        return "—"
    return f"{value:,.0f}" if value >= 100 else f"{value:.4g}"


def _pct(value: Any) -> str:
    if value is None:
        return "—"
    return "<1%" if 0 < value < 1 else f"{value:.0f}%"


def _x(value: Any) -> str:
    return "—" if value is None else f"{value:.2f}×"


def best_mark(lang: str) -> str:
    return pick(lang, "← best", "← 最速")


def _row_error(row: dict, lang: str) -> str:
    err = row.get("error")
    if isinstance(err, dict):
        return describe(err, lang)
    return f"«{err}»" if err else ""


def _errors(rows: list, lang: str) -> tuple[list, list[Block]]:
    ok = [row for row in rows if not row.get("error")]
    errs: list[Block] = [
        ("text", f"  {row.get('label', '')}: {_row_error(row, lang)}") for row in rows if row.get("error")
    ]
    return ok, errs


def _fix_first(exercise: Any, lang: str, app: bool) -> str:
    """Where to see why verify fails, in the words of the surface showing it: the app's key, or the CLI's
    command."""
    if app:
        return pick(
            lang,
            "Press F6 (Verify) to see every failing case, then benchmark again once it passes.",
            "F6(検証)で失敗したケースをすべて確認できます。合格してからもう一度計測してください。",
        )
    command = f"`tritonlab verify {exercise}`" if exercise else "`tritonlab verify`"
    return pick(
        lang,
        f"Run {command} to see every failing case, then benchmark again once it passes.",
        f"{command} で失敗したケースをすべて確認できます。合格してからもう一度計測してください。",
    )


def blocks(result: Any, lang: str, *, app: bool = False, error_shown: bool = True) -> list[Block]:
    """The report's blocks. `app`: the learner is in the app (name its keys, not CLI commands).
    `error_shown`: the caller shows the result's error sentence beside the blocks, so a bench refused for a
    failing verify does not say "not timed" a second time (that sentence says it)."""
    get = result.get
    out: list[Block] = []
    be = backend_name(get("backend"), lang)
    head = Said(f"{get('exercise')} on the {be}", f"{get('exercise')}({be})").in_(lang)
    if get("device") and get("backend") == "gpu":
        head += f" ({get('device')})"
    verify = get("verify") or {}
    if verify.get("passed"):
        n = verify.get("cases")
        head += Said(f" — verify: all {n} cases pass", f" — 検証: 全 {n} ケースに合格").in_(lang)
    elif verify:
        head += Said(" — verify: failed", " — 検証: 不合格").in_(lang)
    out.append(("text", head))
    if not get("verified"):
        err = get("error")
        # the `verify` error's sentence begins "not timed: your kernel does not pass verify yet"
        said_by_error = error_shown and isinstance(err, dict) and err.get("kind") == "verify"
        if err and error_shown and not said_by_error:
            return out  # another error (a syntax error, a crash …): its sentence is the whole story
        why = (
            ""
            if said_by_error
            else pick(
                lang,
                "not timed: a kernel that gives wrong answers has no speed worth knowing. ",
                "計測していません。誤った答えを返すカーネルの速さには意味がありません。",
            )
        )
        out.append(("text", why + _fix_first(get("exercise"), lang, app)))
        return out
    if get("error") and not get("rows"):
        return out
    out += _gpu(result, lang) if get("backend") == "gpu" else _interpreter(result, lang)
    return out


def lines(result: Any, lang: str) -> list[str]:
    """The blocks as plain text lines (tables padded into columns)."""
    text: list[str] = []
    for block in blocks(result, lang, error_shown=False):
        if block[0] == "text":
            text.append(block[1])
        else:
            _, headers, rows, best = block
            rows = [list(r) + ([best_mark(lang)] if i in best else []) for i, r in enumerate(rows)]
            text += table(headers, rows)
    return text


def table(headers: list[str], rows: list[list[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell (East Asian wide characters count twice); numbers right-aligned."""
    width = max(len(headers), *(len(r) for r in rows)) if rows else len(headers)
    headers = list(headers) + [""] * (width - len(headers))
    rows = [list(r) + [""] * (width - len(r)) for r in rows]
    widths = [max(_cells(str(c)) for c in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: list) -> str:
        parts = []
        for i, (c, w) in enumerate(zip(cells, widths, strict=True)):
            pad = " " * (w - _cells(str(c)))
            parts.append(str(c) + pad if i < left else pad + str(c))
        return "  ".join(parts).rstrip()

    return [line(headers)] + [line(r) for r in rows]


def cell_width(text: str) -> int:
    """Terminal cells of `text`: East Asian wide characters take two."""
    return _cells(text)


def _cells(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _ceiling_text(result: Any, lang: str) -> str:
    ceilings = result.get("ceilings")
    roof = result.get("roofline") or {}
    if not ceilings:
        why = result.get("ceilings_error")
        why_text = f"«{why}»" if why else pick(lang, "not measured", "未計測")
        return pick(
            lang,
            f"ceilings: unavailable ({why_text}); % of peak is not shown",
            f"性能上限: 取得できません({why_text})。ピーク比は表示しません",
        )
    where = (
        pick(lang, "cached", "キャッシュ")
        if ceilings.get("cached")
        else pick(lang, "measured now", "今回計測")
    )
    text = pick(lang, "ceilings", "性能上限") + f" ({where}, {ceilings.get('gpu')}): "
    text += pick(lang, "copy", "コピー") + f" {_num(roof.get('bandwidth_gbps'))} GB/s"
    sheet_word = pick(lang, "datasheet", "公称値")
    if roof.get("datasheet_bandwidth_gbps"):
        text += f" ({sheet_word} {_num(roof['datasheet_bandwidth_gbps'])})"
    if roof.get("peak_tflops"):
        text += f" · {roof.get('compute')} {_num(roof['peak_tflops'])} TFLOP/s"
        if roof.get("datasheet_peak_tflops"):
            text += f" ({sheet_word} {_num(roof['datasheet_peak_tflops'])})"
    if not (ceilings.get("datasheet") or {}):
        text += pick(lang, " · no datasheet entry for this GPU", " · この GPU の公称値はありません")
    return text


def _roofline_text(roof: dict, rows: list, lang: str) -> str | None:
    """Where the last size sits against the roofline, from the points' facts."""
    points = [p for p in roof.get("points") or [] if p.get("who") == "yours"]
    if not roof.get("bandwidth_gbps"):
        return pick(
            lang,
            "roofline: no measured ceilings: the bound cannot be placed",
            "ルーフライン: 性能上限が未計測のため、律速要因を判定できません",
        )
    if not points:
        return None
    p = points[-1]
    ai, ridge, pct = p.get("ai"), roof.get("ridge"), _pct(p.get("pct_of_peak"))
    if not ai:
        return Said(
            f"roofline: no arithmetic to speak of: the kernel is memory-bound, and its roof is the copy "
            f"bandwidth ({roof['bandwidth_gbps']:,.0f} GB/s measured); at {p.get('label', '')} it reaches "
            f"{pct} of it",
            f"ルーフライン: 演算はほとんどなく、メモリ律速です。上限はコピー帯域(実測 "
            f"{roof['bandwidth_gbps']:,.0f} GB/s)で、{p.get('label', '')} ではその {pct} に達しています",
        ).in_(lang)
    if ridge is None:
        return Said(
            f"roofline: AI {ai:.3g} FLOP/B; no compute ceiling was measured, so only the memory roof "
            "applies: "
            f"at {p.get('label', '')} it reaches {pct} of it",
            f"ルーフライン: 演算強度 {ai:.3g} FLOP/B。演算の上限は未計測のため、メモリの上限だけを使います。"
            f"{p.get('label', '')} ではその {pct} に達しています",
        ).in_(lang)
    memory = p.get("bound") == "memory"
    bound = Said("memory-bound", "メモリ律速") if memory else Said("compute-bound", "演算律速")
    side = Said("left", "左") if memory else Said("right", "右")
    att = p.get("attainable_tflops") or 0
    return Said(
        f"roofline: AI {ai:.3g} FLOP/B is {side.en} of the ridge ({ridge:.3g} FLOP/B): {bound.en}; at "
        f"{p.get('label', '')} it reaches {pct} of the roof there ({att:.3g} TFLOP/s)",
        f"ルーフライン: 演算強度 {ai:.3g} FLOP/B はリッジ点({ridge:.3g} FLOP/B)の{side.ja}側で、{bound.ja}"
        f"です。{p.get('label', '')} ではそこでの上限({att:.3g} TFLOP/s)の {pct} に達しています",
    ).in_(lang)


def _gpu(result: Any, lang: str) -> list[Block]:
    out: list[Block] = [("text", _ceiling_text(result, lang))]
    rows = result.get("rows") or []
    has_flops = any(r.get("tflops") is not None for r in rows)
    headers = (
        [pick(lang, "size", "サイズ"), "ms", "q20–q80", "GB/s"]
        + (["TFLOP/s"] if has_flops else [])
        + [pick(lang, "% peak", "ピーク比"), "torch ms", "torch GB/s", pick(lang, "speedup", "速度比")]
    )
    timed, errors = _errors(rows, lang)
    body = []
    for row in timed:
        cells = [
            row.get("label", ""),
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
    out.append(
        (
            "text",
            Said(
                "times in ms (median, 20th–80th percentile) by triton.testing.do_bench; baseline: "
                f"{result.get('baseline')}; "
                f"dtype {result.get('dtype')}",
                f"時間は ms(中央値、20〜80 パーセンタイル)、triton.testing.do_bench で計測。比較対象: "
                f"{result.get('baseline')}、dtype {result.get('dtype')}",
            ).in_(lang),
        )
    )
    if result.get("timed") == "backward":
        out.append(
            (
                "text",
                Said(
                    "what is timed: one backward pass (y.backward(dy) on a graph kept with retain_graph), yours "
                    "and the baseline's through torch autograd; the forward is not in these times",
                    "計測対象: 逆伝播 1 回(retain_graph で残したグラフに y.backward(dy))。あなたのカーネルも"
                    "比較対象も torch の autograd 経由で、順伝播の時間は含みません",
                ).in_(lang),
            )
        )
    out.append(("table", headers, body, set()))
    out += errors
    out += _host_bound(timed, lang)
    out += _compiled(timed, lang)
    roof_text = _roofline_text(result.get("roofline") or {}, rows, lang)
    if roof_text:
        out.append(("text", roof_text))
    naive = result.get("naive")
    if naive:
        out.append(("text", ""))
        out.append(("text", pick(lang, "the wrong way vs the right way:", "誤った計り方と正しい計り方:")))
        out.append(
            (
                "table",
                [
                    pick(lang, "size", "サイズ"),
                    pick(lang, "naive ms", "素朴な計測 ms"),
                    "do_bench ms",
                    pick(lang, "naive / real", "素朴 / 実際"),
                ],
                [
                    [r.get("label", ""), _ms(r["naive_ms"]), _ms(r["ms"]), _x(r["ratio"])]
                    for r in naive["rows"]
                ],
                set(),
            )
        )
        out.append(("text", _naive_gpu_note(naive["rows"], lang)))
    out += _sweep(result.get("sweep"), lang)
    out += _autotune(result.get("autotune"), lang)
    return out


def _host_bound(rows: list, lang: str) -> list[Block]:
    """One sentence per size whose call is mostly host time (engine: timing.host_bound, from the CUDA-graph
    replay of the same call)."""
    out: list[Block] = []
    for row in rows:
        if not row.get("host_bound"):
            continue
        ms, gpu = row["ms"], row["gpu_ms"]
        share = round(100 * (ms - gpu) / ms)
        said = Said(
            f"At {row.get('label')} one call takes {_ms(ms)} ms, but its kernels run only {_ms(gpu)} ms on the "
            f"GPU (the same call replayed as a CUDA graph, without Python): {share}% of each call is host time "
            "— Python, your wrapper and Triton's launch. At this size the host sets the pace, not your kernel; "
            "larger sizes, or fewer launches per call, show the kernel itself.",
            f"{row.get('label')} では 1 回の呼び出しに {_ms(ms)} ms かかりますが、GPU 上でカーネルが動くのは "
            f"{_ms(gpu)} ms だけです(同じ呼び出しを CUDA グラフとして Python 抜きで再生して計測)。各呼び出しの "
            f"{share}% はホスト側の時間(Python、ラッパー、Triton の起動処理)です。このサイズで速さを決めて"
            "いるのはカーネルではなくホストです。サイズを大きくするか、1 回の呼び出しの起動回数を減らすと"
            "カーネルそのものの速さが見えます。",
        )
        torch_gpu = row.get("torch_gpu_ms")
        if torch_gpu and row.get("torch_ms"):
            said = said + Said(
                f" torch: {_ms(row['torch_ms'])} ms per call, {_ms(torch_gpu)} ms on the GPU.",
                f" torch は 1 回 {_ms(row['torch_ms'])} ms、GPU 上 {_ms(torch_gpu)} ms です。",
            )
        out.append(("text", said.in_(lang)))
    return out


def _naive_gpu_note(rows: list, lang: str) -> str:
    parts = [
        Said(
            "The naive number is a host timer around one call, with no warm-up and no synchronisation.",
            "素朴な数値は、1 回の呼び出しをホストのタイマーで挟んだだけのもので、ウォームアップも同期も"
            "ありません。",
        )
    ]
    faster = [r for r in rows if r["ratio"] < 0.8]
    slower = [r for r in rows if r["ratio"] > 2]
    if faster:
        r = faster[-1]
        parts.append(
            Said(
                f" At {r['label']} it reads {r['ratio']:.2g}× the real time: a launch returns once the work "
                "is queued, so the timer stopped while the GPU was still running the kernel.",
                f"{r['label']} では実際の {r['ratio']:.2g} 倍です。起動は処理をキューに入れた時点で戻るため、"
                "GPU がまだカーネルを実行している間にタイマーが止まっています。",
            )
        )
    if slower:
        r = slower[0]
        parts.append(
            Said(
                f" At {r['label']} it reads {r['ratio']:.3g}× the real time: a first call pays one-time "
                "costs (compiling or loading the kernel, allocating) that later calls do not.",
                f"{r['label']} では実際の {r['ratio']:.3g} 倍です。最初の呼び出しは、以降の呼び出しにはない"
                "一度きりのコスト(カーネルのコンパイルや読み込み、メモリ確保)を払います。",
            )
        )
    parts.append(
        Said(
            " do_bench warms up, flushes the L2 cache, times every run with CUDA events on the GPU's clock "
            "and reports the median of many runs.",
            "do_bench はウォームアップし、L2 キャッシュを空にし、各実行を GPU の時計(CUDA イベント)で計り、"
            "多数の実行の中央値を報告します。",
        )
    )
    said = parts[0]
    for p in parts[1:]:
        said = said + p
    return said.in_(lang)


def _sweep(sweep: dict | None, lang: str) -> list[Block]:
    if not sweep:
        return []
    rows = sweep.get("rows") or []
    timed = any(r.get("ms") is not None for r in rows)
    head = pick(lang, f"sweep at {sweep.get('label', '')}", f"{sweep.get('label', '')} でのスイープ")
    if not timed:
        head += pick(
            lang,
            " — timings need a GPU: here each config's programs and bytes are counted",
            " — 時間の計測には GPU が必要です。ここでは設定ごとのプログラム数とバイト数を数えます",
        )
    out: list[Block] = [("text", ""), ("text", head)]
    config = pick(lang, "config", "設定")
    if timed:
        has_flops = any(r.get("tflops") is not None for r in rows)
        headers = (
            [config, "ms", "GB/s"]
            + (["TFLOP/s"] if has_flops else [])
            + [pick(lang, "% peak", "ピーク比"), ""]
        )
        body, best = [], set()
        for i, r in enumerate(rows):
            if r.get("status") != "ok":
                body.append(
                    [r.get("label", ""), "—", "—"] + (["—"] if has_flops else []) + ["—", _row_error(r, lang)]
                )
                continue
            cells = [r.get("label", ""), _ms(r.get("ms")), _num(r.get("gbps"))]
            if has_flops:
                cells.append(_num(r.get("tflops")))
            cells.append(_pct(r.get("pct_of_peak")))
            body.append(cells)
            if r.get("best"):
                best.add(i)
        out.append(("table", headers, body, best))
    else:
        body = [
            [
                r.get("label", ""),
                _num(r.get("programs")),
                _num(r.get("bytes_loaded")),
                _num(r.get("bytes_stored")),
                _row_error(r, lang),
            ]
            for r in rows
        ]
        out.append(
            (
                "table",
                [
                    config,
                    pick(lang, "programs", "プログラム数"),
                    pick(lang, "bytes loaded", "ロード量"),
                    pick(lang, "bytes stored", "ストア量"),
                    "",
                ],
                body,
                set(),
            )
        )
    return out


def _autotune(report: dict | None, lang: str) -> list[Block]:
    if not report:
        return []
    out: list[Block] = [
        ("text", ""),
        ("text", pick(lang, "autotune explorer: ", "オートチューン: ") + str(report.get("kernel") or "—")),
    ]
    shapes = report.get("shapes") or []
    if shapes and isinstance(shapes[0], dict):
        for shape in shapes:
            pick_text = (
                pick(
                    lang,
                    f" (the autotuner itself picks {shape['autotuner_pick']})",
                    f"(オートチューナー自身の選択: {shape['autotuner_pick']})",
                )
                if shape.get("autotuner_pick")
                else ""
            )
            out.append(("text", pick(lang, "shape ", "形状 ") + f"{shape['label']}{pick_text}"))
            body, best = [], set()
            for i, r in enumerate(shape["rows"]):
                if r.get("status") != "ok":
                    body.append([r["config"], "—", "—", _row_error(r, lang)])
                    continue
                body.append([r["config"], _ms(r.get("ms")), _num(r.get("tflops") or r.get("gbps"))])
                if r.get("best"):
                    best.add(i)
            unit = "TFLOP/s" if any(r.get("tflops") for r in shape["rows"]) else "GB/s"
            out.append(("table", [pick(lang, "config", "設定"), "ms", unit, ""], body, best))
        second = report.get("second")
        if second and report.get("winner"):
            w, own = report["winner"], second["own_best"]
            wm, om, gap = _ms(second.get("winner_ms")), _ms(second.get("own_best_ms")), _x(second.get("gap"))
            out.append(
                (
                    "text",
                    Said(
                        f"the winner on the first shape ({w}) takes {wm} ms on {second['label']}, where its "
                        f"own best ({own}) "
                        f"takes {om} ms: {gap} — a config tuned for one shape can be far from best on "
                        "another, which is why "
                        "the autotune key names the sizes",
                        f"最初の形状で最速だった設定({w})は {second['label']} で {wm} ms かかり、そこでの"
                        f"最速設定({own})は "
                        f"{om} ms です: {gap}。ある形状に合わせた設定は別の形状では最適から遠いことがあり、"
                        "だから autotune の "
                        "key にサイズを並べます",
                    ).in_(lang),
                )
            )
    else:
        for config in report.get("configs") or []:
            out.append(("text", f"  {config}"))
        if report.get("kernel"):
            out.append(
                (
                    "text",
                    pick(
                        lang,
                        "timing each config needs a GPU; on the interpreter the autotuner has "
                        "nothing to measure (a file may even declare a shorter config list for it)",
                        "設定ごとの計測には GPU が必要です。インタプリタではオートチューナーが計るものは"
                        "ありません(インタプリタ用に短い設定リストを宣言するファイルもあります)",
                    ),
                )
            )
        else:
            out.append(
                (
                    "text",
                    pick(
                        lang,
                        "no kernel under @triton.autotune in this file: decorate the @triton.jit "
                        "kernel with @triton.autotune(configs=[...], key=[...])",
                        "このファイルには @triton.autotune の付いたカーネルがありません。@triton.jit "
                        "カーネルに @triton.autotune(configs=[...], key=[...]) を付けてください",
                    ),
                )
            )
    return out


INTERPRETER_NOTE = Said(
    "No times on the interpreter: it emulates the kernel on the CPU, one program after another, so its wall "
    "time "
    "says nothing about a GPU. What it does count exactly is shown instead: the bytes your kernel's "
    "masked-in lanes "
    "loaded and stored, the programs it ran, and the arithmetic intensity (FLOPs per byte) that follows. "
    "Run bench "
    "on a machine with an NVIDIA GPU for times, GB/s and the roofline.",
    "インタプリタでは時間を計りません。CPU 上でプログラムを 1 つずつ模擬実行するので、その経過時間は GPU に"
    "ついて"
    "何も語らないからです。代わりに正確に数えられるものを示します: マスクで有効なレーンが"
    "ロード・ストアしたバイト数、"
    "実行したプログラム数、そこから決まる演算強度(1 バイトあたりの FLOP)です。時間・GB/s・ルーフラインは "
    "NVIDIA "
    "GPU のあるマシンで bench を実行してください。",
)

NAIVE_INTERPRETER_NOTE = Said(
    "On a GPU this would also time your kernel the wrong way: a host timer (time.perf_counter) around one "
    "call, with "
    "no warm-up and no torch.cuda.synchronize(). A kernel launch returns as soon as the work is queued, so "
    "such a "
    "timer measures the launch, not the kernel; and a first call also pays for compiling it. do_bench warms "
    "up, "
    "flushes the L2 cache, times each run with CUDA events on the GPU's own clock and reports the median of "
    "many.",
    "GPU では、誤った計り方でも計測します: 1 回の呼び出しをホストのタイマー(time.perf_counter)で挟み、"
    "ウォーム"
    "アップも torch.cuda.synchronize() もしない方法です。カーネルの起動は処理をキューに入れた時点で戻るので"
    "、この"
    "タイマーが計るのは起動であってカーネルではありません。さらに最初の呼び出しはコンパイルの時間も含みます。"
    "do_bench はウォームアップし、L2 キャッシュを空にし、各実行を GPU の時計(CUDA イベント)で計り、多数の"
    "実行の"
    "中央値を報告します。",
)


def _compiled(rows: list, lang: str) -> list[Block]:
    """torch.compile of the baseline, per size (bench.compiled): the bar a fused kernel should clear."""
    out: list[Block] = []
    for row in rows:
        label = row.get("label", "")
        if row.get("compiled_ms") is not None:
            ratio = row.get("compiled_speedup")
            said = Said(
                f"torch.compile of the baseline at {label}: {_ms(row['compiled_ms'])} ms"
                + (f" — your kernel runs at {_x(ratio)} its speed" if ratio else ""),
                f"{label} でのベースラインの torch.compile 版: {_ms(row['compiled_ms'])} ms"
                + (f"(あなたのカーネルはその {_x(ratio)} の速さ)" if ratio else ""),
            )
            out.append(("text", said.in_(lang)))
        elif row.get("compiled_error"):
            error = verbatim(row["compiled_error"])
            said = Said(
                f"torch.compile of the baseline could not be timed at {label}: {error}",
                f"{label} でベースラインの torch.compile 版を計測できませんでした: {error}",
            )
            out.append(("text", said.in_(lang)))
    return out


def _interpreter(result: Any, lang: str) -> list[Block]:
    rows = result.get("rows") or []
    counted, errors = _errors(rows, lang)
    body = []
    for row in counted:
        ai = row.get("arithmetic_intensity")
        body.append(
            [
                row.get("label", ""),
                _num(row.get("programs")),
                _num(row.get("bytes_loaded")),
                _num(row.get("bytes_stored")),
                _num(row.get("bytes_moved")),
                _num(row.get("bytes")),
                "—" if ai is None else f"{ai:.3g}",
            ]
        )
    headers = [
        pick(lang, "size", "サイズ"),
        pick(lang, "programs", "プログラム数"),
        pick(lang, "bytes loaded", "ロード量"),
        pick(lang, "bytes stored", "ストア量"),
        pick(lang, "moved", "転送量"),
        pick(lang, "ideal (formula)", "理想値(式)"),
        "FLOP/B",
    ]
    out: list[Block] = [("table", headers, body, set()), *errors]
    if result.get("timed") == "backward":
        out.append(
            (
                "text",
                Said(
                    "counted: the launches of one backward pass (the forward ran first, uncounted)",
                    "数えたもの: 逆伝播 1 回分の起動(先に実行した順伝播は数えていません)",
                ).in_(lang),
            )
        )
    for row in rows:
        extra = row.get("extra_bytes")
        if extra:
            out.append(
                (
                    "text",
                    Said(
                        f"at {row.get('label', '')} your kernel moved {extra:,.0f} bytes more than the "
                        f"formula's {row['bytes']:,.0f}: "
                        "some data is read more than once (or more is written than needed)",
                        f"{row.get('label', '')} では、カーネルの転送量が式の {row['bytes']:,.0f} "
                        f"バイトより {extra:,.0f} バイト"
                        "多くなっています。同じデータを複数回読んでいる(または必要以上に書いている)ためです",
                    ).in_(lang),
                )
            )
    out.append(("text", INTERPRETER_NOTE.in_(lang)))
    if result.get("naive"):
        out.append(("text", NAIVE_INTERPRETER_NOTE.in_(lang)))
    out += _sweep(result.get("sweep"), lang)
    out += _autotune(result.get("autotune"), lang)
    return out
