"""`doctor`'s checks in words: each check's name, value and fix from its `cause` and facts, in either
language."""

from __future__ import annotations

from typing import Any

from tritonlab.present.diagnoses import feature
from tritonlab.present.verify import backend_name
from tritonlab.present.words import Said, pick

NAMES = {
    "tritonlab": Said("tritonlab", "tritonlab"),
    "lessons": Said("lessons", "レッスン"),
    "python": Said("python", "python"),
    "torch": Said("torch", "torch"),
    "triton": Said("triton", "triton"),
    "numpy": Said("numpy", "numpy"),
    "cuda": Said("cuda", "cuda"),
    "gpu": Said("gpu", "GPU"),
    "compute capability": Said("compute capability", "計算能力"),
    "driver": Said("driver", "ドライバ"),
    "backend": Said("backend", "実行環境"),
    "sanity kernel": Said("sanity kernel", "動作確認カーネル"),
    "cache dir": Said("cache dir", "キャッシュ"),
    "sandbox": Said("sandbox", "サンドボックス"),
    "lesson features": Said("lesson features", "レッスンの機能"),
    "worker": Said("worker", "ワーカー"),
    "worker log": Said("worker log", "ワーカーのログ"),
}


def name(check: dict, lang: str) -> str:
    said = NAMES.get(str(check.get("name")))
    return said.in_(lang) if said else str(check.get("name", ""))


def value(check: dict, lang: str) -> str:
    """The check's finding; versions, paths and device names stay as they are."""
    cause, v = check.get("cause"), check.get("value")
    if cause == "numpy-repaired":
        return Said(
            f"{check.get('version')} (TritonLab repairs the interpreter's scalar-to-int conversion that "
            "numpy >= 2.4 broke)",
            f"{check.get('version')}(numpy >= 2.4 で壊れたインタプリタのスカラー→"
            "整数変換を TritonLab が修復しています)",
        ).in_(lang)
    if cause == "no-cuda":
        return pick(lang, "no CUDA GPU visible to torch", "torch から見える CUDA GPU はありません")
    if cause == "cuda":
        return f"CUDA {check.get('version')}"
    if cause == "gpu":
        return f"{check.get('device')}, {check.get('sms')} SMs, {check.get('gib')} GiB"
    if cause == "driver" and not check.get("version"):
        return pick(lang, "unknown", "不明")
    if cause == "backend":
        if check.get("backend") == "gpu":
            return "GPU"
        return pick(
            lang,
            "Triton interpreter (TRITON_INTERPRET=1) — timings are not GPU timings",
            "Triton インタプリタ(TRITON_INTERPRET=1)— 計測値は GPU の時間ではありません",
        )
    if cause in ("sanity-ok", "sanity-wrong"):
        where = backend_name(check.get("backend"), lang)
        if cause == "sanity-ok":
            return Said(
                f"a copy kernel ran on the {where} and matched",
                f"コピーカーネルが{where}で動き、結果も一致しました",
            ).in_(lang)
        return Said(
            f"a copy kernel ran on the {where} and did NOT match",
            f"コピーカーネルは{where}で動きましたが、結果が一致しません",
        ).in_(lang)
    if cause in ("sanity-failed", "worker-failed"):
        return f"«{check.get('exception') or v}»"
    if cause in ("features-all", "features-missing"):
        sep = "、" if lang == "ja" else ", "
        if cause == "features-all":
            names = sep.join(feature(n, lang) for n in check.get("available") or [])
            return Said(
                f"this Triton has every feature the lessons use: {names}",
                f"この Triton にはレッスンで使う機能がすべてあります:{names}",
            ).in_(lang)
        names = sep.join(feature(n, lang) for n in check.get("missing") or [])
        return Said(
            f"this Triton lacks {names}; the exercises that need them are skipped with the reason",
            f"この Triton には{names}がありません。それを使う演習は理由を示してスキップされます",
        ).in_(lang)
    if cause == "sandbox-on":
        return Said(
            "learner code can neither signal or trace the app and the judge (seccomp) nor read or write your "
            "drafts and progress (Landlock)",
            "学習者のコードは、アプリや判定プロセスへのシグナル送信・トレース(seccomp)も、下書きや進捗の読み書き"
            "(Landlock)もできません",
        ).in_(lang)
    if cause == "sandbox-disabled":
        return Said(
            "switched off with TRITONLAB_SANDBOX=off: learner code runs unconfined",
            "TRITONLAB_SANDBOX=off で無効になっています。学習者のコードは制限なしで動きます",
        ).in_(lang)
    if cause == "sandbox-signals":
        return Said(
            "learner code cannot signal or trace the app and the judge (seccomp); this kernel has no Landlock, "
            "so only a hidden path keeps it from your drafts and progress",
            "学習者のコードはアプリや判定プロセスへのシグナル送信・トレースはできません(seccomp)。この"
            "カーネルには Landlock がないため、下書きや進捗はパスを知らせないことでしか守られていません",
        ).in_(lang)
    if cause == "sandbox-off":
        return Said(
            "no seccomp filter on this system: learner code could signal the lab's processes",
            "このシステムでは seccomp フィルタが使えません。学習者のコードがラボのプロセスにシグナルを送れます",
        ).in_(lang)
    if cause == "cache-ok":
        return Said(f"{check.get('path')} is writable", f"{check.get('path')} に書き込めます").in_(lang)
    if cause == "cache-fail":
        return f"{check.get('path')}: «{check.get('exception')}»"
    if cause == "lessons":
        text = Said(
            f"{check.get('lessons')} lessons, {check.get('exercises')} exercises",
            f"{check.get('lessons')} レッスン、{check.get('exercises')} 演習",
        ).in_(lang)
        if check.get("problems"):
            text += Said(f"; {check['problems']} problems", f"、問題 {check['problems']} 件").in_(lang)
        return text
    return str(v if v is not None else "")


FIXES = {
    "python-version": Said(
        "TritonLab needs Python 3.10 or newer", "TritonLab には Python 3.10 以上が必要です"
    ),
    "numpy-broken": Said(
        "Triton's CPU interpreter breaks with numpy >= 2.4 and TritonLab could not repair it here: "
        "pip install 'numpy<2.4'",
        "Triton の CPU インタプリタは numpy >= 2.4 で動かず、ここでは "
        "TritonLab も修復できませんでした: pip install 'numpy<2.4'",
    ),
    "no-cuda": Said(
        "kernels run on Triton's CPU interpreter (slow, but every lesson works)",
        "カーネルは Triton の CPU インタプリタで動きます(遅いですが、すべてのレッスンが動きます)",
    ),
    "cc": Said(
        "Triton supports compute capability 7.5 (Turing) and newer",
        "Triton が対応するのは計算能力 7.5(Turing)以降です",
    ),
    "sanity-wrong": Said(
        "the kernel ran but produced wrong values: check the triton/torch versions",
        "カーネルは動きましたが値が誤っています。triton/torch のバージョンを確認してください",
    ),
    "sanity-failed": Said(
        "the environment cannot run a Triton kernel: see the message; reinstall triton/torch",
        "この環境では Triton カーネルを実行できません。メッセージを確認し、triton/torch を入れ直してください",
    ),
    "features-missing": Said(
        "upgrade Triton (pip install -U triton) to run the exercises that need them",
        "それらの演習を動かすには Triton を更新してください(pip install -U triton)",
    ),
    "cache-fail": Said(
        "set TRITON_CACHE_DIR to a writable folder", "TRITON_CACHE_DIR に書き込めるフォルダを指定してください"
    ),
    "sandbox-disabled": Said(
        "unset TRITONLAB_SANDBOX to confine learner code again", "TRITONLAB_SANDBOX を外すと再び制限されます"
    ),
    "sandbox-off": Said(
        "verdicts still come from the judge; on Linux x86_64/aarch64 with seccomp the runner is also confined",
        "判定は変わらず判定プロセスが下します。seccomp のある Linux(x86_64/aarch64)ではランナーも閉じ込められます",
    ),
    "lessons": Said("reinstall tritonlab (pip install .)", "tritonlab を入れ直してください(pip install .)"),
    "worker-failed": Said(
        "pip install torch triton 'numpy<2.4' — the worker process must import both",
        "pip install torch triton 'numpy<2.4' — ワーカープロセスが両方を import できる必要があります",
    ),
}


def fix(check: dict, lang: str) -> str | None:
    """The advice for a warn/fail check, or None."""
    if check.get("status") not in ("warn", "fail") or not check.get("fix"):
        return None
    said = FIXES.get(str(check.get("cause")))
    return said.in_(lang) if said else f"«{check.get('fix')}»"


def verdict(report: Any, lang: str) -> str:
    be = backend_name(report.get("backend"), lang)
    if report.get("ok"):
        return Said(f"the lab can run kernels on the {be}", f"{be}でカーネルを実行できます").in_(lang)
    return Said(f"the lab cannot run kernels on the {be}", f"{be}ではカーネルを実行できません").in_(lang)
