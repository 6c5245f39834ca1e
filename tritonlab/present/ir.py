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
    return lines + hopper_lines(result, lang)


#: What each counted instruction kind is (engine/ir_notes.py), for a learner of lesson 13.
HOPPER_WORDS: dict[str, Said] = {
    "tma_load": Said(
        "TMA tile loads (global → shared, one instruction per tile)",
        "TMA タイルロード(グローバル → 共有メモリ、1 タイル 1 命令)",
    ),
    "tma_store": Said("TMA tile stores (shared → global)", "TMA タイルストア(共有メモリ → グローバル)"),
    "descriptor_create": Said(
        "instructions writing device-side descriptors (tl.make_tensor_descriptor; "
        "about a dozen per descriptor, once per program)",
        "デバイス側ディスクリプタを書き込む命令(tl.make_tensor_descriptor。"
        "ディスクリプタ 1 つに十数命令、プログラムごとに 1 回)",
    ),
    "wgmma": Said(
        "warp-group MMA (Hopper's asynchronous tensor-core instruction)",
        "ワープグループ MMA(Hopper の非同期テンソルコア命令)",
    ),
    "mbarrier": Said(
        "mbarrier operations (waiting for TMA copies to land)", "mbarrier 操作(TMA コピーの到着待ち)"
    ),
}


def hopper_lines(result: Any, lang: str) -> list[str]:
    """A heading and one line per instruction kind found; [] when none was found or the stage has no counts."""
    counts = result.get("hopper")
    if not isinstance(counts, dict):
        return []
    found = [(k, n) for k, n in counts.items() if n]
    if not found:  # most kernels of lessons 1-12: saying "none" above every one of them would be noise
        return []
    head = pick(lang, "Hopper data movement:", "Hopper のデータ移動:")
    return [head] + [f"  {n:>4} × {HOPPER_WORDS[k].in_(lang) if k in HOPPER_WORDS else k}" for k, n in found]
