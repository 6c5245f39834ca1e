"""Words for lesson problems, in English and Japanese.

A problem crosses the loader as facts (path, line, code, values); the sentence is made here, in the reader's
language. The table is plain data (code -> {en, ja} templates) so it can move into the presentation layer as
is. Values are formatted with str.format; the `expected` and `found` type names are translated through TYPES.
"""

from __future__ import annotations

import re

#: Names of TOML value kinds, as the schema reports them (expected and found).
TYPES: dict[str, dict[str, str]] = {
    "table": {"en": "a table", "ja": "テーブル"},
    "list": {"en": "a list", "ja": "リスト"},
    "text": {"en": "text", "ja": "文字列"},
    "integer": {"en": "an integer", "ja": "整数"},
    "number": {"en": "a number", "ja": "数値"},
    "bool": {"en": "true or false", "ja": "真偽値（true / false）"},
    "integer or text": {"en": "an integer or text", "ja": "整数または文字列"},
    "value": {"en": "a number, text or true/false", "ja": "数値・文字列・真偽値のいずれか"},
    "value or table": {
        "en": "a number, text, true/false or a table of them",
        "ja": "数値・文字列・真偽値、またはそれらのテーブル",
    },
    "date": {"en": "a date", "ja": "日付"},
}

MESSAGES: dict[str, dict[str, str]] = {
    # reading files
    "lessons-dir-missing": {"en": "lessons folder not found", "ja": "レッスンのフォルダーが見つかりません"},
    "folder-name": {
        "en": "lesson folder names look like NN-slug (two digits, lowercase words)",
        "ja": "レッスンのフォルダー名は NN-slug の形（2 桁の数字と小文字の単語）にしてください",
    },
    "missing-file": {"en": "missing {file}", "ja": "{file} がありません"},
    "cannot-read": {"en": "cannot read: {reason}", "ja": "読み込めません: {reason}"},
    "not-utf8": {
        "en": "not UTF-8 text (byte {offset} cannot be decoded)",
        "ja": "UTF-8 のテキストではありません（{offset} バイト目を解読できません）",
    },
    "bad-toml": {"en": "invalid TOML: {detail}", "ja": "TOML の書き方が正しくありません: {detail}"},
    # the schema
    "unknown-key": {
        "en": "unknown key {key} (known here: {known})",
        "ja": "未知のキー {key} です（ここで使えるキー: {known}）",
    },
    "wrong-type": {
        "en": "{key} must be {expected}, not {found}",
        "ja": "{key} は{expected}で書いてください（{found}になっています）",
    },
    "missing-key": {"en": "{key} is required", "ja": "{key} は必須です"},
    "blank-text": {"en": "{key} is empty", "ja": "{key} が空です"},
    "empty": {"en": "{key} needs at least one entry", "ja": "{key} には 1 つ以上の項目が必要です"},
    "empty-cases": {
        "en": "{key} needs at least one case",
        "ja": "{key} には少なくとも 1 つのケースが必要です",
    },
    # lesson.toml
    "format": {
        "en": "format must be {expected} (found {found})",
        "ja": "format は {expected} にしてください（{found} になっています）",
    },
    "number-mismatch": {
        "en": "number {number} does not match the folder {folder}",
        "ja": "number {number} がフォルダー {folder} と一致しません",
    },
    "duplicate-number": {
        "en": "lesson number {number} is also used by {other}",
        "ja": "レッスン番号 {number} は {other} でも使われています",
    },
    "outcome-id": {
        "en": "outcome id {oid} should look like L{number}.1",
        "ja": "学習目標の id {oid} は L{number}.1 の形にしてください",
    },
    "bad-id": {
        "en": "{key} {value} must be lowercase letters, digits and dashes",
        "ja": "{key} {value} には小文字の英字・数字・ダッシュだけを使ってください",
    },
    "duplicate-id": {"en": "duplicate {key} {value}", "ja": "{key} {value} が重複しています"},
    "file-not-found": {
        "en": "{key}: {file} not found in {where}",
        "ja": "{key}: {file} が {where} にありません",
    },
    "not-a-name": {"en": "{key} must be a Python name", "ja": "{key} は Python の名前にしてください"},
    "not-an-expression": {
        "en": "{key} is not a Python expression: {detail}",
        "ja": "{key} が Python の式になっていません: {detail}",
    },
    "unknown-choice": {
        "en": "{key}: {value} is not one of {allowed}",
        "ja": "{key}: {value} は使えません（{allowed} のいずれか）",
    },
    "timed-needs-grads": {
        "en": "{key}: timing the backward needs verify.grad_inputs (which inputs get gradients)",
        "ja": "{key}: 逆伝播を計測するには verify.grad_inputs（勾配を求める入力）が必要です",
    },
    "init-args": {
        "en": "{key}: init arguments must be integers or case param names",
        "ja": "{key}: init の引数は整数かケースのパラメータ名にしてください",
    },
    "hidden-range": {
        "en": "{key}: each param maps to [low, high], positive integers with low <= high; tables 'interpreter' "
        "and 'gpu' only",
        "ja": "{key}: 各パラメータは [low, high]（正の整数、low <= high）にしてください。"
        "表は 'interpreter' と 'gpu' のみです",
    },
    "input-form": {
        "en": "{key} needs shape = [...] (ints or expressions) or value",
        "ja": "{key} には shape = [...]（整数か式）か value が必要です",
    },
    "layout-2d": {
        "en": "{key}: layout {layout} needs a 2D shape",
        "ja": "{key}: layout {layout} には 2 次元の shape が必要です",
    },
    "out-of-range": {
        "en": "{key} is {value}: it must be above {low} and at most {high}",
        "ja": "{key} が {value} です。{low} より大きく {high} 以下にしてください",
    },
    "tolerance-keys": {
        "en": "{key} must be {{ atol = …, rtol = … }}",
        "ja": "{key} は {{ atol = …, rtol = … }} の形にしてください",
    },
    "output-form": {
        "en": "{key} must be 'tensor' or 'inplace:<input name>'",
        "ja": "{key} は 'tensor' か 'inplace:<入力名>' にしてください",
    },
    "unknown-inputs": {
        "en": "{key} names unknown inputs {names}",
        "ja": "{key} が存在しない入力 {names} を指しています",
    },
    "not-an-output": {
        "en": "{key}: {value} is not an output ({allowed})",
        "ja": "{key}: {value} は出力ではありません（{allowed}）",
    },
    "op-name": {
        "en": "{key}: {value} is not an operator name such as 'namespace::name'",
        "ja": "{key}: {value} は 'namespace::name' の形の演算子名ではありません",
    },
    "with-not-optional": {
        "en": '{key} names {names}: "@with" passes only inputs declared with optional = true',
        "ja": '{key} が {names} を指しています。"@with" で渡せるのは optional = true と宣言した入力だけです',
    },
    "optional-plan": {
        "en": 'optional inputs {names} cannot be used with outputs, mode = "grad" or ops (every input is passed '
        "by position there)",
        "ja": 'optional な入力 {names} は outputs、mode = "grad"、ops とは併用できません(そこではすべての入力が'
        "位置引数で渡されます)",
    },
    "far-rows-input": {
        "en": "{key}: far_rows needs a 2D input whose row count is a case parameter; {name} has shape {shape}",
        "ja": "{key}: far_rows には行数がケースのパラメータで決まる 2 次元の入力が必要です。{name} の形は {shape} です",
    },
    "far-rows-plan": {
        "en": '{key}: far_rows ({name}) cannot be used with outputs, mode = "grad" or ops (the plan\'s calls '
        "do not carry the far-rows layout)",
        "ja": '{key}: far_rows（{name}）は outputs、mode = "grad"、ops とは併用できません(その検証手順の呼び出しには'
        "離れた行の配置が渡されません)",
    },
    "override-unknown": {
        "en": "{key} overrides unknown inputs {names}",
        "ja": "{key} が存在しない入力 {names} を上書きしています",
    },
    # quiz.toml
    "choices-min": {"en": "{key} needs at least two choices", "ja": "{key} には 2 つ以上の選択肢が必要です"},
    "one-correct": {
        "en": "{key}: exactly one choice must be correct",
        "ja": "{key}: 正解の選択肢はちょうど 1 つにしてください",
    },
    # the content check (content/check.py) and the developer check (dev/check.py)
    "ja-not-japanese": {
        "en": "does not read as Japanese ({percent}% of its letters are kana/kanji)",
        "ja": "日本語として読めません（かな・漢字は文字の {percent}% だけです）",
    },
    "en-has-japanese": {"en": "contains Japanese prose", "ja": "日本語の文章が含まれています"},
    "short-text": {"en": "is short ({lines} lines)", "ja": "短すぎます（{lines} 行）"},
    "title-not-japanese": {
        "en": "{key}: the Japanese title is not Japanese",
        "ja": "{key}: 日本語のタイトルが日本語になっていません",
    },
    "no-outcomes": {
        "en": 'the lesson maps no outcomes ([outcomes."L{number}.1"])',
        "ja": '学習目標が 1 つも定義されていません（[outcomes."L{number}.1"]）',
    },
    "outcome-numbering": {
        "en": "outcome ids run L{number}.1, L{number}.2, … without gaps: {missing} is missing",
        "ja": "学習目標の id は L{number}.1、L{number}.2、… と欠番なしに続けてください: "
        "{missing} がありません",
    },
    "outcome-other-lesson": {
        "en": "outcome {oid} does not belong to lesson {number}",
        "ja": "学習目標 {oid} はレッスン {number} のものではありません",
    },
    "outcome-no-section": {
        "en": "outcome {oid} has no {lang} text section",
        "ja": "学習目標 {oid} に {lang} の本文セクションがありません",
    },
    "outcome-heading": {
        "en": 'outcome {oid}: heading "{title}" not found in {file}',
        "ja": "学習目標 {oid}: 見出し「{title}」が {file} にありません",
    },
    "activity-missing": {
        "en": "outcome {oid}: activity {activity} does not exist",
        "ja": "学習目標 {oid}: アクティビティ {activity} が存在しません",
    },
    "outcome-unchecked": {
        "en": "outcome {oid} has no checked activity (exercise, quiz or sweep)",
        "ja": "学習目標 {oid} に確認できるアクティビティ（exercise・quiz・sweep）がありません",
    },
    "outcome-unknown": {
        "en": "{key} names outcome {oid}, which the lesson does not map",
        "ja": "{key} が学習目標 {oid} を指していますが、このレッスンにはありません",
    },
    "hints-few": {"en": "{key}: needs two or more hints", "ja": "{key}: ヒントは 2 つ以上必要です"},
    "hint-not-japanese": {
        "en": "{key}: hint {n} needs en and Japanese ja text",
        "ja": "{key}: ヒント {n} には en と日本語の ja が必要です",
    },
    "no-demo": {
        "en": "{key}: no [exercise.run] demo declared",
        "ja": "{key}: [exercise.run] のデモがありません",
    },
    "starter-no-todo": {
        "en": "{key}: the starter {file} has no TODO",
        "ja": "{key}: スターター {file} に TODO がありません",
    },
    "choice-text": {
        "en": "question {qid}: every choice needs text and explain in {lang}",
        "ja": "問題 {qid}: すべての選択肢に {lang} の text と explain が必要です",
    },
    "stray-file": {"en": "unexpected file {file}", "ja": "想定外のファイル {file} があります"},
    "lesson-gap": {"en": "lesson {number} does not exist yet", "ja": "レッスン {number} はまだありません"},
    "solution-fails": {
        "en": "{key}: the solution FAILS on the {backend}: {summary}",
        "ja": "{key}: 解答が {backend} で不合格です: {summary}",
    },
    "starter-passes": {
        "en": "{key}: the starter PASSES on the {backend}",
        "ja": "{key}: スターターが {backend} で合格してしまいます",
    },
    "slow-verify": {
        "en": "{key}: interpreter verify took {seconds} s (> {budget} s)",
        "ja": "{key}: インタープリターでの検証に {seconds} 秒かかりました（上限 {budget} 秒）",
    },
}

#: The developer check's own labels (dev/check.py prints them around the problems above).
LABELS: dict[str, dict[str, str]] = {
    "warning": {"en": "warning", "ja": "警告"},
    "fail": {"en": "FAIL", "ja": "不合格"},
    "pass": {"en": "pass", "ja": "合格"},
    "skip": {"en": "skip", "ja": "スキップ"},
    "solution": {"en": "solution", "ja": "解答"},
    "starter": {"en": "starter", "ja": "スターター"},
    "ok": {"en": "content check: ok", "ja": "コンテンツチェック: 問題なし"},
    "problems": {"en": "content check: {count} problems", "ja": "コンテンツチェック: 問題 {count} 件"},
    "no-lesson": {"en": "no lesson {ref}", "ja": "レッスン {ref} はありません"},
}


def label(name: str, lang: str = "en", **values) -> str:
    templates = LABELS[name]
    return templates.get(lang, templates["en"]).format(**values)


_TYPE_FIELDS = ("expected", "found")


def _value(name: str, value, lang: str):
    if name in _TYPE_FIELDS and isinstance(value, str) and value in TYPES:
        return TYPES[value][lang]
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return value


#: tomllib's reasons (its English stays the fact in `detail`) in Japanese; an unknown one is quoted as is.
TOML_REASONS_JA: dict[str, str] = {
    "Cannot overwrite a value": "値を上書きしようとしています",
    "Expected '=' after a key in a key/value pair": "キーの後に '=' が必要です",
    "Expected ']' at the end of a table declaration": "テーブル宣言の末尾に ']' が必要です",
    "Expected ']]' at the end of an array declaration": "配列テーブル宣言の末尾に ']]' が必要です",
    "Invalid date or datetime": "日付・日時として正しくありません",
    "Invalid initial character for a key part": "キーの先頭の文字が正しくありません",
    "Invalid statement": "文として正しくありません",
    "Invalid value": "値として正しくありません",
    "Unclosed array": "配列が閉じられていません",
    "Unclosed inline table": "インラインテーブルが閉じられていません",
    "Unterminated string": "文字列が閉じられていません",
}
_TOML_PATTERNS_JA = (
    (re.compile(r"^Cannot declare (.+) twice$"), "{0} を 2 回宣言しています"),
    (re.compile(r"^Duplicate inline table key (.+)$"), "インラインテーブルのキー {0} が重複しています"),
    (re.compile(r"^(?:Found invalid|Illegal) character (.+)$"), "使えない文字 {0} があります"),
)


def toml_reason(detail: str, lang: str) -> str:
    if lang != "ja":
        return detail
    if detail in TOML_REASONS_JA:
        return TOML_REASONS_JA[detail]
    for pattern, template in _TOML_PATTERNS_JA:
        if match := pattern.match(detail):
            return template.format(*match.groups())
    return detail


def render(code: str, values: dict, lang: str = "en") -> str:
    """The sentence for a problem code in `lang` (English when the language or code is unknown)."""
    lang = lang if lang in ("en", "ja") else "en"
    templates = MESSAGES.get(code)
    if templates is None:
        return f"{code}: {values}"
    shown = {name: _value(name, value, lang) for name, value in values.items()}
    if code == "bad-toml" and isinstance(values.get("detail"), str):
        shown["detail"] = toml_reason(values["detail"], lang)
    try:
        return templates[lang].format(**shown)
    except (KeyError, IndexError):
        return templates["en"].format_map(_Missing(shown))


class _Missing(dict):
    def __missing__(self, key):
        return "{" + key + "}"
