"""A verify result in words: case names, the summary line, the mismatch map's heading and legend, first
elements.

Plain strings (no rich, no Textual), so the CLI printer and the app's verify panel say the same thing.
"""

from __future__ import annotations

from typing import Any

from tritonlab.present.diagnoses import describe, label
from tritonlab.present.numbers import number, value_text
from tritonlab.present.words import Said, join, pick


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(key, default)
    getter = getattr(obj, "get", None)
    return getter(key, default) if callable(getter) else default


def backend_name(backend: Any, lang: str) -> str:
    return {"gpu": pick(lang, "GPU", "GPU"), "interpreter": pick(lang, "interpreter", "インタプリタ")}.get(
        str(backend), str(backend or "?")
    )


def headline(result: Any, lang: str) -> str:
    """'05-vector-add/add on the interpreter' / '05-vector-add/add(インタプリタ)'."""
    ex, be = _get(result, "exercise"), backend_name(_get(result, "backend"), lang)
    return Said(f"{ex} on the {be}", f"{ex}({be})").in_(lang)


def case_name(case: Any, lang: str) -> str:
    """The engine's case name is params and dtype (identifiers); reject cases and the byte audit get words."""
    kind = _get(case, "kind")
    if kind == "reject":
        why = _get(case, "why")
        text = why.get(lang) or why.get("en") if isinstance(why, dict) else why
        name = str(_get(case, "name", "")).removeprefix("rejects ")
        return pick(lang, "rejects: ", "拒否: ") + str(text or name)
    if kind == "byte-audit":
        return pick(lang, "byte budget (counted on the interpreter)", "転送量の上限(インタプリタで計数)")
    if kind == "copy-audit":
        return pick(lang, "copied answer (checked on the interpreter)", "答えのコピー(インタプリタで確認)")
    if kind == "gpu-scale":  # the loop contract's check at the GPU's largest size (launch only, interpreter)
        name = str(_get(case, "name", ""))
        return Said(f"{name} (the GPU's size)", f"{name}(GPU のサイズ)").in_(lang)
    if kind == "interp-audit":  # a case the GPU pass did not cover, run by the interpreter's audit
        name = str(_get(case, "name", ""))
        return Said(f"{name} (on the interpreter)", f"{name}(インタプリタ)").in_(lang)
    return str(_get(case, "name", ""))


#: The case column's widest, in cells: a reject case is named by its sentence (200 characters and more), which
#: took the width of an 80-column table from the numbers. The terminal wraps a name to CASE_LINES lines; the
#: app, whose selected case shows its whole name below the table, to one.
CASE_WIDTH = 30
CASE_LINES = 3


def column_headers(lang: str) -> list[str]:
    return [
        "",
        pick(lang, "case", "ケース"),
        pick(lang, "max abs err", "最大絶対誤差"),
        pick(lang, "max rel err", "最大相対誤差"),
        pick(lang, "mismatches", "不一致"),
        pick(lang, "why", "理由"),
    ]


#: In the max abs err column where the kernel left elements unwritten (see `error_cells`).
NOT_WRITTEN = Said("not written", "未書き込み")
#: The same column where they were stored, computed from memory nobody wrote (cause `stored-poison`).
UNINITIALISED = Said("uninitialised", "未初期化")


def error_cells(case: Any, lang: str) -> tuple[str, str]:
    """The table's max abs and max rel error. The engine measures them over the elements the kernel wrote, so a
    case whose kernel wrote nothing (or wrote only right values and left the rest unwritten) has 0 and 0, which
    read as a perfect answer: there the cells say "not written" and a dash."""
    abs_err, rel_err = _get(case, "max_abs_err"), _get(case, "max_rel_err")
    unwritten = any(_get(d, "kind") == "unwritten" for d in _get(case, "diagnoses") or [])
    if unwritten and not abs_err:
        return (UNINITIALISED if _stored_poison(case) else NOT_WRITTEN).in_(lang), number(None)
    return number(abs_err), number(rel_err)


def why(case: Any, lang: str) -> str:
    kinds = dict.fromkeys(_get(d, "kind", "") for d in _get(case, "diagnoses") or [])
    if "wrong-dtype" in kinds:  # the contract's sentence already says it: one label for one fact
        kinds.pop("dtype", None)
    if "wrong-shape" in kinds:
        kinds.pop("shape", None)
    return join(lang, [label(k, lang) for k in kinds])


def error_head(err: Any, lang: str) -> str:
    """'out-of-bounds access at line 25' / '範囲外アクセス(25 行目)', or the kind alone without a line."""
    kind, line = label(_get(err, "kind"), lang), _get(err, "line")
    if line:
        return Said(f"{kind} at line {line}", f"{kind}({line} 行目)").in_(lang)
    return kind


#: Per-case checks a backend cannot make (`case[key] = {"checked": False, "why": ...}`), in words.
UNCHECKED = {
    "compile": Said("torch.compile of the wrapper (GPU only)", "ラッパーの torch.compile(GPU のみ)"),
    "deterministic": Said(
        "determinism, the same bits on every run (GPU only: the interpreter runs programs in order)",
        "決定性、つまり実行ごとに同じビットになること(GPU のみ。インタプリタはプログラムを順に実行します)",
    ),
}


#: What replaces UNCHECKED["deterministic"] where the interpreter ran one case's programs in reverse order.
REORDERED = Said(
    "determinism on every case (one case ran again with its programs in reverse order and kept its bits; a GPU "
    "runs every case twice)",
    "すべてのケースでの決定性(1 ケースはプログラムを逆順にしてもう一度実行し、同じビットでした。GPU ではすべての"
    "ケースを 2 回実行します)",
)


def _unchecked(cases: list, key: str) -> bool:
    return any(isinstance(_get(c, key), dict) and _get(c, key).get("checked") is False for c in cases)


def _reordered(cases: list) -> bool:
    return any(
        isinstance(_get(c, "deterministic"), dict) and _get(c, "deterministic").get("how") == "reversed"
        for c in cases
    )


def summary(result: Any, lang: str) -> str:
    """The verdict's one line, made from facts (never the engine's English `summary`)."""
    cases = list(_get(result, "cases") or [])
    passed = sum(1 for c in cases if _get(c, "passed"))
    err = _get(result, "error")
    if err:
        return f"{error_head(err, lang)}: {describe(err, lang)}"
    skipped = _get(result, "skipped")
    if skipped:
        return describe(skipped, lang)
    if _get(result, "passed"):
        be = backend_name(_get(result, "backend"), lang)
        verdict = Said(f"all {len(cases)} cases pass on the {be}", f"{be}で全 {len(cases)} ケースに合格")
        unchecked = [
            REORDERED if k == "deterministic" and _reordered(cases) else UNCHECKED[k]
            for k in UNCHECKED
            if _unchecked(cases, k)
        ]
        if unchecked:
            verdict += Said(
                " — not checked here: " + ", ".join(u.en for u in unchecked),
                "。ここでは確認していません: " + "、".join(u.ja for u in unchecked),
            )
        # notes (never failures): what the lab could not vary or lay out as the lesson asks, each said once
        notes = list(dict.fromkeys(describe(n, lang) for c in cases for n in _get(c, "notes") or []))
        if notes:
            verdict += Said(" — note: " + "; ".join(notes), "。注記: " + "。".join(notes))
        return verdict.in_(lang)
    first = next((c for c in cases if not _get(c, "passed")), None)
    if first is None:
        return pick(lang, "no case ran", "実行されたケースがありません")
    diags = _get(first, "diagnoses") or []
    reason = describe(diags[0], lang) if diags else pick(lang, "values differ", "値が異なります")
    text = Said(
        f"{passed}/{len(cases)} cases pass — first failure, {case_name(first, 'en')}: {reason}",
        f"{len(cases)} ケース中 {passed} ケース合格。最初に失敗したケース({case_name(first, 'ja')}): {reason}",
    ).in_(lang)
    replay = _get(result, "replay") or {}
    if replay.get("line") and not err:
        text += Said(
            f" — the interpreter's bounds checker names line {replay['line']}",
            f"。インタプリタの境界チェックは {replay['line']} 行目を示しています",
        ).in_(lang)
    return text


def map_lines(case: Any, lang: str) -> list[str]:
    """The mismatch map (". x n u" per cell) with its heading and legend in `lang`; [] when there is none."""
    grid = _get(case, "map_grid")
    if not isinstance(grid, dict):
        raw = _get(case, "map")
        return (
            [raw]
            if raw == "(empty output)" and lang == "en"
            else ([pick(lang, "(empty output)", "(空の出力)")] if raw == "(empty output)" else [])
        )
    if grid.get("dims") == 1:
        n = grid["numel"]
        if "programs_per_cell" in grid:
            ppc = grid["programs_per_cell"]
            unit = Said(
                "one per program" if ppc == 1 else f"{ppc} programs each",
                "1 プログラムに 1 セル" if ppc == 1 else f"1 セルに {ppc} プログラム",
            )
        else:
            per = grid["elements_per_cell"]
            unit = Said(f"{per} element{'s' if per != 1 else ''} each", f"1 セルに {per} 要素")
        cells = grid["cells"]  # n=1 reads "element 0, 1 cell", not "elements 0–0, 1 cells"
        head = Said(
            f"{'elements 0–' + str(n - 1) if n > 1 else 'element 0'}, {cells} cell{'s' if cells != 1 else ''}"
            f" ({unit.en})",
            f"要素 {'0–' + str(n - 1) if n > 1 else '0'}、{cells} セル({unit.ja})",
        )
    else:
        folded = (
            Said(" (leading dimensions folded into rows)", "(先頭の次元は行にまとめています)")
            if grid.get("folded")
            else Said("", "")
        )
        r, c, rh, cw = grid["n_rows"] - 1, grid["n_cols"] - 1, grid["rows_per_line"], grid["cols_per_char"]
        rows_en = f"rows 0–{r} ({rh} per line)" if r else "row 0"
        cols_en = f"columns 0–{c} ({cw} per character)" if c else "column 0"
        rows_ja = f"行 0–{r}(表示 1 行に {rh} 行分)" if r else "行 0"
        cols_ja = f"列 0–{c}(1 文字に {cw} 列分)" if c else "列 0"
        head = Said(f"{rows_en} × {cols_en}{folded.en}", f"{rows_ja}× {cols_ja}{folded.ja}")
    legend = (
        Said(
            "legend: . ok   x wrong   n inf/NaN   u computed from uninitialised memory",
            "凡例: . 正しい   x 誤り   n inf/NaN   u 未初期化のメモリから計算",
        )
        if _stored_poison(case)
        else Said(
            "legend: . ok   x wrong   n inf/NaN   u never written",
            "凡例: . 正しい   x 誤り   n inf/NaN   u 未書き込み",
        )
    )
    return [head.in_(lang), *grid.get("rows", []), legend.in_(lang)]


def _stored_poison(case: Any) -> bool:
    """The case's unwritten elements were stored, from memory nobody wrote (cause `stored-poison`): they hold
    the lab's poison although the kernel stored them, so "never written" would contradict the diagnosis."""
    return any(
        isinstance(d, dict) and d.get("kind") == "unwritten" and d.get("cause") == "stored-poison"
        for d in (_get(case, "diagnoses") or [])
    )


def first_lines(case: Any, lang: str, limit: int = 5) -> list[str]:
    out = []
    stored = _stored_poison(case)
    for item in (_get(case, "first") or [])[:limit]:
        got, exp = value_text(item.get("got")), value_text(item.get("expected"))
        if item.get("kind") == "unwritten" and stored:  # stored, but from the poison: not "never written"
            said = Said(
                f"index {item.get('index')}: computed from uninitialised memory (expected {exp})",
                f"インデックス {item.get('index')}: 未初期化のメモリから計算された値(期待値 {exp})",
            )
        elif item.get("kind") == "unwritten":  # what is there is the lab's poison, not the kernel's output
            said = Said(
                f"index {item.get('index')}: never written (expected {exp})",
                f"インデックス {item.get('index')}: 未書き込み(期待値 {exp})",
            )
        else:
            said = Said(
                f"index {item.get('index')}: got {got}, expected {exp}",
                f"インデックス {item.get('index')}: 出力 {got}、期待値 {exp}",
            )
        out.append(said.in_(lang))
    return out


def replay_line(result: Any, lang: str) -> str | None:
    replay = _get(result, "replay") or {}
    if not replay.get("line"):
        return None
    detail = replay.get("detail")
    said = describe({"kind": "oob", "detail": detail}, lang) if isinstance(detail, dict) else ""
    head = Said(
        f"replayed on the interpreter's bounds checker: line {replay['line']}",
        f"インタプリタの境界チェックで再実行: {replay['line']} 行目",
    ).in_(lang)
    return f"{head}: {said}" if said else head


AUDIT_PENDING = Said(
    "auditing on the interpreter (what a GPU run cannot show)…",
    "インタプリタで監査中(GPU の実行では見えないものを確認しています)…",
)


def audit_line(result: Any, lang: str) -> str | None:
    """The interpreter audit of a GPU pass in one sentence: pending, clean, found or incomplete; None when
    no audit applies (the interpreter backend, a failure, an audit run inline)."""
    state = (_get(result, "audit") or {}).get("state")
    if state == "pending":
        return AUDIT_PENDING.in_(lang)
    if state == "clean":
        return pick(
            lang,
            "interpreter audit: nothing found — the GPU pass stands",
            "インタプリタ監査: 問題は見つかりませんでした。GPU での合格はそのままです",
        )
    if state == "incomplete":
        return pick(
            lang,
            "interpreter audit could not finish — the GPU pass stands unaudited",
            "インタプリタ監査を完了できませんでした。GPU での合格は未監査のままです",
        )
    if state == "found":
        return Said(
            f"interpreter audit withdrew the pass: {summary(result, 'en')}",
            f"インタプリタ監査により合格を取り消しました: {summary(result, 'ja')}",
        ).in_(lang)
    return None


def cell(value: Any) -> str:
    return number(value)


PRINTED = Said("your program printed:", "プログラムの出力:")
WARNED = Said(
    "Triton's interpreter warned (not your program's output; the line is yours that was running):",
    "Triton のインタプリタの警告(プログラムの出力ではありません。行はそのとき実行中だったあなたのコードの行です):",
)


def interpreter_warnings(cases: list, lang: str) -> list[str]:
    """One line per distinct warning raised inside Triton's interpreter across the cases (numpy's overflow or
    division by zero), with the learner's line that was running."""
    seen: list[tuple] = []
    for case in cases:
        for w in case.get("interpreter_warnings") or []:
            if not isinstance(w, dict):
                continue
            key = (w.get("line"), w.get("category"), w.get("message"))
            if key not in seen:
                seen.append(key)
    lines = []
    for line, category, message in seen[:8]:
        where = Said(f"line {line}: ", f"{line} 行目: ").in_(lang) if line else ""
        lines.append(f"  {where}{category}: {message}")
    return lines
