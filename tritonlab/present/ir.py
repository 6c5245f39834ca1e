"""The heading above a compiler stage (`ir`): kernel, stage, target, inputs, resources, in en or ja."""

from __future__ import annotations

from typing import Any

from tritonlab.present.words import Said, pick


def header(result: Any, lang: str) -> list[str]:
    f = result.get("header_facts")
    if not isinstance(f, dict):
        return [str(line) for line in result.get("header") or []]  # an older worker
    target = (
        pick(lang, "this GPU", "この GPU")
        if f.get("on_device")
        else pick(lang, "no GPU needed: compiled, not run", "GPU 不要: コンパイルのみで実行はしません")
    )
    lines = [f"{f.get('kernel')} · {f.get('stage')} · {f.get('arch')} ({target}) · Triton {f.get('triton')}"]
    params = ", ".join(f"{k}={v}" for k, v in (f.get("params") or {}).items())
    lines.append(pick(lang, "inputs: ", "入力: ") + f"{params} · {f.get('dtype')}")
    if f.get("signature"):
        lines.append(pick(lang, "signature: ", "シグネチャ: ") + str(f["signature"]))
    if f.get("config"):
        lines.append(
            Said(
                f"autotune config: {f['config']} (the first of {f.get('configs')}; `tritonlab bench` times "
                "them all)",
                f"autotune の設定: {f['config']}({f.get('configs')} 個中の最初。"
                "`tritonlab bench` ですべて計測します)",
            ).in_(lang)
        )
    res = [f"num_warps {result.get('num_warps')}", f"num_stages {result.get('num_stages')}"]
    if result.get("registers") is not None:
        res.append(
            pick(
                lang, f"{result['registers']} registers/thread", f"レジスタ {result['registers']} 個/スレッド"
            )
        )
    if result.get("spills") is not None:
        res.append(pick(lang, f"{result['spills']} spills", f"スピル {result['spills']}"))
    if result.get("shared") is not None:
        res.append(pick(lang, f"{result['shared']:,} B shared memory", f"共有メモリ {result['shared']:,} B"))
    lines.append(" · ".join(res))
    return lines
