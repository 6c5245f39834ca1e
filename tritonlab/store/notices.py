"""What the store had to do about a user file, as facts, and the one en/ja table that says it.

A notice is data (kind, file, what was lost, where the old file is now); the CLI prints it as one line on
stderr and in `--json` under "notices", the app shows it as a notice. The sentences live here until the shared
`tritonlab/present/` package takes them over.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

SENTENCES: dict[str, dict[str, str]] = {
    "set-aside": {
        "en": "{file} could not be used ({reason}); {lost} {was} lost and the old file was moved to "
        "{moved_to}.",
        "ja": "{file} を使えませんでした（{reason}）。{lost}は失われ、"
        "元のファイルは {moved_to} に移しました。",
    },
    "not-set-aside": {
        "en": "{file} could not be used ({reason}) nor moved aside; {lost} {is_} not available in this "
        "session.",
        "ja": "{file} を使えず（{reason}）、退避もできませんでした。このセッションでは{lost}を使えません。",
    },
    "entries-dropped": {
        "en": "{file} had entries of the wrong shape ({lost}); they were dropped and the old file was moved "
        "to {moved_to}.",
        "ja": "{file} に形式の誤った項目（{lost}）がありました。それらを除き、元のファイルは {moved_to} "
        "に移しました。",
    },
    "settings-value": {
        "en": "{file}: the setting {key} = {value} is not valid; the default ({default}) is used instead.",
        "ja": "{file}: 設定 {key} = {value} は無効です。代わりに既定値（{default}）を使います。",
    },
    "cannot-save": {
        "en": "Cannot write to {file} ({reason}): the lab keeps working, but drafts and progress cannot be "
        "saved.",
        "ja": "{file} に書き込めません（{reason}）。ラボは使えますが、下書きと進捗は保存できません。",
    },
    "draft-not-a-file": {
        "en": "Your draft {file} is not a file; it was left as it is, and this window's edits are not saved "
        "there.",
        "ja": "下書き {file} がファイルではありません。そのまま残し、"
        "このウィンドウの編集はそこに保存しません。",
    },
    "other-window": {
        "en": "This exercise is also open in another TritonLab window (pid {pid}); a change there is offered "
        "here, never silently overwritten.",
        "ja": "この演習は別の TritonLab ウィンドウ（pid {pid}）でも開かれています。そちらの変更はここで"
        "提示され、黙って上書きされることはありません。",
    },
    "changed-outside": {
        "en": "Your draft {file} was changed outside this window; it was not overwritten. Press F8 to load "
        "it; this window's text is kept in {kept_in}.",
        "ja": "下書き {file} がこのウィンドウの外で変更されました（上書きはしていません）。"
        "F8 で読み込めます。"
        "このウィンドウの内容は {kept_in} に保存しています。",
    },
    "reloaded-outside": {
        "en": "Your draft {file} was changed outside this window and has been loaded.",
        "ja": "下書き {file} がこのウィンドウの外で変更されたため、読み込みました。",
    },
}

#: The words that fill {reason} and {lost}.
WORDS: dict[str, dict[str, str]] = {
    "not-json": {"en": "not valid JSON", "ja": "JSON として読めません"},
    "not-utf8": {"en": "not UTF-8 text", "ja": "UTF-8 のテキストではありません"},
    "wrong-shape": {"en": "not the expected shape", "ja": "想定した形式ではありません"},
    "is-a-directory": {"en": "a folder, not a file", "ja": "ファイルではなくフォルダです"},
    "unreadable": {"en": "cannot be read: {detail}", "ja": "読めません: {detail}"},
    "unwritable": {"en": "{detail}", "ja": "{detail}"},
    "progress": {"en": "your progress", "ja": "進捗"},
    "settings": {"en": "your settings", "ja": "設定"},
    "draft": {"en": "your draft", "ja": "下書き"},
    "file": {"en": "its content", "ja": "内容"},
    # {default} of a setting whose default is null: what null means for it
    "unset-lang": {"en": "the language of your locale", "ja": "ロケールの言語"},
    "unset-theme": {"en": "the standard theme", "ja": "標準のテーマ"},
}

#: {lost} words an English verb agrees with as a plural ("your settings were lost").
_PLURAL = frozenset({"settings"})


@dataclass(frozen=True)
class Notice:
    """One fact about a user file. `kind` picks the sentence; the other fields fill it (and go to --json)."""

    kind: str
    file: str
    reason: str = ""
    detail: str = ""
    lost: str = ""
    moved_to: str = ""
    key: str = ""
    value: str = ""
    default: str = ""
    pid: int = 0
    kept_in: str = ""

    def text(self, lang: str = "en") -> str:
        lang = lang if lang in ("en", "ja") else "en"
        sentence = SENTENCES.get(self.kind, {}).get(lang) or f"{self.kind}: {self.file}"
        fields = asdict(self)
        fields["reason"] = _word(self.reason, lang, detail=self.detail)
        fields["lost"] = _word(self.lost, lang) if self.lost in WORDS else self.lost
        plural = self.lost in _PLURAL
        fields["was"], fields["is_"] = ("were", "are") if plural else ("was", "is")
        if self.default == "null" and f"unset-{self.key}" in WORDS:  # null: the setting chooses nothing
            fields["default"] = _word(f"unset-{self.key}", lang)
        return sentence.format(**fields)

    def to_dict(self, lang: str = "en") -> dict:
        facts = {k: v for k, v in asdict(self).items() if v not in ("", 0)}
        facts["message"] = self.text(lang)
        return facts


def _word(key: str, lang: str, **fmt) -> str:
    if key not in WORDS:
        return fmt.get("detail") or key
    return WORDS[key][lang].format(**fmt)


#: Notices not yet shown, in order; a notice is queued once per process (a fact does not repeat itself).
pending: list[Notice] = []
_seen: set[Notice] = set()


def report(notice: Notice) -> None:
    if notice in _seen:
        return
    _seen.add(notice)
    pending.append(notice)


def peek() -> list[Notice]:
    """The notices not yet shown, left in the queue."""
    return list(pending)


def take() -> list[Notice]:
    """The notices not yet shown; each is handed out once."""
    taken = list(pending)
    pending.clear()
    return taken


def forget() -> None:
    """Tests start from a clean slate."""
    pending.clear()
    _seen.clear()
