"""`run`'s demo in words: the call, the inputs, the launches, the output beside torch's."""

from __future__ import annotations

from typing import Any

from tritonlab.present.tensors import tensor_text
from tritonlab.present.verify import backend_name
from tritonlab.present.words import Said, pick


def run_lines(result: Any, lang: str, *, app: bool = False) -> list[str]:
    """The demo as lines (the CLI prints them, the app's output tab shows them, `app=True`: its keys are
    named, not CLI commands); [] when the run stopped early."""
    get = result.get
    call = get("call")
    if not call:
        return [str(line) for line in get("lines") or []]  # an older worker still sends lines
    kwargs = call.get("kwargs") or {}
    args = ", ".join([*call.get("args", []), *(f"{k}={v}" for k, v in kwargs.items())])
    be = backend_name(get("backend"), lang)
    lines = [
        Said(f"{call.get('entry')}({args})  on the {be}", f"{call.get('entry')}({args})  {be}で実行").in_(
            lang
        )
    ]
    for item in get("inputs") or []:
        lines.append(f"{item.get('name')}: {tensor_text(item, lang)}")
        if item.get("values") is not None:
            lines.append(str(item["values"]))
    for launch in get("launches") or []:
        lines.append(
            Said(
                f"launched {launch.get('kernel')} on grid {launch.get('grid')}",
                f"{launch.get('kernel')} をグリッド {launch.get('grid')} で起動",
            ).in_(lang)
        )
    stats = get("stats")
    if stats:
        lines.append(
            Said(
                f"programs: {stats.get('programs')}, bytes loaded: {stats.get('bytes_loaded')}, "
                f"bytes stored: {stats.get('bytes_stored')}",
                f"プログラム数: {stats.get('programs')}、ロード: {stats.get('bytes_loaded')} バイト、"
                f"ストア: {stats.get('bytes_stored')} バイト",
            ).in_(lang)
        )
    returned = get("returned") or {}
    if returned:
        lines.append(pick(lang, "output: ", "出力: ") + tensor_text(returned, lang))
    if get("program_map"):
        lines.append(
            pick(
                lang,
                "which program wrote each element ('?' = never written):",
                "各要素を書き込んだプログラム('?' = 未書き込み):",
            )
        )
        lines.extend("  " + row for row in get("program_map"))
    elif returned.get("values") is not None:
        lines.append(str(returned["values"]))
    if get("expected"):
        lines.append(pick(lang, "torch says:", "torch の結果:"))
        lines.append(str(get("expected").get("values")))
        if get("matches") is not None:
            lines.append(
                pick(lang, "they match", "一致しています")
                if get("matches")
                else _they_differ(get("exercise"), lang, app)
            )
    if get("comparison_error"):
        lines.append(
            pick(lang, "(no torch comparison: ", "(torch と比較できません: ")
            + f"«{get('comparison_error')}»)"
        )
    return lines


def _they_differ(exercise: Any, lang: str, app: bool) -> str:
    if app:
        return pick(
            lang,
            "they differ: press F6 (Verify) for details",
            "一致しません。詳しくは F6(検証)を押してください",
        )
    command = f"`tritonlab verify {exercise}`" if exercise else "`tritonlab verify`"
    return pick(
        lang,
        f"they differ: run {command} for details",
        f"一致しません。詳しくは {command} を実行してください",
    )
