"""Sentences for every `Kind`, made from a diagnosis's or error's facts, in English and Japanese.

How a new kind gets its words: add the member to `engine.results.Kind`, then here

    @says(Kind.MY_KIND)
    def _my_kind(f: Facts) -> Said:
        return Said(en=f"... {f['arg']} ...", ja=f"... {f['arg']} ...")

`tests/unit/test_present.py` fails while a `Kind` has no sentence. A kind this version does not know (a newer
engine) is still shown: `describe` falls back to a generic sentence in the chosen language plus the facts it
carries. The engine's English `message` is not used as a sentence: only an error from an older worker that lacks
the `exception` fact has its `message` quoted instead, in «» like any text the lab did not write.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tritonlab.engine.results import Kind
from tritonlab.present.numbers import dtype, nbytes, number, shape, span
from tritonlab.present.usage import refusal
from tritonlab.present.words import Said

Facts = Mapping[str, Any]
_SENTENCES: dict[Kind, Callable[[Facts], Said]] = {}

#: Short names of each kind, for headings ("out-of-bounds access at line 25").
LABELS: dict[Kind, Said] = {
    Kind.SYNTAX: Said("syntax error", "構文エラー"),
    Kind.COMPILE: Said("compile error", "コンパイルエラー"),
    Kind.RUNTIME: Said("runtime error", "実行時エラー"),
    Kind.TIMEOUT: Said("timeout", "タイムアウト"),
    Kind.CRASH: Said("crash", "クラッシュ"),
    Kind.OOB: Said("out-of-bounds access", "範囲外アクセス"),
    Kind.CUDA_FAULT: Said("GPU memory fault", "GPU メモリフォルト"),
    Kind.CANCELLED: Said("cancelled", "キャンセル"),
    Kind.LOAD: Said("load error", "読み込みエラー"),
    Kind.USAGE: Said("usage error", "使い方の誤り"),
    Kind.VERIFY: Said("not verified", "検証未合格"),
    Kind.ERROR: Said("comparison failed", "比較できません"),
    Kind.TYPE: Said("wrong return type", "戻り値の型の誤り"),
    Kind.SHAPE: Said("shape", "形状"),
    Kind.DTYPE: Said("dtype", "dtype"),
    Kind.UNWRITTEN: Said("unwritten", "未書き込み"),
    Kind.NAN: Said("inf/NaN", "inf/NaN"),
    Kind.MISMATCH: Said("mismatch", "値の不一致"),
    Kind.NO_KERNEL_LAUNCHED: Said("no kernel launched", "カーネル未起動"),
    Kind.INPUT_MODIFIED: Said("input modified", "入力の書き換え"),
    Kind.PERF_BYTES: Said("too many bytes", "転送量超過"),
    Kind.WRONG_SHAPE: Said("wrong shape", "形状の誤り"),
    Kind.WRONG_DTYPE: Said("wrong dtype", "dtype の誤り"),
    Kind.WRONG_DEVICE: Said("wrong device", "デバイスの誤り"),
    Kind.LESSON: Said("lesson data", "レッスンデータ"),
    Kind.VALIDATION: Said("input check", "入力チェック"),
    Kind.SKIPPED: Said("skipped", "スキップ"),
    Kind.GRID_SIZE: Said("grid size", "グリッドの大きさ"),
    Kind.OUTPUT_LAYOUT: Said("output layout", "出力のレイアウト"),
    Kind.KNOB_IGNORED: Said("knob not passed on", "起動に渡されないパラメータ"),
    Kind.KERNEL_BYPASSED: Said("kernel bypassed", "カーネルの迂回"),
    Kind.AUTOTUNE_KEY: Said("autotune key", "オートチューンのキー"),
    Kind.AUTOTUNE_CONFIGS: Said("autotune configs", "オートチューンの config"),
    Kind.AUTOTUNE_MISSING: Said("no autotune", "オートチューンなし"),
    Kind.LAUNCH_OPTION_PARAM: Said("launch option as a parameter", "引数になった起動オプション"),
    Kind.KEYWORD_MISSING: Said("parameter missing", "引数の不足"),
    Kind.TILES_NOT_VARIED: Said("own tiles", "独自のタイル"),
    Kind.FAR_ROWS_CONTIGUOUS: Said("rows contiguous", "行は連続"),
    Kind.NOT_KERNEL_OUTPUT: Said("not your kernel's output", "カーネル以外の出力"),
    Kind.WRITTEN_AFTER_KERNEL: Said("written after the kernel", "カーネル後の書き換え"),
    Kind.COPIED_ANSWER: Said("the answer was only copied", "答えのコピーのみ"),
    Kind.PREFILLED_OUTPUT: Said("the answer was there before the kernel", "カーネルの前から答えがあった"),
    Kind.TORCH_WORK: Said("torch did the kernel's work", "カーネルの仕事を torch が計算"),
    Kind.RETURNED_INPUT: Said("returned an input", "入力をそのまま返却"),
    Kind.PARTLY_WRITTEN_BY_TORCH: Said("filled outside the kernel", "カーネル外での書き込み"),
    Kind.NOT_A_PLAIN_TENSOR: Said("not a plain tensor", "通常でないテンソル"),
    Kind.TAMPERED: Said("tampered with the lab", "ラボの改ざん"),
    Kind.WRONG_OUTPUTS: Said("wrong number of outputs", "出力の個数の誤り"),
    Kind.NO_GRADIENT: Said("no gradient", "勾配なし"),
    Kind.NONDETERMINISTIC: Said("not deterministic", "非決定的な結果"),
    Kind.OP_NOT_USED: Said("operator not called", "呼ばれない演算子"),
    Kind.OP_NOT_YOURS: Said("someone else's operator", "別ファイルの演算子"),
    Kind.OP_MUTATES: Said("undeclared mutation", "宣言されていない書き換え"),
    Kind.OP_NOT_TRITON: Said("not a triton_op", "triton_op ではない"),
    Kind.GRAPH_BREAK: Said("torch.compile failed", "torch.compile の失敗"),
    Kind.COMPILED_DIFFERS: Said("compiled result differs", "コンパイル後の結果の違い"),
    Kind.KERNEL_NOT_WRAPPED: Said("kernel launched without wrap_triton", "wrap_triton なしのカーネル起動"),
    Kind.STORED_TWICE: Said("tiles computed twice", "タイルの重複計算"),
    Kind.ALLOCATOR_MISSING: Said("no allocator", "アロケータ未登録"),
    Kind.API_MISSING: Said("the exercise's API is not used", "演習の API を使っていない"),
    Kind.RACE: Said("race between programs", "プログラム間の競合"),
    Kind.CROSS_PROGRAM_READ: Said("reads another program's store", "別のプログラムのストアを読む"),
    Kind.LOOP_ONCE: Said("the loop never streams", "ループがストリームしない"),
    Kind.ZERO_DIVISION: Said("integer division by zero", "整数のゼロ除算"),
}


def says(kind: Kind) -> Callable[[Callable[[Facts], Said]], Callable[[Facts], Said]]:
    """Register the sentence of one kind (both languages at once)."""

    def register(func: Callable[[Facts], Said]) -> Callable[[Facts], Said]:
        _SENTENCES[kind] = func
        return func

    return register


def has_sentence(kind: Kind) -> bool:
    return kind in _SENTENCES


def label(kind: Any, lang: str) -> str:
    """The short name of a kind; an unknown kind is named by its wire string."""
    known = Kind.parse(kind)
    if known is not None and known in LABELS:
        return LABELS[known].in_(lang)
    return f"{kind or '?'}"


def describe(facts: Any, lang: str) -> str:
    """The sentence for one diagnosis or error (a dict or a results record), in `lang`. Never raises."""
    f = _as_mapping(facts)
    kind = Kind.parse(f.get("kind"))
    func = _SENTENCES.get(kind) if kind is not None else None
    if func is not None:
        try:
            text = func(_Facts(f)).in_(lang)
        except Exception:  # noqa: BLE001 - odd facts must not hide the diagnosis: say it generically
            return generic(f, lang)
        output = f.get("output")
        if output and kind not in _NAMES_ITS_OUTPUT:  # gradient mode: which of out, grad_x, grad_w
            text = f"{output}: {text}"
        if f.get("replayed"):  # a race or a cause the interpreter found behind a GPU case's wrong answer
            text = REPLAYED.in_(lang) + text
        zero = f.get("zero_division")
        if isinstance(zero, Mapping) and zero.get("line") and kind is not Kind.ZERO_DIVISION:
            # the interpreter divided an integer by zero: said before what followed
            text = _zero_division(zero).in_(lang) + text
        return text
    return generic(f, lang)


def _zero_division(zero: Mapping, followed: bool = True) -> Said:
    line, op = zero["line"], zero.get("op") or "%"
    origin_en = origin_ja = ""
    name = zero.get("divisor")
    if zero.get("floor_line"):  # a block count floored to 0
        floor, at = verbatim(zero.get("floor")), zero["floor_line"]
        origin_en = (
            f"; {name} comes from {floor} (line {at}), a floor division that is 0 when the size is below the "
            "block: count tiles with tl.cdiv"
        )
        origin_ja = (
            f"。{name} は {at} 行目の {floor} から来ていて、この切り捨ての割り算は大きさがブロックより小さいと "
            "0 になります。タイル数は tl.cdiv で数えてください"
        )
    elif zero.get("config_line"):  # a triton.Config of the file sets a factor of the divisor to 0
        param, at = zero.get("zero_param"), zero["config_line"]
        others = [n for n in zero.get("config_lines") or [] if n != at]
        also_en = f" (and the one at line {', '.join(map(str, others))})" if others else ""
        also_ja = f"({'、'.join(map(str, others))} 行目の config も同じです)" if others else ""
        if zero.get("made_line"):
            made, made_at = verbatim(zero.get("made")), zero["made_line"]
            origin_en = f"; {name} is computed at line {made_at}, {made}, and"
            origin_ja = f"。{name} は {made_at} 行目の {made} で計算されていて、"
        else:
            origin_en, origin_ja = ";", "。"
        origin_en += (
            f" the autotune config at line {at}{also_en} sets {param} = 0 — make {param} nonzero there"
        )
        origin_ja += (
            f"{at} 行目のオートチューンの config が {param} = 0 にしています{also_ja}。その config の {param} を "
            "0 以外にしてください"
        )
    elif zero.get("made_line"):  # no block count behind it: where the divisor was computed
        made, at = verbatim(zero.get("made")), zero["made_line"]
        origin_en = f"; {name} is computed at line {at}, {made} — check why it is 0 there"
        origin_ja = (
            f"。{name} は {at} 行目の {made} で計算されています。そこで 0 になる理由を確認してください"
        )
    if zero.get("config_timed") and zero.get("config_line"):  # the division ran in a timing run
        who_en = (
            f"in this case, while the autotuner timed the config at line {zero['config_line']}, your kernel"
        )
        who_ja = f"このケースでは、オートチューナーが {zero['config_line']} 行目の config を計測している間に、カーネルが"
    else:
        who_en, who_ja = "in this case your kernel", "このケースではカーネルが"
    return Said(
        f"{who_en} divided an integer by zero at line {line} (an integer {op} whose divisor is "
        f"0{origin_en}); on a GPU the result is undefined. " + ("What followed: " if followed else ""),
        f"{who_ja} {line} 行目で整数を 0 で割っています(割る数が 0 の整数の {op} です{origin_ja})。"
        "GPU では結果が未定義です。" + ("その結果: " if followed else ""),
    )


def _exp_blowup(top: Any) -> Said:
    """Why an exp with no max subtracted made NaN on these rows: it underflowed to 0 (0 / 0) where their max
    `top` is negative, else it overflowed to inf (inf / inf)."""
    if top is not None and top < 0:
        return Said(
            f"exp underflows to 0 below about -103 (these rows' max is {number(top)}) and 0 / 0 is NaN",
            f"exp は約 -103 を下回ると 0 にアンダーフローし(これらの行の最大値は {number(top)})、0 / 0 は NaN "
            "になります",
        )
    reach = f" (these rows reach {number(top)})" if top is not None else ""
    reach_ja = f"(これらの行は {number(top)} に達します)" if top is not None else ""
    return Said(
        f"exp overflows to inf above ~88.7{reach} and inf / inf is NaN",
        f"exp は約 88.7 を超えると inf にあふれ{reach_ja}、inf / inf は NaN になります",
    )


#: Before a race record or a named cause carried from the interpreter's replay onto the GPU case whose answer
#: it explains.
REPLAYED = Said(
    "the cause, found by replaying this case on the interpreter: ",
    "このケースをインタプリタで再実行して見つかった原因: ",
)

#: Sentences that name the output themselves (no "grad_w: " prefix).
_NAMES_ITS_OUTPUT = frozenset({Kind.NO_GRADIENT, Kind.NONDETERMINISTIC})


def generic(f: Facts, lang: str) -> str:
    """For a kind with no sentence (yet): its name and its facts, words in `lang`."""
    shown = {
        k: v
        for k, v in f.items()
        if k not in ("kind", "message", "detail", "extra", "sent") and v not in (None, "", [], {})
    }
    facts = ", ".join(f"{k}={_short(v)}" for k, v in list(shown.items())[:8])
    head = Said(f"the lab reports “{f.get('kind')}”", f"ラボからの報告「{f.get('kind')}」").in_(lang)
    return f"{head}: {facts}" if facts else head


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _as_mapping(facts: Any) -> dict:
    if isinstance(facts, Mapping):
        return dict(facts)
    to_json = getattr(facts, "to_json", None)
    return dict(to_json()) if callable(to_json) else {}


class _Facts(dict):
    """A diagnosis's facts; a missing one reads as None (sentences pick a shorter form then)."""

    def __missing__(self, key: str) -> Any:
        return None


def verbatim(text: Any) -> str:
    """Text the lab quotes as it was printed (Python's or Triton's own exception text): set apart in «», so a
    reader (and the language test) can tell it from the lab's own words."""
    text = str(text or "").strip()
    return f"«{text}»" if text else ""


def _n(count: Any, lang: str, en_one: str, en_many: str, ja: str) -> str:
    """'1 element' / '3 elements' / '3 要素'."""
    if lang == "ja":
        return f"{number(count)} {ja}"
    return f"{number(count)} {en_one if count == 1 else en_many}"


def _program(f: Facts) -> str:
    pid = f.get("program_id")
    if isinstance(pid, (list, tuple)):
        axes = max((i + 1 for i, p in enumerate(pid) if p), default=1)
        grid = f.get("grid")
        if isinstance(grid, (list, tuple)):
            axes = max(axes, max((i + 1 for i, g in enumerate(grid) if g and g > 1), default=1))
        return str(pid[0]) if axes == 1 else "(" + ", ".join(str(p) for p in pid[:axes]) + ")"
    return str(pid) if pid is not None else "?"


# ---- errors ------------------------------------------------------------------------------------------------


@says(Kind.SYNTAX)
def _syntax(f: Facts) -> Said:
    q = verbatim(f["exception"] or f["message"])
    return Said(f"Python cannot read this file: {q}", f"Python がこのファイルを読めません: {q}")


#: Python that Triton's code generator has no rule for: (what the learner wrote, what to do instead)
_CONSTRUCTS: dict[str, tuple[Said, Said]] = {
    "Break": (
        Said("`break`", "`break`"),
        Said(
            "end the loop by its bound instead: compute the last step you need before the loop "
            "(range(0, end, BLOCK)), or keep looping and mask the steps past it",
            "ループはその範囲で終わらせてください。必要な最後のステップをループの前に計算する"
            "(range(0, end, BLOCK))か、ループは続けてその先のステップをマスクします",
        ),
    ),
    "Continue": (
        Said("`continue`", "`continue`"),
        Said(
            "put the rest of the loop body under an `if` (or mask its loads and stores)",
            "ループ本体の残りを `if` の中に入れてください(またはそのロードとストアをマスクします)",
        ),
    ),
    "Raise": (
        Said("`raise`", "`raise`"),
        Said(
            "check the arguments in the host wrapper before the launch (inside a kernel, tl.device_assert "
            "checks when TRITON_DEBUG=1)",
            "引数は起動前にホスト側のラッパーで確認してください(カーネルの中では TRITON_DEBUG=1 のときに "
            "tl.device_assert が確認します)",
        ),
    ),
    "Try": (
        Said("try/except", "try/except"),
        Said(
            "a kernel cannot catch errors: check in the host wrapper",
            "カーネルはエラーを捕まえられません。ホスト側のラッパーで確認してください",
        ),
    ),
    "NamedExpr": (
        Said("`:=`", "`:=`"),
        Said("assign on a line of its own", "代入は独立した行で行ってください"),
    ),
    "ReturnInLoop": (
        Said("`return` inside a `for` or `while` loop", "`for` や `while` ループの中の `return`"),
        Said(
            "let the loop run to its bound and return after it (keep a flag, or mask the rest of the work)",
            "ループは範囲の終わりまで回し、その後で return してください(フラグを持つか、残りの処理をマスク"
            "します)",
        ),
    ),
    "Lambda": (
        Said("a lambda", "lambda"),
        Said(
            "write a @triton.jit function instead (a tl.reduce combine function too)",
            "代わりに @triton.jit の関数を書いてください(tl.reduce の結合関数も同じです)",
        ),
    ),
}


def _unsupported_construct(f: Facts) -> Said:
    """Python that a GPU compile refuses ("unsupported AST node type"): the interpreter's stand-in says it
    before a GPU would."""
    construct = f["construct"]
    what, fix = _CONSTRUCTS.get(
        construct,
        (
            Said(f"Python's {construct}", f"Python の {construct}"),
            Said(
                "use what Triton's language has: tuples, tl tensors, tl.constexpr values and @triton.jit functions",
                "Triton の言語にあるもの(タプル、tl のテンソル、tl.constexpr の値、@triton.jit の関数)を"
                "使ってください",
            ),
        ),
    )
    at_en = f"line {f['line']} uses" if f["line"] else "the kernel uses"
    at_ja = f"{f['line']} 行目: " if f["line"] else ""
    quoted = (
        "Cannot have `return` statements inside `while` or `for` statements in triton."
        if construct == "ReturnInLoop"
        else f"unsupported AST node type: {construct}"
    )
    return Said(
        f"{at_en} {what.en} inside a kernel: Triton's compiler has no rule for it and a GPU compile stops "
        f"(“{quoted}”). The interpreter would run it as Python; {fix.en}",
        f"{at_ja}カーネルの中で {what.ja} を使っています。Triton のコンパイラはこれを扱えず、GPU ではコンパイルが"
        f"止まります(“{quoted}”)。インタプリタでは Python として動いてしまいます。{fix.ja}",
    )


#: Triton's short element-type names (as its messages print them) -> the tl. name a learner writes
_TL_DTYPES = {
    "fp32": "float32",
    "fp16": "float16",
    "bf16": "bfloat16",
    "fp64": "float64",
    "fp8e4nv": "float8e4nv",
}


def _dims(dims: Any) -> str:
    """A block's shape as Triton code writes it: [64], [16, 64]."""
    return "[" + ", ".join(str(d) for d in dims) + "]"


def _carried_type(dims: Any, element: Any) -> Said:
    """A Triton type said in words: "a scalar fp32", "a [64] fp32 block"."""
    if isinstance(dims, (list, tuple)) and dims:
        block = _dims(dims)
        return Said(f"a {block} {element} block", f"{block} の {element} ブロック")
    return Said(f"a scalar {element}", f"スカラーの {element}")


def _loop_carried_type(f: Facts) -> Said:
    """A value carried through a compiled loop changed its type (the interpreter's stand-in says what the GPU's
    code generator refuses)."""
    name, before, after = f["name"], f["before_shape"], f["after_shape"]
    was = _carried_type(before, f["before_dtype"])
    now = _carried_type(after, f["after_dtype"])
    loop_en = f" (line {f['loop_line']})" if f["loop_line"] else ""
    loop_ja = f"({f['loop_line']} 行目)" if f["loop_line"] else ""
    if f["via"] and f["line"] and f["assign_line"]:
        where_en = f": line {f['line']} makes it ({f['via']}) and line {f['assign_line']} carries it ({name} = {f['via']})"
        where_ja = (
            f"。{f['line']} 行目で {f['via']} として作られ、{f['assign_line']} 行目の {name} = {f['via']} で"
            "受け継がれます"
        )
    elif f["line"]:
        where_en, where_ja = f" at line {f['line']}", f"({f['line']} 行目)"
    else:
        where_en = where_ja = ""
    also = [n for n in (f["also"] or []) if isinstance(n, str)]
    also_en = f" ({', '.join(also)} change{'s' if len(also) == 1 else ''} with it)" if also else ""
    also_ja = f"({'、'.join(also)} も一緒に変わります)" if also else ""
    quoted = (
        f"Loop-carried variable {name} has initial type {f['before'] or '…'} but is re-assigned to "
        f"{f['after'] or '…'} in loop!"
    )
    tl_after = _TL_DTYPES.get(f["after_dtype"], f["after_dtype"])
    tl_before = _TL_DTYPES.get(f["before_dtype"], f["before_dtype"])
    if not before and after:  # a scalar became a block: a reduction is missing, or the start is a scalar
        full = f"tl.full({_dims(after)}, …, tl.{tl_after})"
        fix = Said(
            f"if one value is meant (a row's max or sum), reduce the block to one before it meets {name} "
            f"(tl.max(x, axis=0), tl.sum(x, axis=0)); if a value per lane is meant, start {name} as a block: "
            f"{name} = {full}",
            f"1 つの値(行の最大値や合計)が欲しいなら、{name} と組み合わせる前にブロックを 1 つの値に縮約して"
            f"ください(tl.max(x, axis=0)、tl.sum(x, axis=0))。レーンごとの値が欲しいなら、{name} を最初から"
            f"ブロックとして作ってください: {name} = {full}",
        )
    elif before and not after:
        fix = Said(
            f"keep {name} a {_dims(before)} block in the loop (or start it as a scalar)",
            f"ループの中でも {name} を {_dims(before)} のブロックのままにしてください(またはスカラーから始めます)",
        )
    elif list(before or []) != list(after or []):
        fix = Said(
            f"keep {name}'s shape: the value assigned in the loop must be {_dims(before)} too (a reduction, a "
            "reshape or a broadcast changed it)",
            f"{name} の形を保ってください。ループの中で代入する値も {_dims(before)} でなければなりません"
            "(縮約、reshape、ブロードキャストのどれかで形が変わっています)",
        )
    else:  # the element type changed
        fix = Said(
            f"give both the same type: start {name} as {f['after_dtype']} (.to(tl.{tl_after}) before the "
            f"loop, or tl.zeros(..., tl.{tl_after})), or cast the new value back with .to(tl.{tl_before})",
            f"両方を同じ型にしてください。{name} を {f['after_dtype']} で始めるか(ループの前で "
            f".to(tl.{tl_after})、または tl.zeros(..., tl.{tl_after}))、新しい値を .to(tl.{tl_before}) で"
            "元の型に戻します",
        )
    return Said(
        f"{name} enters the loop{loop_en} as {was.en} and leaves a trip as {now.en}{where_en}{also_en}: a value "
        f"carried from one trip to the next must keep its type, and a GPU compile stops (“{quoted}”). The "
        f"interpreter would run it as Python; {fix.en}",
        f"{name} はループ{loop_ja}に{was.ja}として入りますが、1 周すると{now.ja}になります{where_ja}"
        f"{also_ja}。次の周へ受け継ぐ値は型を変えられず、GPU ではコンパイルが止まります(“{quoted}”)。"
        f"インタプリタでは Python として動いてしまいます。{fix.ja}",
    )


def _global_not_constexpr(f: Facts) -> Said:
    """A kernel read a module global that Triton's code generator refuses (the interpreter's stand-in says it
    before a GPU would)."""
    name = f["name"]
    at_en = f"line {f['line']} uses" if f["line"] else "the kernel uses"
    at_ja = f"{f['line']} 行目: " if f["line"] else ""
    why_en = (
        "a GPU compile refuses it (“Cannot access global variable … from within @jit'ed function”): a kernel may "
        "read only globals that are tl.constexpr, modules, @triton.jit functions and Triton's own names"
    )
    why_ja = (
        "GPU ではコンパイルできません(“Cannot access global variable … from within @jit'ed function”)。"
        "カーネルが読めるグローバルは tl.constexpr、モジュール、@triton.jit の関数、Triton 自身の名前だけです"
    )
    if f["plain_function"]:
        return Said(
            f"{at_en} {name}, a plain Python function, inside the kernel: a GPU compile refuses it (“Unsupported "
            "function referenced”) — a kernel calls only @triton.jit functions and Triton's own. The interpreter "
            f"would run it as Python; decorate {name} with @triton.jit to make it a device function",
            f"{at_ja}カーネルの中から普通の Python 関数 {name} を使っています。GPU ではコンパイルできません"
            "(“Unsupported function referenced”)。カーネルから呼べるのは @triton.jit の関数と Triton 自身の関数"
            f"だけです。インタプリタでは Python として動いてしまいます。{name} に @triton.jit を付けてデバイス関数"
            "にしてください",
        )
    if f["value"] is not None and f["annotated"]:
        value = f["value"]
        return Said(
            f"{at_en} the global {name}: tl.constexpr = {value} inside the kernel: the annotation does not make "
            f"it a constexpr — {name} is still a plain {f['value_type'] or 'value'}, and {why_en}. Write "
            f"{name} = tl.constexpr({value})",
            f"{at_ja}カーネルの中からグローバル変数 {name}: tl.constexpr = {value} を使っています。型注釈を付けても"
            f" constexpr にはならず、{name} は普通の {f['value_type'] or '値'} のままです。{why_ja}。"
            f"{name} = tl.constexpr({value}) と書いてください",
        )
    if f["value"] is not None:
        value = f["value"]
        return Said(
            f"{at_en} the global {name} = {value} inside the kernel: {why_en}. Write {name} = tl.constexpr({value}) "
            f"at module level, or pass it to the kernel as an argument ({name}: tl.constexpr for a compile-time "
            "constant)",
            f"{at_ja}カーネルの中からグローバル変数 {name} = {value} を使っています。{why_ja}。モジュールの先頭で "
            f"{name} = tl.constexpr({value}) と書くか、カーネルの引数として渡してください(コンパイル時の定数なら "
            f"{name}: tl.constexpr)",
        )
    kind = f" (a {f['value_type']})" if f["value_type"] else ""
    kind_ja = f"({f['value_type']})" if f["value_type"] else ""
    return Said(
        f"{at_en} the global {name}{kind} inside the kernel: {why_en}. Pass what the kernel needs as an argument",
        f"{at_ja}カーネルの中からグローバル変数 {name}{kind_ja} を使っています。{why_ja}。カーネルに必要な"
        "ものは引数として渡してください",
    )


@says(Kind.COMPILE)
def _compile(f: Facts) -> Said:
    if f["cause"] == "shape-mismatch" and f["value_shape"] is not None:
        value, pointer = (
            f"[{', '.join(str(d) for d in dims)}]" for dims in (f["value_shape"], f["pointer_shape"])
        )
        flipped = list(f["value_shape"]) == list(f["pointer_shape"])[::-1] and len(f["value_shape"]) == 2
        if f["grown"]:
            fix = (
                Said(
                    f" — a per-row vector (length {f['pointer_shape'][0]}) was broadcast as a row ([None, :]) "
                    "against the [rows, columns] tile"
                    + (f" (line {f['line']}: {f['vector']})" if f["vector"] else "")
                    + ": broadcast per-row values as a column, v[:, None]",
                    f"。行ごとのベクトル(長さ {f['pointer_shape'][0]})が [rows, columns] のタイルに対して行として"
                    "([None, :])ブロードキャストされています"
                    + (f"({f['line']} 行目: {f['vector']})" if f["vector"] else "")
                    + "。行ごとの値は列として v[:, None] でブロードキャストしてください",
                )
                if f["row_as_row"]
                else Said(
                    " — build the value (and the mask) with the pointers' shape",
                    "。値(とマスク)をポインタと同じ形で作ってください",
                )
            )
            return Said(
                f"the stored value broadcasts the {pointer} pointers up to {value}: a store cannot widen its "
                f"pointers{fix.en}",
                f"ストアする値がポインタ {pointer} を {value} に広げています。ストアはポインタを広げられません"
                f"{fix.ja}",
            )
        if f["operand"] == "mask":  # the store's boolean operand is the mask, not the value
            fix = (
                Said(
                    " — build the mask in the pointers' order (swap [:, None] and [None, :] in it)",
                    "。マスクをポインタと同じ並びで作ってください(マスクの中の [:, None] と [None, :] を入れ替えます)",
                )
                if flipped
                else Said(
                    " — build the mask with the pointers' shape",
                    "。マスクをポインタと同じ形状で作ってください",
                )
            )
            load = f["access"] == "load"  # older results carry no access: a store
            return Said(
                f"a {value} mask for {pointer} pointers in a {'load' if load else 'store'}: the shapes must "
                f"match{fix.en}",
                f"{'ロード' if load else 'ストア'}のマスクの形状は {value} ですが、ポインタは {pointer} です。"
                f"形状が一致している必要があります{fix.ja}",
            )
        fix = (
            Said(" — transpose the value with tl.trans(...)", "。値を tl.trans(...) で転置してください")
            if flipped
            else Said(
                " — build the pointer block in the value's shape",
                "。ポインタのブロックを値と同じ形で作ってください",
            )
        )
        if flipped and f["transposed"]:  # the value already is a transpose, and so are the pointers
            done = _code(f["transposed"])
            fix = Said(
                f" — the value already is {done} and the pointers are built transposed too: drop the tl.trans, "
                f"or build the pointers as {value} (swap [:, None] and [None, :] in them) — one or the other, "
                "not both",
                f"。値はすでに {done} で転置されていて、ポインタも転置した並びで作られています。tl.trans を外すか、"
                f"ポインタを {value} の形で作ってください(ポインタの [:, None] と [None, :] を入れ替えます)。"
                "転置はどちらか一方だけにします",
            )
        return Said(
            f"a {value} value stored through {pointer} pointers: the shapes must match{fix.en}",
            f"{value} の値を {pointer} のポインタでストアしています。形が一致している必要があります{fix.ja}",
        )
    if f["cause"] == "shape-mismatch" and f["shapes"] is not None:
        a, b = (shape(x) for x in f["shapes"])
        return Said(
            f"blocks of shapes {a} and {b} cannot be combined: each axis must match or be 1 (broadcast)",
            f"形 {a} と {b} のブロックは組み合わせられません。各軸が一致するか 1(ブロードキャスト)"
            "である必要があります",
        )
    if f["cause"] == "global-not-constexpr" and f["name"]:
        return _global_not_constexpr(f)
    if f["cause"] == "unsupported-construct" and f["construct"]:
        return _unsupported_construct(f)
    if f["cause"] == "loop-carried-type" and f["name"]:
        return _loop_carried_type(f)
    if f["cause"] == "static-range-runtime" and f["name"]:
        name = f["name"]
        return Said(
            f"tl.static_range unrolls the loop at compile time, so its bounds must be tl.constexpr, but {name} "
            f"is a runtime argument — use range({name}) (or tl.range), or make {name} a tl.constexpr. The "
            "interpreter would run it; a GPU refuses to compile it",
            f"tl.static_range はコンパイル時にループを展開するので、範囲は tl.constexpr でなければなりませんが、"
            f"{name} は実行時の引数です。range({name})(または tl.range)を使うか、{name} を tl.constexpr に"
            "してください。インタプリタでは動いてしまいますが、GPU ではコンパイルできません",
        )
    if f["cause"] == "descriptor-block-shape" and f["descriptor"]:
        name, tile, block = f["descriptor"], f["tile"], f["block"]
        if f["descriptor_line"]:
            made_en = f"block_shape {f['block_shape']} (line {f['descriptor_line']}), that is {block}"
            made_ja = f"block_shape {f['block_shape']}({f['descriptor_line']} 行目)、つまり {block}"
        else:
            made_en, made_ja = f"block shape {block}", f"ブロック形状 {block}"
        return Said(
            f"the tile stored through {name} has shape {tile}, but {name} was made with {made_en}: a tensor "
            "descriptor loads and stores tiles of its own block shape — make its block_shape the stored tile's "
            "(for C, [BLOCK_M, BLOCK_N])",
            f"{name} を通してストアするタイルの形は {tile} ですが、{name} は {made_ja} で作られています。"
            "テンソルディスクリプタが読み書きするのは自分のブロック形状のタイルだけです。block_shape をストアする"
            "タイルの形(C なら [BLOCK_M, BLOCK_N])にしてください",
        )
    if f["cause"] == "config-not-pow2" and isinstance(f["config"], dict) and isinstance(f["odd"], dict):
        shown = "{" + ", ".join(f"{name}={value}" for name, value in f["config"].items()) + "}"
        sizes = ", ".join(f"{name} = {value}" for name, value in f["odd"].items())
        at_en = f" (line {f['config_line']})" if f["config_line"] else ""
        at_ja = f"({f['config_line']} 行目)" if f["config_line"] else ""
        where = f["kernel_line"]
        return Said(
            f"the autotune config {shown}{at_en} has {sizes}, not a power of two, and Triton's block sizes must "
            f"be powers of two"
            + (f" (the kernel's line {where} failed on it)" if where else "")
            + " — a GPU's "
            "autotuner compiles every config and this one fails the launch: use a power of two (64 or 128) or "
            "drop the config",
            f"オートチューンの config {shown}{at_ja}は {sizes} で、2 のべき乗ではありません。Triton のブロック"
            "サイズは 2 のべき乗でなければなりません"
            + (f"(カーネルの {where} 行目がこれで失敗しました)" if where else "")
            + "。GPU のオートチューナーはすべての config をコンパイルするので、この config で起動が失敗します。"
            "2 のべき乗(64 や 128)にするか、config を削除してください",
        )
    if f["cause"] == "dot-too-small" and f["k"] and isinstance(f["config"], dict) and f["config"]:
        k = f["k"]
        shown = "{" + ", ".join(f"{name}={value}" for name, value in f["config"].items()) + "}"
        return Said(
            f"the autotune config {shown} gives tl.dot a K dimension below {k}, the least an NVIDIA GPU "
            "compiles for these operands: a GPU's autotuner compiles every config, and this one fails the "
            f"launch — raise that config's K block to at least {k} (or drop the config)",
            f"オートチューンの config {shown} では tl.dot の K 次元が {k} 未満になります。NVIDIA の GPU "
            "はこのオペランドでそれより小さい tl.dot をコンパイルしません。GPU のオートチューナーはすべての "
            f"config をコンパイルするので、この config で起動が失敗します。その config の K ブロックを {k} 以上に"
            "してください(または config を削除してください)",
        )
    if f["cause"] == "dot-too-small" and f["k"]:
        k = f["k"]
        return Said(
            f"tl.dot needs a K dimension of at least {k} for these operands on an NVIDIA GPU (the GPU compiler "
            "refuses smaller; the lab applies its rule here too) — a block sized from the input "
            f"(next_power_of_2 of a short length) can fall below it: make that block at least {k} "
            f"(max({k}, triton.next_power_of_2(n))) and mask the extra lanes",
            f"NVIDIA の GPU では、このオペランドの tl.dot は K 次元が {k} 以上必要です(GPU のコンパイラは"
            "それより小さいものを拒否します。ラボはこの規則をここでも適用しています)。入力から決めたブロック"
            f"(短い長さの next_power_of_2)はこれを下回ることがあります。そのブロックを {k} 以上"
            f"(max({k}, triton.next_power_of_2(n)))にし、増えたレーンはマスクしてください",
        )
    if f["cause"] == "no-sass":
        return _no_sass(f)
    if f["cause"] == "stage-missing" and f["stage"]:
        stage, triton = f["stage"], f["triton"]
        return Said(
            f"this Triton{f' ({triton})' if triton else ''} does not keep the {stage} stage",
            f"この Triton{f'({triton})' if triton else ''}は {stage} ステージの出力を残しません",
        )
    q = verbatim(f["exception"] or f["message"])
    said = Said(f"Triton could not compile the kernel: {q}", f"Triton がカーネルをコンパイルできません: {q}")
    if f["block_name"] and f["block_value"]:
        name, value = f["block_name"], f["block_value"]
        said = said + Said(
            f" — {name} was {value} at this launch: the wrapper passed a size that is not a power of 2 (use "
            "triton.next_power_of_2, or a fixed block and a mask)",
            f"。この起動では {name} が {value} でした。ラッパーが 2 のべき乗でない大きさを渡しています"
            "(triton.next_power_of_2 を使うか、固定のブロックとマスクにしてください)",
        )
    return said


def _no_sass(f: Facts) -> Said:
    """`ir --stage sass` without SASS: the cubin is missing, or no tool (cuobjdump, nvdisasm) could read it."""
    head = Said("cannot show SASS: ", "SASS を表示できません: ")
    tools = [str(t) for t in f["tools"] or []] if isinstance(f["tools"], list) else []
    if f["reason"] == "no-cubin":
        return head + Said("this Triton produced no cubin", "この Triton は cubin を出力しませんでした")
    if f["reason"] == "tool-failed" and tools:
        return head + Said(
            f"{' and '.join(tools)} could not disassemble the cubin",
            f"{' と '.join(tools)} では cubin を逆アセンブルできませんでした",
        )
    return head + Said(
        "no cuobjdump or nvdisasm found (Triton ships them in triton/backends/nvidia/bin/)",
        "cuobjdump も nvdisasm も見つかりません(Triton は triton/backends/nvidia/bin/ に同梱しています)",
    )


def _out_of_resources(f: Facts, q: str) -> Said:
    """Triton's OutOfResources: the compiled kernel asks more of a per-program resource than the GPU has."""
    need, limit, resource = f["required"], f["limit"], f["resource"]
    if not isinstance(need, int) or not isinstance(limit, int):
        return Said(f"the GPU cannot run this launch: {q}", f"この GPU ではこの起動を実行できません: {q}")
    if resource == "shared memory":
        return Said(
            f"the kernel needs {need:,} bytes of shared memory per program and this GPU gives {limit:,}. Every "
            "pipeline stage (num_stages) holds one tile of each operand the loop loads: use fewer stages or "
            "smaller tiles",
            f"カーネルは 1 プログラムあたり {need:,} バイトの共有メモリを必要としますが、この GPU では {limit:,} "
            "バイトまでです。パイプラインの 1 段(num_stages)ごとに、ループが読み込む各オペランドのタイルを 1 枚ずつ"
            "持ちます。段数を減らすか、タイルを小さくしてください",
        )
    if resource == "threads":
        return Said(
            f"the launch asks for {need:,} threads per program (num_warps × 32) and this GPU allows {limit:,}: "
            "use fewer warps",
            f"この起動は 1 プログラムに {need:,} スレッド(num_warps × 32)を求めていますが、この GPU では {limit:,} "
            "までです。ワープ数を減らしてください",
        )
    return Said(
        f"the kernel needs {need:,} of {resource} per program and this GPU gives {limit:,}: {q}",
        f"カーネルは 1 プログラムあたり {resource} を {need:,} 必要としますが、この GPU では {limit:,} までです: {q}",
    )


def _waits_forever(f: Facts) -> Said:
    """A spin-wait the interpreter caught: one program repeating an atomic, or a volatile load, that nothing can
    change."""
    program = _program(f) if f["program_id"] else "?"
    times = number(f["times"]) if f["times"] else "many"
    if f.get("op") == "load":
        what, what_ja = "this volatile load", "この volatile ロード"
    else:
        what, what_ja = "this atomic", "このアトミック操作"
    if f["order"] == "reversed":
        why = (
            "This case ran its programs in reverse order (the interpreter's check that a result does not depend "
            "on the order programs run in), so it started before the programs it waits for."
        )
        why_ja = (
            "このケースは、結果がプログラムの実行順序に依存しないかを確かめるためにプログラムを逆順に実行したので、"
            "待っている相手より先に開始しました。"
        )
    else:
        why = "It waits for a program that runs after it, or never."
        why_ja = "後に実行されるプログラム、あるいは実行されないプログラムを待っています。"
    return Said(
        f"program {program} repeated {what} {times} times and nothing it reads changed: it waits for "
        f"other programs, and the interpreter runs one program at a time, so none of them can run while it "
        f"waits. {why} On a GPU programs start in no promised order and a waiting program keeps its place on an "
        "SM: when waiting programs fill the SMs, the programs they wait for never start (a deadlock). Give "
        "programs their roles in the order they start (a ticket from tl.atomic_add on a counter), not by "
        "program_id, so that a program only ever waits for programs that are already running",
        f"プログラム {program} が{what_ja}を {times} 回繰り返しましたが、読んでいる値は変わり"
        "ませんでした。ほかのプログラムを待っていますが、インタプリタはプログラムを 1 つずつ実行するので、待って"
        f"いる間はどのプログラムも動けません。{why_ja}GPU でもプログラムの開始順は約束されておらず、待っている"
        "プログラムは SM 上の枠を占めたままです。待つプログラムが SM を埋めると、待たれている側は永遠に開始"
        "できません(デッドロック)。役割は program_id ではなく開始した順(カウンタへの tl.atomic_add で取る"
        "整理券)で決め、プログラムがすでに実行中のプログラムだけを待つようにしてください",
    )


def _out_of_memory(f: Facts) -> Said:
    """A verify the GPU had no memory for: whose request it was, the numbers torch gave, and what to do."""
    asked, free, total, others = f["requested"], f["free"], f["total"], f["others"]
    numbers_en = (
        f"{nbytes(asked)} asked for, {nbytes(free)} of {nbytes(total)} free" if asked and total else ""
    )
    numbers_ja = (
        f"{nbytes(asked)} を確保しようとし、空きは {nbytes(total)} 中 {nbytes(free)}"
        if asked and total
        else ""
    )
    if others:
        numbers_en += f"; other processes hold {nbytes(others)}"
        numbers_ja += f"。ほかのプロセスが {nbytes(others)} を使用中"
    paren_en = f" ({numbers_en})" if numbers_en else ""
    paren_ja = f"({numbers_ja})" if numbers_ja else ""
    if f["by"] == "learner" and asked and total and asked > total:
        return Said(
            f"your call asked the GPU for {nbytes(asked)}, more than the whole GPU has ({nbytes(total)}): check the "
            "sizes of the tensors your wrapper allocates (an output the size of the input, not its square)",
            f"あなたの呼び出しが GPU に {nbytes(asked)} を要求しましたが、GPU 全体の容量({nbytes(total)})を"
            "超えています。ラッパーで確保するテンソルの大きさを確認してください(出力は入力の 2 乗ではなく入力と"
            "同じ大きさのはずです)",
        )
    busy_en = (
        "other programs on this GPU hold its memory (nvidia-smi lists them)"
        if others and total and others > total // 4
        else "if other programs use this GPU (nvidia-smi lists them), they may hold its memory"
    )
    busy_ja = (
        "この GPU のメモリはほかのプログラムが使っています(nvidia-smi で確認できます)"
        if others and total and others > total // 4
        else "ほかのプログラムがこの GPU を使っていれば、そのメモリを占めているかもしれません"
        "(nvidia-smi で確認できます)"
    )
    if f["by"] == "lab":
        return Said(
            f"the GPU ran out of memory in the lab's own check{paren_en}: this is no verdict on your kernel — "
            f"{busy_en}; free it and verify again",
            f"ラボ自身の検査中に GPU メモリが足りなくなりました{paren_ja}。カーネルの判定ではありません。"
            f"{busy_ja}。メモリを空けてからもう一度検証してください",
        )
    return Said(
        f"the GPU ran out of memory in your call{paren_en}: {busy_en}; free it and verify again — if it "
        "happens on an idle GPU, check the sizes of the tensors your wrapper allocates",
        f"あなたの呼び出しの中で GPU メモリが足りなくなりました{paren_ja}。{busy_ja}。メモリを空けてから"
        "もう一度検証してください。GPU が空いていても起きる場合は、ラッパーで確保するテンソルの大きさを確認"
        "してください",
    )


@says(Kind.RUNTIME)
def _runtime(f: Facts) -> Said:
    q = verbatim(f["exception"] or f["message"])
    if f["cause"] == "internal":
        return Said(f"an internal error in the lab: {q}", f"ラボの内部エラーです: {q}")
    if f["cause"] == "no-entry" and f["entry"]:
        entry = f["entry"]
        return Said(
            f"your file defines no function {entry}(): the lab calls {entry}(...) with torch tensors and "
            "compares what it returns",
            f"ファイルに関数 {entry}() が定義されていません。ラボは torch のテンソルを渡して {entry}(...) を"
            "呼び出し、その戻り値を比べます",
        )
    if f["cause"] == "out-of-memory" and f["by"]:  # verify: the GPU was full
        return _out_of_memory(f)
    if f["cause"] == "out-of-memory":  # bench: one size's row (its label heads the sentence)
        if f["inputs"]:
            return Said(
                "out of GPU memory for the inputs at this size",
                "このサイズでは入力を置くだけの GPU メモリがありません",
            )
        return Said("out of GPU memory at this size", "このサイズでは GPU メモリが足りません")
    if f["cause"] == "no-launch" and f["entry"]:
        entry = f["entry"]
        return Said(
            f"{entry}() launched no Triton kernel, so there is nothing to compile: launch your @triton.jit "
            "kernel with kernel[grid](...)",
            f"{entry}() が Triton のカーネルを 1 つも起動しなかったので、コンパイルするものがありません。"
            "@triton.jit のカーネルを kernel[grid](...) で起動してください",
        )
    if f["cause"] == "grid-not-tuple":
        return Said(
            "the grid must be a tuple (or a function returning one), not a number: "
            "kernel[(triton.cdiv(n, BLOCK_SIZE),)](...) — note the comma",
            "グリッドは数ではなくタプル(またはタプルを返す関数)でなければなりません: "
            "kernel[(triton.cdiv(n, BLOCK_SIZE),)](...)(カンマに注意)",
        )
    if f["cause"] == "rejected-valid":
        line = f["line"]
        cuda = bool(f["cuda"])
        return Said(
            f"your own check raised on a valid case: {q}. This case's input is valid (the inputs to refuse are "
            f"the 'rejects' cases) — check the condition above line {line}"
            + (", and compare the inputs' devices with each other, not with 'cuda'" if cuda else ""),
            f"有効な入力のケースで、あなたのチェックが例外を送出しました: {q}。このケースの入力は有効です"
            f"(拒否すべき入力は「拒否: …」のケースだけです)。{line} 行目の上の条件を確認してください"
            + ("。デバイスは 'cuda' とではなく、入力どうしで比べてください" if cuda else ""),
        )
    if f["cause"] == "backward-arity" and f["name"]:
        name, line, takes, given = f["name"], f["def_line"], f["takes"], f["given"]
        return Said(
            f"{name}() (line {line}) takes {_n(takes, 'en', 'gradient', 'gradients', '')}, but torch passes "
            f"{given}: a registered backward gets one gradient per output of the forward operator (y and rstd "
            "give dy and a second one) — add a parameter for each (one you do not use can be ignored)",
            f"{name}()({line} 行目)が受け取る勾配は {number(takes)} 個ですが、torch は {number(given)} 個渡します。"
            "登録した backward には順伝播の演算子の出力ごとに 1 つの勾配が渡されます(y と rstd なら dy ともう"
            "1 つ)。出力の数だけ引数を用意してください(使わないものは無視してかまいません)",
        )
    if f["cause"] == "heuristics-order" and f["name"]:
        name, line = f["name"], f["heuristics_line"]
        at_en = f" (line {line})" if line else ""
        at_ja = f"({line} 行目)" if line else ""
        return Said(
            f"@triton.heuristics{at_en} sits above @triton.autotune, so it runs first, on the launch's own "
            f"arguments, before the autotuner has chosen a config: {name} does not exist yet — put "
            "@triton.heuristics below @triton.autotune (between it and @triton.jit)",
            f"@triton.heuristics{at_ja}が @triton.autotune より上にあるため、autotuner が config を選ぶ前に、"
            f"起動時の引数だけで先に実行されます。その時点で {name} はまだありません。@triton.heuristics を "
            "@triton.autotune の下(@triton.jit との間)に置いてください",
        )
    if f["cause"] == "autotune-conflict" and f["names"]:
        names = ", ".join(str(n) for n in f["names"])
        return Said(
            f"the autotuner supplies {names} from the config it picks, and the launch passes {names} too — "
            "remove them from the launch (they belong in the triton.Config entries)",
            f"{names} は autotuner が選んだ config から渡されるのに、起動でも {names} を渡しています。"
            "起動からは外してください(triton.Config の側に書くものです)",
        )
    if f["cause"] == "config-missing-param" and f["names"]:
        names = " or ".join(str(n) for n in f["names"])
        return Said(
            f"the autotuner's config in use sets no {names}, which the kernel needs: every triton.Config must "
            "set all of the kernel's tile parameters (not the launch: the config supplies them)",
            f"使われた autotuner の config が、カーネルに必要な {names} を設定していません。"
            "どの triton.Config もカーネルのタイル引数をすべて設定してください(起動ではなく config が渡すものです)",
        )
    if f["cause"] == "out-of-resources":
        return _out_of_resources(f, q)
    if f["cause"] == "waits-forever":
        return _waits_forever(f)
    if f["cause"] == "mask-not-lanes":
        return Said(
            "the mask is not a block of booleans, one per lane: a comparison of scalars (one value for the "
            "whole program, like (pid + 1) * BLOCK_SIZE <= n_elements) or a block of integers — build it "
            "from the offsets, mask = offsets < n_elements, so the valid lanes of the last, partial block "
            "still load and store",
            "マスクがレーンごとの真偽値のブロックになっていません。スカラー同士の比較(program 全体で 1 つの値。"
            "例: (pid + 1) * BLOCK_SIZE <= n_elements)か、整数のブロックです。オフセットから "
            "mask = offsets < n_elements として作れば、最後の端数ブロックでも範囲内のレーンはロード・ストア"
            "されます",
        )
    if f["cause"] == "grid-float":
        return Said(
            "the grid holds a float — the number of programs must be a whole number: n / BLOCK_SIZE is true "
            "division, use triton.cdiv(n, BLOCK_SIZE)",
            "グリッドに float が入っています。program の数は整数でなければなりません。n / BLOCK_SIZE は"
            "小数を返す割り算なので、triton.cdiv(n, BLOCK_SIZE) を使ってください",
        )
    if f["cause"] == "perf-model":
        name, at = f["model"] or "perf_model", f["model_line"]
        error = verbatim(f["error"] or "an error")
        where_en = f" ({name}, line {at})" if at else ""
        where_ja = f"({name}、{at} 行目)" if at else ""
        return Said(
            f"your perf_model{where_en} raised when the autotuner called it ({error}): the autotuner calls it "
            "once per config with keywords only — perf_model(**the kernel's arguments, **the config's "
            "meta-parameters) — and ranks configs by the number it returns; take those names as parameters "
            "(or **kwargs)",
            f"perf_model{where_ja}が autotuner からの呼び出しで例外を出しました({error})。autotuner は "
            "config ごとにキーワード引数だけで呼び出し(perf_model(**カーネルの引数, **config のメタパラメータ))、"
            "返された数で config を順位付けします。それらの名前を引数(または **kwargs)で受け取ってください",
        )
    if f["cause"] == "prune-empty":
        sizes = f["sizes"] if isinstance(f["sizes"], Mapping) else {}
        shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
        name, at = f["prune"] or "early_config_prune", f["prune_line"]
        where_en = f" ({name}, line {at})" if at else f" ({name})"
        where_ja = f"({name}、{at} 行目)" if at else f"({name})"
        count = f["configs"]
        of_en = f"none of the {count} GPU configs" if count else "none of the GPU configs"
        of_ja = f"GPU 用の {count} 個の config をすべて" if count else "GPU 用の config をすべて"
        return Said(
            f"your early_config_prune{where_en} kept {of_en}"
            + (f" for {shown}" if shown else "")
            + ": on a GPU the autotuner stops there («No valid autotuner configs after pruning») — always keep "
            "at least one config (fall back to the smallest tile)",
            f"early_config_prune{where_ja}が"
            + (f" {shown} で" if shown else "")
            + f"{of_ja}除外しました。GPU では autotuner がここで止まります"
            "(«No valid autotuner configs after pruning»)。少なくとも 1 つは残してください(最小のタイルに戻すなど)",
        )
    if f["cause"] == "grad-count":
        inputs, returned = f["inputs"], f["returned"]
        return Said(
            f"your backward returned {_n(returned, 'en', 'gradient', 'gradients', '')} for an operator with "
            f"{number(inputs)} inputs — return one per input, in order (None for a non-tensor input such as "
            "eps)",
            f"backward が返した勾配は {number(returned)} 個ですが、演算子の入力は {number(inputs)} 個です。"
            "入力ごとに 1 つずつ、順番どおりに返してください(eps のようなテンソルでない入力には None)",
        )
    if f["cause"] == "op-not-functional":
        return _op_not_functional(f)
    if f["cause"] == "descriptor-base":
        name = verbatim(f["base"]) if f["base"] else "this tensor"
        name_ja = verbatim(f["base"]) if f["base"] else "このテンソル"
        return Said(
            f"a tensor descriptor's base must be 16-byte aligned, and {name} starts elsewhere — a view that "
            "begins a few elements into its buffer (x[3:], a slice) is valid input: check data_ptr() % 16 in "
            "the wrapper and load such a tensor with pointers (or a contiguous copy) instead of a descriptor",
            f"テンソルディスクリプタのベースは 16 バイト境界に揃っている必要がありますが、{name_ja} の先頭は"
            "揃っていません。バッファの途中から始まるビュー(x[3:] やスライス)も正しい入力です。ラッパーで "
            "data_ptr() % 16 を確かめ、そのようなテンソルはディスクリプタではなくポインタ(または連続な"
            "コピー)で読んでください",
        )
    if f["cause"] == "descriptor-offset":
        call = verbatim(f["call"]) if f["call"] else "the descriptor call"
        return Said(
            f"the descriptor's coordinates in {call} are not 16-byte aligned — a descriptor's load and store "
            "take the element offsets of the block's corner (e.g. [pid_m * BLOCK_M, k]), not tile numbers",
            f"{call} のディスクリプタの座標が 16 バイト境界に揃っていません。ディスクリプタの load と store には、"
            "タイルの番号ではなく、ブロックの角の要素オフセット(例: [pid_m * BLOCK_M, k])を渡します",
        )
    if f["cause"] == "str-argument":
        param = f["param"]
        if param:
            value = repr(f["value"]) if f["value"] is not None else "a str"
            return Said(
                f"the kernel parameter {param} is given the str {value} and is not a tl.constexpr — a GPU launch "
                f"refuses a str argument (the interpreter takes it): declare {param}: tl.constexpr",
                f"カーネルの引数 {param} に文字列 {value} が渡されていますが、{param} は tl.constexpr では"
                f"ありません。GPU での起動は文字列の引数を受け付けません(インタプリタは受け付けます)。"
                f"{param}: tl.constexpr と宣言してください",
            )
        return Said(
            "a kernel argument is a str and its parameter is not a tl.constexpr — a GPU launch refuses a str "
            "argument: declare that parameter tl.constexpr",
            "カーネルの引数に文字列が渡されていますが、その引数は tl.constexpr ではありません。GPU での起動は"
            "文字列の引数を受け付けません。その引数を tl.constexpr と宣言してください",
        )
    if f["cause"] == "needs-gpu":
        return Said(
            f"this code needs a GPU: {q}. It reads the GPU's properties (SM count, registers, shared memory) "
            "to size its launch; run it on a machine with a CUDA GPU (--backend gpu), or use fixed values "
            "while you learn on the interpreter",
            f"このコードには GPU が必要です: {q}。起動の大きさを決めるために GPU の性質(SM 数、レジスタ、"
            "共有メモリ)を読んでいます。CUDA GPU のあるマシンで実行するか(--backend gpu)、インタプリタで"
            "学ぶ間は固定値を使ってください",
        )
    if f["cause"] == "sandbox":
        return Said(
            f"your code raised an exception: {q}. Learner code runs in a sandbox that may not signal, trace or "
            "reach into processes it did not start (the lab, its judge) nor write the lab's data",
            f"コードが例外を送出しました: {q}。学習者のコードはサンドボックスで動き、自分が起動していない"
            "プロセス(ラボやその判定プロセス)へのシグナル送信・トレース・介入や、ラボのデータへの書き込みは"
            "できません",
        )
    return Said(f"your code raised an exception: {q}", f"コードが例外を送出しました: {q}")


def _op_not_functional(f: Facts) -> Said:
    """register_autograd refused an operator whose mutates_args names an input (torch: non-functional)."""
    op = verbatim(f["op"]) if f["op"] else "the operator"
    op_ja = verbatim(f["op"]) if f["op"] else "演算子"
    args = [str(a) for a in f["args"] or []] if isinstance(f["args"], list) else []
    names = ", ".join(args) or "an input"
    names_ja = ", ".join(args) or "入力"
    declared = f"mutates_args={f['declared']}" if f["declared"] else "mutates_args"
    at = f["mutates_line"]
    return Said(
        (f"line {at}: " if at else "")
        + f"{declared} declares that {op} writes {names} in place, so it is a non-functional operator, and torch "
        "attaches an autograd formula (register_autograd) only to a functional one — mutates_args lists only "
        f"the inputs the operator writes into: if it only reads {names}, declare mutates_args={{}}",
        (f"{at} 行目の " if at else "")
        + f"{declared} は、{op_ja} が {names_ja} をその場で書き換えると宣言しています。入力を書き換える"
        "(関数的でない)演算子には、torch は autograd の式(register_autograd)を登録できません。"
        f"mutates_args には演算子が書き込む入力だけを並べます。{names_ja} を読むだけなら "
        "mutates_args={} としてください",
    )


@says(Kind.TIMEOUT)
def _timeout(f: Facts) -> Said:
    s = number(f["timeout_s"]) if f["timeout_s"] is not None else None
    if f["stopped"] == "compiler":  # `ir`: the compiler's own time; the kernel never ran
        took = (
            Said(f"compiling the kernel took more than {s} s", f"カーネルのコンパイルが {s} 秒を超えた")
            if s
            else Said("compiling the kernel took too long", "カーネルのコンパイルに時間がかかりすぎた")
        )
        return Said(
            f"{took.en}, so the lab stopped the compiler. The kernel did not run (ir only compiles it): "
            "large tiles, many pipeline stages (num_stages) or a long tl.static_range loop, which is unrolled "
            "at compile time, make compiling slow",
            f"{took.ja}ため、コンパイラを停止しました。カーネルは実行していません(ir はコンパイルするだけです)。"
            "タイルが大きい、パイプラインの段数(num_stages)が多い、コンパイル時に展開される tl.static_range "
            "のループが長い、といった場合はコンパイルに時間がかかります",
        )
    within = (
        Said(f"no answer within {s} s", f"{s} 秒以内に応答がありません")
        if s
        else Said("no answer within the time limit", "制限時間内に応答がありません")
    )
    if f["stopped"] == "runner":  # the judge stopped the learner's runner; the worker itself stays up
        end = Said(
            "Your code was stopped; the next run starts it afresh.",
            "コードの実行を停止しました。次の実行は新しいプロセスで始まります。",
        )
    else:
        end = Said(
            "The worker was stopped and will restart.", "ワーカーを停止しました。次の実行で再起動します。"
        )
    return Said(
        f"{within.en}: the kernel may loop forever (check the loop bounds) or run far more "
        f"programs than you meant. {end.en}",
        f"{within.ja}。カーネルが無限ループしているか(ループの上限を確認)、意図よりずっと"
        f"多くのプログラムを起動している可能性があります。{end.ja}",
    )


_SIGNALS: dict[str, Said] = {
    "SIGSEGV": Said(
        "segmentation fault: the process touched memory it does not own",
        "セグメンテーション違反: プロセスが自分のものでないメモリに触れました",
    ),
    "SIGABRT": Said(
        "aborted: typically a corrupted heap after an out-of-bounds store",
        "異常終了: 多くは範囲外ストアでヒープが壊れたためです",
    ),
    "SIGKILL": Said(
        "killed: out of memory, or stopped after a timeout",
        "強制終了: メモリ不足、またはタイムアウト後の停止です",
    ),
    "SIGBUS": Said(
        "bus error: a misaligned or unmapped memory access",
        "バスエラー: 整列していないか未割り当てのメモリへのアクセス",
    ),
    "SIGFPE": Said("arithmetic exception", "算術例外"),
    "SIGILL": Said("illegal instruction", "不正な命令"),
}


def signal_text(name: str | None, lang: str) -> str:
    """'SIGSEGV (segmentation fault: …)' in `lang`; the bare name for a signal with no words."""
    if not name:
        return "?"
    said = _SIGNALS.get(name)
    return f"{name} ({said.in_(lang)})" if said else name


@says(Kind.CRASH)
def _crash(f: Facts) -> Said:
    if f["cause"] == "start":
        q = verbatim(f["exception"])
        return Said(
            f"the worker could not start {q}".rstrip(), f"ワーカーを起動できませんでした {q}".rstrip()
        )
    if f["cause"] == "replay":
        q = verbatim(f["exception"])
        return Said(
            f"the interpreter replay failed {q}".rstrip(),
            f"インタプリタでの再実行に失敗しました {q}".rstrip(),
        )
    if f["cause"] == "no-result":  # the runner ended cleanly without its answer; the worker is up
        op = f["op"] or "request"
        return Said(
            f"the process that runs your code ended without sending its {op} result, so there is nothing to "
            "show. Your code is kept; the next run starts a fresh process",
            f"コードを実行するプロセスが {op} の結果を送らずに終了したため、表示できるものがありません。"
            "コードはそのまま残っています。次の実行は新しいプロセスで始まります",
        )
    if f["cause"] == "compiler":  # `ir`'s compiler process, apart from the worker
        why = _how_it_ended(f)
        return Said(
            f"the compiler process failed and gave no answer{f': {why.en}' if why else ''}. It runs apart "
            "from the worker, which is unaffected; each ir compiles in a new one",
            f"コンパイラのプロセスが異常終了し、結果を返しませんでした{f': {why.ja}' if why else ''}。"
            "ワーカーとは別のプロセスなので、ワーカーには影響ありません。ir は毎回新しいプロセスでコンパイルします",
        )
    if f["cause"] == "runner":  # the process running the learner's code died; the worker judged and is up
        why = _how_it_ended(f) or Said("it vanished", "プロセスが消えました")
        pool = (
            Said(
                " (so did the pool that starts it, which restarts too)",
                "(起動元のプールも終了し、再起動します)",
            )
            if f["pool"]
            else Said("", "")
        )
        return Said(
            f"the process that ran your code died: {why.en}{pool.en}. The lab itself is unaffected; your code is "
            "kept and the next run starts a fresh process",
            f"コードを実行していたプロセスが終了しました: {why.ja}{pool.ja}。ラボ自体には影響ありません。"
            "コードはそのまま残っていて、次の実行は新しいプロセスで始まります",
        )
    why = _how_it_ended(f) or Said("?", "?")
    return Said(
        f"the worker process died: {why.en}. It restarts on the next request; your code is kept.",
        f"ワーカープロセスが終了しました: {why.ja}。次の実行で再起動します。コードはそのまま残っています。",
    )


def _how_it_ended(f: Facts) -> Said | None:
    """A dead process's end in words: its signal ('SIGSEGV (segmentation fault: …)') or its exit code."""
    if f["signal"]:
        return Said(signal_text(f["signal"], "en"), signal_text(f["signal"], "ja"))
    if f["exit_code"] is not None:
        return Said(f"exit code {f['exit_code']}", f"終了コード {f['exit_code']}")
    return None


@says(Kind.CUDA_FAULT)
def _cuda_fault(f: Facts) -> Said:
    q = verbatim(f["exception"])
    return Said(
        f"the GPU reported a memory fault {q}. On a GPU an out-of-bounds access poisons the CUDA context "
        "for good, so "
        "the worker is replaced. Check your masks and offsets; run the same case on the interpreter "
        "(--backend interpreter) to have the lab name the line.",
        f"GPU がメモリフォルトを報告しました {q}。GPU で範囲外アクセスが起きると CUDA コンテキストは"
        "使えなくなるため、"
        "ワーカーを入れ替えます。マスクとオフセットを確認してください。同じケースをインタプリタ"
        "(--backend interpreter)で実行すると、ラボが該当行を示します。",
    )


@says(Kind.CANCELLED)
def _cancelled(f: Facts) -> Said:
    return Said(
        "cancelled: the worker was stopped and will restart", "キャンセルしました。ワーカーは再起動します"
    )


@says(Kind.LOAD)
def _load(f: Facts) -> Said:
    q = verbatim(f["exception"] or f["message"])
    return Said(f"the exercise could not be loaded: {q}", f"演習を読み込めませんでした: {q}")


@says(Kind.USAGE)
def _usage(f: Facts) -> Said:
    worded = refusal(f)  # a refusal with a code (no [exercise.bench], a bad --arch): its own sentence
    if worded is not None:
        return worded
    q = verbatim(f["exception"] or f["message"])
    return Said(f"the request was not valid: {q}", f"リクエストが正しくありません: {q}")


@says(Kind.VERIFY)
def _verify(f: Facts) -> Said:
    head = Said(
        "not timed: your kernel does not pass verify yet",
        "計測していません。カーネルがまだ検証に合格していません",
    )
    diag = f["diagnosis"]
    if isinstance(diag, Mapping):
        case = f" ({f['case']})" if f["case"] else ""
        return head + Said(
            f" — first failure{case}: {describe(diag, 'en')}", f"。最初の失敗{case}: {describe(diag, 'ja')}"
        )
    return head


@says(Kind.OOB)
def _oob(f: Facts) -> Said:
    d = _Facts(f["detail"]) if isinstance(f["detail"], Mapping) else f
    if (
        f["side"] is not None or f["changed"] is not None
    ):  # a guard zone on the GPU: memory next to a tensor changed
        arg = f["arg"] or f["name"] or "?"
        side = Said("before", "前") if f["side"] == "before" else Said("after", "後ろ")
        guard = Said(
            f"out-of-bounds store: memory {side.en} the tensor {arg} was overwritten "
            f"({number(f['changed'])} elements)"
            " — a store without a correct mask",
            f"範囲外ストア: テンソル {arg} の{side.ja}のメモリが書き換えられました({number(f['changed'])} "
            "要素)。"
            "マスクが正しくないストアです",
        )
        if d is f:
            return guard
        # the interpreter's replay of the run named the access itself (its pointer, its mask)
        return guard + Said("; replayed on the interpreter: ", "。インタプリタで再実行すると: ") + _access(d)
    over = d["grid_over"]
    if isinstance(over, Mapping) and over.get("tiles"):  # an extra program, past the tiles, ran out of bounds
        found = _grid_over(over, d)
    else:
        found = (
            _access(d)
            if d is not f or f["access"] is not None
            else Said("an out-of-bounds access", "範囲外アクセスがあります")
        )
    if f["cause"] == "audit":
        return (
            Said(
                "every GPU case matched torch, but the interpreter's bounds checker found an out-of-bounds "
                "access: ",
                "GPU ではすべてのケースが torch と一致しましたが、インタプリタの境界チェックが範囲外"
                "アクセスを見つけました: ",
            )
            + found
        )
    if f["cause"] == "replay-case":
        return (
            Said(
                "the interpreter's bounds checker, replaying this case: ",
                "このケースをインタプリタの境界チェックで再実行した結果: ",
            )
            + found
        )
    return found


def _grid_over(over: Mapping, d: Facts) -> Said:
    """An out-of-bounds access in a program past the output's tiles: the grid launched too many programs."""
    programs, tiles, program = over["programs"], over["tiles"], over.get("program")
    bm, bn = (over.get("blocks") or [0, 0])[:2]
    rows, cols = (over.get("shape") or [0, 0])[:2]
    at, grid_at = over.get("access_line"), over.get("grid_line")
    arg = d["arg"] or "?"
    store = d["access"] == "store"
    where_en = f" (line {grid_at})" if grid_at else ""
    where_ja = f"({grid_at} 行目)" if grid_at else ""
    return Said(
        f"the grid launched {number(programs)} programs for {number(tiles)} tiles ({bm} x {bn} tiles of the "
        f"{rows} x {cols} output): programs {tiles}–{programs - 1} have no tile, and program {program} "
        f"{'stored to' if store else 'loaded from'} {arg} out of bounds at line {at} — launch one program per "
        f"tile of the launch's own config: triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N){where_en}",
        f"グリッドが {number(tiles)} タイル({rows} x {cols} の出力を {bm} x {bn} のタイルに分けた数)に対して "
        f"{number(programs)} 個のプログラムを起動しています。プログラム {tiles}–{programs - 1} には受け持つ"
        f"タイルがなく、そのうちプログラム {program} が {at} 行目で {arg} の範囲外を"
        f"{'ストア' if store else 'ロード'}しました。グリッド{where_ja}は起動時の config 自身のタイルで、"
        "triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N) 個のプログラムを起動してください",
    )


def _access(d: Facts) -> Said:
    """One out-of-bounds load/store, from memcheck's facts (access, arg, program, offsets, extent)."""
    access = d["access"] or "load"
    op = d["op"] or access
    arg = d["arg"]
    program = _program(d)
    lanes = d["lanes"] or 0
    sp = d["span"]
    verb = Said("load from", "ロード") if access == "load" else Said("store to", "ストア")
    if op not in ("load", "store"):
        verb = Said(f"{op.replace('_', ' ')} on", f"{op}")
    if arg is None:
        return Said(
            f"{verb.en} an address outside every tensor argument in program {program}: "
            f"{_n(lanes, 'en', 'lane', 'lanes', '')}"
            " — check the pointer arithmetic",
            f"プログラム {program} の{verb.ja}が、どのテンソル引数にも属さないアドレスを"
            f"指しています({lanes} レーン)。"
            "ポインタ演算を確認してください",
        )
    lanes_en = _n(lanes, "en", "lane", "lanes", "")
    if not sp:
        where_en, where_ja = (
            f"{lanes_en} outside every tensor argument",
            f"{lanes} レーンがどのテンソルにも属しません",
        )
    elif sp[0] == sp[1]:
        where_en, where_ja = f"element offset {sp[0]} ({lanes_en})", f"要素オフセット {sp[0]}({lanes} レーン)"
    else:
        where_en = f"{lanes_en} at element offsets {sp[0]}–{sp[1]}"
        where_ja = f"要素オフセット {sp[0]}–{sp[1]} を指す {lanes} レーン"
    reason = d["reason"]
    if reason == "gap":
        view_shape, view_strides = shape(d["shape"] or ()), shape(d["strides"] or ())
        passed = [
            f
            for f in d["foreign"] or []
            if isinstance(f, Mapping) and f.get("passed_line") and f.get("passed")
        ]
        if passed:  # the launch handed the kernel a step that is none of the tensor's strides
            en = "; ".join(
                f"line {f['passed_line']} passes {verbatim(f['passed'])} as {f.get('name')} ({f.get('value')}), "
                f"which is none of its strides {view_strides}"
                for f in passed
            )
            ja = "。".join(
                f"{f['passed_line']} 行目は {f.get('name')} に {verbatim(f['passed'])}({f.get('value')})を"
                f"渡していますが、これはストライド {view_strides} のどれでもありません"
                for f in passed
            )
            return Said(
                f"{verb.en} {arg} outside the view in program {program}: {where_en} fall between the elements "
                f"of a strided view (shape {view_shape}, strides {view_strides}) — {en}: pass the tensor's own "
                "strides (x.stride(0), x.stride(1))",
                f"プログラム {program} の {arg} への{verb.ja}がビューの外です: {where_ja}は、ストライド付き"
                f"ビュー(形状 {view_shape}、ストライド {view_strides})の要素と要素の間を指しています。{ja}。"
                "テンソル自身のストライド(x.stride(0)、x.stride(1))を渡してください",
            )
        return Said(
            f"{verb.en} {arg} outside the view in program {program}: {where_en} fall between the elements "
            f"of a strided view (shape {view_shape}, strides {view_strides}) — step through it with the "
            "tensor's strides",
            f"プログラム {program} の {arg} への{verb.ja}がビューの外です: {where_ja}は、ストライド付き"
            f"ビュー(形状 {view_shape}、ストライド {view_strides})のどの要素にも当たらず、要素と要素の間を"
            "指しています。テンソルのストライドを使って進めてください",
        )
    narrow = d["narrow_wrap"]
    if reason == "before_start" and isinstance(narrow, Mapping) and narrow.get("cast_line"):
        bits, at, cast = int(narrow.get("bits") or 16), narrow["cast_line"], verbatim(narrow.get("cast"))
        top = number(2 ** (bits - 1) - 1)
        return Said(
            f"{verb.en} {arg} out of bounds in program {program}: {where_en}, before the start of the tensor. "
            f"That is element {number(narrow['offset'])} minus 2**{bits}: the offsets were narrowed to "
            f"int{bits} at line {at} ({cast}) and wrapped past {top} to negative numbers — keep offsets in int32 "
            "(drop the cast)",
            f"プログラム {program} の {arg} への{verb.ja}が範囲外です: {where_ja} がテンソルの先頭より前です。"
            f"これは要素 {number(narrow['offset'])} から 2**{bits} を引いた位置です。{at} 行目({cast})で"
            f"オフセットを int{bits} に狭めたため、{top} を超えたところで負の数に折り返しています。オフセットは"
            " int32 のままにしてください(キャストを外してください)",
        )
    wrap = d["int32_wrap"]
    if reason == "before_start" and isinstance(wrap, Mapping):
        row_en = row_ja = ""
        if wrap.get("row") is not None:
            row_en = f" (row {wrap['row']}: rows are {number(wrap['row_stride'])} elements apart)"
            row_ja = f"(行 {wrap['row']}。行と行は {number(wrap['row_stride'])} 要素離れています)"
        if wrap.get("cast_line"):
            at, cast, product = wrap["cast_line"], verbatim(wrap.get("cast")), verbatim(wrap.get("product"))
            return Said(
                f"{verb.en} {arg} out of bounds in program {program}: {where_en}, before the start of the "
                f"tensor. That is element {number(wrap['offset'])}{row_en} minus 2**32: the .to(tl.int64) at "
                f"line {at} ({cast}) comes after the product — {product} was computed in int32 and had already "
                "wrapped to a negative number: cast before multiplying, e.g. `row.to(tl.int64) * stride`",
                f"プログラム {program} の {arg} への{verb.ja}が範囲外です: {where_ja} がテンソルの先頭より前です。"
                f"これは要素 {number(wrap['offset'])}{row_ja}から 2**32 を引いた位置です。{at} 行目の "
                f".to(tl.int64)({cast})は掛け算の後にあります。{product} は int32 で計算され、その時点で負の数に"
                "折り返しています。`row.to(tl.int64) * stride` のように、掛ける前に int64 にしてください",
            )
        return Said(
            f"{verb.en} {arg} out of bounds in program {program}: {where_en}, before the start of the tensor. "
            f"That is element {number(wrap['offset'])}{row_en} minus 2**32: the offset was computed in int32, "
            "passed 2**31 and wrapped to a negative number — compute it in int64, e.g. "
            "`row = tl.program_id(0).to(tl.int64)` before `row * stride` (a [16384, 131072] tensor already has "
            "2**31 elements)",
            f"プログラム {program} の {arg} への{verb.ja}が範囲外です: {where_ja} がテンソルの先頭より前です。"
            f"これは要素 {number(wrap['offset'])}{row_ja}から 2**32 を引いた位置です。オフセットを int32 で"
            "計算したため 2**31 を超えたところで負の数に折り返しています。`row = tl.program_id(0).to(tl.int64)` "
            "のように int64 にしてから `row * stride` を計算してください([16384, 131072] のテンソルで"
            "もう 2**31 要素になります)",
        )
    if reason == "before_start":
        return Said(
            f"{verb.en} {arg} out of bounds in program {program}: {where_en}, before the start of the "
            "tensor — check "
            "the offset arithmetic (negative offsets) or mask the access",
            f"プログラム {program} の {arg} への{verb.ja}が範囲外です: {where_ja} がテンソルの先頭より前で"
            "す。"
            "オフセットの計算(負のオフセット)を確認するか、アクセスをマスクしてください",
        )
    numel, extent = d["numel"], d["extent"]
    if numel is not None and extent is not None and numel != extent:
        size_en = (
            f"the view's {_n(numel, 'en', 'element lies', 'elements lie', '')} within {number(extent)} elements "
            "of its buffer"
        )
        size_ja = f"ビューの {number(numel)} 要素はバッファの {number(extent)} 要素の範囲にあります"
    else:
        size_en = f"the tensor has {_n(numel, 'en', 'element', 'elements', '')}"
        size_ja = f"テンソルの要素数は {number(numel)}"
    hint = _mask_hint(d)
    return Said(
        f"{verb.en} {arg} out of bounds in program {program}: {where_en}, {size_en} — {hint.en}",
        f"プログラム {program} の {arg} への{verb.ja}が範囲外です: {where_ja}、{size_ja}。{hint.ja}",
    )


def _promise_size(
    short: Mapping, name: Any, value: Any, line: Any, where_en: str, where_ja: str, arg: str
) -> Said:
    """A line under a flag launched True whose promise holds for the size passed (EVEN_K with K a multiple of
    BLOCK_K), over a tensor shorter than that size along the axis its mask leaves out."""
    size, total, block, step = short["size"], short.get("value"), short.get("block"), short.get("block_value")
    extent, axis, index = short.get("extent"), short.get("axis"), short.get("index")
    if short.get("passed_line") and short.get("passed") != size:
        passed, at = short.get("passed"), short["passed_line"]
        passed_en = f"the launch passes {passed} as {size} (line {at}), more than that tensor holds"
        passed_ja = f"起動時に {passed} を {size} として渡していて({at} 行目)、このテンソルに収まりません"
    else:
        passed_en = f"{size} = {total} is more than that tensor holds"
        passed_ja = f"{size} = {total} はこのテンソルに収まりません"
    return Said(
        f"line {line} runs only because the launch passed {name}={value}{where_en}, and that holds for the {size} "
        f"the kernel was given ({size} = {total}, a multiple of {block} = {step}) — but the tensor passed as {arg} "
        f"has size {extent} along axis {axis}, the axis {index} indexes up to {size}: {passed_en} — pass the "
        f"{size} of every tensor indexed along it, or pad {arg}'s tensor to {total} along that axis as well",
        f"{line} 行目が実行されたのは起動時に {name}={value} が渡されたからです{where_ja}。この約束は、カーネルが"
        f"受け取った {size}({size} = {total}、{block} = {step} の倍数)については成り立っています。しかし {arg} に"
        f"渡したテンソルは軸 {axis} の長さが {extent} しかなく、{index} はこの軸を {size} まで進みます。"
        f"{passed_ja}。{size} にはこの軸で添字を使うすべてのテンソルが持つ大きさを渡すか、{arg} のテンソルも"
        f"この軸で {total} までパディングしてください",
    )


def _code(text: Any) -> Any:
    """A line of the learner's code as quoted in a sentence: without its trailing # comment (their English
    would land in a Japanese sentence) and without runs of blanks."""
    if not isinstance(text, str):
        return text
    code = text.split("#", 1)[0] if "#" in text and "'" not in text and '"' not in text else text
    return " ".join(code.split())


def _mask_hint(d: Facts) -> Said:
    """The fix in the learner's own words: their mask expression, and the index (and axis) it never bounds."""
    desc = d["descriptor"]  # the access goes through a tensor descriptor (engine/memcheck/report.py)
    if desc:
        arg = d["arg"] or "?"
        return Said(
            f"{desc} is a tensor descriptor: its accesses take no mask — the shape and strides it was built with "
            f"bound them, and here they reach past {arg}'s tensor: check the shape and strides given where {desc} "
            "is made (tl.make_tensor_descriptor)",
            f"{desc} はテンソルディスクリプタなので、そのアクセスにマスクは使いません。作るときに渡した形状と"
            f"ストライドが範囲を決めますが、ここでは {arg} のテンソルの外に届いています。{desc} を作る箇所"
            "(tl.make_tensor_descriptor)に渡した形状とストライドを確認してください",
        )
    passed = d["strides_passed"]
    if isinstance(passed, Mapping) and passed.get("params"):
        arg = d["arg"] or "?"
        given = ", ".join(f"{n}={v}" for n, v in zip(passed["params"], passed["values"], strict=False))
        line = passed.get("launch_line")
        return Said(
            f"the strides passed for {arg} are in the wrong order"
            + (f" (the launch at line {line})" if line else "")
            + f": {given}, but the tensor passed as {arg} has strides {shape(passed['strides'])} — in-range indices then walk out of "
            "the tensor whatever the mask says",
            f"{arg} に渡したストライドの順序が違います"
            + (f"({line} 行目の起動)" if line else "")
            + f": {given} ですが、{arg} に渡したテンソルのストライドは {shape(passed['strides'])} です。"
            "範囲内のインデックスでもテンソルの外を指すので、マスクでは防げません",
        )
    promise = d["promise"]
    if isinstance(promise, Mapping) and promise.get("name"):
        name, value, line = promise["name"], promise["value"], d["line"]
        where_en = where_ja = ""
        if promise.get("line"):
            where_en = f" (line {promise['line']}: {name}={promise.get('expr') or '...'})"
            where_ja = f"({promise['line']} 行目: {name}={promise.get('expr') or '...'})"
        rest = _mask_hint(_Facts({k: v for k, v in d.items() if k != "promise"}))
        if not value:  # NAME=False promises nothing: this is the masked branch, and its mask misses a bound
            unbounded = [u["name"] for u in d["unbounded"] or []]
            if not unbounded:
                return rest
            names_en, names_ja = " and ".join(unbounded), "、".join(unbounded)
            example_en = example_ja = ""
            if str(name).endswith("_K"):
                example_en = f", e.g. {unbounded[0]} < K - k * BLOCK_K"
                example_ja = f"(例: {unbounded[0]} < K - k * BLOCK_K)"
            return rest + Said(
                f" (this is the {name}=False branch, which runs when the blocks do not divide the size: bound "
                f"{names_en} by what is left of its range{example_en})",
                f"。ここはブロックが大きさを割り切れないときに実行される {name}=False の分岐なので、{names_ja} "
                f"を範囲の残りの分で制限してください{example_ja}",
            )
        short = d["promise_size"]
        if isinstance(short, Mapping) and short.get("size"):  # the promise holds: the size passed is wrong
            return _promise_size(short, name, value, line, where_en, where_ja, d["arg"] or "?")
        return (
            Said(
                f"line {line} runs only because the launch passed {name}={value}{where_en}: if that promise "
                f"does not hold for this case, fix how the wrapper computes {name}; otherwise ",
                f"{line} 行目が実行されたのは起動時に {name}={value} が渡されたからです{where_ja}。"
                f"この約束がこのケースで成り立たないなら、ラッパーでの {name} の計算を直してください。"
                "成り立つなら、",
            )
            + rest
        )
    mask, unbounded = _code(d["mask"]), d["unbounded"] or []
    arg = d["arg"] or "?"
    in_bytes = d["strides_in_bytes"]
    if isinstance(in_bytes, Mapping) and in_bytes.get("strides"):
        steps = ", ".join(f"{x['name']} = {x['value']}" for x in in_bytes["strides"])
        strides, size = shape(d["strides"] or ()), in_bytes["element_size"]
        return Said(
            f"the pointer steps with {steps}: that is {arg}'s strides {strides} times {size}, the size of an "
            "element in bytes — Triton's pointer arithmetic counts elements, not bytes: pass the strides as "
            "tensor.stride() gives them (drop the * element_size())",
            f"ポインタは {steps} で進んでいますが、これは {arg} のストライド {strides} の {size} 倍、つまり要素 1 "
            "つのバイト数を掛けた値です。Triton のポインタ演算はバイトではなく要素の数で進むので、ストライドは "
            "tensor.stride() の値をそのまま渡してください(* element_size() を外してください)",
        )
    if d["foreign"]:
        steps = ", ".join(f"{x['name']} = {x['value']}" for x in d["foreign"])
        strides = shape(d["strides"] or ())
        return Said(
            f"the pointer steps with {steps}, which is not a stride of {arg} (its strides are {strides}): step "
            f"through {arg} with its own strides",
            f"ポインタは {steps} で進んでいますが、これは {arg} のストライドではありません({arg} のストライドは "
            f"{strides})。{arg} 自身のストライドで進めてください",
        )
    joined = d["or_joined"]
    if mask and isinstance(joined, Mapping) and joined.get("fixed"):
        # (a < n) | (b < m): each bound is there, but | lets a lane through when any one of them holds
        at_en, at_ja = (
            (f" at line {joined['line']}", f"({joined['line']} 行目)") if joined.get("line") else ("", "")
        )
        fixed = _code(joined["fixed"])
        return Said(
            f"the mask ({mask}) joins its bounds with |{at_en}: a lane passes when any one of them holds, so lanes "
            f"past the end along one axis still pass where another bound holds — join them with &, so that every "
            f"bound must hold: {fixed}",
            f"マスク ({mask}){at_ja}は範囲条件を | でつないでいます。どれか 1 つが成り立てばレーンが通るので、"
            f"ある軸で末尾を越えたレーンも、ほかの条件が成り立てば通ってしまいます。すべての条件が成り立つ"
            f"ように & でつないでください: {fixed}",
        )
    base = d["base_offset"]
    if mask and isinstance(base, Mapping) and base.get("whole"):
        whole = base["whole"]
        spans_en = ", ".join(f"{w['expr']}, {w['extent']} entries" for w in whole)
        spans_ja = "、".join(f"{w['expr']}({w['extent']} 要素)" for w in whole)
        if len(whole) == 1:
            left = Said(
                f"the only index the mask ({mask}) leaves out covers its whole axis ({spans_en}) and cannot run "
                "past it",
                f"マスク ({mask}) が制限していないのは軸全体を覆うインデックス {spans_ja} だけで、これは軸の外に"
                "出られません",
            )
        else:
            left = Said(
                f"the indices the mask ({mask}) leaves out each cover their whole axis ({spans_en}) and cannot "
                "run past it",
                f"マスク ({mask}) が制限していないインデックスはどれも軸全体を覆っていて({spans_ja})、軸の外には"
                "出られません",
            )
        hint = left + Said(
            ": the address itself is off — check the strides and the offsets added to the pointer",
            "。アドレスそのものがずれています。ストライドとポインタに足したオフセットを確認してください",
        )
        if base.get("pointer"):
            hint += Said(
                f", starting with {base['code']} (line {base['line']})",
                f"。まず {base['line']} 行目の {base['code']} です",
            )
            swapped = base.get("swapped")
            if isinstance(swapped, Mapping) and swapped.get("indices"):
                (i1, i2), (s1, s2) = swapped["indices"], swapped["strides"]
                hint += Said(
                    f", which multiplies {i1} by {s1} and {i2} by {s2}: those two strides look swapped ({i1} goes "
                    f"with {s2}, {i2} with {s1})",
                    f"。{i1} に {s1}、{i2} に {s2} を掛けていますが、この 2 つのストライドは逆のようです"
                    f"({i1} には {s2}、{i2} には {s1})",
                )
        return hint
    crossed = [u for u in unbounded if isinstance(u, Mapping) and u.get("mask_axis") in (0, 1)]
    if mask and crossed and crossed[0].get("axis") in (0, 1):
        name, axis, other = crossed[0]["name"], crossed[0]["axis"], crossed[0]["mask_axis"]
        form = {0: "[:, None]", 1: "[None, :]"}
        word_en, word_ja = {0: "rows", 1: "columns"}, {0: "行", 1: "列"}
        return Said(
            f"the mask ({mask}) bounds {name} along {word_en[other]} ({name}{form[other]}), but the address uses "
            f"it along {word_en[axis]} ({name}{form[axis]}): the {word_en[axis]} past the end are not masked — "
            f"write {name}{form[axis]} in the mask too, as in the pointer",
            f"マスク ({mask}) は {name} を{word_ja[other]}方向({name}{form[other]})で制限していますが、アドレスでは"
            f"{word_ja[axis]}方向({name}{form[axis]})に使っています。そのため末尾を越えた{word_ja[axis]}がマスクされ"
            f"ません。マスクでもポインタと同じく {name}{form[axis]} と書いてください",
        )
    if unbounded:
        names_en = " and ".join(f"{u['name']} (axis {u['axis']})" for u in unbounded)
        names_ja = "、".join(f"{u['name']}(軸 {u['axis']})" for u in unbounded)
        if mask:
            return Said(
                f"the mask ({mask}) never bounds {names_en}: add a bound for it to the mask",
                f"マスク ({mask}) は {names_ja} を制限していません。マスクにその範囲条件を加えてください",
            )
        return Said(
            f"the access has no mask: bound {names_en} (and every other index) with a mask",
            f"このアクセスにはマスクがありません。{names_ja}(ほかのインデックスも)をマスクで制限してください",
        )
    if mask and d["precedence"]:
        part = d["precedence"]
        return Said(
            f"the mask ({mask}) does not bound what it seems to: in {part} Python's & binds tighter than < (and a "
            "chained comparison is not elementwise) — put each comparison in parentheses: (a < n) & (b < m)",
            f"マスク ({mask}) は見かけどおりに制限していません。{part} では Python の & が < より先に結合します"
            "(連鎖比較も要素ごとにはなりません)。比較をそれぞれ括弧で囲んでください: (a < n) & (b < m)",
        )
    double = d["double_step"]
    if isinstance(double, Mapping) and double.get("pointer"):
        pointer, var, offset, step, at = (
            double[k] for k in ("pointer", "loop_var", "offset", "step", "line")
        )
        op = d["op"] or d["access"] or "load"
        what = (
            Said("the load", "このロード")
            if op == "load"
            else Said("the store", "このストア")
            if op == "store"
            else Said("the atomic", "このアトミック演算")
        )
        return Said(
            f"{what.en} adds {offset} to {pointer}, and {pointer} also advances by {step} at each step of the loop "
            f"(line {at}): the loop's offset is applied twice, so step {var} reads where step 2 * {var} belongs "
            f"while the mask checks step {var} — keep one of the two: use {pointer} alone, or drop the {pointer} "
            "+= line",
            f"{what.ja}は {pointer} に {offset} を足していますが、{pointer} 自体もループの各ステップで {step} "
            f"ずつ進んでいます({at} 行目)。ループのオフセットが二重にかかるため、ステップ {var} はステップ "
            f"2 * {var} の位置を読み、マスクはステップ {var} の範囲を確かめています。どちらか一方だけにして"
            f"ください: {pointer} をそのまま使うか、{pointer} += の行を削除してください",
        )
    if mask and isinstance(d["advance"], Mapping):
        adv = d["advance"]
        return Said(
            f"{adv['pointer']} advances inside the loop, but the mask compares {adv['index']} with {adv['bound']}, "
            f"which never shrinks: bound it by what is left ({adv['bound']} - k * BLOCK_K)",
            f"{adv['pointer']} はループの中で進みますが、マスクは {adv['index']} を {adv['bound']} と比べていて、"
            f"この上限は小さくなりません。残りの分({adv['bound']} - k * BLOCK_K)で制限してください",
        )
    offset = d["loop_offset"]
    if mask and isinstance(offset, Mapping):
        var, index = offset["loop_var"], offset["mask_index"]
        term = offset.get("term") or var
        row = offset.get("row_step")
        if isinstance(row, Mapping):
            step, size = offset.get("step"), row.get("row_name") or str(row.get("row_stride"))
            value, apart = number(row.get("value")), number(row.get("row_stride"))
            return Said(
                f"the pointer's offsets are {term} + {index}: each step of the loop over {var} moves {step} = "
                f"{value} elements, but the rows are {apart} elements apart — the mask ({mask}) is right for "
                f"{index}; the step is not: step by the row length ({var} * {size})",
                f"ポインタのオフセットは {term} + {index} です。{var} のループは 1 ステップごとに {step} = {value} "
                f"要素進みますが、行と行の間は {apart} 要素です。マスク ({mask}) は {index} に対しては正しく、"
                f"間違っているのはステップのほうです。行の長さで進めてください({var} * {size})",
            )
        moved = f"{offset['index']} = {offset['expr']}" if offset.get("index") else f"{term} + {index}"
        bound = offset.get("index") or f"{term} + {index}"
        return Said(
            f"the pointer's offsets are {moved}, but the mask ({mask}) compares {index}, which leaves out the "
            f"loop's {var}: from the loop's second step on, lanes past the end pass it — bound {bound} instead",
            f"ポインタのオフセットは {moved} ですが、マスク ({mask}) が比べているのは {index} で、ループ変数 "
            f"{var} が入っていません。ループの 2 回目以降は末尾を越えたレーンもマスクを通ってしまいます。"
            f"{bound} のほうを制限してください",
        )
    if mask and d["extra"]:
        added = " + ".join(str(x) for x in d["extra"])
        return Said(
            f"the mask ({mask}) bounds the indices, but the pointer also adds {added}, and {arg} already points "
            "at its first element: drop the extra offset",
            f"マスク ({mask}) はインデックスを制限していますが、ポインタには {added} も足されています。"
            f"{arg} はすでに先頭の要素を指しているので、余分なオフセットを外してください",
        )
    wrong = d["wrong_bound"]
    if mask and isinstance(wrong, Mapping) and wrong.get("index"):
        index, bound, value, axis, extent = (
            wrong[k] for k in ("index", "bound", "bound_value", "axis", "extent")
        )
        term, stride, expected = _code(wrong["term"]), wrong["stride"], wrong.get("expected")
        fix = (
            Said(
                f"compare {index} with {expected} ({expected} = {extent}), not {bound}",
                f"{index} は {bound} ではなく {expected}({expected} = {extent})と比べてください",
            )
            if expected
            else Said(
                f"compare {index} with the length of that axis ({extent}), not {bound}",
                f"{index} は {bound} ではなく、その軸の長さ({extent})と比べてください",
            )
        )
        return Said(
            f"in the mask ({mask}) the term {term} bounds {index} by {bound} = {value}, but {index} indexes "
            f"axis {axis} of {arg} (through {stride}), which has {extent} entries: its values "
            f"{extent}..{value - 1} pass the mask and land past the end — {fix.en}",
            f"マスク ({mask}) の項 {term} は {index} を {bound} = {value} で制限していますが、{index} は "
            f"{stride} を通じて {arg} の軸 {axis} を指していて、この軸の長さは {extent} です。"
            f"{extent}..{value - 1} の値がマスクを通り、末尾を越えてしまいます。{fix.ja}",
        )
    swapped_bounds = d["swapped_bounds"]
    if mask and isinstance(swapped_bounds, Mapping) and swapped_bounds.get("pairs"):
        pairs = swapped_bounds["pairs"]
        given_en = " and ".join(f"{p['index']} with {p['bound']}" for p in pairs)
        given_ja = "、".join(f"{p['index']} を {p['bound']} と" for p in pairs)
        axes_en = ", ".join(
            f"{p['index']} indexes axis {p['axis']} of {arg}, which has {p['extent']} entries "
            f"({p['expected']} = {p['extent']})"
            for p in pairs
        )
        axes_ja = "、".join(
            f"{p['index']} は {arg} の軸 {p['axis']}({p['extent']} 要素、{p['expected']} = {p['extent']})"
            for p in pairs
        )
        fix_en = " and ".join(f"{p['index']} with {p['expected']}" for p in pairs)
        fix_ja = "、".join(f"{p['index']} は {p['expected']} と" for p in pairs)
        return Said(
            f"the mask ({mask}) compares {given_en}: the bounds are swapped — {axes_en}: compare {fix_en}",
            f"マスク ({mask}) は {given_ja}比べていて、範囲の上限が入れ替わっています。{axes_ja}を指して"
            f"います。{fix_ja}比べてください",
        )
    other = d["other_index"]
    if mask and isinstance(other, Mapping) and other.get("index"):
        index, bounded, axis = other["index"], other["mask_index"], other["axis"]
        where_en = where_ja = ""
        if other.get("pointer"):
            where_en = f" ({other['pointer']} = {other['assigned']}, line {other['line']})"
            where_ja = f"({other['line']} 行目: {other['pointer']} = {other['assigned']})"
        target = other.get("pointer")
        made = f"{bounded} = {other['mask_expr']}" if other.get("mask_expr") else bounded
        return Said(
            f"the mask ({mask}) bounds {bounded}, but the pointer's index on axis {axis} is {index}{where_en}, "
            f"which is neither {bounded} nor made from it: the mask checks other elements than the ones read — "
            f"build {target or 'the pointer'} from what the mask's index is made of ({made})",
            f"マスク ({mask}) が制限しているのは {bounded} ですが、ポインタの軸 {axis} のインデックスは {index} "
            f"です{where_ja}。{index} は {bounded} でも {bounded} から作った値でもないので、マスクが確かめる要素"
            f"と実際に読む要素が食い違っています。{target or 'ポインタ'} はマスクのインデックスと同じもの"
            f"({made})から作ってください",
        )
    if mask and "num_programs" in str(d["mask"] or ""):
        return Said(
            f"the mask ({mask}) compares the offsets with the grid's extent (num_programs × the block), which "
            "rounds up past the end of the tensor: bound them by the tensor's own size (n_elements), not by the "
            "grid",
            f"マスク ({mask}) はオフセットをグリッドの範囲(num_programs × ブロック)と比べていますが、これは"
            "切り上げでテンソルの末尾を越えます。グリッドではなく、テンソル自身の大きさ(n_elements)で"
            "制限してください",
        )
    permuted = d["permuted_bounds"]
    if mask and isinstance(permuted, Mapping) and permuted.get("input") and permuted.get("terms"):
        terms = [t for t in permuted["terms"] if isinstance(t, Mapping)]
        name, of = permuted["input"], shape(permuted.get("shape") or d["shape"] or ())
        given_en = " and ".join(f"{t['index']} by {t['bound']} = {t['value']}" for t in terms)
        given_ja = "、".join(f"{t['index']} を {t['bound']} = {t['value']} で" for t in terms)
        made = next((t for t in terms if t.get("assigned_line")), None)
        passed = next((t for t in terms if t.get("passed_line")), None)
        where_en = where_ja = ""
        if made is not None:
            code = verbatim(made["assigned"])
            where_en, where_ja = (
                f" (line {made['assigned_line']}: {code})",
                f"({made['assigned_line']} 行目: {code})",
            )
        elif passed is not None:
            where_en, where_ja = (
                f" (the launch at line {passed['passed_line']})",
                f"({passed['passed_line']} 行目の起動)",
            )
        must_en = ", ".join(f"{t['bound']} must be {t['extent']}" for t in terms if t["value"] != t["extent"])
        must_ja = "、".join(f"{t['bound']} は {t['extent']}" for t in terms if t["value"] != t["extent"])
        return Said(
            f"the mask ({mask}) bounds {given_en}, but {arg} is the input {name}, of shape {of}: the launch passes "
            f"its sizes in another order{where_en} — {must_en} (pass {name}'s own shape)",
            f"マスク ({mask}) は {given_ja}制限していますが、{arg} は入力 {name}(形状 {of})です。起動時に"
            f"その大きさを別の順序で渡しています{where_ja}。{must_ja} でなければなりません({name} 自身の形状を"
            "渡してください)",
        )
    if mask and d["bounded"]:
        allocated = shape(d["shape"] or ())
        return Said(
            f"the mask ({mask}) bounds every index, yet these lanes land past the end: unless one of its bounds "
            "is wrong, the address itself is off — check the strides and any offset added to the pointer, and "
            f"the shape the tensor was allocated with {allocated}",
            f"マスク ({mask}) は各インデックスを制限していますが、これらのレーンは末尾を越えています。"
            "範囲条件が間違っていないなら、アドレスそのものがずれています。ストライド、ポインタに足した"
            f"オフセット、テンソルを確保したときの形 {allocated} を確認してください",
        )
    off, mask_line = d["off_by_one"], d["mask_line"]
    if mask and isinstance(off, Mapping) and off.get("compare"):
        compare, index, bound, fix = (_code(off[k]) for k in ("compare", "index", "bound", "fix"))
        at_en = f" at line {mask_line}" if mask_line else ""
        at_ja = f"{mask_line} 行目の " if mask_line else ""
        return Said(
            f"the mask ({mask}) lets these lanes through: it must be False for every offset past the end, and "
            f"{compare}{at_en} is off by one, letting {index} = {bound} through — use {fix}",
            f"マスク ({mask}) がこれらのレーンを通しています。末尾より先のオフセットでは False になる必要が"
            f"ありますが、{at_ja}{compare} は 1 つずれていて、{index} = {bound}(最後の有効なインデックスの 1 つ"
            f"先)も通してしまいます。{fix} としてください",
        )
    if mask:
        at_en = f", line {mask_line}" if mask_line else ""
        at_ja = f"({mask_line} 行目)" if mask_line else ""
        return Said(
            f"the mask ({mask}{at_en}) lets these lanes through: it must be False for every offset past the end",
            f"マスク ({mask}){at_ja}がこれらのレーンを通しています。末尾より先のオフセットでは False になる"
            "必要があります",
        )
    caller = d["caller"]
    if "mask" in d and isinstance(caller, Mapping) and caller.get("bounds"):
        # no mask in a helper that walks the range its caller chose: that range is where to look
        helper, at = caller["function"], caller["line"]
        given = ", ".join(f"{b['param']} = {b['arg']}" for b in caller["bounds"])
        return Said(
            f"this access in {helper} has no mask, and {helper} walks the range its caller gives it — the call "
            f"at line {at} passes {given}: keep that range inside the tensor there (or mask the access here)",
            f"{helper} の中のこのアクセスにはマスクがなく、{helper} は呼び出し側が渡した範囲をそのまま走査します。"
            f"{at} 行目の呼び出しは {given} を渡しています。その範囲をテンソルの中に収めてください"
            "(またはここでアクセスをマスクしてください)",
        )
    if "mask" in d:  # the line was read: it has no mask at all
        return Said(
            "the access has no mask: pass mask= with a bound for each index (e.g. offsets < n_elements)",
            "このアクセスにはマスクがありません。各インデックスの範囲条件を mask= に渡してください"
            "(例: offsets < n_elements)",
        )
    return Said(
        "mask the access (offsets < n_elements)", "アクセスをマスクしてください(offsets < n_elements)"
    )


# ---- diagnoses of an output --------------------------------------------------------------------------------


@says(Kind.ERROR)
def _error(f: Facts) -> Said:
    q = verbatim(f["exception"] or f["message"])
    return Said(f"could not compare the outputs: {q}", f"出力を比較できませんでした: {q}")


@says(Kind.TYPE)
def _type(f: Facts) -> Said:
    got = f["got_type"] or "None"
    if got == "NoneType" or got == "None":
        return Said(
            "the wrapper returned None — return the output tensor",
            "ラッパーが None を返しました。出力テンソルを return してください",
        )
    return Said(
        f"the wrapper returned {got}, not a tensor — return the output tensor",
        f"ラッパーの戻り値が {got} で、テンソルではありません。出力テンソルを return してください",
    )


@says(Kind.SHAPE)
def _shape(f: Facts) -> Said:
    got, exp = shape(f["got"]), shape(f["expected"])
    if f["reshaped"]:
        return Said(
            f"the output has shape {got} but torch gives {exp} (same number of elements: compared in order)",
            f"出力の形状は {got} ですが、torch の結果は {exp} です(要素数が同じなので順に比較しました)",
        )
    return Said(
        f"the output has shape {got} but torch gives {exp}",
        f"出力の形状は {got} ですが、torch の結果は {exp} です",
    )


@says(Kind.DTYPE)
def _dtype(f: Facts) -> Said:
    got, exp = dtype(f["got"]), dtype(f["expected"])
    return Said(
        f"the output is {got} but torch gives {exp}",
        f"出力の dtype は {got} ですが、torch の結果は {exp} です",
    )


def _listed(f: Facts, key: str) -> str:
    """A list of runs the engine may have cut (it sends `<key>_total`, the count before the cut)."""
    return span(f[key], total=f.get(f"{key}_total"))


def _one(runs: Any) -> bool:
    """A single index: [[5, 5]] (a row, a column, an element)."""
    return bool(runs) and len(runs) == 1 and runs[0][0] == runs[0][1]


def _entry(f: Facts) -> Said:
    """The learner's wrapper by name ('add()'), or 'your wrapper' / 'ラッパー' when the fact is missing."""
    return Said(f"{f['entry']}()", f"{f['entry']}()") if f["entry"] else Said("your wrapper", "ラッパー")


def _kernel_name(f: Facts) -> Said:
    return Said(str(f["kernel"]), str(f["kernel"])) if f["kernel"] else Said("your kernel", "カーネル")


def _grid_dims(grid: Any) -> list[int]:
    """The grid as the learner launched it: (2,) rather than the padded (2, 1, 1)."""
    dims = [int(d) for d in (grid or [])] or [0]
    while len(dims) > 1 and dims[-1] == 1:
        dims.pop()
    return dims


def _cells(f: Facts) -> tuple[str, str]:
    """Where in the output: rows × columns, or element ranges (singular for a single index)."""
    if f["rows"] is not None and f["cols"] is not None:
        r, c = _listed(f, "rows"), _listed(f, "cols")
        row, col = ("row" if _one(f["rows"]) else "rows"), ("column" if _one(f["cols"]) else "columns")
        return f"{row} {r}, {col} {c}", f"行 {r}、列 {c}"
    if f["ranges"]:
        r = _listed(f, "ranges")
        return f"{'element' if _one(f['ranges']) else 'elements'} {r}", f"要素 {r}"
    return "some elements", "一部の要素"


@says(Kind.UNWRITTEN)
def _unwritten(f: Facts) -> Said:
    cause, count, n = f["cause"], f["count"], f["numel"]
    start, block = f["start"], f["block"]
    last = (n - 1) if isinstance(n, int) else "?"
    elems_en = f"elements {start}–{last}" if start != last else f"element {start}"
    elems_ja = f"要素 {start}–{last}" if start != last else f"要素 {start}"
    were = "were" if start != last else "was"
    if cause == "tail-masked":
        programs, numel, first = f["grid_programs"], f["numel"], f["first"]
        tail = numel - first if isinstance(numel, int) and isinstance(first, int) else count
        last = "the last element" if tail == 1 else f"the last {_n(tail, 'en', 'element', 'elements', '')}"
        at_en = at_ja = ""
        if f["line"] and f["mask"]:
            code = _code(f["mask"])
            at_en, at_ja = f" (line {f['line']}: {code})", f"({f['line']} 行目: {code})"
        return Said(
            f"{elems_en} {were} never written: a program covered {'them' if were == 'were' else 'it'} "
            f"({number(programs)} × BLOCK_SIZE {number(block)} ≥ {number(numel)}), but the store's mask{at_en} "
            f"switched off {last} — it must be True for every "
            "offset below n_elements (an off-by-one?)",
            f"{elems_ja} が書き込まれていません。担当するプログラムはありました({number(programs)} × "
            f"BLOCK_SIZE {number(block)} ≥ {number(numel)})が、ストアのマスク{at_ja}が最後の {number(tail)} 要素を"
            "外しています。n_elements 未満のすべてのオフセットで True になる必要があります(1 つずれていませんか?)",
        )
    if cause == "mask-short":
        # a flat 1D launch over a 2D output with programs enough for every element: the mask stopped them
        programs, numel = f["grid_programs"] or f["programs"], f["numel"]
        one_row = f["row_length"] is not None and start == f["row_length"]
        return Said(
            f"{elems_en} {were} never written although the grid launched "
            f"{_n(programs, 'en', 'program', 'programs', '')} ({number(programs)} × BLOCK_SIZE {number(block)} ≥ {number(numel)}): "
            f"the store's mask switched off everything past the first {_n(start, 'en', 'element', 'elements', '')}"
            + (" (the length of one row)" if one_row else "")
            + " — check what the mask compares against: the flat offsets must stay below the number of "
            "elements (x.numel())",
            f"{elems_ja} が書き込まれていません。グリッドは {number(programs)} プログラム({number(programs)} × BLOCK_SIZE "
            f"{number(block)} ≥ {number(numel)})を起動していますが、ストアのマスクが先頭の {number(start)} 要素"
            + ("(1 行の長さ)" if one_row else "")
            + "より後ろをすべて外しています。マスクが何と比べているかを確認してください。平たいオフセットは"
            "要素数(x.numel())未満で True になる必要があります",
        )
    if cause == "stored-poison":
        reads = bool(f["loads_output"])
        if f["atomic"] and f["line"]:  # tl.atomic_add onto a buffer torch.empty left uninitialised
            atomic, line = verbatim(f["atomic"]), f["line"]
            if f["alloc_line"] and f["buffer"]:
                buffer, alloc, at = f["buffer"], verbatim(f["alloc"] or "torch.empty(…)"), f["alloc_line"]
                onto = Said(
                    f"{buffer}, which {alloc} (line {at}) left uninitialised",
                    f"{buffer} に足し込んでいますが、{buffer} は {alloc}({at} 行目)で作られていて初期化されていません",
                )
            else:
                onto = Said(
                    "an output that was never zeroed",
                    "一度も 0 にしていない出力に足し込んでいます",
                )
            return Said(
                f"{_n(count, 'en', 'element', 'elements', '')} of the output "
                + ("holds a value" if count == 1 else "hold values")
                + f" that {atomic} (line {line}) added onto {onto.en} — an atomic add accumulates onto what is "
                "already there: start the buffer from torch.zeros",
                f"出力の {number(count)} 要素は、{atomic}({line} 行目)が足し込んだ値です。{onto.ja}。アトミック"
                "加算はすでにある値に足していくので、バッファは torch.zeros で作ってください",
            )
        return Said(
            f"{_n(count, 'en', 'element', 'elements', '')} of the output "
            + ("holds a value" if count == 1 else "hold values")
            + " computed from memory nobody wrote, although your kernel stored "
            + ("it" if count == 1 else "them")
            + (
                f" — it loads, through {f['arg'] or 'a pointer'}, from the output it is writing: read the inputs "
                "instead"
                if reads
                else " — check what the stored values are computed from"
            ),
            f"出力の {number(count)} 要素は、カーネルがストアしたものの、誰も書いていないメモリから計算した値"
            "です"
            + (
                f"。書き込み中の出力({f['arg'] or '出力テンソル'})からロードしています。入力を読んでください"
                if reads
                else "。ストアする値が何から計算されているかを確認してください"
            ),
        )
    if cause == "grid-axes-unread":
        grid = " × ".join(str(d) for d in _grid_dims(f["grid"]))
        return Said(
            f"the grid is {grid} but the kernel reads only tl.program_id(0): the programs along the other axes "
            "repeat axis 0's work — launch a 1D grid, or read tl.program_id(1) in the kernel",
            f"グリッドは {grid} ですが、カーネルは tl.program_id(0) しか読んでいません。ほかの軸のプログラムは"
            "軸 0 と同じ仕事を繰り返します。1 次元のグリッドで起動するか、カーネルで tl.program_id(1) を読んで"
            "ください",
        )
    if cause == "grid-axis-missing":
        axis = f["axis"] if isinstance(f["axis"], int) else 1
        dims = ([int(d) for d in f["grid"] or []] + [1, 1, 1])[: axis + 1]
        grid = " × ".join(str(d) for d in dims)  # every axis up to the one read: (3, 1) and (3,) alike
        needed = f["tiles_along"]
        tiles_en = f", where the output has {number(needed)} tiles along it" if needed else ""
        tiles_ja = f"(出力はこの軸方向に {number(needed)} タイルあります)" if needed else ""
        return Said(
            f"the kernel reads tl.program_id({axis}), but the grid is {grid}: one program along axis {axis}, so "
            f"tl.program_id({axis}) is always 0{tiles_en} — launch the programs along axis {axis}, or number "
            "them with tl.program_id(0)",
            f"カーネルは tl.program_id({axis}) を読んでいますが、グリッドは {grid} で、軸 {axis} 方向には 1 "
            f"プログラムしかないため、tl.program_id({axis}) は常に 0 です{tiles_ja}。軸 {axis} 方向にも"
            "プログラムを起動するか、tl.program_id(0) でプログラムを数えてください",
        )
    if cause == "arange-block" and f["line"]:
        step, lanes = f["step"], f["lanes"]
        step_name, lanes_name = f["step_name"] or "?", f["lanes_name"] or "?"
        index, line, code = f["index"] or "?", f["line"], verbatim(_code(f["code"]) or "")
        what_en = {0: "rows", 1: "columns"}.get(f["axis"], "elements")
        what_ja = {0: "行", 1: "列"}.get(f["axis"], "要素")
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written: each program wrote only the "
            f"first {number(lanes)} of its {number(step)} {what_en} — {index} (line {line}: {code}) starts every "
            f"{step_name} = {number(step)} but has tl.arange(0, {lanes_name}), {number(lanes)} lanes: take the "
            f"lanes from the block it steps by, tl.arange(0, {step_name})",
            f"{number(count)} 要素が書き込まれていません。各プログラムは担当する {number(step)} {what_ja}のうち"
            f"先頭の {number(lanes)} {what_ja}しか書いていません。{index}({line} 行目: {code})は {step_name} = "
            f"{number(step)} ごとに始まりますが、tl.arange(0, {lanes_name}) で {number(lanes)} レーンしか"
            f"ありません。レーン数は刻みと同じブロックから取り、tl.arange(0, {step_name}) にしてください",
        )
    if cause == "tile-map" and f["group_line"] and f["group_divisor"] and f["group_height"]:
        programs, tiles = f["programs"], f["tiles"]
        line, text = f["group_line"], verbatim(f["group_text"] or "pid_n = ...")
        divisor, real = f["group_divisor"], f["group_height"]
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written although the grid launched "
            f"{_n(programs, 'en', 'program', 'programs', '')} for {number(tiles)} tiles: in the grouped order "
            f"some programs map to the same tile — pid_n at line {line} ({text}) divides by {divisor}, but the "
            f"last group is short when num_pid_m is not a multiple of {divisor}: divide by the group's real "
            f"height, {real}, as pid_m does",
            f"グリッドは {number(tiles)} タイルに対して {number(programs)} プログラムを起動しているのに、"
            f"{number(count)} 要素が書き込まれていません。グループ順序で同じタイルに対応するプログラムがあります。"
            f"{line} 行目({text})の pid_n は {divisor} で割っていますが、num_pid_m が {divisor} の倍数でないと"
            f"最後のグループは短くなります。pid_m と同じく、グループの実際の高さ {real} で割ってください",
        )
    if cause == "tile-map" and f["group_line"]:
        programs, tiles = f["programs"], f["tiles"]
        line, text = f["group_line"], verbatim(f["group_text"] or "group_size_m = ...")
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written although the grid launched "
            f"{_n(programs, 'en', 'program', 'programs', '')} for {number(tiles)} tiles: in the grouped order "
            f"some programs map to the same tile — the group height at line {line} ({text}) is not the group's "
            "real height: the last group is short when num_pid_m is not a multiple of GROUP_M, so the height is "
            "min(num_pid_m - first_pid_m, GROUP_M)",
            f"グリッドは {number(tiles)} タイルに対して {number(programs)} プログラムを起動しているのに、"
            f"{number(count)} 要素が書き込まれていません。グループ順序で同じタイルに対応するプログラムがあります。"
            f"{line} 行目({text})のグループの高さが実際の高さと違います。num_pid_m が GROUP_M の倍数でないと"
            "最後のグループは短くなるので、高さは min(num_pid_m - first_pid_m, GROUP_M) です",
        )
    if cause == "grid-axes-swapped" and f["tile_counts"] and f["grid"]:
        (rows, cols), dims = f["tile_counts"], _grid_dims(f["grid"])
        blocks = f["blocks"] or []
        tile = f" (tiles of {blocks[0]} x {blocks[1]})" if len(blocks) == 2 else ""
        tile_ja = f"(タイルは {blocks[0]} x {blocks[1]})" if len(blocks) == 2 else ""
        at, at_ja = (f" (line {f['line']})", f"({f['line']} 行目)") if f["line"] else ("", "")
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written: the grid is {dims[0]} x "
            f"{dims[1]}{at}, but the output has {number(rows)} row tiles and {number(cols)} column tiles{tile} — "
            "the grid's axes are swapped: tl.program_id(0) takes the row tiles, so the grid must be "
            "(triton.cdiv(rows, BLOCK_M), triton.cdiv(cols, BLOCK_N))",
            f"{number(count)} 要素が書き込まれていません。グリッドは {dims[0]} x {dims[1]}{at_ja}ですが、出力の"
            f"タイルは行方向に {number(rows)} 個、列方向に {number(cols)} 個です{tile_ja}。グリッドの軸が逆に"
            "なっています。tl.program_id(0) が行のタイルを受け持つので、グリッドは "
            "(triton.cdiv(rows, BLOCK_M), triton.cdiv(cols, BLOCK_N)) の順にしてください",
        )
    if cause == "tile-map":
        programs, tiles = f["programs"], f["tiles"]
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written although the grid launched "
            f"{_n(programs, 'en', 'program', 'programs', '')} for {number(tiles)} tiles: some tiles were never "
            "reached (two programs on one tile, or tile starts that step by the wrong size) — check how the "
            "program id becomes the tile's first row and column (pid_m * BLOCK_M, pid_n * BLOCK_N)",
            f"グリッドは {number(tiles)} タイルに対して {number(programs)} プログラムを起動しているのに、"
            f"{number(count)} 要素が書き込まれていません。どのプログラムも担当しなかったタイルがあります"
            "(2 つのプログラムが同じタイルを担当しているか、タイルの開始位置の刻みが違います)。"
            "プログラム ID からタイルの先頭の行と列(pid_m * BLOCK_M, pid_n * BLOCK_N)を求める計算を確認してください",
        )
    if cause == "block-start-literal" and f["step"]:
        step, line, block = f["step"], f["line"], f["block"]
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written: each program's block starts "
            f"{step} elements after the previous one (line {line}: program_id × {step}), but the launch's "
            f"BLOCK_SIZE is {block} — start each block at tl.program_id(0) * BLOCK_SIZE, not at a number written "
            "out",
            f"{number(count)} 要素が書き込まれていません。各プログラムのブロックは前のブロックの {step} 要素後から"
            f"始まっています({line} 行目: program_id × {step})が、起動時の BLOCK_SIZE は {block} です。"
            "ブロックの先頭は数値を直接書かず、tl.program_id(0) * BLOCK_SIZE にしてください",
        )
    if cause == "tile-id-map" and f["line"]:
        line, text = f["line"], verbatim(f["call"] or "pid_m, pid_n = ...")
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written, though the tile loop takes "
            "every tile id once (it starts at the program id and steps by the program count): some ids map to the "
            f"wrong tile — check how a tile id becomes its (pid_m, pid_n) at line {line} ({text}): the grid's "
            "sizes in their order, and the group's real height min(num_pid_m - first_pid_m, GROUP_M)",
            f"{number(count)} 要素が書き込まれていません。タイルループはすべてのタイル ID を一度ずつ取っています"
            "(プログラム ID から始まり、プログラム数ずつ進みます)が、一部の ID が違うタイルに対応しています。"
            f"{line} 行目({text})でタイル ID を (pid_m, pid_n) にする計算を確認してください。グリッドの大きさを"
            "渡す順序と、グループの実際の高さ min(num_pid_m - first_pid_m, GROUP_M) です",
        )
    if cause == "tile-loop" and f["line"] and f["form"] == "stop":
        # range(pid, num_tiles, num_tiles): one iteration per program
        line, call, step = f["line"], verbatim(f["call"] or "for tile_id in range(...)"), f["step"] or "?"
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written: the tile loop at line {line} "
            f"({call}) steps by {step} — its own stop — so each program computes only its first tile and leaves "
            "the loop: step by the program count P (NUM_PROGRAMS, tl.num_programs(0)), so that program pid takes "
            "tiles pid, pid + P, pid + 2P, …",
            f"{number(count)} 要素が書き込まれていません。{line} 行目のタイルループ({call})は、終了値と同じ "
            f"{step} ずつ進むため、各プログラムは最初のタイルだけを計算してループを抜けます。プログラム数 P"
            "(NUM_PROGRAMS や tl.num_programs(0))ずつ進めて、プログラム pid がタイル pid、pid + P、pid + 2P、… "
            "を受け持つようにしてください",
        )
    if cause == "tile-loop" and f["line"] and f["form"] == "block":
        # range(pid, num_tiles, BLOCK_M): a tile size where the program count belongs
        line, call, step = f["line"], verbatim(f["call"] or "for tile_id in range(...)"), f["step"] or "?"
        value, programs = f["step_value"], f["programs"]
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written: the tile loop at line {line} "
            f"({call}) steps by {step} = {number(value)}, a tile size, but the grid launched "
            f"{_n(programs, 'en', 'program', 'programs', '')} — program pid takes tiles pid, pid + {number(value)}, "
            "…, and the tiles in between get no program: step by the program count P (tiles pid, pid + P, "
            "pid + 2P, …)",
            f"{number(count)} 要素が書き込まれていません。{line} 行目のタイルループ({call})はタイルの大きさ "
            f"{step} = {number(value)} ずつ進みますが、グリッドが起動したプログラムは {number(programs)} 個です。"
            f"プログラム pid はタイル pid、pid + {number(value)}、… を受け持ち、その間のタイルはどのプログラムも"
            "担当しません。プログラム数 P ずつ進めてください(タイル pid、pid + P、pid + 2P、…)",
        )
    if cause == "tile-loop" and f["line"] and f["count_name"]:
        line, name, text = f["line"], f["count_name"], verbatim(f["count_text"] or "num_tiles // P")
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written: the tile loop's count {name} = "
            f"{text} (line {line}) is rounded down — when num_tiles is not a multiple of the program count P, "
            "the last num_tiles % P tiles get no program: give the programs below num_tiles % P one more tile, or "
            "loop for tile_id in range(pid, num_tiles, P)",
            f"{number(count)} 要素が書き込まれていません。{line} 行目のタイルループの回数 {name} = {text} は"
            "切り捨てです。num_tiles がプログラム数 P の倍数でないと、最後の num_tiles % P 個のタイルを受け持つ"
            "プログラムがありません。num_tiles % P 未満のプログラムにタイルを 1 つ追加するか、"
            "for tile_id in range(pid, num_tiles, P) でループしてください",
        )
    if cause == "tile-loop" and f["line"]:
        loop = f["line"]
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written: the persistent tile loop "
            f"(line {loop}) ran no iteration in this case, so it never reached a tile — with P programs, program "
            "pid must take tiles pid, pid + P, pid + 2P, … while below num_tiles (start at tl.program_id(0), "
            "step by P, stop at num_tiles)",
            f"{number(count)} 要素が書き込まれていません。このケースでは {loop} 行目のパーシステントなタイル"
            "ループが一度も回らず、どのタイルにも届いていません。P 個のプログラムなら、プログラム pid は "
            "num_tiles 未満のタイル pid、pid + P、pid + 2P、… を受け持ちます(tl.program_id(0) から始めて "
            "P ずつ進め、num_tiles で止めてください)",
        )
    if cause == "tile-loop":
        return Said(
            f"{_n(count, 'en', 'element was', 'elements were', '')} never written: the persistent tile loop never "
            "reached some tiles — with P programs, program pid must take tiles pid, pid + P, pid + 2P, … while "
            "below num_tiles (start at tl.program_id(0), step by P, and map each tile id to its (pid_m, pid_n) "
            "inside the range)",
            f"{number(count)} 要素が書き込まれていません。パーシステントなタイルループが一部のタイルに届いて"
            "いません。P 個のプログラムなら、プログラム pid は num_tiles 未満のタイル pid、pid + P、pid + 2P、"
            "… を受け持ちます(tl.program_id(0) から始めて P ずつ進め、各タイル ID をその範囲内の "
            "(pid_m, pid_n) に対応させてください)",
        )
    if cause == "arange-start" and f["line"]:
        line, start = f["line"], f["start"]
        return Said(
            f"no element was written: your kernel ran tl.store, but its mask switched off every lane — the offsets "
            f"start at {start} (line {line}: tl.arange({start}, …)), so lane 0 is element {start} of its block and "
            "the block's first element is never touched: count lanes from 0, tl.arange(0, BLOCK_SIZE)",
            f"どの要素も書き込まれていません。カーネルは tl.store を実行しましたが、マスクがすべてのレーンを"
            f"外しています。オフセットが {start} から始まっている({line} 行目: tl.arange({start}, …))ため、"
            f"レーン 0 がブロックの {start} 番目の要素になり、ブロックの先頭の要素に触れません。レーンは 0 から"
            "数えてください(tl.arange(0, BLOCK_SIZE))",
        )
    if cause == "value-masked":
        name = str(f["input"] or "x")
        test = str(f["test"] or "<= 0")
        who_en = "the answer" if name == "expected" else name
        who_ja = "正解の値" if name == "expected" else name
        zero_en = " (where the answer is 0)" if f["answer_zero"] else ""
        zero_ja = "(正解が 0 になる要素)" if f["answer_zero"] else ""
        line, mask, loaded = f["line"], verbatim(f["mask"] or "mask"), f["loaded"]
        head_en = (
            f"the {number(count)} elements never written are exactly those where {who_en} {test}"
            if isinstance(count, int) and count > 1
            else f"the element never written is where {who_en} {test}"
        )
        at_en = f" (line {line}: mask={mask}, made from the loaded {loaded})" if line else ""
        at_ja = f"({line} 行目: mask={mask}。読み込んだ {loaded} から作られています)" if line else ""
        return Said(
            f"{head_en}{zero_en}: the store's mask depends on the values{at_en} — a masked-off lane keeps "
            "whatever the output held before; store every element, computing its value (0 included) instead of "
            "masking it off",
            f"書き込まれなかった {number(count)} 要素は、ちょうど {who_ja} {test} の要素です{zero_ja}。"
            f"ストアのマスクが値に依存しています{at_ja}。マスクで外したレーンには出力の元の中身が残ります。"
            "マスクで外さずに、すべての要素について値(0 も含めて)を計算してストアしてください",
        )
    if cause == "masked-off" and f["per_program"] and f["line"]:
        line, text = f["line"], verbatim(f["mask"] or "mask")
        return Said(
            f"no element was written: your kernel ran tl.store, but its mask switched off every lane — the mask "
            f"at line {line} ({text}) is one value for the whole program, not one per lane, so a partial block "
            "is switched off as a whole: build it from the offsets, mask = offsets < n_elements",
            f"どの要素も書き込まれていません。カーネルは tl.store を実行しましたが、マスクがすべてのレーンを"
            f"外しています。{line} 行目のマスク({text})はプログラム全体で 1 つの値で、レーンごとの値では"
            "ないため、端数のブロックが丸ごと外れます。オフセットから作ってください(mask = offsets < "
            "n_elements)",
        )
    if cause == "masked-off" and f["line"] and f["mask"]:
        line, code = f["line"], _code(f["mask"])
        return Said(
            "no element was written: your kernel ran tl.store, but its mask switched off every lane — check "
            f"the store's mask at line {line} ({code}): it must be True for every offset below n_elements",
            "どの要素も書き込まれていません。カーネルは tl.store を実行しましたが、マスクがすべてのレーンを"
            f"外しています。{line} 行目のストアのマスク({code})を確認してください。n_elements 未満のすべての"
            "オフセットで True になる必要があります",
        )
    if cause == "masked-off":
        return Said(
            "no element was written: your kernel ran tl.store, but its mask switched off every lane — check "
            "the store's mask (it must be True for every offset below n_elements)",
            "どの要素も書き込まれていません。カーネルは tl.store を実行しましたが、マスクがすべてのレーンを"
            "外しています。ストアのマスク(n_elements 未満のすべてのオフセットで True)を確認してください",
        )
    if cause == "grid-zero":
        return Said(
            f"the grid launched no programs (grid {shape(_grid_dims(f['grid']))}): a floor division of a "
            "size smaller "
            "than the block gives 0 — use triton.cdiv(size, BLOCK)",
            "グリッドがプログラムを 1 つも起動していません(グリッド "
            f"{shape(_grid_dims(f['grid']))})。ブロックより小さい"
            "サイズを切り捨てで割ると 0 になります。triton.cdiv(size, BLOCK) を使ってください",
        )
    if cause == "grid-fewer-programs":
        programs, tiles, axis = f["programs"], f["tiles"], f["axis"]
        # older results carry no `floor` fact: one program short was read as a floor division
        floor = f["floor"] if f["floor"] is not None else programs == (tiles or 0) - 1
        blocks = f["blocks"]
        meta_tile = (
            f"{blocks[0]} × {blocks[1]}"
            if f["from_meta"] and isinstance(blocks, list) and len(blocks) == 2
            else None
        )
        flat = isinstance(blocks, list) and len(blocks) == 1  # 1D blocks, not 2D tiles
        unit_en, unit_ja = ("block", "ブロック") if flat else ("tile", "タイル")
        where_en = "" if flat and axis is None else " along each axis"
        where_ja = "" if flat and axis is None else "各軸で "
        return Said(
            f"the grid launched {_n(programs, 'en', 'program', 'programs', '')} for "
            f"{_n(tiles, 'en', unit_en, unit_en + 's', '')}"
            + (f", too few along axis {axis}" if axis is not None else "")
            + (" (floor division drops the last, partial block)" if floor else "")
            + f": launch triton.cdiv(size, BLOCK) programs{where_en}"
            + (f", with BLOCK read from meta (this launch's tile is {meta_tile})" if meta_tile else ""),
            f"{number(tiles)} {unit_ja}に対してグリッドが {number(programs)} プログラムしか起動していません"
            + (f"(軸 {axis} のプログラムが足りません)" if axis is not None else "")
            + ("(切り捨ての割り算で最後の半端なブロックが落ちています)" if floor else "")
            + f"。{where_ja}triton.cdiv(size, BLOCK) 個のプログラムを起動"
            + (
                f"し、BLOCK は meta から読んでください(この起動のタイルは {meta_tile} です)"
                if meta_tile
                else "してください"
            ),
        )
    if cause == "same-block":
        programs = f["programs"]
        return Said(
            f"{'both' if programs == 2 else 'all ' + number(programs)} programs wrote the same block (elements "
            f"0–{number(block - 1)}): the offsets "
            "ignore the program id — start each program's block at tl.program_id(0) * BLOCK_SIZE",
            f"{number(programs)} 個のプログラムがすべて同じブロック(要素 "
            f"0–{number(block - 1)})に書き込んでいます。"
            "オフセットがプログラム ID を使っていません。"
            "各プログラムのブロックは tl.program_id(0) * BLOCK_SIZE "
            ""
            "から始めてください",
        )
    if cause == "grid-size":
        at, at_ja = (f" at line {f['line']}", f"{f['line']} 行目の") if f["line"] else ("", "")
        return Said(
            f"{_n(count, 'en', 'slot', 'slots', '')} of the output {'was' if count == 1 else 'were'} never "
            f"written: no program was launched for {'it' if count == 1 else 'them'} (the grid{at} launched "
            f"{_n(f['programs'], 'en', 'program', 'programs', '')} for "
            f"{_n(f['tiles'], 'en', 'block', 'blocks', '')})",
            f"出力の {number(count)} "
            "個のスロットが書き込まれていません。そのためのプログラムが起動されていません"
            f"({number(f['tiles'])} ブロックに対して{at_ja}グリッドは {number(f['programs'])} プログラム)",
        )
    if cause == "store-loop-empty":
        loop = f["line"]
        return Said(
            f"no element was written ({_n(n, 'en', 'element', 'elements', '')} still "
            f"{'holds' if n == 1 else 'hold'} the poison): your kernel was launched but never ran its tl.store — "
            f"it sits in the loop at line {loop}, which ran no iteration in this case: check that loop's bounds "
            "(a bound one short, or a count rounded down such as K // BLOCK_K when K < BLOCK_K: use tl.cdiv)",
            f"どの要素も書き込まれていません({number(n)} 要素がポイズン値のままです)。カーネルは起動されましたが、"
            f"tl.store を一度も実行していません。ストアは {loop} 行目のループの中にあり、このケースではその"
            "ループが一度も回りませんでした。ループの範囲を確認してください(1 つ足りない上限や、K < BLOCK_K "
            "のときの K // BLOCK_K のような切り捨ての回数。tl.cdiv を使います)",
        )
    if cause == "store-never-ran":
        return Said(
            f"no element was written ({_n(n, 'en', 'element', 'elements', '')} still "
            f"{'holds' if n == 1 else 'hold'} the poison): your kernel was launched but never ran its tl.store — "
            "a return (or an if) before the store skips it in this case: look for a return or branch above "
            "tl.store and let every path reach the store",
            f"どの要素も書き込まれていません({number(n)} 要素がポイズン値のままです)。カーネルは起動されましたが、"
            "tl.store を一度も実行していません。このケースでは、ストアより前の return(または if)がストアを"
            "飛ばしています。tl.store より上の return や分岐を探し、どの経路でもストアに届くようにしてください",
        )
    if cause == "args-order":
        param = str(f["param"] or "?")
        return Said(
            f"{_n(count, 'en', 'element', 'elements', '')} of the output never written: in every failing case "
            f"the kernel wrote exactly {param} elements — the element count it bounds its stores by received "
            f"{param}: check the order of the launch's arguments against the kernel's parameters",
            f"出力の {number(count)} 要素が書き込まれていません。失敗したどのケースでも、カーネルが書いた要素数は"
            f"ちょうど {param} 個です。ストアの範囲を決める要素数の引数に {param} が渡っています。起動時の引数の"
            "順序をカーネルの引数と照らし合わせてください",
        )
    passed_as = f["launch_order"]
    if cause == "none-written" and isinstance(passed_as, Mapping) and passed_as.get("output_param"):
        line, other = passed_as.get("line"), passed_as["output_param"]
        return Said(
            f"no element was written: the launch at line {line} passed the output as {other}, not as the "
            "parameter your kernel stores through",
            f"どの要素も書き込まれていません。{line} 行目の起動は出力を {other} として渡していて、カーネルが"
            "ストアする引数には渡していません",
        )
    if cause == "none-written":
        return Said(
            f"no element was written ({_n(n, 'en', 'element', 'elements', '')} still "
            f"{'holds' if n == 1 else 'hold'} the poison): the "
            "kernel never "
            "stored to this output — check the tl.store pointer and that the wrapper returns the tensor it "
            "passed "
            "to the kernel",
            f"どの要素も書き込まれていません({number(n)} 要素がポイズン値のままです)。カーネルはこの出力に"
            "一度も"
            "ストアしていません。tl.store のポインタと、ラッパーがカーネルに渡したテンソルを返しているかを"
            "確認してください",
        )
    if cause == "columns-short":
        where_en, where_ja = _cells(f)
        return Said(
            f"{where_en} were never written: the programs along the columns stop early — check the grid's "
            "column "
            "axis (triton.cdiv(n_cols, BLOCK_N)) or the column loop bound",
            f"{where_ja} が書き込まれていません。列方向のプログラムが途中で止まっています。グリッドの列の軸"
            "(triton.cdiv(n_cols, BLOCK_N))か列ループの上限を確認してください",
        )
    if cause == "overlap":
        where_en, where_ja = _cells(f)
        arg, stored = f["overlap_argument"] or "the output", f["overlap_count"]
        if f.get("start_text") and f.get("line"):  # pid + tl.arange(0, ROWS): the start is not scaled
            at, text, size = f["line"], verbatim(f["start_text"]), f.get("start_size") or "BLOCK"
            return Said(
                f"{where_en} were never written, while {_n(stored, 'en', 'element', 'elements', '')} of {arg} "
                f"were stored by more than one program: line {at} ({text}) starts program p at index p itself, "
                f"so it covers p .. p + {size} - 1 and overlaps its neighbours, and the grid's programs stop short "
                f"of the end — multiply the program id by {size}: tl.program_id(0) * {size} + "
                f"tl.arange(0, {size})",
                f"{where_ja} が書き込まれていません。一方で {arg} の {number(stored)} 要素は複数のプログラムから"
                f"ストアされています。{at} 行目({text})はプログラム p を添字 p そのものから始めるため、p から "
                f"p + {size} - 1 までを受け持ち、隣のプログラムと重なります。そのためグリッドのプログラムが末尾まで"
                f"届きません。プログラム ID に {size} を掛けて tl.program_id(0) * {size} + tl.arange(0, {size}) "
                "としてください",
            )
        return Said(
            f"{where_en} were never written, while {_n(stored, 'en', 'element', 'elements', '')} of {arg} were "
            "stored by more than one program: the programs write into the same place — the store's offset "
            "misses each program's own rows (pid * stride, or row * N)",
            f"{where_ja} が書き込まれていません。一方で {arg} の {number(stored)} 要素は複数のプログラムから"
            "ストアされています。プログラムどうしが同じ場所に書き込んでいます。ストアのオフセットに各プログラム"
            "自身の行(pid * stride や row * N)が入っていません",
        )
    if cause == "rows-short":
        where_en, where_ja = _cells(f)
        return Said(
            f"{where_en} were never written: the last rows were never reached — check the grid's row axis "
            "(one "
            "program per row, or triton.cdiv(n_rows, BLOCK_M))",
            f"{where_ja} が書き込まれていません。最後の行まで届いていません。グリッドの行の軸(1 行に 1 "
            "プログラム、"
            "または triton.cdiv(n_rows, BLOCK_M))を確認してください",
        )
    if cause == "tiles":
        where_en, where_ja = _cells(f)
        return Said(
            f"{where_en} were never written: some programs store to the wrong tile or skip theirs — check "
            "the "
            "offsets built from tl.program_id",
            f"{where_ja} が書き込まれていません。一部のプログラムが別のタイルにストアしているか、自分の"
            "タイルを"
            "飛ばしています。tl.program_id から作るオフセットを確認してください",
        )
    if cause == "one-program":
        return Said(
            f"only the first block (elements 0–{number(block - 1)}) was written: the grid launched one "
            "program — "
            "launch triton.cdiv(n_elements, BLOCK_SIZE) programs",
            f"最初のブロック(要素 0–{number(block - 1)})しか書き込まれていません。グリッドがプログラムを 1 "
            "つしか"
            "起動していません。triton.cdiv(n_elements, BLOCK_SIZE) 個のプログラムを起動してください",
        )
    if cause == "grid-floor":
        return Said(
            f"{elems_en} {were} never written: the last program was not launched — check the grid: "
            "triton.cdiv(n_elements, BLOCK_SIZE), not n_elements // BLOCK_SIZE",
            f"{elems_ja} が書き込まれていません。最後のプログラムが起動されていません。グリッドを"
            "確認してください: "
            "n_elements // BLOCK_SIZE ではなく triton.cdiv(n_elements, BLOCK_SIZE) です",
        )
    if cause == "tail-2d":
        return Said(
            f"{elems_en} (the end of the output, counted row by row) were never written: the grid is too "
            "small, or the "
            "stores land somewhere else — check the grid and the output's strides",
            f"{elems_ja}(行ごとに数えた出力の末尾)が書き込まれていません。グリッドが小さすぎるか、ストア先が"
            "ずれています。グリッドと出力のストライドを確認してください",
        )
    if cause == "grid-short":
        return Said(
            f"{elems_en} {were} never written: the last programs were not launched — check the grid",
            f"{elems_ja} が書き込まれていません。最後のほうのプログラムが起動されていません。グリッドを"
            "確認してください",
        )
    if cause == "partial-blocks":
        programs, numel = f["grid_programs"], f["numel"]
        return Said(
            f"{elems_en} {were} never written: the grid had enough programs ({number(programs)} × BLOCK_SIZE "
            f"{number(block)} ≥ {number(numel)}), but each program wrote only part of its block — check the "
            "offsets: "
            "pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)",
            f"{elems_ja} が書き込まれていません。プログラム数は足りています({number(programs)} × BLOCK_SIZE "
            f"{number(block)} ≥ {number(numel)})が、各プログラムがブロックの一部しか書いていません。"
            "オフセット "
            "pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE) を確認してください",
        )
    if cause == "head":
        end = f["ranges"][0][1] if f["ranges"] else "?"
        return Said(
            f"elements 0–{end} were never written: the first programs store somewhere else — check the "
            "offsets built "
            "from tl.program_id",
            f"要素 0–{end} が書き込まれていません。最初のほうのプログラムが別の場所にストアしています。"
            "tl.program_id から作るオフセットを確認してください",
        )
    runs = f["runs"] if f["runs"] is not None else len(f["ranges"] or [])
    shown = span(f["ranges"], total=runs)
    en = (
        f"{_n(count, 'en', 'element', 'elements', '')} in {_n(runs, 'en', 'range', 'ranges', '')} "
        f"{'was' if count == 1 else 'were'} never written ({shown})"
    )
    ja = f"{number(count)} 要素({runs} 区間: {shown})が書き込まれていません"
    if f["programs"]:
        progs = _listed(f, "programs")
        en += f": {'program' if _one(f['programs']) else 'programs'} {progs} wrote nothing"
        ja += f"。プログラム {progs} は何も書いていません"
    return Said(
        en + " — check the offsets each program computes from tl.program_id",
        ja + "。各プログラムが tl.program_id から計算するオフセットを確認してください",
    )


@says(Kind.NAN)
def _nan(f: Facts) -> Said:
    hint = Said(
        "look for overflow (exp of large inputs), division by zero, or unmasked loads of padding",
        "オーバーフロー(大きな入力の exp)、ゼロ除算、マスクなしでのパディングのロードを探してください",
    )
    if f["cause"] == "softmax":
        hint = Said("subtract the row max before exp", "exp の前に行の最大値を引いてください")
    pattern = _pattern(f)
    if pattern is not None:
        hint = pattern
    if f["cause"] == "no-other":
        line = f["line"]
        hint = Said(
            f"the load at line {line} has no other=, so its masked-off lanes are undefined (the lab fills them "
            "with NaN; a GPU leaves whatever is there) and they reach the result — give other= the value that "
            "cannot change it (0.0 for a sum, float('-inf') for a max)",
            f"{line} 行目のロードには other= がないので、マスクで外したレーンの値は未定義です(ラボは NaN で"
            "埋めます。GPU ではそこにある値のままです)。それが結果に混ざっています。結果を変えない値を "
            "other= に渡してください(和なら 0.0、最大値なら float('-inf'))",
        )
    if f["cause"] is None and f["finite_inputs"]:
        values = f["values"] if isinstance(f["values"], dict) else {}
        said = "; ".join(
            f"{name} = {', '.join(str(v) for v in list(vals)[:3])}" for name, vals in list(values.items())[:2]
        )
        hint = Said(
            f"every input is finite{f' ({said} there)' if said else ''} — your arithmetic makes inf or NaN from "
            "them: an intermediate overflows (exp of a large value is inf; inf / inf and inf − inf are NaN), "
            "divides by zero, or takes the sqrt or log of a negative number. Rewrite the formula so that it "
            "stays finite for large inputs (tanh(u) = 2·sigmoid(2u) − 1; subtract a max before exp)",
            f"入力はすべて有限です{f'(そこでは {said})' if said else ''}。あなたの計算がそこから inf や NaN を"
            "作っています。途中の値があふれる(大きな値の exp は inf になり、inf / inf や inf − inf は NaN)、"
            "ゼロで割る、負の数の sqrt や log を取る、のどれかです。大きな入力でも有限のままになるよう式を書き"
            "直してください(tanh(u) = 2·sigmoid(2u) − 1、exp の前に最大値を引く)",
        )
    if f["cause"] == "old-max":
        line, m, start = f["line"], f["name"] or "m_i", verbatim(f["start"] or "-inf")
        hint = Said(
            f"line {line} subtracts the running max {m} before it is updated with this block's max — on the "
            f"first block {m} is still its start ({start}), so exp of s - {m} is inf (and with any finite start the "
            f"terms overflow whenever the max grows): compute the new max first (m_new = maximum({m}, max(s))) "
            "and take the terms against it",
            f"{line} 行目で、このブロックの最大値で更新する前の途中の最大値 {m} を引いています。最初のブロック"
            f"では {m} はまだ初期値({start})なので、s - {m} の exp は inf になります(有限の初期値でも、最大値が"
            f"大きくなるたびに項があふれます)。先に新しい最大値(m_new = maximum({m}, max(s)))を求め、項は"
            "それに対して計算してください",
        )
    if f["cause"] == "inf-minus-inf":
        line = f["line"]
        hint = Said(
            f"line {line} starts a running state at -inf — a lane that never sees a real value computes "
            "-inf - (-inf) = NaN (exp of it is NaN too): start at a large finite value (-1e30) or guard the "
            "update with tl.where",
            f"{line} 行目で途中の状態を -inf から始めています。実際の値を一度も見ないレーンでは -inf - (-inf) = "
            "NaN になります(その exp も NaN です)。大きな有限の値(-1e30)から始めるか、tl.where で更新を"
            "守ってください",
        )
    if f["cause"] == "max-after-exp":
        line, m, call = f["line"], f["name"] or "row_max", verbatim(f["call"] or "tl.exp(row)")
        top = f["top"]
        why = _exp_blowup(top)
        hint = Said(
            f"line {line} takes the max out after the exp ({call} divided by exp({m})) — {why.en}: subtract "
            f"the max inside the exp instead, exp(x - {m})",
            f"{line} 行目では exp を取った後で最大値を外しています({call} を exp({m}) で割っています)。{why.ja}。"
            f"割るのでは間に合いません。exp の中で最大値を引いてください(exp(x - {m}))",
        )
    if f["cause"] == "unshifted-exp":
        line, call, top = f["line"], verbatim(f["call"] or "tl.exp(x)"), f["top"]
        why = _exp_blowup(top)
        hint = Said(
            f"line {line} takes {call} with no max subtracted inside it (the max the file takes elsewhere does "
            f"not reach this exp) — {why.en}: subtract the row max there too, exp(x - max)",
            f"{line} 行目の {call} は、引数から最大値を引いていません(ファイルの別の箇所で取っている最大値は"
            f"この exp には届いていません)。{why.ja}。ここでも行の最大値を引いてください(exp(x - max))",
        )
    if f["cause"] == "high-row":
        name = f["input"] or "x"
        hint = Said(
            f"the lab lifted row 0 of {name} by 100 on purpose: exp(x) overflows float32 there (e^88.7 is the "
            "limit) unless the row's max is subtracted first — log-sum-exp = m + log(sum(exp(x - m)))",
            f"ラボは {name} の行 0 を意図的に 100 だけ持ち上げています。行の最大値を先に引かないと、そこでは "
            "exp(x) が float32 であふれます(上限は e^88.7)。log-sum-exp = m + log(sum(exp(x - m))) です",
        )
    if f["cause"] == "n-minus-one":
        name, key = f["input"] or "x", f["param"] or "N"
        factor = f"{float(f['factor']):.4g}" if isinstance(f["factor"], (int, float)) else "?"
        at = f" (line {f['line']}: / ({f['divisor']}))" if f["line"] and f["divisor"] else ""
        at_ja = f"({f['line']} 行目: / ({f['divisor']}))" if f["line"] and f["divisor"] else ""
        hint = Said(
            f"row 0 of {name} is all zeros and {key} = 1 — the mean of squares divides 0 by {key} − 1 = 0{at}, "
            f"and 0/0 is NaN whatever eps is; the cases with {key} > 1 show the same divisor ({key} = "
            f"{number(f['n'])}: every element {factor} times the right value, √(({key} − 1)/{key})): divide by "
            f"{key}",
            f"{name} の行 0 はすべて 0 で、{key} = 1 です。二乗平均で 0 を {key} − 1 = 0 で割っているので"
            f"{at_ja}、eps に関係なく 0/0 = NaN になります。{key} > 1 のケースにも同じ割り方が表れています"
            f"({key} = {number(f['n'])} ですべての要素が正しい値の {factor} 倍、√(({key} − 1)/{key}))。"
            f"{key} で割ってください",
        )
    if f["cause"] == "zero-row":
        name = f["input"] or "x"
        hint = Said(
            f"row 0 of {name} is all zeros (the lab zeroes it on purpose): a mean of squares of 0 needs eps "
            "before the square root or the division, or it becomes 1/0",
            f"{name} の行 0 はすべて 0 です(ラボが意図的に 0 にしています)。二乗平均が 0 になるので、平方根や"
            "割り算の前に eps を足さないと 1/0 になります",
        )
    if f["rows"] is not None:
        rows = f["rows"]
        if len(rows) == 1:
            return Said(
                f"row {rows[0]} has inf/NaN where torch has finite values: {hint.en}",
                f"行 {rows[0]} に、torch では有限の値なのに inf/NaN があります。{hint.ja}",
            )
        counted = f["rows_count"] or len(rows)  # rows is cut at a few; rows_count is all of them
        r = span(_runs(rows)) + (", …" if counted > len(rows) else "")
        return Said(
            f"rows {r} ({number(counted)} rows) have inf/NaN where torch has finite values: {hint.en}",
            f"行 {r}({number(counted)} 行)に、torch では有限の値なのに inf/NaN があります。{hint.ja}",
        )
    r = _listed(f, "ranges")
    if f["count"] == 1:
        return Said(
            f"element {r} is inf/NaN where torch has a finite value: {hint.en}",
            f"要素 {r} が、torch では有限の値なのに inf/NaN です。{hint.ja}",
        )
    return Said(
        f"elements {r} ({number(f['count'])}) are inf/NaN where torch has finite values: {hint.en}",
        f"要素 {r}({number(f['count'])} 個)が、torch では有限の値なのに inf/NaN です。{hint.ja}",
    )


def _loop_steps_slip(param: str, block: str, line: int, slip: Mapping, nan: bool = False) -> Said:
    """`loop-steps` with the rescale slip the lab read in the loop (`_rescale_slip_said`)."""
    said = Said(
        f"every case whose loop takes one step ({param} ≤ {block}) passes and every failing case takes several: ",
        f"ループが 1 ステップで終わるケース({param} ≤ {block})はすべて合格し、失敗したケースはすべて複数"
        "ステップです。",
    )
    return said + _rescale_slip_said(line, slip, nan)


def _rescale_slip_said(line: int, slip: Mapping, nan: bool = False) -> Said:
    """The rescale slip the lab read in the learner's loop, at `line`: an accumulator rescaled in one branch of
    an `if` only (`one-branch`), one running max's differences taken by tl.exp and tl.exp2 (`mixed-base`), a
    running max never carried to the next step (`uncarried`; `nan`: the case made NaN, which a step that masks
    a whole row does), a step's terms taken against another max than the sum's rescale (`terms-max`), or
    per-lane sums added after the loop without bringing each to the row max (`lanes-unrescaled`)."""
    kind = slip.get("slip")
    if kind == "lanes-unrescaled":
        name, lane, row, text = slip.get("name"), slip.get("lane_max"), slip.get("row_max"), slip.get("text")
        return Said(
            f"line {line} ({text}) adds the lanes' sums {name} as they are, but each lane's sum is relative to its "
            f"own running max {lane}, not to the row's max {row} — bring each to the row max first: "
            f"tl.sum({name} * tl.exp({lane} - {row}))",
            f"{line} 行目({text})はレーンごとの和 {name} をそのまま足していますが、各レーンの和はそのレーン自身の"
            f"途中の最大値 {lane} を基準にしていて、行の最大値 {row} が基準ではありません。先にそれぞれを行の"
            f"最大値の基準にそろえてください: tl.sum({name} * tl.exp({lane} - {row}))",
        )
    if kind == "uncarried":
        name, running, factor = slip.get("name"), slip.get("running"), slip.get("factor")
        said = Said(
            f"line {line} computes the new running max {running} from {name}, but the loop never sets {name} to "
            f"it: every step rescales by {factor} against the max the loop started with, not the previous "
            "step's (from -inf the factor is 0), so each step drops or misweights what the earlier steps added",
            f"{line} 行目で {name} から新しい途中の最大値 {running} を計算していますが、ループの中で {name} に"
            f"それを代入していません。そのため各ステップは、前のステップの最大値ではなくループ開始時の最大値に"
            f"対して {factor} で再スケールします(-inf から始めると係数は 0 です)。各ステップで、それまでの"
            "ステップで足した分が消えるか、誤った重みになります",
        )
        if nan:
            said += Said(
                f"; where a step masks a whole row, {running} is still -inf there and -inf - (-inf) is NaN",
                f"。ある行をすべてマスクするステップでは {running} もまだ -inf なので、-inf - (-inf) が NaN に"
                "なります",
            )
        return said + Said(
            f" — end the update with {name} = {running}",
            f"。更新の最後に {name} = {running} を追加してください",
        )
    if kind == "terms-max":
        name, running, other = slip.get("name"), slip.get("running"), slip.get("terms_max")
        terms, factor, at = slip.get("terms"), slip.get("factor"), slip.get("rescale_line")
        same = at == line
        return Said(
            f"line {line} takes this step's terms as {terms}, against {other}, while "
            f"{'the same line' if same else f'line {at}'} rescales the old {name} to {running} ({factor}) — "
            f"whenever {other} is below {running} the new terms are too large by the exponential of {running} - "
            f"{other}: take the terms against {running}",
            (
                f"{line} 行目では、古い {name} を {running} 基準に再スケールしている({factor})のに、このステップの"
                f"項は {other} 基準で {terms} として取っています。"
                if same
                else f"{at} 行目では古い {name} を {running} 基準に再スケールしている({factor})のに、{line} 行目"
                f"ではこのステップの項を {other} 基準で {terms} として取っています。"
            )
            + f"{other} が {running} より小さいステップでは、新しい項が ({running} - {other}) の指数関数の値の"
            f"倍率だけ大きくなりすぎます。項も {running} を基準に取ってください",
        )
    if kind == "one-branch":
        name, factor, at = slip.get("name"), slip.get("factor"), slip.get("rescaled_line")
        return Said(
            f"line {line} updates {name} without rescaling it by {factor}, as line {at} does in the other branch "
            f"of the if — whenever this branch runs after the max grew, {name} keeps terms scaled to the old "
            "max: rescale it in both branches",
            f"{line} 行目は {name} を {factor} で再スケールせずに更新していますが、if のもう一方の分岐では "
            f"{at} 行目で再スケールしています。最大値が増えたあとにこの分岐を通ると、{name} には古い最大値の"
            "スケールのままの項が残ります。両方の分岐で再スケールしてください",
        )
    base, arg, other, other_arg = slip.get("base"), slip.get("arg"), slip.get("other"), slip.get("other_arg")
    same = slip.get("other_line") == line
    where_en = "the same line" if same else f"line {slip.get('other_line')}"
    where_ja = "同じ行" if same else f"{slip.get('other_line')} 行目"
    return Said(
        f"line {line} takes tl.{base}({arg}), while {where_en} takes tl.{other}({other_arg}) of the same running "
        "max — one state in two bases, so the rescaled sum and the new terms disagree: use one exponential for "
        "both (exp2 where the values are in base-2 units)",
        f"{line} 行目は tl.{base}({arg}) を計算していますが、{where_ja}では同じ途中の最大値から "
        f"tl.{other}({other_arg}) を計算しています。1 つの状態に 2 つの底が混ざっているので、再スケールした和と"
        "新しい項が合いません。両方に同じ指数関数を使ってください(値が底 2 の単位なら exp2)",
    )


def _grad_times_input(f: Facts) -> Said:
    """A gradient equal to its right value times an input (value_slips.grad_times_input), with the one
    accumulation of the file whose term carries that input, where it was found."""
    name, x = f["output"] or "this gradient", f["input"] or "w"
    if f["per"] == "column":
        spot_en, spot_ja = f"column j × {x}[j]", f"列 j は {x}[j] 倍"
    else:
        spot_en, spot_ja = f"element i × {x}[i]", f"要素 i は {x}[i] 倍"
    said = Said(
        f"every element of {name} is its right value times {x} ({spot_en})",
        f"{name} のどの要素も、正しい値に {x} を掛けたものです({spot_ja})",
    )
    line, term = f["line"], f["term"] or "…"
    if not line:
        return said + Said(
            f" — a term summed into {name} carries a factor {x} it should not have: check what the backward "
            f"multiplies before it accumulates {name}",
            f"。{name} に足し込む項に、本来ないはずの {x} の因子が入っています。backward が {name} を累積する"
            "前に何を掛けているかを確認してください",
        )
    if f["via"]:
        via, via_line = f["via"], f["via_line"]
        through_en, through_ja = (
            f", and {via} carries {x} (line {via_line})",
            f"が、{via} には {x} が入っています({via_line} 行目)",
        )
    else:
        through_en, through_ja = f", which carries {x}", f"が、この項には {x} が入っています"
    return said + Said(
        f" — line {line} accumulates {term}{through_en}: each term summed into {name} is {x} times too large "
        f"— accumulate it without {x}",
        f"。{line} 行目で {term} を累積しています{through_ja}。{name} に足し込む各項に余分な {x} が掛かって"
        f"いるので、{x} を掛けずに累積してください",
    )


def _sigmoid_sign(f: Facts) -> Said:
    """An output equal to the reference with sigmoid(-t) for sigmoid(t) (value_slips.sigmoid_sign), with the
    file's flipped sigmoid where it was found."""
    said = Said(
        "the output equals the right formula with sigmoid(-t) where sigmoid(t) belongs",
        "出力は、正しい式の sigmoid(t) を sigmoid(-t) に置き換えた値と一致します",
    )
    line, expr, call = f["line"], f["expr"] or "…", f["call"] or "tl.exp(...)"
    if not line:
        return said + Said(
            " — check the sign of the exponent in your sigmoid: sigmoid(t) = 1 / (1 + exp(-t))",
            "。sigmoid の指数の符号を確認してください。sigmoid(t) = 1 / (1 + exp(-t)) です",
        )
    if f["form"] == "call":
        return said + Said(
            f" — line {line} takes {expr}, the sigmoid of the negated argument (sigmoid(-t) = 1 - sigmoid(t)): "
            "take the sigmoid of the argument itself",
            f"。{line} 行目は {expr} を計算しています。これは符号を反転した引数の sigmoid です"
            "(sigmoid(-t) = 1 - sigmoid(t))。引数そのものの sigmoid を取ってください",
        )
    if f["expr_line"]:
        where_en = f"line {line} takes {call} and line {f['expr_line']} makes it {expr}"
        where_ja = f"{line} 行目で {call} を計算し、{f['expr_line']} 行目でそれを {expr} にしています"
    else:
        where_en, where_ja = f"line {line} computes {expr}", f"{line} 行目は {expr} を計算しています"
    return said + Said(
        f" — {where_en}, a sigmoid with the exponent's sign flipped: sigmoid(t) = 1 / (1 + exp(-t))",
        f"。{where_ja}。これは指数の符号が逆になった sigmoid です。sigmoid(t) = 1 / (1 + exp(-t)) です",
    )


def _runs(values: list) -> list:
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return runs


def _pattern(f: Facts) -> Said | None:
    """The cross-case and value-pattern causes a mismatch and an inf/NaN diagnosis share."""
    cause = f["cause"]
    if cause == "stored-over":
        arg, stored = f["overlap_argument"] or "the output", f["overlap_count"]
        return Said(
            f"{_n(stored, 'en', 'element', 'elements', '')} of {arg} were stored by more than one program of one "
            "launch, and the last store wins (in an order a GPU does not keep): a program's store reaches into "
            "another program's part — mask each store to the program's own rows and columns (a block past the "
            "end of a segment, e.g. one head's last query block running into the next head's rows of a flat "
            "[B*H*S, D] tensor)",
            f"{arg} の {number(stored)} 要素が、1 回の起動の複数のプログラムからストアされていて、最後のストア"
            "が残ります(GPU はその順序を守りません)。あるプログラムのストアが別のプログラムの担当部分に"
            "届いています。各ストアをそのプログラム自身の行と列にマスクしてください(区間の終わりを越える"
            "ブロック。たとえば平らな [B*H*S, D] テンソルで、あるヘッドの最後のクエリブロックが次のヘッドの"
            "行に入り込む場合)",
        )
    if cause == "descriptor-axis" and f["line"]:
        # b_desc.load([k, off_m]): the coordinate along N is the one the file gives along M
        line, call, desc = f["line"], verbatim(f["call"] or "desc.load([...])"), f["desc"] or "the descriptor"
        size, coord, other = f["axis_size"] or "?", f["coordinate"] or "?", f["coordinate_axis"] or "?"
        at, instead, instead_at = f["coordinate_line"], f["instead"] or "?", f["instead_line"]
        return Said(
            f"line {line} ({call}) gives {desc}'s axis along {size} the coordinate {coord}, which line {at} gives "
            f"the axis along {other} — the tile is right only where the two coordinates happen to be equal: "
            f"along {size} use {instead}, as line {instead_at} does",
            f"{line} 行目({call})は、{desc} の {size} 方向の軸に座標 {coord} を渡していますが、これは {at} 行目で "
            f"{other} 方向の軸に渡している座標です。タイルが正しくなるのは 2 つの座標がたまたま等しいときだけです。"
            f"{size} 方向には、{instead_at} 行目と同じく {instead} を使ってください",
        )
    if cause == "exp2-without-log2e":
        line, call = f["line"], f["call"] or "tl.exp2(...)"
        return Said(
            f"line {line} takes {call}, and nothing in your file multiplies by log2(e): exp2(t) is 2^t, not "
            "e^t — write tl.exp(t), or tl.exp2(t * 1.4426950408889634) (exp(t) = exp2(t · log2(e)))",
            f"{line} 行目は {call} を計算していますが、ファイルのどこにも log2(e) を掛ける処理がありません。"
            "exp2(t) は e^t ではなく 2^t です。tl.exp(t) と書くか、tl.exp2(t * 1.4426950408889634) としてください"
            "(exp(t) = exp2(t · log2(e)))",
        )
    if cause == "loop-steps" and isinstance(f["rescale"], Mapping) and f["line"]:
        nan = f["kind"] == "nan"
        return _loop_steps_slip(f["param"] or "N", f["block"] or "BLOCK", f["line"], f["rescale"], nan)
    if cause == "loop-steps":
        param, block = f["param"] or "N", f["block"] or "BLOCK"
        return Said(
            f"every case whose loop takes one step ({param} ≤ {block}) passes and every failing case takes "
            f"several — check what carries from one {block} step to the next: the pointers' advance and the "
            "running state (max, sum, accumulator rescaled when the max grows)",
            f"ループが 1 ステップで終わるケース({param} ≤ {block})はすべて合格し、失敗したケースはすべて複数"
            f"ステップです。{block} のステップから次のステップへ引き継ぐもの(ポインタの進め方と、最大値・和・"
            "最大値が増えたときに再スケールするアキュムレータなどの途中の状態)を確認してください",
        )
    if cause == "variant-only":
        said = ", ".join(
            "+".join(str(x) for x in v) if k == "@with" and isinstance(v, list) else f"{k}={v}"
            for k, v in (f["variant"] or {}).items()
        )
        return Said(
            f"every failing case was called with {said}, and every case without them passes — check what "
            "those keywords change in your wrapper and kernel",
            f"失敗したケースはすべて {said} で呼んだもので、それ以外のケースはすべて合格しています。これらの"
            "キーワードがラッパーとカーネルの何を変えるかを確認してください",
        )
    if cause == "softmax-scale":
        c, name = float(f["factor"] or 1.0), f["input"] or "x"
        why = {
            "ln2": Said(
                "the exponential is exp2 but x is not multiplied by log2(e) first (exp(x) = exp2(x · log2(e)))",
                "指数関数は exp2 なのに、x に先に log2(e) を掛けていません(exp(x) = exp2(x · log2(e)))",
            ),
            "log2e": Said(
                "x is multiplied by log2(e) but the exponential is exp, not exp2",
                "x に log2(e) を掛けているのに、指数関数が exp2 ではなく exp です",
            ),
        }.get(
            str(f["form"]),
            Said(
                "the scores are scaled on the way to the exponential",
                "指数関数に渡す前にスコアが拡大・縮小されています",
            ),
        )
        return Said(
            f"the output equals softmax({name} × {c:.4g}) — the softmax is {'flatter' if c < 1 else 'sharper'} "
            f"than asked: {why.en}",
            f"出力は softmax({name} × {c:.4g}) と一致します。ソフトマックスが指定より"
            f"{'平坦' if c < 1 else '鋭く'}になっています。{why.ja}",
        )
    if cause == "upstream-overwritten":
        changed = number(f["changed"])
        return Said(
            f"your backward wrote into its incoming gradient (the grad_output autograd handed it; "
            f"{_n(f['changed'], 'en', 'element', 'elements', '')} changed) — whatever reads it afterwards, a later kernel of yours included, sees your "
            "values instead: store each gradient into a tensor of its own (torch.empty_like)",
            f"あなたの backward は、受け取った勾配(autograd が渡した grad_output)に書き込んでいます"
            f"({changed} 要素が変化)。そのあとでそれを読むもの(あなた自身の後続のカーネルも含む)は、"
            "autograd の値ではなくあなたの値を読みます。勾配はそれぞれ専用のテンソル(torch.empty_like)に"
            "ストアしてください",
        )
    if cause == "input-unread" and f["line"] and f["through"] and len(f["inputs"] or []) == 1:
        name, line, through = str(f["inputs"][0]), f["line"], str(f["through"])
        return Said(
            f"your kernels never loaded {name} — line {line} loads {name} through {through}, so {name}'s values "
            "cannot reach the output: load it through its own pointer",
            f"あなたのカーネルは {name} を一度もロードしていません。{line} 行目は {name} を {through} から"
            f"読んでいるので、{name} の値は出力に届きません。{name} 自身のポインタから読んでください",
        )
    if cause == "input-unread":
        names = [str(n) for n in f["inputs"] or []] or ["?"]
        listed_en, listed_ja = " and ".join(names), "、".join(names)
        return Said(
            f"your kernels never loaded {listed_en} — {'its' if len(names) == 1 else 'their'} values cannot "
            "reach the output: check the pointer each tl.load reads from (an input loaded through another "
            "input's pointer?) and that the wrapper passes it to the kernel",
            f"あなたのカーネルは {listed_ja} を一度もロードしていません。その値は出力に届きません。各 tl.load が"
            "どのポインタから読んでいるか(別の入力のポインタで読んでいないか)と、ラッパーがそれをカーネルに"
            "渡しているかを確認してください",
        )
    if cause == "input-missing":
        name, a, b = f["input"] or "bias", f["first_col"], f["last_col"]
        return Said(
            f"in columns {a}–{b} the output is the reference without {name} — {name} was not added there: "
            f"check the mask and the offsets of {name}'s load (one value per output column, masked against the "
            "number of columns)",
            f"列 {a}–{b} では、出力は {name} を除いた参照実装の結果です。そこでは {name} が足されていません。"
            f"{name} のロードのマスクとオフセットを確認してください(出力の列ごとに 1 つの値で、マスクは列数と"
            "比べます)",
        )
    if cause == "input-factor":
        name = f["input"] or "weight"
        forms = {
            "missing": Said(
                f"every column is the reference divided by its {name}: {name} is not applied",
                f"どの列も参照実装の結果をその列の {name} で割ったものです。{name} が掛けられていません",
            ),
            "one-plus": Said(
                f"every column is the reference times (1 + {name}) / {name}: {name} is applied as (1 + {name}) "
                "— a Gemma-style offset the reference does not use",
                f"どの列も参照実装の結果の (1 + {name}) / {name} 倍です。{name} が (1 + {name}) として掛けられて"
                "います。参照実装にはない Gemma 式のオフセットです",
            ),
            "twice": Said(
                f"every column is the reference times its {name} once more: {name} is applied twice",
                f"どの列も参照実装の結果にその列の {name} をもう一度掛けたものです。{name} が 2 回掛けられて"
                "います",
            ),
        }
        form = forms.get(str(f["form"]))
        if form is not None:
            return form
    if cause == "input-first-block" and f["block"]:
        name, width = f["input"] or "bias", f["block"]
        told = Said(
            f"the output is right with {name}[j] replaced by {name}[j mod {width}]: every column tile adds the "
            f"first {width} values of {name}",
            f"{name}[j] を {name}[j mod {width}] に置き換えると出力は正しい値になります。どの列タイルも {name} の"
            f"先頭の {width} 個の値を足しています",
        )
        if f["line"] and f["address"]:
            address = verbatim(f["address"])
            told += Said(
                f" — line {f['line']} loads it from {address}, an address with no term from tl.program_id",
                f"。{f['line']} 行目は {address} から読み込んでいて、このアドレスには tl.program_id から来る項が"
                "ありません",
            )
        return told + Said(
            f": add the tile's column start to {name}'s offsets (the column offsets the store uses)",
            f"。{name} のオフセットにタイルの列の開始位置を足してください(ストアが使う列のオフセットです)",
        )
    if cause == "input-axis":
        name, cols = f["input"] or "bias", f["length"]
        return Said(
            f"the output matches {name} applied per row ({name}[i] to every element of row i) — {name} "
            f"holds one value per output column ({cols}): index it with the column offsets and broadcast it "
            "down the rows ([None, :])",
            f"出力は {name} を行ごとに適用した結果(行 i のすべての要素に {name}[i])と一致します。{name} は出力の"
            f"列ごとに 1 つの値({cols} 個)を持つので、列のオフセットで読み込み、[None, :] で行方向に"
            "ブロードキャストしてください",
        )
    if cause == "row-scaled":
        pairs = [p for p in f["factors"] or [] if isinstance(p, (list, tuple)) and len(p) == 2]
        listed = ", ".join(f"row {r} × {float(x):.4g}" for r, x in pairs)
        listed_ja = "、".join(f"行 {r} は {float(x):.4g} 倍" for r, x in pairs)
        more = ", …" if (f["scaled_rows"] or 0) > len(pairs) else ""
        if f["divisor"] == "norm":  # a norm's rows (no exp in the file): what the root mean square is made of
            causes_en = (
                "its norm: the mean of squares over the whole row (divide by N, not the block), eps inside the "
                "square root, the weight applied after the statistics, padding summed in"
            )
            causes_ja = (
                "ノルム: 行全体の二乗平均(ブロックではなく N で割る)、平方根の内側の eps、統計量の後に掛ける"
                "重み、和に混ざったパディング"
            )
        else:
            causes_en = (
                "its sum or norm: the exp/exp2 base, the rescale when the max grows, a reduction over the wrong "
                "axis, padding summed in"
            )
            causes_ja = (
                "和やノルム: exp と exp2 の底、最大値が増えたときの再スケール、間違った軸でのリダクション、"
                "和に混ざったパディング"
            )
        if isinstance(f["rescale"], Mapping) and f["line"]:  # the rescale slip the loop shows in its source
            slip = _rescale_slip_said(f["line"], f["rescale"])
            if f["rescale"].get("slip") == "lanes-unrescaled":  # the divisor itself is the slip
                slip = (
                    Said("check what the row is divided by: ", "行を割っている量を確認してください。") + slip
                )
            if len(pairs) == 1 and not more:
                row, factor = pairs[0]
                return (
                    Said(
                        f"row {row} is off by one factor ({float(factor):.4g} times the right values) while the "
                        "other rows are right: ",
                        f"行 {row} だけが一定の倍率でずれています(正しい値の {float(factor):.4g} 倍)。ほかの行は"
                        "正しい値です。",
                    )
                    + slip
                )
            return (
                Said(
                    f"each wrong row is off by one factor of its own ({listed}{more}) — the values are right up to "
                    "each row's scale: ",
                    f"誤っている各行が、行ごとに一定の倍率でずれています({listed_ja}{'、…' if more else ''})。"
                    "値は行のスケールを除けば正しい値です。",
                )
                + slip
            )
        if len(pairs) == 1 and not more:
            row, factor = pairs[0]
            return Said(
                f"row {row} is off by one factor ({float(factor):.4g} times the right values) while the other "
                f"rows are right — check what the row is divided by ({causes_en})",
                f"行 {row} だけが一定の倍率でずれています(正しい値の {float(factor):.4g} 倍)。ほかの行は正しい"
                f"ので、行を割っている量({causes_ja})を確認してください",
            )
        return Said(
            f"each wrong row is off by one factor of its own ({listed}{more}) — the values are right up to "
            f"each row's scale: check what the row is divided by ({causes_en})",
            f"誤っている各行が、行ごとに一定の倍率でずれています({listed_ja}{'、…' if more else ''})。"
            f"値は行のスケールを除けば正しいので、行を割っている量({causes_ja})を確認してください",
        )
    if cause == "masked-block":
        said = ", ".join(f"{k}={v}" for k, v in (f["variant"] or {}).items())
        param, block, lead = f["param"] or "N", f["block"] or "BLOCK", number(f["lead_rows"])
        return Said(
            f"only the cases called with {said} fail (every other case passes, with several {block} steps too), "
            f"and the inf/NaN rows are the first {lead} along {param} — under a causal mask the rows that see the "
            "fewest positions: a block where the mask hides every position of such a row leaves its running max "
            "at -inf, and exp2(-inf - (-inf)) is NaN — visit first a block the row can see (walk the blocks "
            "upward from 0), or keep the subtracted max finite (tl.where(m_new == float('-inf'), 0.0, m_new))",
            f"{said} で呼んだケースだけが失敗し(ほかのケースは {block} のステップが複数あっても合格しています)、"
            f"inf/NaN になっている行は {param} に沿った最初の {lead} 行です。causal マスクのもとで見える位置が"
            "いちばん少ない行です。そうした行の位置をマスクがすべて隠すブロックでは実行中の最大値が -inf のまま"
            "残り、exp2(-inf - (-inf)) が NaN になります。その行から見えるブロックを先に処理する(ブロックを "
            "0 から順に進める)か、引く最大値を有限に保ってください"
            "(tl.where(m_new == float('-inf'), 0.0, m_new))",
        )
    if cause == "padding-counted":
        param, block = f["param"] or "N", f["block"] or "BLOCK"
        size, width = f["size"], f["padded_to"]
        extra = number(width - size) if isinstance(size, int) and isinstance(width, int) else "?"
        return Said(
            f"the output equals the reference with {param} padded with zeros to a multiple of {block} "
            f"({number(size)} → {number(width)}) — the {extra} padding positions past the end of {param} in the "
            f"last block are counted in: mask them out (positions ≥ {param}) before the max and the sum; a "
            "masked load with other=0.0 still leaves 0 there, where -inf belongs",
            f"出力は、{param} を {block} の倍数までゼロで埋めた({number(size)} → {number(width)})参照実装の"
            f"結果と一致します。最後のブロックで {param} の終わりを越えた {extra} 個のパディング位置が計算に"
            f"含まれています。最大値と和の前に、その位置({param} 以上)をマスクで除いてください。other=0.0 の"
            "マスク付きロードではそこに 0 が残りますが、入るべき値は -inf です",
        )
    if cause == "scale":
        factor = float(f["factor"]) if isinstance(f["factor"], (int, float)) else 1.0
        keyword = f["keyword"] or "scale"
        fitted, right = number(f["fitted"]), number(f["right"])
        forms = {
            "twice-log2e": Said(
                "the scale is applied twice (the scores multiplied by sm_scale · log2(e) once more)",
                "スケールが 2 回掛けられています(スコアに sm_scale · log2(e) をもう一度掛けています)",
            ),
            "twice": Said("the scale is applied twice", "スケールが 2 回掛けられています"),
            "missing": Said("the scale is not applied", "スケールが掛けられていません"),
            "log2e": Said(
                "log2(e) is folded into the scale but the exponential is exp, not exp2",
                "log2(e) をスケールに含めているのに、指数関数が exp2 ではなく exp です",
            ),
            "ln2": Said(
                "the exponential is exp2 but log2(e) is not folded into the scale",
                "指数関数は exp2 なのに、log2(e) がスケールに含まれていません",
            ),
        }
        if f["form"] == "default":
            default = verbatim(f["default"] or "its default")
            return Said(
                f"every case that passes {keyword} passes, and every case that leaves it out fails: the output "
                f"equals the reference at {keyword} = {fitted} where the default is {right} — the default is "
                f"wrong: when {keyword} is None use {default}",
                f"{keyword} を渡すケースはすべて通り、省略するケースはすべて失敗しています。出力は {keyword} = "
                f"{fitted} の参照実装と一致しますが、既定値は {right} です。既定値が誤っています。{keyword} が "
                f"None のときは {default} を使ってください",
            )
        form = forms.get(str(f["form"]))
        how = Said("flatter", "平坦に") if factor < 1 else Said("sharper", "鋭く")
        return Said(
            f"the output equals the reference computed with {keyword} = {fitted} instead of {right} "
            f"({factor:.4g}× the right scale): the softmax is {how.en} than asked"
            + (f" — {form.en}" if form else "")
            + " — check the scale: multiply the scores by it exactly once (sm_scale · log2(e) with exp2, "
            "sm_scale with exp)",
            f"出力は、{keyword} = {right} ではなく {fitted}(正しいスケールの {factor:.4g} 倍)で計算した"
            f"参照実装の結果と一致します。ソフトマックスが指定より{how.ja}なっています"
            + (f"。{form.ja}" if form else "")
            + "。スケールを確認してください。スコアに掛けるのはちょうど 1 回です(exp2 なら "
            "sm_scale · log2(e)、exp なら sm_scale)",
        )
    if cause == "far-rows":
        name = f["input"] or "x"
        return Said(
            f"only the case whose {name} has its rows 2**30 elements apart fails (row 2 starts at element 2**31) "
            "— an offset computed in int32 wraps there: compute the row offset in int64 "
            f"(`tl.program_id(0).to(tl.int64) * stride`), and step from row to row by {name}.stride(0), not by "
            "its width",
            f"失敗しているのは、{name} の行と行が 2**30 要素離れているケースだけです(行 2 は要素 2**31 から"
            "始まります)。int32 で計算したオフセットはそこで折り返します。行のオフセットは int64 で計算し"
            f"(`tl.program_id(0).to(tl.int64) * stride`)、行から行へは幅ではなく {name}.stride(0) で進んで"
            "ください",
        )
    if cause == "low-row":
        name = f["input"] or "x"
        return Said(
            f"only row 0 is wrong, and the lab moved that row of {name} to [-121, -119), where every exp "
            "underflows to 0 — the running max must start at -inf (not 0) and padding must load as -inf, so "
            "that the row's own max is what gets subtracted",
            f"誤っているのは行 0 だけです。ラボはこの行({name})を [-121, -119) に移しており、そこでは exp が"
            "すべて 0 にアンダーフローします。行自身の最大値が引かれるように、実行中の最大値は 0 ではなく "
            "-inf から始め、パディングも -inf として読み込んでください",
        )
    if cause == "dtype-only" and str(f["dtype"]) in ("float32", "float64") and f["cast"] and f["line"]:
        dtype, passing = str(f["dtype"]), ", ".join(str(d) for d in f["passing"] or [])
        line, cast = f["line"], f"`{f['cast']}`"
        target = (
            f"{f['pointer']}.dtype.element_ty" if f["pointer"] else "the output pointer's .dtype.element_ty"
        )
        target_ja = f"{f['pointer']}.dtype.element_ty" if f["pointer"] else "出力ポインタの .dtype.element_ty"
        return Said(
            f"only {dtype} cases fail ({passing} pass) — line {line} rounds to 16 bits ({cast}), so a {dtype} "
            f"output keeps only 16-bit precision: keep the output's own type ({target})",
            f"{dtype} のケースだけが失敗しています({passing} は合格)。{line} 行目で 16 ビットに丸めている"
            f"({cast})ため、{dtype} の出力にも 16 ビットの精度しか残りません。出力自身の型"
            f"({target_ja})のまま扱ってください",
        )
    if cause == "dtype-only" and str(f["dtype"]) in ("float32", "float64"):
        dtype, passing = str(f["dtype"]), ", ".join(str(d) for d in f["passing"] or [])
        return Said(
            f"only {dtype} cases fail ({passing} pass) — the result is rounded to a 16-bit type somewhere (a "
            ".to(tl.float16) / tl.bfloat16 cast or a 16-bit intermediate): cast to output_ptr.dtype.element_ty",
            f"{dtype} のケースだけが失敗しています({passing} は合格)。どこかで 16 ビットの型に丸められています"
            "(.to(tl.float16) / tl.bfloat16 へのキャストや 16 ビットの途中結果)。"
            "output_ptr.dtype.element_ty にキャストしてください",
        )
    if cause == "all-but-first" and f["line"] and f["address"] and f["pointer"]:
        line, address, pointer, instead = f["line"], verbatim(f["address"]), f["pointer"], f["instead"]
        return Said(
            f"in every failing case program 0 is right and every other program is wrong — line {line} loads "
            f"from {address}, an address with no term from tl.program_id, so every program reads the first "
            f"block of {pointer}: add the program's block start"
            + (f" (use {instead}, as the other accesses do)" if instead else ""),
            "失敗したどのケースでも、プログラム 0 だけが正しく、ほかのプログラムはすべて誤っています。"
            f"{line} 行目は {address} からロードしていますが、このアドレスには tl.program_id の項がないため、"
            f"どのプログラムも {pointer} の先頭ブロックを読んでいます。プログラムのブロックの開始位置を足して"
            "ください" + (f"(ほかのアクセスと同じく {instead} を使ってください)" if instead else ""),
        )
    if cause == "all-but-first":
        return Said(
            "in every failing case program 0 is right and every other program is wrong — what a program "
            "stores must follow its own tl.program_id(0), not a value every program shares",
            "失敗したどのケースでも、プログラム 0 だけが正しく、ほかのプログラムはすべて誤っています。"
            "各プログラムがストアする値は、全プログラム共通の値ではなく、自分の tl.program_id(0) に"
            "従わなければなりません",
        )
    if cause == "formula":
        dtype, passing = str(f["dtype"]), ", ".join(str(d) for d in f["passing"] or [])
        return Said(
            f"only {dtype} cases fail ({passing} pass), and nothing in this kernel rounds to 16 bits — the "
            "formula differs a little from the reference everywhere (another approximation, e.g. the tanh form "
            "for the exact erf or the other way round, a rounded constant, a term left out), which only the "
            f"strict {dtype} tolerance sees",
            f"{dtype} のケースだけが失敗しています({passing} は合格)。このカーネルには 16 ビットに丸める箇所が"
            "ありません。式そのものが参照実装とどこでも少しずつずれています(別の近似式、たとえば厳密な erf の"
            "代わりの tanh 近似やその逆、丸めた定数、抜けた項)。許容誤差の厳しい "
            f"{dtype} のケースでだけ、そのずれが見えています",
        )
    if cause == "dtype-only" and f["product"] and f["line"]:
        types, passing = str(f["dtype"]).split(" and "), ", ".join(str(d) for d in f["passing"] or [])
        dtype, dtype_ja = " and ".join(types), "と".join(types)
        line, product = f["line"], verbatim(f["product"])
        return Said(
            f"only {dtype} cases fail ({passing} pass) — line {line} computes {product} before .to(tl.float32): "
            f"a {dtype} value times a constant stays {dtype} and is rounded there — widen the load first "
            "(tl.load(...).to(tl.float32) * c)",
            f"{dtype_ja} のケースだけが失敗しています({passing} は合格)。{line} 行目は .to(tl.float32) の前に "
            f"{product} を計算しています。{dtype_ja} の値に定数を掛けても型は {dtype_ja} のままで、そこで丸められ"
            "ます。先に読み込んだ値を広げてください(tl.load(...).to(tl.float32) * c)",
        )
    if cause == "dtype-only":
        types, passing = str(f["dtype"]).split(" and "), ", ".join(str(d) for d in f["passing"] or [])
        dtype, dtype_ja = " and ".join(types), "と".join(types)
        verb = "overflows or loses" if len(types) == 1 else "overflow or lose"
        return Said(
            f"only {dtype} cases fail ({passing} pass) — {dtype} {verb} precision in an "
            "intermediate: compute in float32 (.to(tl.float32)) before the arithmetic and round once at the store",
            f"{dtype_ja} のケースだけが失敗しています({passing} は合格)。途中の計算で {dtype_ja} があふれるか精度を"
            "失っています。演算の前に float32 にして(.to(tl.float32))、ストアで一度だけ丸めてください",
        )
    if cause == "k-steps" and f["descriptors"]:
        return Said(
            "every case with one K step (K ≤ BLOCK_K) passes and every case with several fails — check what "
            "changes from one K step to the next: the coordinates each descriptor load takes, [row, column] of "
            "its own tensor (A's tile at [off_m, k * BLOCK_K], B's at [k * BLOCK_K, off_n], or "
            "[off_n, k * BLOCK_K] for B.T)",
            "K のステップが 1 回のケース(K ≤ BLOCK_K)はすべて合格し、複数回のケースはすべて失敗しています。"
            "ステップごとに変わるもの、つまり各ディスクリプタの load に渡す座標を確認してください。座標はそれぞれの"
            "テンソルの [行, 列] です(A のタイルは [off_m, k * BLOCK_K]、B は [k * BLOCK_K, off_n]、B.T なら "
            "[off_n, k * BLOCK_K])",
        )
    if cause == "padding-in-sum":
        pad, width, size, line = f["padding"], f["block_value"], f["size"], f["line"]
        terms, lanes = ("term", "lane") if pad == 1 else ("terms", "lanes")
        at_en, at_ja = (f" (line {line})", f"({line} 行目)") if line else ("", "")
        return Said(
            f"the output equals the softmax with {pad} extra exp(0 - max) {terms} in each row's sum — the {pad} "
            f"padding {lanes} of the {width}-wide block ({size} columns) reach the sum as 0{at_en}: keep the "
            "padding at -inf through the exp (exp(-inf) = 0) or mask it out of the sum",
            f"出力は、各行の和に exp(0 - max) の項を {pad} 個余分に足したソフトマックスと一致します。幅 {width} の"
            f"ブロック({size} 列)のパディング {pad} レーンが 0 として和に入っています{at_ja}。パディングは exp を"
            "通るまで -inf のままにする(exp(-inf) = 0)か、和からマスクで除いてください",
        )
    if cause == "per-chunk-scale":
        width, name, row, line = f["block_value"], f["block"], f["row"], f["line"]
        shown = ", ".join(f"{float(x):.4g}" for x in f["factors"] or [])
        named_en, named_ja = (f" ({name})", f"({name})") if name else ("", "")
        at_en, at_ja = (f" (line {line})", f"({line} 行目)") if line else ("", "")
        return Said(
            f"each chunk of {width} columns{named_en} is the answer times its own factor ({shown} in row {row}) — "
            f"each chunk is scaled by something it computed itself{at_en}: the write pass must use the row's max "
            "and sum, not the chunk's",
            f"{width} 列ずつのチャンク{named_ja}がそれぞれ、正解に固有の係数を掛けた値になっています(行 {row} では "
            f"{shown})。各チャンクが自分で計算した値でスケールされています{at_ja}。書き込みのパスでは、チャンクの"
            "ものではなく行全体の max と和を使ってください",
        )
    only = f["first_step"]
    if cause == "k-steps" and isinstance(only, Mapping):
        head = Said(
            "every case with one K step (K ≤ BLOCK_K) passes and every case with several fails, and the result "
            "is exactly the first K step's product: the later steps add nothing — ",
            "K のステップが 1 回のケース(K ≤ BLOCK_K)はすべて合格し、複数回のケースはすべて失敗しています。"
            "結果は最初の K ステップの積とぴったり一致し、2 回目以降のステップは何も足していません。",
        )
        if only.get("line"):
            line, loop, var, step, code = (only.get(k) for k in ("line", "loop_line", "var", "step", "code"))
            return head + Said(
                f"line {line} multiplies {var} by {step} ({code}), but the loop (line {loop}) already steps "
                f"{var} by {step}: {var} is an offset, not a step count, so from the second step on what that "
                f"line computes is {step} times too far — use {var} itself (the K mask: K - {var})",
                f"{line} 行目で {var} に {step} を掛けていますが({code})、ループ({loop} 行目)はすでに {var} を "
                f"{step} ずつ進めています。{var} はステップ数ではなくオフセットなので、2 回目以降はこの行の値が "
                f"{step} 倍ずれます。{var} をそのまま使ってください(K のマスクなら K - {var})",
            )
        return head + Said(
            "check what each later step loads: the K mask (what is left of K), the loop's range and how the A "
            "and B pointers advance",
            "2 回目以降の各ステップで何を読み込んでいるかを確認してください。K のマスク(K の残り)、ループの範囲、"
            "A と B のポインタの進め方です",
        )
    if cause == "k-steps":
        return Said(
            "every case with one K step (K ≤ BLOCK_K) passes and every case with several fails — check what "
            "changes from one K step to the next: how the A and B pointers advance (BLOCK_K * stride_ak, "
            "BLOCK_K * stride_bk) and the K mask",
            "K のステップが 1 回のケース(K ≤ BLOCK_K)はすべて合格し、複数回のケースはすべて失敗しています。"
            "ステップごとに変わるもの、つまり A と B のポインタの進め方(BLOCK_K * stride_ak、"
            "BLOCK_K * stride_bk)と K のマスクを確認してください",
        )
    if cause == "acc-reset":
        return Said(
            "the result is only the last K step's product — the accumulator is re-created inside the K loop: "
            "create it once, before the loop",
            "結果は最後の K ステップの積だけです。アキュムレータが K ループの中で作り直されています。"
            "ループの前で一度だけ作ってください",
        )
    if cause == "bias-in-loop":
        steps = f["steps"]
        return Said(
            f"the bias was added {steps} times, once per K step — add it once, after the loop",
            f"バイアスが K ステップごとに {steps} 回足されています。ループの後で一度だけ足してください",
        )
    if cause == "other-variant" and f["keyword"]:
        key, line = f["keyword"], f["line"]
        matches = f["matches"] if isinstance(f["matches"], list) else [f["matches"]]

        def en(value: Any) -> str:
            return f"{key}={value!r}" if value is not None else f"no {key}"

        def ja(value: Any) -> str:
            return f"{key}={value!r}" if value is not None else f"{key} なし"

        return Said(
            f"every element is the right answer for {' or '.join(map(en, matches))}, but this case asks for "
            f"{en(f['asked'])}: the kernel took the wrong branch — "
            + (f"check the condition at line {line}" if line else "check the condition that chooses it"),
            f"すべての要素が {' または '.join(map(ja, matches))} の場合の正しい答えになっていますが、このケース"
            f"は {ja(f['asked'])} です。カーネルが違う分岐に入っています。"
            + (f"{line} 行目の条件を確認してください" if line else "分岐を選ぶ条件を確認してください"),
        )
    if cause == "max-dropped":
        term, shift = verbatim(f["term"] or "logsumexp"), verbatim(f["shift"] or "max")
        return Said(
            f"the output equals the answer minus each row's max ({shift}): the logarithm ({term}) lost its + max "
            "— log(sum(exp(x - m))) is the logsumexp minus m, so add m back",
            f"出力は、答えから各行の最大値({shift})を引いた値になっています。対数({term})から + max が"
            "抜けています。log(sum(exp(x - m))) は logsumexp から m を引いたものなので、m を足し戻してください",
        )
    if cause == "log-units":
        term, line = verbatim(f["term"] or "log"), f["line"]
        if f["base"] == "e":
            return Said(
                f"the output equals the answer with its logarithm ({term}) taken in base e where base 2 belongs: "
                "divide it by ln 2",
                f"出力は、答えの対数({term})を底 2 にすべきところを自然対数のまま使った値になっています。"
                "ln 2 で割ってください",
            )
        at_en = f" (line {line})" if line else ""
        at_ja = f"({line} 行目)" if line else ""
        return Said(
            f"the output equals the answer with its logarithm ({term}) left in base 2{at_en} — a log2 of a sum of "
            "exp2 terms is the natural log times log2(e): multiply it by ln 2 (0.6931…) before using it",
            f"出力は、答えの対数({term})を底 2 のまま使った値になっています{at_ja}。exp2 の和の log2 は"
            "自然対数の log2(e) 倍です。使う前に ln 2(0.6931…)を掛けてください",
        )
    if cause == "stride-unused" and f["names"]:
        unused = ", ".join(str(n) for n in f["names"])
        return Said(
            f"your kernel takes {unused} and never uses {'it' if len(f['names']) == 1 else 'them'} — the lab passes "
            "tensors whose steps are not 1 (a transposed view): multiply each offset by its stride, as the "
            "address of x[i, j] is x_ptr + i * stride_xm + j * stride_xn",
            f"カーネルは {unused} を受け取っていますが、使っていません。ラボはステップが 1 でないテンソル(転置した"
            "ビュー)も渡します。各オフセットにストライドを掛けてください。x[i, j] のアドレスは "
            "x_ptr + i * stride_xm + j * stride_xn です",
        )
    if cause == "negatives-zeroed":
        count, asked, line = f["count"], f["activation"], f["line"]
        what_en = f"activation={asked!r}" if asked else "no activation"
        what_ja = f"activation={asked!r} を" if asked else "活性化関数なしを"
        return Said(
            f"{count} elements are wrong, and each is a negative value of the right answer that came out 0 "
            f"(every other element is right): a ReLU is applied where this case asks for {what_en} — "
            + (
                f"check the condition at line {line} that chooses it"
                if line
                else "check the condition that chooses the activation"
            ),
            f"{count} 個の要素が誤りで、どれも正しい答えでは負の値なのに 0 になっています(ほかの要素は正しい)。"
            f"このケースは{what_ja}求めているのに ReLU がかかっています。"
            + (
                f"{line} 行目の活性化を選ぶ条件を確認してください"
                if line
                else "活性化を選ぶ条件を確認してください"
            ),
        )
    if cause == "autotune-side-effect":
        runs = f["runs"] or 2
        return Said(
            f"the autotuner ran your kernel {runs - 1} more times while it timed the configs (as it does on a "
            f"GPU), and the output came out {runs}× the right one — the kernel accumulates into its output "
            "(tl.atomic_add, +=), so every timing run added again: give @triton.autotune reset_to_zero=[the "
            "output's name] (or zero it in a Config pre_hook)",
            f"autotuner が config の時間を測るあいだにカーネルをさらに {runs - 1} 回実行し(GPU でも同じです)、"
            f"出力が正しい値の {runs} 倍になりました。カーネルが出力に足し込んでいる(tl.atomic_add や +=)"
            "ので、計測のたびにまた足されています。@triton.autotune に reset_to_zero=[出力の引数名] を渡すか、"
            "Config の pre_hook で 0 にしてください",
        )
    if cause == "computed-zero" and f["loop_line"] and f["loop_kind"] == "never-ran":
        names = [str(n) for n in f["inputs"] or []] or ["?"]
        listed_en, listed_ja = " and ".join(names), "、".join(names)
        loop, bound, start = (
            f["loop_line"],
            verbatim(f["loop_count"] or "?"),
            verbatim(f["loop_start"] or "0"),
        )
        at_en = (
            f"check {bound} at line {f['bound_line']} ({verbatim(f['bound_text'] or '')})"
            if f["bound_line"]
            else f"check its bound {bound}"
        )
        at_ja = (
            f"{f['bound_line']} 行目の {bound}({verbatim(f['bound_text'] or '')})を確認してください"
            if f["bound_line"]
            else f"上限 {bound} を確認してください"
        )
        return Said(
            f"every element was stored, and every stored value is 0 — your kernels never loaded {listed_en}, "
            f"which only the loop at line {loop} loads: that loop never ran (its bound {bound} was no more than "
            f"its start {start} in every program) — {at_en}",
            f"すべての要素がストアされていて、その値がすべて 0 です。カーネルは {listed_ja} を一度もロードして"
            f"いません。それを読むのは {loop} 行目のループだけなので、このループは一度も回っていません(どの"
            f"プログラムでも上限 {bound} が開始値 {start} 以下でした)。{at_ja}",
        )
    if cause == "computed-zero" and f["loop_line"] and f["loop_kind"] == "whole-blocks":
        line, count = f["loop_line"], verbatim(f["loop_count"] or "n - BLOCK + 1")
        return Said(
            f"every element was stored, and every stored value is 0 — the loop at line {line} (bound {count}) "
            "runs over whole blocks only: a size smaller than the block gets no step, and the last partial "
            "block of a longer one is dropped — loop to the size itself in steps of the block and mask the "
            "last block",
            f"すべての要素がストアされていて、その値がすべて 0 です。{line} 行目のループ(上限 {count})は"
            "ブロック全体が収まる範囲しか回りません。大きさがブロックより小さいと一度も回らず、長い場合も最後の"
            "端数のブロックが落ちます。上限は大きさそのものにしてブロック幅ずつ進め、最後のブロックはマスクして"
            "ください",
        )
    if cause == "computed-zero" and f["loop_line"]:
        line, count = f["loop_line"], verbatim(f["loop_count"] or "n // BLOCK")
        return Said(
            f"every element was stored, and every stored value is 0 — the loop at line {line} runs {count} "
            "steps, rounded down: when the size is smaller than the block it runs none, and nothing is "
            "accumulated — count the steps with tl.cdiv and mask the last block",
            f"すべての要素がストアされていて、その値がすべて 0 です。{line} 行目のループは {count} 回、つまり"
            "切り捨てた回数だけ回ります。大きさがブロックより小さいと一度も回らず、何も足し込まれません。"
            "回数は tl.cdiv で数え、最後のブロックはマスクしてください",
        )
    if cause == "computed-zero":
        return Said(
            "every element was stored, and every stored value is 0 — the kernel computes 0: check what the "
            "computation starts from and what it multiplies by",
            "すべての要素がストアされていて、その値がすべて 0 です。カーネルが 0 を計算しています。計算の"
            "初期値と、掛けている値を確認してください",
        )
    if cause == "tf32-dot":
        line, call = f["line"], verbatim(f["call"] or "tl.dot(a, b)")
        return Said(
            f"line {line} — {call} multiplies float32 in TF32 on this GPU (the default: 10 mantissa bits per "
            'input), and every wrong element is within that rounding: pass input_precision="ieee" for '
            "float32 products",
            f"{line} 行目の {call} は、この GPU では float32 を TF32 で掛けます(既定の動作で、入力ごとに仮数部は "
            "10 ビット)。ずれた要素はどれもその丸め誤差の範囲内です。float32 の精度で掛けるには "
            'input_precision="ieee" を渡してください',
        )
    if cause == "no-axis":
        line, call = f["line"], f["call"] or "tl.sum(...)"
        return Said(
            f"line {line} reduces with {call} and no axis= — on a 2D tile that folds every row (or column) into "
            "one value: pass axis=1 for one value per row",
            f"{line} 行目の {call} には axis= がありません。2 次元のタイルでは全行(または全列)が 1 つの値に"
            "まとめられてしまいます。行ごとに 1 つの値なら axis=1 を渡してください",
        )
    if cause == "scaled":
        factor = f"{float(f['factor']):.4g}" if isinstance(f["factor"], (int, float)) else "?"
        if f["n_minus_one"]:
            n = number(f["n_minus_one"])
            at = f" (line {f['line']})" if f["line"] else ""
            at_ja = f"({f['line']} 行目)" if f["line"] else ""
            return Said(
                f"every element is off by the same factor ({factor} times the right value), and that is "
                f"√((N − 1)/N) for N = {n}: the mean of squares is divided by N − 1{at} — divide the sum by N",
                f"すべての要素が同じ倍率でずれています(正しい値の {factor} 倍)。これは N = {n} での "
                f"√((N − 1)/N) です。二乗平均を N − 1 で割っています{at_ja}。和は N で割ってください",
            )
        return Said(
            f"every element is off by the same factor ({factor} times the right value) — a missing or extra "
            "scale: a sum where a mean belongs (divide by N), a square root, or a constant",
            f"すべての要素が同じ倍率でずれています(正しい値の {factor} 倍)。スケールが欠けているか余分です。"
            "平均にすべきところが和になっていないか(N で割る)、平方根や定数の掛け忘れ・掛けすぎがないかを"
            "確認してください",
        )
    if cause == "split-not-multiple":
        line, name, tile, block = (
            f["line"],
            f["name"] or "full_end",
            f["tile"] or "BLOCK_M",
            f["block"] or "BLOCK_N",
        )
        size, step = number(f["tile_value"]), number(f["block_value"])
        return Said(
            f"line {line} splits the loop at {name}, a multiple of {tile} = {size}, but the loop steps by {block} = "
            f"{step}, and {size} is not a multiple of {step}: the last whole block before {name} runs past it, "
            f"into the part the mask should handle (a causal attention's rows then see future keys) — make {tile} "
            f"a multiple of {block}, or round {name} down to a multiple of {block}",
            f"{line} 行目はループを {name}({tile} = {size} の倍数)で分けていますが、ループは {block} = {step} "
            f"ずつ進み、{size} は {step} の倍数ではありません。{name} の手前の最後のブロックが {name} を越えて、"
            f"マスクで扱うはずの範囲まで入り込みます(因果的アテンションでは行が未来のキーを見てしまいます)。"
            f"{tile} を {block} の倍数にするか、{name} を {block} の倍数に切り下げてください",
        )
    if cause == "rescale-after-add":
        line, name, factor = f["line"], f["name"] or "l", verbatim(f["factor"] or "exp(m - m_new)")
        if f["added"]:  # two statements of a key loop: acc = tl.dot(p, v, acc); acc = acc * alpha[:, None]
            added = verbatim(f["added"])
            return Said(
                f"line {line} multiplies the running sum {name} by {factor} after this block's terms were "
                "added, so the new terms are shrunk too (on the first block the running max is -inf and the "
                f"factor is 0, which wipes them) — rescale the old sum first, then add the block: {name} = "
                f"{name} * {factor} + {added}",
                f"{line} 行目は、このブロックの項を足したあとで累積和 {name} に {factor} を掛けています。"
                "そのため新しい項まで縮んでしまいます(最初のブロックでは累積最大値が -inf なので係数は 0 に"
                f"なり、項が消えます)。先に古い和をスケールし直してから、ブロックを足してください: {name} = "
                f"{name} * {factor} + {added}",
            )
        return Said(
            f"line {line} multiplies the running sum {name} by {factor} after this chunk's terms were added, "
            "so the new terms are shrunk too (on the first chunk the running max is -inf and the factor is 0, "
            f"which wipes them) — rescale the old sum first, then add the chunk: {name} = {name} * factor + "
            "sum(...)",
            f"{line} 行目は、このチャンクの項を足したあとで累積和 {name} に {factor} を掛けています。"
            "そのため新しい項まで縮んでしまいます(最初のチャンクでは累積最大値が -inf なので係数は 0 になり、"
            f"項が消えます)。先に古い和をスケールし直してから、チャンクを足してください: {name} = {name} * "
            "係数 + sum(...)",
        )
    if cause == "local-index":
        line, local, where = f["line"], f["local"] or "offs_m", f["position"] or "cols"
        instead, at = f["instead"] or "?", f["instead_line"]
        return Said(
            f"line {line} compares {local} (an index inside the block: 0, 1, 2, …) with {where} (positions in the "
            f"whole sequence) — right in the first block only; use {instead} (line {at}), the same index's "
            "position in the sequence",
            f"{line} 行目は {local}(ブロック内の添字: 0, 1, 2, …)と {where}(系列全体での位置)を比べています。"
            f"これが正しいのは最初のブロックだけです。同じ添字の系列での位置である {instead}({at} 行目)を"
            "使ってください",
        )
    if cause == "pid-in-row-loop":
        line, load, var, pid = (
            f["line"],
            verbatim(f["load"] or "tl.load(...)"),
            f["var"] or "row",
            f["pid"] or "pid",
        )
        return Said(
            f"line {line} loads {load} inside the loop over {var}, indexed by the program id {pid}: every {var} "
            f"this program visits gets the value of {var} {pid} (right only for the first {var} of each "
            f"program) — index it by {var}",
            f"{line} 行目は {var} のループの中で {load} を読み込んでいますが、添字がプログラム ID の {pid} です。"
            f"このプログラムが受け持つどの {var} にも {var} = {pid} の値が使われます(各プログラムの最初の {var} "
            f"だけが正しくなります)。添字は {var} にしてください",
        )
    if cause == "truncated":
        return Said(
            "the stored values are the right ones cut to whole numbers — an integer cast (.to(tl.int32)) or "
            "integer division before the store",
            "ストアされた値は正しい値の小数部を切り捨てたものです。ストアの前に整数へのキャスト"
            "(.to(tl.int32))か整数の割り算があります",
        )
    if cause == "permuted":
        return Said(
            "the output holds the right values in the wrong places — check how the output is indexed (its "
            "strides, and rows vs columns)",
            "出力には正しい値が入っていますが、場所が違います。出力の添字(ストライド、行と列の取り違え)を"
            "確認してください",
        )
    if cause == "block-offsets":
        return _block_offsets(f)
    if cause == "varies-in-block":
        return _varies_in_block(f)
    if cause == "nan-reduction":
        why = (
            Said("your kernel already subtracts a maximum", "カーネルはすでに最大値を引いています")
            if f["subtracts_max"]
            else Said(
                "these rows cannot overflow exp (|x| < 80)",
                "これらの行は exp があふれる値ではありません(|x| < 80)",
            )
        )
        if f["tiles"] is False:  # scalar row state (an online softmax): no axis to get wrong
            return why + Said(
                ", so a missing row max is not the cause — look for -inf - -inf or 0 * inf in the running state: "
                "a running max still -inf when it is subtracted (is it updated: m = m_new?), a rescale factor "
                "exp(m_new - m) instead of exp(m - m_new), or padding summed in",
                "。原因は行の最大値の引き忘れではありません。途中の状態の -inf - -inf や 0 * inf を探してください。"
                "引くときに実行中の最大値がまだ -inf のまま(m = m_new で更新していますか?)、再スケールの係数が "
                "exp(m - m_new) ではなく exp(m_new - m)、あるいはパディングを足し込んでいないかを確認してください",
            )
        return why + Said(
            ", so a missing row max is not the cause — look for -inf - -inf or 0/0: a max or sum over the wrong "
            "axis (axis=1 gives one value per row, broadcast back with [:, None]) or padding lanes summed into it",
            "。原因は行の最大値の引き忘れではありません。-inf - -inf や 0/0 を探してください。間違った軸での"
            "最大値や和(行ごとに 1 つの値なら axis=1、[:, None] で戻す)や、パディングのレーンを足し込んで"
            "いないかを確認してください",
        )
    return None


def _block_offsets(f: Facts) -> Said:
    """Right per-program values whose boundaries sit at the wrong elements: overlapping or shifted blocks."""
    where = Said("", "")
    if f["owner"] is not None and f["at"] is not None:
        at, owner, start = number(f["at"]), number(f["owner"]), number(f["owner_start"])
        where = Said(
            f" (element {at} holds program {owner}'s value, but program {owner}'s block starts at element "
            f"{start})",
            f"(要素 {at} にプログラム {owner} の値が入っていますが、プログラム {owner} のブロックは要素 {start} "
            "から始まります)",
        )
    twice = Said("", "")
    if f["stored_twice"]:
        twice = Said(
            f"; {_n(f['stored_twice'], 'en', 'element was', 'elements were', '')} stored by more than one "
            "program",
            f"。{number(f['stored_twice'])} 要素は複数のプログラムからストアされています",
        )
    return (
        Said(
            "every stored value is one that some program should store, but the values change at the wrong "
            "elements",
            "ストアされた値はどれも、いずれかのプログラムがストアすべき値ですが、値の切り替わる位置がずれています",
        )
        + where
        + twice
        + Said(
            " — the programs' blocks overlap or are shifted: each program's offsets must start at "
            "pid * BLOCK_SIZE (offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE))",
            "。プログラムどうしのブロックが重なっているか、ずれています。各プログラムのオフセットは "
            "pid * BLOCK_SIZE から始めてください(offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE))",
        )
    )


def _varies_in_block(f: Facts) -> Said:
    """Values that change from lane to lane inside a block where every lane must hold its program's value."""
    seen = ", ".join(number(v) for v in f["block_values_seen"] or []) + (
        ", …" if f["block_values_more"] else ""
    )
    program, value = number(f["program"]), number(f["block_value"])
    if f["pid_values"]:
        whose = Said("its program id, pid", "そのプログラムの ID(pid)")
        fix = Said(
            f"store pid in every lane (tl.full((BLOCK_SIZE,), pid, dtype=tl.{f['dtype'] or 'int32'}))",
            f"pid をすべてのレーンにストアしてください(tl.full((BLOCK_SIZE,), pid, dtype=tl.{f['dtype'] or 'int32'}))",
        )
    else:
        whose = Said(
            "that program's one value, computed from its program id (tl.program_id(0))",
            "そのプログラムの ID(tl.program_id(0))から求めた 1 つの値",
        )
        fix = Said(
            "compute the value from tl.program_id(0) alone, not from tl.arange or the offsets",
            "値は tl.arange やオフセットからではなく、tl.program_id(0) だけから求めてください",
        )
    if f["lane"] and f["offsets"]:
        what = Said(
            "the lane index (tl.arange) or the offsets were stored",
            "レーン番号(tl.arange)かオフセットがそのままストアされています",
        )
    elif f["lane"]:
        what = Said(
            "the lane index tl.arange(0, BLOCK_SIZE) was stored",
            "レーン番号 tl.arange(0, BLOCK_SIZE) がそのままストアされています",
        )
    elif f["offsets"]:
        what = Said("the offsets themselves were stored", "オフセットそのものがストアされています")
    else:
        what = Said("a value computed per lane was stored", "レーンごとに計算した値がストアされています")
    return (
        Said(
            "every lane of a program's block must hold the same value — ",
            "プログラムのブロックでは、すべてのレーンが同じ値、つまり",
        )
        + whose
        + Said(
            f" — but the stored values change from lane to lane (program {program}'s block should hold {value} "
            f"everywhere and holds {seen}): ",
            f"を持つはずですが、ストアされた値がレーンごとに変わっています(プログラム {program} のブロックは"
            f"すべて {value} のはずが、{seen} です)。",
        )
        + what
        + Said(" — ", "。")
        + fix
    )


@says(Kind.MISMATCH)
def _mismatch(f: Facts) -> Said:
    count = f["count"]
    tol = f"atol={number(f['atol'])}, rtol={number(f['rtol'])}" if f["atol"] is not None else ""
    err = number(f["max_abs_err"])
    declared = f.get("atol_declared")
    widened = (
        Said(
            f" — atol is this sum's float32 rounding, {number(f['atol'])}, not the declared "
            f"{number(declared)}: any summation order fits in it",
            f"。atol は宣言された {number(declared)} ではなく、この長さの和の float32 の丸め誤差 "
            f"{number(f['atol'])} です(どの順序で足してもこの範囲に入ります)",
        )
        if declared is not None and f["atol"] is not None
        else Said("", "")
    )
    head = (
        Said(
            f"{_n(count, 'en', 'element', 'elements', '')} {'differs' if count == 1 else 'differ'} beyond "
            "tolerance "
            f"({tol + '; ' if tol else ''}largest error {err})",
            f"{number(count)} 要素が許容誤差を超えて異なります({tol + '、' if tol else ''}最大誤差 {err})",
        )
        + widened
    )
    cause = f["cause"]
    pattern = _pattern(f)
    if pattern is not None:
        return head + Said(": ", "。") + pattern
    if cause == "one-partial":
        # a weight's gradient equal to the sum over program 0's rows only: stage 2 read partial[0] alone
        name, programs, rows = f["output"] or "the gradient", f["programs"], f["partial_rows"] or [0]
        total = f["rows_count"] or len(rows)
        shown = ", ".join(number(r) for r in rows[:4]) + (", …" if total > 4 else "")
        return head + Said(
            f": {name} is only program 0's share of the sum ({'row' if total == 1 else 'rows'} {shown}, with "
            f"{_n(programs, 'en', 'program', 'programs', '')}), "
            "so stage 2 read partial[0] alone — add the partial rows of every program "
            "(for p in range(P): total += partial[p])",
            f"。{name} はプログラム 0 の分(行 {shown}、プログラム数 {number(programs)})の和でしかありません。"
            "第 2 段が partial[0] だけを読んでいます。すべてのプログラムの部分和の行を足してください"
            "(for p in range(P): total += partial[p])",
        )
    if cause == "stat-recomputed":
        # the forward's saved tensor (rstd) reached no backward kernel, and a backward kernel takes a root itself
        kernel, line = f["kernel"] or "your backward kernel", f["line"]
        source = f" ({verbatim(f['source'])})" if f["source"] else ""
        source_ja = f"({verbatim(f['source'])})" if f["source"] else ""
        forward_en, forward_ja = "the forward's formula", "forward の式"
        if f["forward_line"] and f["forward_source"]:
            code = verbatim(f["forward_source"])
            forward_en = f"the forward's formula (line {f['forward_line']}: {code})"
            forward_ja = f"forward の式({f['forward_line']} 行目: {code})"
        return head + Said(
            f": your backward kernel {kernel} recomputes rstd at line {line}{source} instead of using the "
            "forward's — no backward kernel is handed the tensor the forward stored it in — compare with "
            f"{forward_en}, or save rstd in the forward and pass it to the backward",
            f"。backward のカーネル {kernel} は、forward の rstd を使わずに {line} 行目{source_ja}で計算し直して"
            "います(forward が rstd をストアしたテンソルは、どの backward のカーネルにも渡されていません)。"
            f"{forward_ja}と比べるか、forward で rstd を保存して backward に渡してください",
        )
    if cause == "partials-transposed":
        # a later launch read a buffer an earlier one stored along its rows, in another layout (stage 2 reading
        # the [P, N] partials as [N, P]): most loaded elements belong to another column
        name, kernel, buffer = f["output"] or "the output", f["kernel"] or "the kernel", f["buffer"] or "it"
        writer, line, store_line = f["store_kernel"] or "the earlier kernel", f["line"], f["store_line"]
        at_en = f" (line {line})" if line else ""
        at_ja = f"({line} 行目)" if line else ""
        stored_en = f" (line {store_line}, rows of" if store_line else " (rows of"
        stored_ja = f"{store_line} 行目、" if store_line else ""
        row = number(f["row"]) if f["row"] else "N"
        example = Said("", "")
        if f["column"] is not None and f["read_column"] is not None:
            c, r = number(f["column"]), number(f["read_column"])
            example = Said(
                f"; e.g. a lane that writes column {c} loaded a value stored for column {r}",
                f"。たとえば列 {c} を書くレーンが、列 {r} 用にストアされた値をロードしています",
            )
        return head + Said(
            f": {name} is made of the wrong columns' partials — {kernel}{at_en} reads {buffer} in another layout "
            f"than {writer} stored it{stored_en} {row} elements): {number(f['misread'])} of "
            f"{_n(f['lanes'], 'en', 'loaded element', 'loaded elements', '')} were stored for another column "
            f"than the one the loading program writes{example.en} — read the buffer the way it was stored "
            "(row p at p * N + cols)",
            f"。{name} は別の列の部分和でできています。{kernel}{at_ja}は {buffer} を、{writer} がストアしたとき"
            f"({stored_ja}1 行 {row} 要素)とは別の並びで読んでいます。ロードした {number(f['lanes'])} 要素の"
            f"うち {number(f['misread'])} 要素は、読んだプログラムが書く列とは別の列のためにストアされた値です"
            f"{example.ja}。ストアしたときと同じ並びで読んでください(行 p は p * N + cols)",
        )
    if cause == "partial-last-row":
        # a weight's gradient equal to the sum over each program's last row: stage 1's accumulator reset per row
        name, programs, rows = f["output"] or "the gradient", f["programs"], f["partial_rows"] or []
        total = f["rows_count"] or len(rows)
        shown = ", ".join(number(r) for r in rows[:4]) + (", …" if total > 4 else "")
        if f["line"] and f["reset"]:
            acc, line, reset = f["name"] or "the accumulator", f["line"], verbatim(f["reset"])
            where = Said(
                f"the accumulator {acc} is re-created inside the row loop (line {line}: {reset}): create it "
                "once, before the loop",
                f"アキュムレータ {acc} を行のループの中で作り直しています({line} 行目: {reset})。ループの前で"
                "一度だけ作ってください",
            )
        else:
            where = Said(
                "is the accumulator re-created inside the row loop? Create it once, before the loop",
                "アキュムレータを行のループの中で作り直していませんか。ループの前で一度だけ作ってください",
            )
        return (
            head
            + Said(
                f": {name} is the sum of each program's last row alone ({'row' if total == 1 else 'rows'} "
                f"{shown}, with {_n(programs, 'en', 'program', 'programs', '')}): right while every program has "
                "one row, wrong once a program has several — each partial keeps only the last row it saw: ",
                f"。{name} は各プログラムの最後の行だけの和です(行 {shown}、プログラム数 {number(programs)})。"
                "どのプログラムも 1 行だけなら正しく、1 つのプログラムが複数の行を受け持つと誤ります。各部分和"
                "には、そのプログラムが最後に見た行しか残っていません。",
            )
            + where
        )
    if cause in ("partial-twice", "partial-missing"):
        # a weight's gradient off by exactly one program's partial: counted twice, or never added
        name, programs, rows = f["output"] or "the gradient", f["programs"], f["partial_rows"] or [0]
        program = f["program"] or 0
        total = f["rows_count"] or len(rows)
        shown = ", ".join(number(r) for r in rows[:4]) + (", …" if total > 4 else "")
        which_en = (
            f"{'row' if total == 1 else 'rows'} {shown}, with {_n(programs, 'en', 'program', 'programs', '')}"
        )
        which_ja = f"行 {shown}、プログラム数 {number(programs)}"
        if cause == "partial-twice":
            return head + Said(
                f": {name} is the whole sum plus program {program}'s share once more ({which_en}): stage 2 adds "
                f"partial[{program}] twice — a partial loaded before the loop that the loop then adds again; add "
                "each partial row exactly once",
                f"。{name} は全体の和に、プログラム {program} の分({which_ja})をもう一度足したものです。第 2 段が "
                f"partial[{program}] を 2 回足しています。ループの前に読み込んだ部分和を、ループでもう一度足して"
                "いないか確認してください。部分和の各行はちょうど 1 回ずつ足します",
            )
        return head + Said(
            f": {name} is the whole sum without program {program}'s share ({which_en}): stage 2 never adds "
            f"partial[{program}] — the loop over the partials must run over all of them (for p in range(0, P))",
            f"。{name} は全体の和からプログラム {program} の分({which_ja})が抜けています。第 2 段が "
            f"partial[{program}] を足していません。部分和のループはすべての行を回る必要があります"
            "(for p in range(0, P))",
        )
    if cause == "along-input":
        # a gradient whose every wrong row is off by a multiple of that row of the input: a norm's mean term
        name, x = f["output"] or "the gradient", f["input"] or "x"
        said = head + Said(
            f": every wrong row of {name} is its right value plus a multiple of that row of {x} — the term of "
            f"the backward proportional to {x}, {x}̂ · mean(g · {x}̂), has the wrong weight",
            f"。{name} の誤っている各行は、正しい値にその行の {x} の定数倍を足したものです。backward のうち "
            f"{x} に比例する項 {x}̂ · mean(g · {x}̂) の重みが違います",
        )
        weight = f"{float(f['mean_weight']):.4g}" if isinstance(f["mean_weight"], (int, float)) else None
        if f["mean_block"] and weight:
            block, n, value = f["mean_block"], number(f["n"]), number(f["block_value"])
            return said + Said(
                f" ({weight}× = N/{block} = {n}/{value}): the mean divides the row's sum by {block}, the padded "
                "block, instead of N — divide by N",
                f"({weight} 倍 = N/{block} = {n}/{value})。平均が行の和を N ではなく、パディングを含む"
                f"ブロック幅 {block} で割っています。N で割ってください",
            )
        if weight:
            return said + Said(
                f" ({weight}× the right one): check the mean — the row's sum divided by N",
                f"(正しい値の {weight} 倍)。平均(行の和を N で割ったもの)を確認してください",
            )
        return said + Said(
            ": check the mean — the row's sum divided by N, the row length — and the factors around it",
            "。平均(行の和を行の長さ N で割ったもの)と、その前後に掛かる係数を確認してください",
        )
    if cause == "all-zero":
        return head + Said(
            ": every element is 0 — is the result stored, and stored to the output that is returned?",
            "。すべての要素が 0 です。結果をストアしていますか? 返す出力テンソルにストアしていますか?",
        )
    if cause == "size-threshold":
        # sizes that grew together in the cases are named together (`also`): the cases cannot tell them apart
        sizes = [f] + [_Facts(a) for a in f["also"] or [] if isinstance(a, Mapping)]
        names = [str(x["param"]) for x in sizes]
        at = ", ".join(f"{x['param']} = {number(x['value'])}" for x in sizes)
        at_ja = "、".join(f"{x['param']} = {number(x['value'])}" for x in sizes)
        up = ", ".join(f"{x['param']} = {number(x['passed_up_to'])}" for x in sizes)
        up_ja = "、".join(f"{x['param']} = {number(x['passed_up_to'])}" for x in sizes)
        whole, whole_ja = " and ".join(names), "と".join(names)
        unread = f["unread"]
        if isinstance(unread, Mapping) and unread.get("input"):
            name, count, numel = (
                str(unread["input"]),
                number(unread.get("unread")),
                number(unread.get("numel")),
            )
            first, last = unread.get("first") or [], unread.get("last") or []
            spot = f"{name}[{', '.join(map(str, first))}]"
            if last != first:
                where_en = f"{spot} to {name}[{', '.join(map(str, last))}]"
                where_ja = f"{spot} から {name}[{', '.join(map(str, last))}]"
            else:
                where_en = where_ja = spot
            told = head + Said(
                f": every element is wrong at {at}, while every case up to {up} passes, and the kernel never "
                f"loaded {count} of the {numel} elements of {name} ({where_en})",
                f"。{at_ja} ではすべての要素が違い、{up_ja} までのケースはすべて合格しています。カーネルは {name} の "
                f"{numel} 要素のうち {count} 要素({where_ja})を一度も読み込んでいません",
            )
            chunk = f["chunk_offset"]
            if isinstance(chunk, Mapping) and chunk.get("line"):
                c_line, c_loop, c_var, c_block, c_code = (
                    chunk.get(k) for k in ("line", "loop_line", "var", "block", "code")
                )
                return told + Said(
                    f": line {c_line} starts chunk {c_var} at {c_var} itself ({c_code}), so the chunks overlap and stop "
                    f"short of the end — the loop (line {c_loop}) counts chunks: start chunk {c_var} at {c_var} * {c_block}",
                    f"。{c_line} 行目でチャンク {c_var} の開始位置を {c_var} そのものにしているため({c_code})、チャンク同士が"
                    f"重なり、末尾まで届きません。ループ({c_loop} 行目)はチャンクの番号を数えているので、チャンク "
                    f"{c_var} は {c_var} * {c_block} から始めてください",
                )
            return told + Said(
                f" — does a loop (or the block) reach the whole of {whole}, and do its steps overlap?",
                f"。ループ(またはブロック)が {whole_ja} 全体に届いているか、ステップ同士が重なっていないかを"
                "確認してください",
            )
        if f["loaded_all"]:
            return head + Said(
                f": every element is wrong at {at}, while every case up to {up} passes, yet the kernel read all "
                f"of its input: it reaches the whole of {whole} but keeps only part of it — is the accumulator "
                "reset inside the loop?",
                f"。{at_ja} ではすべての要素が違い、{up_ja} までのケースはすべて合格していますが、カーネルは入力を"
                f"すべて読んでいます。{whole_ja} 全体に届いているのに、その一部しか残っていません。"
                "ループの中でアキュムレータを初期化し直していませんか?",
            )
        return head + Said(
            f": every element is wrong at {at}, while every case up to {up} passes — the kernel covers sizes "
            f"only up to a limit: does a loop (or the block) reach the whole of {whole}?",
            f"。{at_ja} ではすべての要素が違いますが、{up_ja} までのケースはすべて合格しています。"
            f"カーネルがある大きさまでしか扱えていません。ループ(またはブロック)が {whole_ja} 全体に"
            "届いていますか?",
        )
    if cause == "param-threshold":
        name, value, upto = str(f["param"]), number(f["value"]), number(f["passed_up_to"])
        other, other_value, other_upto = str(f["other"]), number(f["other_value"]), number(f["other_up_to"])
        return head + Said(
            f": every element is wrong at {name} = {value}, {other} = {other_value}, while every case up to "
            f"{name} = {upto}, {other} = {other_upto} passes — check what grows with them: the loop over "
            f"{other} (what each step computes) and the reach of the block over {name}",
            f"。{name} = {value}、{other} = {other_value} ではすべての要素が違いますが、{name} = {upto}、"
            f"{other} = {other_upto} までのケースはすべて合格しています。これらと一緒に大きくなるものを"
            f"確認してください: {other} のループ(各ステップの計算)と、ブロックが {name} 全体に届くかどうかです",
        )
    if cause == "carried-acc":
        tiles, total = f["tiles"], f["tiles_total"] or f["tiles"]
        checked = f["tiles_checked"] or total  # results from before the sample: every wrong tile was checked
        ja_which = f"間違っている {number(total)} 個のタイルのうち {number(tiles)} 個は"
        if checked < total:  # a sample of the wrong tiles (a large GPU case)
            which = (
                f"{number(tiles)} of the {number(checked)} wrong tiles checked (of {number(total)}) "
                f"{'is its' if tiles == 1 else 'are their'}"
            )
            ja_which = (
                f"間違っている {number(total)} 個のタイルから調べた {number(checked)} 個のうち "
                f"{number(tiles)} 個は"
            )
        elif tiles == total:
            which = (
                "the wrong tile is its" if total == 1 else f"each of the {number(total)} wrong tiles is its"
            )
        else:
            which = f"{number(tiles)} of the {number(total)} wrong tiles {'is its' if tiles == 1 else 'are their'}"
        return head + Said(
            f": {which} right value plus another tile's result — the accumulator "
            "carries over from the program's previous tile: create it (tl.zeros) at the start of each tile, "
            "inside the tile loop",
            f"。{ja_which}、正しい値に別のタイルの結果を"
            "足したものです。"
            "アキュムレータがプログラムの前のタイルから持ち越されています。タイルのループの中で、各タイルの"
            "最初に(tl.zeros で)作ってください",
        )
    if cause == "upstream-ignored":
        name = f["output"] or "this gradient"
        return head + Said(
            f": {name} equals the gradient for an upstream gradient of all ones — the backward never multiplied "
            "by the gradient it was handed (dy): multiply by it (the chain rule)",
            f"。{name} は上流の勾配がすべて 1 の場合の勾配と一致します。backward が受け取った勾配(dy)を"
            "掛けていません。連鎖律どおり dy を掛けてください",
        )
    if cause == "grad-times-input":
        return head + Said(": ", "。") + _grad_times_input(f)
    if cause == "sigmoid-sign":
        return head + Said(": ", "。") + _sigmoid_sign(f)
    if cause == "swapped":
        name, other = f["output"] or "this output", f["swapped_with"] or "the other output"
        return head + Said(
            f": it holds the expected {other}, and {other} holds the expected {name} — the two are returned in "
            "the wrong order (return them in the order of the inputs)",
            f"。{name} には期待される {other} の値が、{other} には期待される {name} の値が入っています。"
            "2 つを返す順序が逆です(入力の順に返してください)",
        )
    if cause in (None, "all-wrong") and f["near_miss"] and f.get("lossy16", True) is False:
        ratio = number(f["near_miss"])
        return head + Said(
            f": every wrong element is within {ratio}× the tolerance — nearly right, but this case has no "
            "16-bit step or dot to lose precision in: a small error in the formula — a rounded or mistyped "
            "constant, an approximation, or padding lanes counted in a sum or max (mask them out, or load them "
            "with other= set to the neutral value)",
            f"。ずれた要素はどれも許容誤差の {ratio} 倍以内で、値はほぼ正しいのですが、このケースには精度を"
            "失うような 16 ビットの途中結果も dot もありません。式の小さな誤りです。丸めたり打ち間違えたりした"
            "定数、近似式、または和や最大値に数えられたパディングのレーン(マスクで除くか、other= に"
            "中立な値を指定して読み込んでください)を確認してください",
        )
    if cause in (None, "all-wrong") and f["near_miss"]:
        ratio = number(f["near_miss"])
        return head + Said(
            f": every wrong element is within {ratio}× the tolerance — the values are nearly right and precision "
            "is lost on the way: a product or scale rounded to fp16/bf16 before the end, a 16-bit accumulator, a "
            "dot in TF32 — keep intermediates in float32 until the store",
            f"。ずれた要素はどれも許容誤差の {ratio} 倍以内で、値はほぼ正しく、途中で精度が失われています。"
            "積やスケールを最後より前に fp16/bf16 へ丸めていないか、16 ビットのアキュムレータ、TF32 の dot が"
            "ないかを確認してください。途中の値はストアまで float32 のまま計算します",
        )
    if cause == "all-wrong" and str(f["output"] or "").startswith("grad"):
        return head + Said(
            ": every element of this gradient is wrong — check its formula in the backward (the forward's "
            "output is checked on its own)",
            "。この勾配はすべての要素が違います。backward の中のこの勾配の式を確認してください(順伝播の出力は"
            "別に確認しています)",
        )
    if cause == "all-wrong":
        return head + Said(
            ": every element is wrong — check the operation, the argument order and the dtype",
            "。すべての要素が違います。演算、引数の順序、dtype を確認してください",
        )
    where_en, where_ja = _cells(f)
    if f["programs"]:
        progs = _listed(f, "programs")
        of = f" (of {number(f['n_programs'])})" if f["n_programs"] else ""
        of_ja = f"(全 {number(f['n_programs'])} 個中)" if f["n_programs"] else ""
        where_en = f"{'program' if _one(f['programs']) else 'programs'} {progs}{of}, {where_en}"
        where_ja = f"プログラム {progs}{of_ja}、{where_ja}"
    elif f["tile_ids"]:  # 2D: the (row tile, column tile) of each program that wrote a wrong value
        tiles = ", ".join(f"({a}, {b})" for a, b in f["tile_ids"])
        if (f["tile_ids_total"] or 0) > len(f["tile_ids"]):
            tiles += ", …"
        where_en = f"{where_en} (tiles {tiles})"
        where_ja = f"{where_ja}(タイル {tiles})"
    if cause == "tail-block":
        return head + Said(
            f", only in the last, partial block ({where_en}): the tail lanes are handled wrongly — check "
            "the mask and "
            "the other= value",
            f"。最後の端数ブロックだけです({where_ja})。末尾のレーンの扱いが誤っています。マスクと other= の"
            "値を"
            "確認してください",
        )
    return head + Said(f" in {where_en}", f"。場所: {where_ja}")


# ---- diagnoses of a verify case ----------------------------------------------------------------------------


@says(Kind.NO_KERNEL_LAUNCHED)
def _no_kernel(f: Facts) -> Said:
    entry = _entry(f)
    if f["phase"] == "backward":
        return Said(
            "no kernel of yours ran in the backward: the gradients were computed by torch — the backward must "
            "launch your Triton kernels",
            "逆伝播ではあなたのカーネルが 1 つも実行されていません。勾配は torch が計算しました。backward の中で"
            "自分の Triton カーネルを起動してください",
        )
    if f["foreign"]:
        return Said(
            f"the kernels that ran are not defined in your file: {entry.en} must launch the @triton.jit "
            "kernel you "
            "wrote (returning torch's own result does not count)",
            f"実行されたカーネルはあなたのファイルで定義されたものではありません。{entry.ja} は自分で書いた "
            "@triton.jit カーネルを起動する必要があります(torch の結果を返すだけでは合格になりません)",
        )
    return Said(
        f"no Triton kernel ran: {entry.en} must launch the @triton.jit kernel you wrote (returning torch's "
        "own result "
        "does not count)",
        f"Triton カーネルが 1 つも実行されていません。{entry.ja} は自分で書いた @triton.jit カーネルを"
        "起動する必要が"
        "あります(torch の結果を返すだけでは合格になりません)",
    )


@says(Kind.INPUT_MODIFIED)
def _input_modified(f: Facts) -> Said:
    arg, changed = f["arg"], number(f["changed"])
    if f["cause"] == "launch-order" and f["line"] and f["param"] and f["output_param"]:
        # the launch swapped the tensors: the kernel's store is right, the arguments are not
        line, kernel, param, other = f["line"], f["kernel"] or "the kernel", f["param"], f["output_param"]
        passed, out = verbatim(f["input_text"]), verbatim(f["output_text"])
        return Said(
            f"the launch at line {line} passes {passed} as {param} and {out} as {other}: your kernel stored its "
            f"result into your input {arg} (through {param}) and read the output as {other} — pass the tensors "
            f"in the order of {kernel}'s parameters: {out} as {param}, {passed} as {other}",
            f"{line} 行目の起動は {param} に {passed}、{other} に {out} を渡しています。そのためカーネルは結果を"
            f"入力 {arg} に({param} を通して)ストアし、出力を {other} として読みました。{kernel} の引数の順に"
            f"テンソルを渡してください: {param} には {out}、{other} には {passed} です",
        )
    if f["holds"]:
        held = str(f["holds"])
        grad = held.startswith("grad_")
        what = f"{held} (the gradient of {held[5:]})" if grad else held
        what_ja = f"{held}({held[5:]} の勾配)" if grad else held
        return Said(
            f"your code stored {what} over its input {arg} ({arg} now holds {held}): inputs are read-only — "
            f"autograd and the caller may still use {arg}; store {held} into a new tensor "
            f"(torch.empty_like({arg}))",
            f"{what_ja}を入力 {arg} の上にストアしています({arg} の中身が {held} になっています)。入力は読み取り"
            f"専用です。autograd や呼び出し側がまだ {arg} を使うかもしれません。{held} は新しいテンソル"
            f"(torch.empty_like({arg}))にストアしてください",
        )
    return Said(
        f"your kernel modified its input {arg} ({_n(f['changed'], 'en', 'element', 'elements', '')} changed): "
        "inputs are read-only — store "
        "into the "
        "output instead",
        f"カーネルが入力 {arg} を書き換えました({changed} 要素が変化)。入力は読み取り専用です。出力に"
        "ストアしてください",
    )


@says(Kind.PERF_BYTES)
def _perf_bytes(f: Facts) -> Said:
    moved, budget = f"{int(f['moved'] or 0):,}", f"{int(f['budget'] or 0):,}"
    reread = [r for r in f["reread"] or [] if isinstance(r, dict) and r.get("arg") and r.get("line")][:3]
    if f["loaded"] is not None and f["reads"] is not None and reread:
        loaded, reads = f"{int(f['loaded']):,}", f"{int(f['reads']):,}"
        en = "; ".join(
            f"{r['arg']} is loaded again at line {r['line']}, by a program that had already loaded those elements"
            for r in reread
        )
        ja = "。".join(
            f"{r['arg']} は {r['line']} 行目で、同じプログラムがすでに読んだ要素をもう一度読んでいます"
            for r in reread
        )
        return Said(
            f"correct, but the kernel moved {moved} bytes where {budget} are enough: it loaded {loaded} bytes "
            f"where {reads} are enough: {en} — keep what the second pass needs from the first (or compute it "
            "in one pass)",
            f"結果は正しいものの、{budget} バイトで足りるところを {moved} バイト転送しています。読み込みは "
            f"{reads} バイトで足りるところを {loaded} バイトです。{ja}。2 回目に必要なものは 1 回目で保持するか、"
            "1 回の走査で計算してください",
        )
    if f["loaded"] is not None and f["reads"] is not None:
        loaded, reads = f"{int(f['loaded']):,}", f"{int(f['reads']):,}"
        return Said(
            f"correct, but the kernel moved {moved} bytes where {budget} are enough: it loaded {loaded} bytes "
            f"where {reads} are enough — it reads some data more than once",
            f"結果は正しいものの、{budget} バイトで足りるところを {moved} バイト転送しています。読み込みは "
            f"{reads} バイトで足りるところを {loaded} バイトで、同じデータを複数回読んでいます",
        )
    return Said(
        f"correct, but the kernel moved {moved} bytes where {budget} are enough: it reads some data more "
        "than once",
        f"結果は正しいものの、{budget} バイトで足りるところを {moved} バイト転送しています。同じデータを"
        "複数回読んでいます",
    )


@says(Kind.WRONG_SHAPE)
def _wrong_shape(f: Facts) -> Said:
    if f["got_type"] in ("None", "NoneType"):
        return Said(
            "the wrapper returned None — return the output tensor",
            "ラッパーが None を返しました。出力テンソルを return してください",
        )
    if f["got_type"]:
        return Said(
            f"the wrapper returned {f['got_type']}, not a torch.Tensor — return the output tensor",
            f"ラッパーの戻り値が {f['got_type']} で、torch.Tensor ではありません。出力テンソルを return "
            "してください",
        )
    got, exp = shape(f["got"]), shape(f["expected"])
    return Said(f"output shape {got}, expected {exp}", f"出力の形状が {got} です(正しくは {exp})")


@says(Kind.WRONG_DTYPE)
def _wrong_dtype(f: Facts) -> Said:
    got, exp = dtype(f["got"]), dtype(f["expected"])
    line, code = f["line"], _code(f["code"])
    if line and code and f["fixed"]:
        return Said(
            f"output dtype {got}, expected {exp} — this output is {exp} whatever the inputs' dtype: allocate it "
            f"with dtype=torch.{exp} at line {line} ({code})",
            f"出力の dtype が {got} です(正しくは {exp})。この出力は入力の dtype によらず {exp} です。"
            f"{line} 行目({code})で dtype=torch.{exp} を指定して確保してください",
        )
    if line and code:
        return Said(
            f"output dtype {got}, expected {exp} — line {line} makes it {got} ({code}): allocate it like the "
            "input (torch.empty_like) or pass dtype=",
            f"出力の dtype が {got} です(正しくは {exp})。{line} 行目({code})で {got} になっています。"
            "入力と同じように確保する(torch.empty_like)か、dtype= を指定してください",
        )
    if f["fixed"]:
        return Said(
            f"output dtype {got}, expected {exp} — this output is {exp} whatever the inputs' dtype: allocate it "
            f"with dtype=torch.{exp}",
            f"出力の dtype が {got} です(正しくは {exp})。この出力は入力の dtype によらず {exp} です。"
            f"dtype=torch.{exp} で確保してください",
        )
    return Said(
        f"output dtype {got}, expected {exp} — allocate it like the input (torch.empty_like) or pass dtype=",
        f"出力の dtype が {got} です(正しくは {exp})。入力と同じように確保する(torch.empty_like)か、dtype= を"
        "指定してください",
    )


@says(Kind.WRONG_DEVICE)
def _wrong_device(f: Facts) -> Said:
    if f["cause"] == "default-device" and f["line"]:
        line = f["line"]
        return Said(
            f"line {line} allocates a buffer your kernel is given with no device=: torch puts it on its default "
            "device, the CPU — the same as the inputs here, but not on a GPU, where the launch fails: allocate "
            "it with device=x.device (or torch.empty_like(x))",
            f"{line} 行目で、カーネルに渡すバッファを device= なしで確保しています。torch は既定のデバイス"
            "(CPU)に置きます。ここでは入力も CPU なので動きますが、GPU では起動に失敗します。"
            "device=x.device を指定してください(または torch.empty_like(x))",
        )
    return Said(
        f"output is on {f['got']}, inputs are on {f['expected']}",
        f"出力が {f['got']} 上にありますが、入力は {f['expected']} 上にあります",
    )


@says(Kind.LESSON)
def _lesson(f: Facts) -> Said:
    q = verbatim(f["exception"] or f["message"])
    return Said(
        f"the lesson cannot build this case (a problem in the lesson, not your code): {q}",
        f"レッスンがこのケースを作れません(あなたのコードではなくレッスン側の問題です): {q}",
    )


@says(Kind.VALIDATION)
def _validation(f: Facts) -> Said:
    why = f["why"]
    why_en = why.get("en") if isinstance(why, Mapping) else why
    if f["cause"] == "checked-after-launch":
        line = f["line"]
        at_en = f" at line {line}" if line else ""
        return Said(
            f"your check raised{at_en}, but only after the kernel had already run with this input: move the "
            "checks above the launch",
            f"{line} 行目のチェックが例外を送出しましたが、それはカーネルがこの入力ですでに実行された後でした。"
            "チェックを起動より前に移してください"
            if line
            else "チェックが例外を送出しましたが、それはカーネルがこの入力ですでに実行された後でした。"
            "チェックを起動より前に移してください",
        )
    if f["cause"] in ("broken-check", "refused-with"):
        q, line = verbatim(f["exception"]), f["line"]
        at_en, at_ja = (f" at line {line}", f"{line} 行目で") if line else ("", "")
        if f["cause"] == "broken-check":
            return Said(
                f"the wrapper stopped{at_en} with {q}: that is a bug in the check itself, not a refusal — "
                "fix the check so that it raises ValueError or TypeError naming the values it compared",
                f"ラッパーは{at_ja} {q} で止まりました。これは拒否ではなく、チェック自体のバグです。"
                "比べた値を示す ValueError か TypeError を送出するようにチェックを直してください",
            )
        names = [str(t) for t in f["expected_types"] or []]
        wanted = " or ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " or " + names[-1]
        wanted_ja = "、".join(names[:-1]) + (" か " if len(names) > 1 else "") + names[-1] if names else ""
        assertion = f["type"] == "AssertionError"
        return Said(
            f"the wrapper refused this input{at_en} with {q}, but this exercise asks for {wanted}"
            + (" (python -O removes an assert, and the check with it)" if assertion else ""),
            f"ラッパーは{at_ja}この入力を {q} で拒否しましたが、この演習では {wanted_ja} で拒否します"
            + ("(python -O では assert がチェックごと消えます)" if assertion else ""),
        )
    check = f["check"]
    if f["cause"] == "failed-in-kernel" and isinstance(check, Mapping) and check.get("fixed"):
        # a check is there, but its and/or lets this input through (contracts.check_let_through)
        op = "or" if check.get("op") == "or" else "and"
        other = "and" if op == "or" else "or"
        parts = [p for p in check.get("parts") or [] if isinstance(p, Mapping)]
        said = [f"{verbatim(p.get('text'))} is {bool(p.get('value'))}" for p in parts]
        parts_en = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + (said[-1] if said else "")
        parts_ja = "、".join(f"{verbatim(p.get('text'))} は {bool(p.get('value'))}" for p in parts)
        line, written, fixed = check.get("line"), verbatim(check.get("check")), verbatim(check.get("fixed"))
        need_en = (
            "True when any one of its parts is, so the check raises only when every one of them is False"
            if op == "or"
            else "True only when all of its parts are, so the check raises only when every one of them holds"
        )
        need_ja = (
            "どれか 1 つが True なら True になるので、チェックはすべてが False のときにしか例外を送出しません"
            if op == "or"
            else "すべてが True のときにしか True にならないので、チェックはすべての条件が成り立つときにしか"
            "例外を送出しません"
        )
        return Said(
            f"this input reached the kernel past your check at line {line} (if {written}): here {parts_en}; "
            f"`{op}` is {need_en} — join them with `{other}`: if {fixed}",
            f"この入力は {line} 行目のチェック(if {written})を通り抜けてカーネルに届きました。この入力では "
            f"{parts_ja} です。`{op}` は{need_ja}。`{other}` でつないでください: if {fixed}",
        )
    if f["cause"] == "failed-in-kernel":
        return Said(
            "this input reached the kernel and failed there: the wrapper must refuse it with an exception "
            "before the launch",
            "この入力は起動前に拒否されず、カーネルの中で失敗しました。起動前に確認して例外を送出してください",
        )
    if f["case_name"] or why_en:  # the case's own name already says what the input is
        return Said(
            "the wrapper accepted this input, which it must reject: check it and raise an exception before "
            "the launch",
            "拒否すべきこの入力をラッパーが受け付けました。起動前に確認して例外を送出してください",
        )
    return Said(
        "the wrapper accepted input it must reject: check it and raise an exception before the launch",
        "拒否すべき入力をラッパーが受け付けました。起動前に確認して例外を送出してください",
    )


#: verify.requires names (engine/features.py) in words.
FEATURES: dict[str, Said] = {
    "gpu": Said("a CUDA GPU", "CUDA GPU"),
    "tensor-descriptors": Said(
        "device-side tensor descriptors (tl.make_tensor_descriptor + triton.set_allocator)",
        "デバイス側のテンソルディスクリプタ(tl.make_tensor_descriptor + triton.set_allocator)",
    ),
    "host-descriptors": Said(
        "host-side tensor descriptors (triton.tools.tensor_descriptor.TensorDescriptor)",
        "ホスト側のテンソルディスクリプタ(triton.tools.tensor_descriptor.TensorDescriptor)",
    ),
    "warp-specialize": Said(
        "warp specialization (tl.range(..., warp_specialize=True))",
        "ワープ特化(tl.range(..., warp_specialize=True))",
    ),
}


def feature(name: Any, lang: str) -> str:
    said = FEATURES.get(str(name))
    return said.in_(lang) if said else str(name)


@says(Kind.SKIPPED)
def _skipped(f: Facts) -> Said:
    missing = list(f["missing"] or [])
    en = ", ".join(feature(m, "en") for m in missing) or "?"
    ja = "、".join(feature(m, "ja") for m in missing) or "?"
    version = f["triton"] or "?"
    if missing == ["gpu"]:
        return Said(
            "not run here: this exercise runs only on a GPU (the interpreter cannot model it); it is not a failure",
            "ここでは実行しません:この演習は GPU 上でのみ動きます(インタプリタでは再現できません)。不合格ではありません",
        )
    return Said(
        f"not run here: this exercise needs {en}, which this setup (Triton {version}) lacks; it is not a failure",
        f"ここでは実行しません:この演習には{ja}が必要ですが、この環境(Triton {version})にはありません。"
        "不合格ではありません",
    )


# ---- contracts the lesson teaches (engine/contracts.py) ---------------------------------------------------


@says(Kind.GRID_SIZE)
def _grid_size(f: Facts) -> Said:
    launched, expected = f["launched"], f["expected"]
    fewer = isinstance(launched, int) and isinstance(expected, int) and launched < expected
    at, at_ja = (f" at line {f['line']}", f"{f['line']} 行目の") if f["line"] else ("", "")
    head_en = (
        f"the grid{at} launched {_n(launched, 'en', 'program', 'programs', '')} for "
        f"{_n(expected, 'en', 'block', 'blocks', '')}"
    )
    head_ja = (
        f"{number(expected)} ブロックに対して{at_ja}グリッドが {number(launched)} プログラムを起動しました"
    )
    if f.get("pattern") == "fixed":
        return Said(
            head_en + f": the grid launches {_n(launched, 'en', 'program', 'programs', '')} in every case, "
            "whatever n — the number of programs must follow n: use triton.cdiv(n, BLOCK_SIZE)",
            head_ja + f"。グリッドは n に関係なく、どのケースでも {number(launched)} プログラムです。"
            "プログラム数は n に合わせて変わる必要があります。triton.cdiv(n, BLOCK_SIZE) を使ってください",
        )
    if fewer:
        return Said(
            head_en + ": one program per block, rounded up — use triton.cdiv(n, BLOCK_SIZE)",
            head_ja + "。ブロックごとに 1 プログラム、切り上げで数えます。"
            "triton.cdiv(n, BLOCK_SIZE) を"
            "使ってください",
        )
    pattern = f.get("pattern")
    if pattern == "swapped":
        return Said(
            head_en
            + ": triton.cdiv's arguments are swapped (cdiv(BLOCK_SIZE, n)) — use triton.cdiv(n, BLOCK_SIZE)",
            head_ja + "。triton.cdiv の引数が逆になっています(cdiv(BLOCK_SIZE, n))。"
            "triton.cdiv(n, BLOCK_SIZE) を使ってください",
        )
    if pattern == "per-element":
        return Said(
            head_en + ": one program per element, where each program handles a whole block of BLOCK_SIZE "
            "elements — use triton.cdiv(n, BLOCK_SIZE)",
            head_ja + "。要素ごとに 1 プログラムを起動しています。各プログラムは BLOCK_SIZE 要素の"
            "ブロックを 1 つ受け持つので、triton.cdiv(n, BLOCK_SIZE) を使ってください",
        )
    if pattern == "plus-one":
        return Said(
            head_en + ": the extra program has nothing to do — use triton.cdiv(n, BLOCK_SIZE), not "
            "n // BLOCK_SIZE + 1",
            head_ja + "。余分なプログラムには仕事がありません。n // BLOCK_SIZE + 1 ではなく "
            "triton.cdiv(n, BLOCK_SIZE) を使ってください",
        )
    return Said(
        head_en + ": the extra programs have nothing to do — one program per block, rounded up: "
        "use triton.cdiv(n, BLOCK_SIZE)",
        head_ja + "。余分なプログラムには仕事がありません。ブロックごとに 1 プログラム、切り上げで数えます。"
        "triton.cdiv(n, BLOCK_SIZE) を使ってください",
    )


@says(Kind.OUTPUT_LAYOUT)
def _output_layout(f: Facts) -> Said:
    strides = shape(f["strides"] or ())
    made, made_ja = (f" made at line {f['line']}", f"{f['line']} 行目で作った") if f["line"] else ("", "")
    if f["transposed"] and len(f["shape"] or ()) == 2:
        dims = shape(f["shape"])
        flipped = shape(list(reversed(f["shape"])))
        return Said(
            f"the output{made} is laid out transposed (shape {dims}, strides {strides}): the memory of a row-major "
            f"{flipped} tensor, seen through .t() (or made by torch.empty_like of a transposed tensor) — "
            f"allocate the output row-major in its own shape, torch.empty({dims}, ...), and store each element "
            "at its place there",
            f"{made_ja}出力のレイアウトが転置になっています(形状 {dims}、ストライド {strides})。行優先の {flipped} の"
            "テンソルのメモリを .t() で見たもの(または転置されたテンソルの torch.empty_like で作ったもの)です。"
            f"出力はそれ自身の形状で行優先に確保し(torch.empty({dims}, ...))、各要素をそこでの位置にストア"
            "してください",
        )
    if f["padded"] and len(f["shape"] or ()) == 2 and len(f["strides"] or ()) == 2:
        dims = shape(f["shape"])
        pitch, width = number(f["strides"][0]), number(f["shape"][1])
        at = Said("", "")
        if f["line"] and f["source"]:
            at = Said(
                f" (line {f['line']}: {verbatim(f['source'])})",
                f"({f['line']} 行目: {verbatim(f['source'])})",
            )
        return Said(
            f"the output comes back with strides {strides}: rows {pitch} elements apart holding {width} each — a "
            f"slice or view of a wider buffer{at.en}, not a row-major tensor: return a tensor whose row stride is "
            f"its width, torch.empty({dims}, ...)",
            f"出力のストライドが {strides} です。行の間隔が {pitch} 要素なのに、各行は {width} 要素しかありません。"
            f"もっと幅の広いバッファのスライスかビュー{at.ja}で、行優先のテンソルではありません。行のストライドが"
            f"幅と等しいテンソル(torch.empty({dims}, ...))を返してください",
        )
    like = str(f["like"])[:40] if f["like"] else None
    return Said(
        f"the output{made} comes back with strides {strides}, not row-major: allocate it with "
        "torch.empty(x.shape, ...)" + (f" (torch.empty_like keeps {like}'s layout)" if like else ""),
        f"{made_ja}出力のストライドが {strides} で、行優先になっていません。torch.empty(x.shape, ...) "
        "で確保してください" + (f"(torch.empty_like は {like} のレイアウトを引き継ぎます)" if like else ""),
    )


@says(Kind.LAUNCH_OPTION_PARAM)
def _launch_option_param(f: Facts) -> Said:
    name, kernel, line = f["name"], _kernel_name(f), f["line"]
    at_en = f" (line {line})" if line else ""
    at_ja = f"({line} 行目)" if line else ""
    return Said(
        f"{kernel.en} has a parameter named {name}{at_en}: {name} is a launch option, not a kernel argument — on a "
        f"GPU the parameter takes the value and the launch falls back to the default {name}. Remove it from "
        "the signature and pass it only at the launch",
        f"{kernel.ja} に {name} という引数があります{at_ja}。{name} はカーネルの引数ではなく起動オプションです。"
        f"GPU ではこの引数が値を受け取ってしまい、起動は既定の {name} のままになります。シグネチャから外し、"
        "起動のときだけ渡してください",
    )


@says(Kind.KNOB_IGNORED)
def _knob_ignored(f: Facts) -> Said:
    name, asked, seen, kernel = f["name"], f["asked"], f["launched"], _kernel_name(f)
    return Said(
        f"the wrapper was called with {name}={asked} but launched {kernel.en} with {name}={seen}: pass "
        "it on to the "
        "launch, or the sweep times the same kernel over and over",
        f"ラッパーは {name}={asked} で呼ばれましたが、{kernel.ja} を {name}={seen} "
        "で起動しました。起動にそのまま"
        "渡してください。渡さないとスイープは同じカーネルを何度も計測するだけになります",
    )


@says(Kind.KERNEL_BYPASSED)
def _kernel_bypassed(f: Facts) -> Said:
    name = f["input"] or "x"
    return Said(
        f"no kernel launch received {name} itself: the wrapper made a copy of it (e.g. "
        f"{name}.contiguous()) and "
        f"the kernel read the copy — pass {name} and its strides to the kernel and let the kernel "
        "do the strided "
        "reads",
        f"どのカーネル起動も {name} そのものを受け取っていません。ラッパーがコピー(例: {name}.contiguous())を"
        f"作り、カーネルはそのコピーを読んでいます。{name} とそのストライドをカーネルに渡し、ストライド付きの"
        "読み込みはカーネルに任せてください",
    )


@says(Kind.AUTOTUNE_KEY)
def _autotune_key(f: Facts) -> Said:
    key = ", ".join(str(k) for k in f["key"] or [])
    wanted = ", ".join(f["expected_any"] or []) or "M, N, K"
    if not key:
        return Said(
            "the autotune key is empty: the config picked for the first shape is reused for every shape "
            f"— key on {wanted}",
            "オートチューンのキーが空です。最初の形状で選ばれた config がすべての形状に使い回されます。"
            f"{wanted} をキーにしてください",
        )
    if f.get("missing"):
        missing = ", ".join(str(m) for m in f["missing"])
        return Said(
            f"the autotune key is {key}: it leaves out {missing}, so the config that won for one {missing} is "
            f"reused for every other (the 4096-row winner for 16 rows) — key on {wanted} (a bucket such as "
            "next_power_of_2(M) passed as an extra argument counts)",
            f"オートチューンのキーが {key} で、{missing} が入っていません。ある {missing} で勝った config が"
            f"ほかのすべての {missing} に使い回されます(4096 行で勝った config が 16 行にも)。{wanted} をキーに"
            "してください(next_power_of_2(M) のようなバケットを追加の引数で渡してもかまいません)",
        )
    return Said(
        f"the autotune key is {key}: with no size argument in it, the config picked for the first shape is "
        f"reused for every shape — key on {wanted}",
        f"オートチューンのキーが {key} です。サイズの引数が入っていないので、最初の形状で選ばれた config が"
        f"すべての形状に使い回されます。{wanted} をキーにしてください",
    )


@says(Kind.AUTOTUNE_CONFIGS)
def _autotune_configs(f: Facts) -> Said:
    fn = f["function"] or "get_autotune_configs"
    return Said(
        f"{fn}() returns {_n(f['count'], 'en', 'config', 'configs', '')} for a GPU: the autotuner needs at least "
        f"{number(f['expected_min'])} to choose from",
        f"{fn}() が GPU 向けに返す config は {number(f['count'])} 個です。"
        "オートチューナーが選ぶには少なくとも "
        ""
        f"{number(f['expected_min'])} 個必要です",
    )


@says(Kind.AUTOTUNE_MISSING)
def _autotune_missing(f: Facts) -> Said:
    return Said(
        "no @triton.autotune kernel in your file: put the kernel under @triton.autotune",
        "ファイルに @triton.autotune のカーネルがありません。カーネルを @triton.autotune "
        "の下に置いてください",
    )


@says(Kind.KEYWORD_MISSING)
def _keyword_missing(f: Facts) -> Said:
    names, entry = ", ".join(str(n) for n in f["names"] or []), _entry(f)
    call = str(f["call"] or f"{entry.en}(...)")
    return Said(
        f"{entry.en} takes no {names} argument, but this case calls {call} and the expected values depend "
        "on it: keep that parameter (as the exercise's wrapper has it) and use it",
        f"{entry.ja} は {names} を引数に取りませんが、このケースは {call} と呼び出し、期待値もそれに依存して"
        "います。その引数は演習のラッパーと同じように残し、使ってください",
    )


@says(Kind.TILES_NOT_VARIED)
def _tiles_not_varied(f: Facts) -> Said:
    names, entry = ", ".join(f["names"] or []), _entry(f)
    return Said(
        f"{entry.en} takes no {names} argument, so this case ran with the tile sizes your wrapper "
        "chooses (the lab "
        "could not vary them)",
        f"{entry.ja} は {names} を引数に取らないので、このケースはラッパーが選ぶタイルサイズで実行しました"
        "(ラボ側では変えられませんでした)",
    )


@says(Kind.FAR_ROWS_CONTIGUOUS)
def _far_rows_contiguous(f: Facts) -> Said:
    name = f["input"] or "x"
    needed = f"{f['needed'] / 2**30:.1f}" if isinstance(f["needed"], (int, float)) else "?"
    if not isinstance(f["free"], (int, float)):  # the interpreter runner's address-space limit
        return Said(
            f"this case ran with the rows of {name} contiguous: rows 2**30 elements apart span {needed} GiB, "
            "more than the runner's address-space limit leaves (TRITONLAB_RUNNER_AS raises it), so an int32 "
            "row offset is not checked here",
            f"このケースは {name} の行を連続させて実行しました。行と行を 2**30 要素離すと {needed} GiB に"
            "なり、ランナーのアドレス空間の上限に収まりません(TRITONLAB_RUNNER_AS で上げられます)。そのため、"
            "ここでは int32 の行オフセットを確かめていません",
        )
    free = f"{f['free'] / 2**30:.1f}"
    return Said(
        f"this case ran with the rows of {name} contiguous: rows 2**30 elements apart need {needed} GiB of GPU "
        f"memory and {free} GiB are free, so an int32 row offset is not checked here (the interpreter checks "
        "it: --backend interpreter)",
        f"このケースは {name} の行を連続させて実行しました。行と行を 2**30 要素離すには GPU メモリが "
        f"{needed} GiB 必要ですが、空きは {free} GiB です。そのため、ここでは int32 の行オフセットを確かめて"
        "いません(インタプリタでは確かめます: --backend interpreter)",
    )


# ---- output provenance and the judge (engine/tasks/verify.py, engine/judge.py) -----------------------------


@says(Kind.NOT_KERNEL_OUTPUT)
def _not_kernel_output(f: Facts) -> Said:
    entry = _entry(f)
    if f["gradient"]:  # a plan case: the backward returned a gradient torch computed
        g = f["gradient"]
        return Said(
            f"the gradient for {g} that your backward returned was never handed to a kernel of yours: torch "
            "computed it — the backward's kernels must write it (hand the buffer to your kernel and return that "
            "buffer)",
            f"backward が返した {g} の勾配は、あなたのカーネルに一度も渡されていません。torch が計算したものです。"
            "この勾配は backward のカーネルが書く必要があります(バッファをカーネルに渡し、そのバッファを返して"
            "ください)",
        )
    return Said(
        f"{entry.en} returned a tensor that no kernel of yours wrote: its memory was never passed to your "
        "kernel (torch computed it, or it is a copy) — return the output tensor you passed to the kernel",
        f"{entry.ja} が返したテンソルは、あなたのカーネルが書いたものではありません。そのメモリはカーネルに一度も"
        "渡されていません(torch が計算したか、コピーです)。カーネルに渡した出力テンソルを返してください",
    )


@says(Kind.WRITTEN_AFTER_KERNEL)
def _written_after_kernel(f: Facts) -> Said:
    entry, count = _entry(f), f["count"]
    return Said(
        f"{_n(count, 'en', 'element', 'elements', '')} of the output changed after your kernel finished "
        f"(torch or Python code in {entry.en} wrote {'it' if count == 1 else 'them'}): the result must be "
        "exactly what the kernel stored",
        f"カーネルの終了後に出力の {number(count)} 個の要素が変更されました({entry.ja} 内の torch または "
        "Python のコードが書き込みました)。結果はカーネルがストアした値そのものでなければなりません",
    )


@says(Kind.COPIED_ANSWER)
def _copied_answer(f: Facts) -> Said:
    entry, kernel, argument = _entry(f), _kernel_name(f), f["argument"] or "an argument"
    beside_en = beside_ja = ""
    if f["beside_inputs"]:  # the launch loaded the inputs too; a second run changed the buffer
        beside_en = (
            f" {kernel.en} also loaded the inputs, but when the lab changed {argument} before the launch, "
            "the output changed with it: the values came from there."
        )
        beside_ja = (
            f"{kernel.ja} は入力もロードしていますが、ラボが起動の直前に {argument} の値を変えると出力も一緒に"
            "変わりました。値はそこから来ています。"
        )
    return Said(
        f"{entry.en} returned an exact copy of {argument}, which {kernel.en} was given but no kernel of yours "
        f"computed (torch or numpy did, in the wrapper).{beside_en} The answer must come from your kernel's "
        "own arithmetic on the inputs",
        f"{entry.ja} が返したのは {argument} の完全なコピーです。{kernel.ja} はそれを受け取っただけで、"
        f"あなたのカーネルは計算していません(ラッパーの中で torch か numpy が計算しました)。{beside_ja}"
        "答えはカーネル自身が入力から計算したものでなければなりません",
    )


@says(Kind.TORCH_WORK)
def _torch_work(f: Facts) -> Said:
    entry, op, name = _entry(f), f["op"] or "an operator", f["input"] or "an input"
    line = f["line"]
    at_en = f"line {line}: " if line else ""
    at_ja = f"{line} 行目: " if line else ""
    others = [str(o) for o in f["others"] or []][:3]
    more_en = f" (also {', '.join(others)})" if others else ""
    more_ja = f"(ほかに {', '.join(others)})" if others else ""
    if f["handed"] and op == "numpy":
        return Said(
            f"{at_en}the values of the input {name} went to numpy, and a tensor your kernel was given came back "
            "from numpy, not from an operation the lab saw: numpy computed part of the answer — pass the inputs "
            "themselves and compute it in the kernel",
            f"{at_ja}入力 {name} の値が numpy に渡され、カーネルが受け取ったテンソルは numpy から戻ってきたもの"
            "です。答えの一部を numpy が計算しています。入力そのものを渡し、カーネルの中で計算してください",
        )
    if f["handed"]:
        return Said(
            f"{at_en}PyTorch computed {op} on the values of the input {name} and handed the result to your kernel"
            f"{more_en}: that arithmetic is part of what the exercise asks your Triton kernel to do — pass the "
            f"inputs themselves and compute it in the kernel",
            f"{at_ja}入力 {name} の値から PyTorch が {op} を計算し、その結果をカーネルに渡しています{more_ja}。"
            "この演算も演習で Triton カーネルにさせる計算の一部です。入力そのものを渡し、カーネルの中で計算して"
            "ください",
        )
    return Said(
        f"{at_en}PyTorch computed {op} on the values of the input {name}{more_en}: the exercise asks your "
        f"Triton kernel to do that computation. {entry.en} may allocate, reshape, cast and launch, but the "
        "arithmetic on the inputs must be your kernel's",
        f"{at_ja}入力 {name} の値に対して PyTorch が {op} を計算しています{more_ja}。この計算こそ演習で Triton "
        f"カーネルにさせるものです。{entry.ja} で行ってよいのは確保・形の変更・型変換・起動までで、入力に対する"
        "演算はカーネル自身が行わなければなりません",
    )


@says(Kind.API_MISSING)
def _api_missing(f: Facts) -> Said:
    names = " / ".join(str(n) for n in f["names"] or []) or "the exercise's API"
    return Said(
        f"the values are right, but this exercise is about {names}, and your file never calls it: write the "
        "kernel with it (the pointer version is the previous exercise)",
        f"値は正しいのですが、この演習のテーマは {names} で、ファイルはそれを一度も呼んでいません。それを使って"
        "カーネルを書いてください(ポインタ版は前の演習です)",
    )


@says(Kind.PREFILLED_OUTPUT)
def _prefilled_output(f: Facts) -> Said:
    entry = _entry(f)
    return Said(
        f"the output already held these exact values before your first kernel ran (torch, a Config pre_hook "
        f"or {entry.en} wrote them), and your kernel loaded them back: the answer must come from your kernel's "
        "own arithmetic on the inputs",
        f"出力には、最初のカーネルが動く前からこの値がそのまま入っていました(torch か Config の pre_hook か "
        f"{entry.ja} が書き込みました)。カーネルはそれを読み戻しただけです。答えはカーネル自身が入力から計算"
        "したものでなければなりません",
    )


@says(Kind.RETURNED_INPUT)
def _returned_input(f: Facts) -> Said:
    entry, name = _entry(f), f["input"] or "x"
    return Said(
        f"{entry.en} returned its input {name} itself, not an output tensor: allocate the output "
        "(torch.empty_like), pass it to your kernel, let the kernel store the result there and return it",
        f"{entry.ja} が入力 {name} そのものを返しています。出力テンソルではありません。出力を確保し"
        "(torch.empty_like)、カーネルに渡して結果をストアさせ、それを返してください",
    )


@says(Kind.PARTLY_WRITTEN_BY_TORCH)
def _partly_written_by_torch(f: Facts) -> Said:
    count = f["count"]
    one = count == 1
    return Said(
        f"{_n(count, 'en', 'element', 'elements', '')} of the output {'holds a value' if one else 'hold values'} "
        f"no kernel of yours stored (torch or Python code filled {'it' if one else 'them'}): every element "
        "must be stored by the kernel",
        f"出力のうち {number(count)} 個の要素には、あなたのカーネルがストアしていない値が入っています(torch "
        "または Python のコードが埋めました)。すべての要素をカーネルでストアしてください",
    )


@says(Kind.NOT_A_PLAIN_TENSOR)
def _not_a_plain_tensor(f: Facts) -> Said:
    entry, what = _entry(f), f["returned"] or "?"
    return Said(
        f"{entry.en} returned an object of type {what}, which the lab does not accept as a plain torch.Tensor "
        "(a tensor subclass or a forged result): return the output tensor your kernel wrote",
        f"{entry.ja} が返した {what} 型のオブジェクトは通常の torch.Tensor として受け付けられません(テンソルの"
        "サブクラス、または偽装された結果です)。カーネルが書いた出力テンソルを返してください",
    )


@says(Kind.WRONG_OUTPUTS)
def _wrong_outputs(f: Facts) -> Said:
    names = ", ".join(str(n) for n in f["names"] or [])
    listed_en = f" ({names})" if names else ""
    listed_ja = f"({names})" if names else ""
    return Said(
        f"the wrapper returned {_n(f['got'], 'en', 'value', 'values', '')}, the exercise expects "
        f"{number(f['expected'])}{listed_en}",
        f"ラッパーが返した値は {number(f['got'])} 個ですが、この演習では {number(f['expected'])} 個"
        f"{listed_ja}です",
    )


@says(Kind.NO_GRADIENT)
def _no_gradient(f: Facts) -> Said:
    name = f["output"] or "?"
    return Said(
        f"no gradient reached {name}: the backward returned None for this input — return its gradient in the "
        "input's position",
        f"{name} に勾配が届いていません。backward がこの入力に None を返しています。入力と同じ位置に勾配を"
        "返してください",
    )


@says(Kind.NONDETERMINISTIC)
def _nondeterministic(f: Facts) -> Said:
    name = f["output"] or "?"
    if f["order"] == "reversed":
        return Said(
            f"running the programs in reverse order changes {name} "
            f"({_n(f['changed'], 'en', 'element', 'elements', '')} differ): the result depends on the order "
            "the programs run in. The interpreter runs them in one fixed order; a GPU runs them at the same time, "
            "in an order that changes from run to run, so its bits would change too. Atomics adding floats, or "
            "one program reading another's result, do this — reduce in a fixed order (partial sums per program, "
            "then a second pass that adds them in order)",
            f"プログラムを逆順に実行すると {name} が変わります({number(f['changed'])} 要素が異なります)。"
            "結果がプログラムの実行順序に依存しています。インタプリタはプログラムを決まった順に実行しますが、GPU では"
            "同時に、実行ごとに変わる順序で動くので、ビットも実行ごとに変わります。浮動小数点を足すアトミック演算や、"
            "別のプログラムの結果を読むプログラムがこれを起こします。順序を固定してリダクションしてください"
            "(プログラムごとの部分和を作り、2 段目で順に足す)",
        )
    return Said(
        f"two runs on the same inputs give different {name} ({_n(f['changed'], 'en', 'element', 'elements', '')} "
        "differ): the order of a reduction changes between runs (atomics) — reduce in a fixed order "
        "(partial sums, then a second pass)",
        f"同じ入力で 2 回実行すると {name} が変わります({number(f['changed'])} 要素が異なります)。実行ごとに"
        "リダクションの順序が変わっています(アトミック演算)。部分和を作ってから 2 段目で足すなど、順序を"
        "固定してください",
    )


@says(Kind.OP_NOT_USED)
def _op_not_used(f: Facts) -> Said:
    op = str(f["op"] or "?")
    call = f"torch.ops.{op.replace('::', '.')}(...)"
    return Said(
        f"the operator {op} was never called: register it with torch.library.triton_op and call it as {call}",
        f"演算子 {op} が一度も呼ばれていません。torch.library.triton_op で登録し、{call} として呼んでください",
    )


@says(Kind.OP_NOT_YOURS)
def _op_not_yours(f: Facts) -> Said:
    op, origin = f["op"] or "?", f["origin"] or "?"
    return Said(
        f"the operator {op} that ran was registered by {origin}, not by your file: register it in your "
        "file with @triton_op",
        f"実行された演算子 {op} はあなたのファイルではなく {origin} で登録されたものです。自分のファイルで "
        "@triton_op を使って登録してください",
    )


@says(Kind.OP_MUTATES)
def _op_mutates(f: Facts) -> Said:
    op, arg = f["op"] or "?", f["arg"] or "?"
    return Said(
        f"the operator {op} changed its argument {arg}, which it does not declare mutated: torch.compile and "
        "autograd take an operator's inputs as read-only unless mutates_args names them — store into a new "
        f"tensor, or declare mutates_args={{'{arg}'}}",
        f"演算子 {op} が引数 {arg} を書き換えていますが、書き換えることを宣言していません。torch.compile と "
        "autograd は、mutates_args に名前がない限り演算子の入力を読み取り専用とみなします。新しいテンソルに"
        f"ストアするか、mutates_args={{'{arg}'}} と宣言してください",
    )


@says(Kind.OP_NOT_TRITON)
def _op_not_triton(f: Facts) -> Said:
    op = f["op"] or "?"
    by = "torch.library.custom_op" if f["how"] != "library" else "torch.library.define/impl"
    return Said(
        f"the operator {op} is registered with {by}: torch.compile treats such an operator as a black box and "
        "never sees its Triton kernels — register it with @torch.library.triton_op and launch the kernels "
        "through wrap_triton",
        f"演算子 {op} は {by} で登録されています。torch.compile はこうした演算子を中の見えない箱として扱い、"
        "その中の Triton カーネルを見ません。@torch.library.triton_op で登録し、カーネルは wrap_triton を"
        "通して起動してください",
    )


@says(Kind.GRAPH_BREAK)
def _graph_break(f: Facts) -> Said:
    q = verbatim(f["exception"] or f["error"])
    return Said(
        f"torch.compile(fullgraph=True) of your wrapper failed: {q} — torch cannot trace a raw Triton launch "
        "or Python-side work there; wrap the kernels in operators (triton_op + wrap_triton)",
        f"ラッパーの torch.compile(fullgraph=True) が失敗しました: {q}。torch は Triton の直接の起動や Python "
        "側の処理をそこでトレースできません。カーネルを演算子(triton_op + wrap_triton)で包んでください",
    )


@says(Kind.KERNEL_NOT_WRAPPED)
def _kernel_not_wrapped(f: Facts) -> Said:
    code, op, line = str(f["kernel"] or "kernel"), f["op"], f["line"]
    subject_ja = f" {code} が " if f["kernel"] else "カーネルが "
    inside_en = f"inside the operator {op}" if op else "inside a triton_op"
    inside_ja = f"演算子 {op} の中" if op else "triton_op の中"
    at_en = f" (line {line})" if line else ""
    at_ja = f"({line} 行目)" if line else ""
    return Said(
        f"{code} is launched directly as {code}[grid](...) {inside_en}{at_en}: torch.compile cannot trace "
        f"a bare launch inside an operator — launch it as wrap_triton({code})[grid](...)",
        f"{inside_ja}で{subject_ja}{code}[grid](...) として直接起動されています{at_ja}。演算子の中で直接"
        f"起動されたカーネルは torch.compile でトレースできません。wrap_triton({code})[grid](...) として"
        "起動してください",
    )


@says(Kind.COMPILED_DIFFERS)
def _compiled_differs(f: Facts) -> Said:
    inner = {k: v for k, v in f.items() if k not in ("kind", "differs_as", "output")}
    inner["kind"] = f["differs_as"] or "mismatch"
    return Said(
        "under torch.compile the result differs from eager: " + describe(inner, "en"),
        "torch.compile 下の結果が eager と異なります: " + describe(inner, "ja"),
    )


@says(Kind.STORED_TWICE)
def _stored_twice(f: Facts) -> Said:
    count = f["count"]
    if f["loop_steps"]:  # the loop already steps by the program count: the tile id's mapping repeats tiles
        return Said(
            f"{_n(count, 'en', 'element', 'elements', '')} of the output {'was' if count == 1 else 'were'} stored "
            "by more than one program, though the tile loop steps by the program count: two tile ids map to the "
            "same tile — check how a tile id becomes (pid_m, pid_n): in the grouped order the group's height is "
            "h = min(num_pid_m - first_pid_m, GROUP_M), pid_m = first_pid_m + tile_id % h and "
            "pid_n = (tile_id % num_pid_in_group) // h — h, not GROUP_M",
            f"出力の {number(count)} 要素が複数のプログラムからストアされています。タイルのループはプログラム数"
            "ずつ進んでいるので、2 つのタイル ID が同じタイルに対応しています。タイル ID から (pid_m, pid_n) "
            "を求める計算を確認してください。グループ順では、グループの高さは h = min(num_pid_m - "
            "first_pid_m, GROUP_M) で、pid_m = first_pid_m + tile_id % h、pid_n = (tile_id % "
            "num_pid_in_group) // h です。GROUP_M ではなく h を使います",
        )
    return Said(
        f"{_n(count, 'en', 'element', 'elements', '')} of the output {'was' if count == 1 else 'were'} stored by "
        "more than one program: tiles are computed several times — step the tile loop by the number of "
        "programs (for tile_id in range(pid, num_tiles, NUM_PROGRAMS))",
        f"出力の {number(count)} 要素が複数のプログラムからストアされています。同じタイルを何度も計算して"
        "います。タイルのループはプログラム数ずつ進めてください(for tile_id in range(pid, num_tiles, "
        "NUM_PROGRAMS))",
    )


@says(Kind.RACE)
def _race(f: Facts) -> Said:
    count, kernel = f["count"], f["kernel"] or "the kernel"
    of = f" of {f['argument']}" if f["argument"] else ""
    of_ja = f"{f['argument']} の " if f["argument"] else ""
    programs = [tuple(p) for p in f["programs"] or []][:2]
    shown = " and ".join(f"program {_program({'program_id': p})}" for p in programs)
    shown_ja = " と ".join(f"プログラム {_program({'program_id': p})}" for p in programs)
    at = f"line {f['line']}: " if f["line"] else ""
    at_ja = f"{f['line']} 行目: " if f["line"] else ""
    return Said(
        f"{at}{_n(count, 'en', 'element', 'elements', '')}{of} {'is' if count == 1 else 'are'} loaded, changed and "
        f"stored back by more than one program of one {kernel} launch ({shown}), without atomics — the "
        "interpreter runs programs one after another, so the values come out right here; on a GPU they run at "
        "the same time and one program's store overwrites another's update: give each program its own slice "
        "(partial results per program, summed in a second pass) or use tl.atomic_add",
        f"{at_ja}{kernel} の 1 回の起動の中で、{of_ja}{number(count)} 要素を複数のプログラム({shown_ja})が"
        "アトミック操作なしに読み込み・更新・ストアしています。インタプリタはプログラムを 1 つずつ順に実行する"
        "ので、ここでは値が正しくなります。GPU ではプログラムが同時に動くため、あるプログラムのストアが別の"
        "プログラムの更新を上書きして失われます。プログラムごとに自分の領域を持たせる(プログラムごとの部分"
        "結果を 2 段目で足す)か、tl.atomic_add を使ってください",
    )


@says(Kind.CROSS_PROGRAM_READ)
def _cross_program_read(f: Facts) -> Said:
    count, kernel = f["count"], f["kernel"] or "the kernel"
    of = f" of {f['argument']}" if f["argument"] else ""
    of_ja = f"{f['argument']} の " if f["argument"] else ""
    reader = _program({"program_id": f["reader"]}) if f["reader"] else "?"
    writer = _program({"program_id": f["writer"]}) if f["writer"] else "?"
    at = f"line {f['line']}: " if f["line"] else ""
    at_ja = f"{f['line']} 行目: " if f["line"] else ""
    if f["cause"] == "read-during-atomics":
        atomic = f" (line {f['atomic_line']})" if f["atomic_line"] else ""
        atomic_ja = f"({f['atomic_line']} 行目)" if f["atomic_line"] else ""
        return Said(
            f"{at}program {reader} loads {_n(count, 'en', 'element', 'elements', '')}{of} that other programs of "
            f"the same {kernel} launch update with an atomic{atomic} — program {writer} updated it after this "
            "load, so the value read was not yet the final one. A program cannot wait for the other programs of "
            "its launch (on a GPU they run at the same time, in any order): do the atomic updates in a first "
            "launch and read the result in a second one (or keep a partial result per program and merge them "
            "afterwards)",
            f"{at_ja}プログラム {reader} が {of_ja}{number(count)} 要素を通常のロードで読んでいますが、"
            f"同じ {kernel} の起動のほかのプログラムがそこをアトミック操作{atomic_ja}で更新しています。"
            f"プログラム {writer} はこのロードの後に更新したので、読んだ値はまだ最終的な値ではありません。"
            "1 回の起動の中で、プログラムはほかのプログラムを待てません(GPU では同時に、順不同に動きます)。"
            "アトミック操作による更新は 1 回目の起動で行い、その結果は 2 回目の起動で読んでください"
            "(またはプログラムごとに部分結果を持ち、後でまとめてください)",
        )
    where = f" (line {f['store_line']})" if f["store_line"] else ""
    where_ja = f" {f['store_line']} 行目で" if f["store_line"] else ""
    if f["stored"] == "after":
        here = "the interpreter ran this load before that store, so it read the old values"
        here_ja = "インタプリタではこの読み込みがそのストアより先に実行されたので、古い値を読みました"
    else:
        here = "the interpreter ran that program first, so the values were already there"
        here_ja = "インタプリタではそのプログラムが先に実行されたので、値はすでに書かれていました"
    return Said(
        f"{at}program {reader} loads {_n(count, 'en', 'element', 'elements', '')}{of} that program {writer} "
        f"stores{where} in the same {kernel} launch, with no atomics between them — {here}. On a GPU the "
        "programs of one launch run at the same time and in any order, so this load may see the value before "
        "or after that store: read another program's results in a second launch (a second kernel, like the "
        "second stage of a two-stage reduction), or make the reader wait for them with atomics",
        f"{at_ja}{kernel} の 1 回の起動の中で、プログラム {writer} が{where_ja}ストアする {of_ja}"
        f"{number(count)} 要素を、プログラム {reader} がアトミック操作なしに読み込んでいます。{here_ja}。GPU では "
        "1 回の起動のプログラムは同時に、順不同に動くので、この読み込みがストアの前の値を見るか後の値を見るかは"
        "決まりません。別のプログラムの結果は次の起動(2 段階のリダクションの第2段のような 2 つ目のカーネル)で"
        "読むか、アトミック操作で読み手を待たせてください",
    )


@says(Kind.ZERO_DIVISION)
def _zero_division_passed(f: Facts) -> Said:
    zero = f["zero_division"] if isinstance(f["zero_division"], Mapping) else f
    return _zero_division(zero, followed=False) + Said(
        "The interpreter gives 0 there and this case matched torch, but a GPU gives no such promise: the "
        "program that divided may compute any tile — make the divisor nonzero for every program the grid "
        "launches",
        "インタプリタではその結果が 0 になり、このケースは torch と一致しましたが、GPU ではそうなる保証が"
        "ありません。割り算をしたプログラムがどのタイルを計算するかは決まりません。グリッドが起動するすべての"
        "プログラムで割る数が 0 にならないようにしてください",
    )


@says(Kind.LOOP_ONCE)
def _loop_once(f: Facts) -> Said:
    param, value, block, got = f["param"] or "?", f["value"], f["block"] or "?", f["block_value"]
    how = (
        Said(
            " (the lab called your wrapper at that size and recorded the launch without running it: the "
            "interpreter cannot run it in time)",
            "(インタプリタでは時間内に実行できないため、ラボはこのサイズでラッパーを呼び、カーネルは実行せずに起動"
            "だけを記録しました)",
        )
        if f["launched_only"]
        else Said("", "")
    )
    return Said(
        f"at the GPU's size {param} = {number(value)} your wrapper launches with {block} = {number(got)}: one block "
        f"covers the whole of {param}, so the loop over it runs once and nothing streams{how.en} — one program "
        f"would hold all {number(value)} at once, more than a GPU program's registers and shared memory. Keep "
        f"{block} fixed at a tile that fits (32–128 keys, a few thousand columns) and let the loop step through "
        f"{param}",
        f"GPU のサイズ {param} = {number(value)} では、ラッパーが {block} = {number(got)} で起動しています{how.ja}。"
        f"1 つのブロックが {param} 全体を覆うので、その上のループは 1 回しか回らず、何もストリームしていません。"
        f"1 つのプログラムが {number(value)} 個すべてを一度に抱えることになり、GPU のプログラムのレジスタや"
        f"共有メモリには収まりません。{block} はプログラムに収まるタイル(キーなら 32〜128、列なら数千)に固定し、"
        f"ループで {param} を進んでください",
    )


@says(Kind.ALLOCATOR_MISSING)
def _allocator_missing(f: Facts) -> Said:
    line = f["line"]
    return Said(
        f"line {line} builds a tensor descriptor on the device, and the file never calls triton.set_allocator: "
        "a GPU launch stops there (descriptors need scratch memory; the interpreter does not) — register an "
        "allocator before the launch",
        f"{line} 行目でデバイス側のテンソルディスクリプタを作っていますが、ファイルのどこでも "
        "triton.set_allocator を呼んでいません。GPU ではここで起動が止まります(ディスクリプタには作業用の"
        "メモリが必要です。インタプリタでは不要です)。起動の前にアロケータを登録してください",
    )


@says(Kind.TAMPERED)
def _tampered(f: Facts) -> Said:
    round14 = _tampered_round14(f)
    if round14 is not None:
        return round14
    if f["changed"] and f["what"] == "hook":
        names = verbatim(", ".join(str(n) for n in list(f["changed"])[:4]))
        return Said(
            f"your code left a Python hook installed ({names}) when it returned: it would run inside the lab's "
            "checks, so the lab removed it and this run fails. Remove the sys.setprofile / sys.settrace call",
            f"あなたのコードが戻るときに Python のフック({names})を設定したままにしていました。フックはラボの"
            "チェックの中で動いてしまうため、ラボが外し、この実行は不合格です。sys.setprofile / sys.settrace "
            "の呼び出しを消してください",
        )
    if f["changed"] and f["what"] == "library":
        names = verbatim(", ".join(str(n) for n in list(f["changed"])[:4]))
        return Said(
            f"your file replaced functions that the lab's checks use ({names}): a verdict computed with "
            "rewritten torch, numpy or Python functions is worth nothing, so this run fails. Remove the lines "
            "that assign to them",
            f"あなたのファイルがラボのチェックで使う関数({names})を置き換えました。書き換えられた torch・numpy・"
            "Python の関数で出した判定には意味がないため、この実行は不合格です。それらに代入している行を"
            "消してください",
        )
    if f["changed"]:
        names = verbatim(", ".join(str(n) for n in list(f["changed"])[:4]))
        return Said(
            f"your file changed the lab's own code ({names}): the lab's checks are not yours to rewrite, so "
            "this run fails. Remove the lines that assign to the lab's modules",
            f"あなたのファイルがラボ自身のコード({names})を書き換えました。ラボのチェックを書き換えることは"
            "認められていないため、この実行は不合格です。ラボのモジュールに代入している行を消してください",
        )
    return Said(
        "something other than the lab wrote to the lab's result channel: a verdict never comes from your "
        "code's process, so this run fails",
        "ラボ以外のものがラボの結果チャネルに書き込みました。判定があなたのコードのプロセスから来ることは"
        "ないため、この実行は不合格です",
    )


def _tampered_round14(f: Facts) -> Said | None:
    """A hook present while a kernel ran, a torch mode left on the stack, a hook left by the file's import,
    Triton's language replaced (probe round 14); None for the other tamperings."""
    changed = [str(n) for n in list(f["changed"] or [])]
    if not changed:
        return None
    names = verbatim(", ".join(changed[:4]))
    if f["what"] == "hook" and f["at"] == "launch":
        return Said(
            f"a Python hook ({names}) was installed while your kernel ran: a trace or profile hook can rewrite "
            "a kernel's values as they are computed, so this run fails. Remove the sys.settrace / "
            "sys.setprofile call",
            f"カーネルの実行中に Python のフック({names})が設定されていました。トレースやプロファイルのフックは"
            "計算中のカーネルの値を書き換えられるため、この実行は不合格です。sys.settrace / sys.setprofile の"
            "呼び出しを消してください",
        )
    modes = any(n.startswith(("TorchFunctionMode ", "TorchDispatchMode ")) for n in changed)
    if f["what"] == "hook" and modes:
        when_en, when_ja = (
            ("when it was imported", "インポートのときに")
            if f["at"] == "import"
            else ("when it returned", "戻るときに")
        )
        return Said(
            f"your code left a torch mode on the stack {when_en} ({names}): it would run inside the lab's own "
            "checks and could change what they see, so the lab removed it and this run fails. Enter a mode "
            "only in a with block inside your function",
            f"あなたのコードは{when_ja} torch のモード({names})をスタックに残しました。モードはラボ自身の"
            "チェックの中で動き、チェックが見る値を変えられるため、ラボが外し、この実行は不合格です。モードは"
            "関数の中の with ブロックでだけ使ってください",
        )
    if f["what"] == "hook" and f["at"] == "import":
        return Said(
            f"your file left a Python hook installed when it was imported ({names}): it would run inside the "
            "lab's checks, so the lab removed it and this run fails. Remove the sys.setprofile / sys.settrace "
            "call",
            f"あなたのファイルはインポートのときに Python のフック({names})を設定したままにしました。フックは"
            "ラボのチェックの中で動いてしまうため、ラボが外し、この実行は不合格です。sys.setprofile / "
            "sys.settrace の呼び出しを消してください",
        )
    if f["what"] == "library" and all(n.startswith("triton.language.") for n in changed):
        return Said(
            f"your file replaced functions of Triton's language ({names}): every kernel runs them, so a kernel "
            "run with your replacement proves nothing and this run fails. Remove the lines that assign to "
            "triton.language",
            f"あなたのファイルが Triton の言語の関数({names})を置き換えました。すべてのカーネルがこれらを"
            "実行するため、置き換えたまま動いたカーネルは何の証明にもならず、この実行は不合格です。"
            "triton.language に代入している行を消してください",
        )
    return None
