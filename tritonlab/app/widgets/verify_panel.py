"""Verify tab: one row per case; the selected case shows its diagnoses, first mismatches and mismatch map."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from tritonlab.app.formatting import error_detail, error_text, number, value_text
from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.content.model import tr
from tritonlab.present.diagnoses import describe
from tritonlab.present.tensors import case_inputs
from tritonlab.present.verify import CASE_WIDTH, audit_line, case_name, error_cells, map_lines, summary

COLUMNS = ("", "col_case", "col_abs", "col_rel", "col_mismatch", "col_why")


class VerifyPanel(LabAppAccess, Vertical):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._result: dict | None = None
        self._selected = 0

    def compose(self) -> ComposeResult:
        yield Static(id="verify-summary", markup=False)
        table: DataTable[object] = DataTable(id="verify-cases", cursor_type="row", zebra_stripes=True)
        table.display = False
        yield table
        with VerticalScroll(id="verify-detail"):
            yield Static(id="verify-detail-body", markup=False)

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self._update_view())
        # The table measures its rows on an idle pass; now and then (a loaded machine: CI) no layout followed
        # and the table stayed 0 rows tall. Ask the table for a layout whenever its measured size changes.
        table = self.query_one("#verify-cases", DataTable)
        self.watch(table, "virtual_size", self._table_measured, init=False)

    @property
    def cases(self) -> list[dict]:
        return (self._result or {}).get("cases") or []

    def _table_measured(self, _size: object) -> None:
        table = self.query_one("#verify-cases", DataTable)
        self.call_after_refresh(table.refresh, layout=True)

    def show(self, result: dict) -> None:
        self._result = result
        failing = next((i for i, case in enumerate(self.cases) if not case.get("passed")), 0)
        self._selected = failing
        self._update_view()

    def _update_view(self) -> None:
        lang = self.lab_app.lang
        summary = self.query_one("#verify-summary", Static)
        table = self.query_one("#verify-cases", DataTable)
        result = self._result
        if result is None:
            summary.update(Text(t("verify_empty", lang), style="dim"))
            self.query_one("#verify-detail-body", Static).update("")
            return
        summary.update(self._summary(result, lang))
        table.clear(columns=True)
        table.add_columns(*(t(key, lang) if key else "" for key in COLUMNS))
        for index, case in enumerate(self.cases):
            table.add_row(*self._row(case, lang), key=str(index))
        table.display = bool(self.cases)
        self.query_one("#verify-detail").display = bool(self.cases or self._raw_detail())
        if self.cases:
            table.move_cursor(row=min(self._selected, len(self.cases) - 1), animate=False)
        self._show_case(self._selected)

    def _summary(self, result: dict, lang: str) -> Text:
        text = Text()
        error = result.get("error")
        if error and error.get("kind") == "cancelled":
            text.append(t("cancelled", lang), style="bold yellow")
            return text
        if result.get("skipped"):  # verify.requires unmet here: neither pass nor fail, and why
            text.append(t("skipped", lang), style="bold yellow")
            text.append("  " + summary(result, lang))
            return text
        if result.get("passed"):
            text.append(t("passed", lang), style="bold green")
        else:
            text.append(t("failed", lang), style="bold red")
        if error:
            text.append("\n")
            # The summary is a few lines high and does not scroll: a traceback goes to the detail area below.
            text.append_text(error_text(error, lang, detail=False))
        elif self.cases and not result.get("passed"):
            # The engine's summary repeats the first failure's diagnosis, which the selected case shows below:
            # at 80×24 that repeat took the lines the mismatch map needs.
            passed = sum(1 for case in self.cases if case.get("passed"))
            text.append("  " + t("cases_pass", lang, passed=passed, total=len(self.cases)))
        elif result.get("cases") or result.get("error"):
            text.append("  " + summary(result, lang))
        audit = audit_line(result, lang)  # a GPU pass: the interpreter audit pending, or what it found
        if audit:
            state = (result.get("audit") or {}).get("state")
            text.append("\n" + audit, style={"pending": "dim", "clean": "green"}.get(state or "", "yellow"))
        return text

    @staticmethod
    def _row(case: dict, lang: str) -> tuple:
        mark = Text("✓", style="bold green") if case.get("passed") else Text("✗", style="bold red")
        diagnoses = case.get("diagnoses") or []
        why = describe(diagnoses[0], lang) if diagnoses else ""
        if len(why) > 70:
            why = why[:69] + "…"
        # one line, at most CASE_WIDTH cells: a reject case's sentence took the table's width from the numbers
        # (the selected case's whole name heads the detail below)
        name = Text(case_name(case, lang))
        name.truncate(CASE_WIDTH, overflow="ellipsis")
        return (
            mark,
            name,
            *error_cells(case, lang),
            number(case.get("mismatches")),
            why,
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key is not None and event.row_key.value is not None:
            self._selected = int(event.row_key.value)
            self._show_case(self._selected)

    def _raw_detail(self) -> Text:
        """The error's traceback or the worker's stderr, if any (a cancel has nothing worth reading)."""
        error = (self._result or {}).get("error") or {}
        return error_detail(error) if error.get("kind") != "cancelled" else Text()

    def _error_is_about(self, case: dict, lang: str) -> bool:
        error = (self._result or {}).get("error") or {}
        named = error.get("case")
        return not case.get("passed") and (not named or named in (case.get("name"), case_name(case, lang)))

    def _show_case(self, index: int) -> None:
        lang = self.lab_app.lang
        body = self.query_one("#verify-detail-body", Static)
        raw = self._raw_detail()
        if not self.cases:
            body.update(raw)
            return
        case = self.cases[min(index, len(self.cases) - 1)]
        text = Text()
        text.append(case_name(case, lang), style="bold")
        if case.get("why") and case.get("kind") != "reject":  # a reject case's name already says why
            text.append(f"  — {tr(case['why'], lang)}", style="dim")
        text.append("\n")
        if case.get("passed"):
            text.append(t("case_passed", lang), style="green")
            if case.get("raised"):
                text.append("  " + t("raised", lang, what=case["raised"]), style="dim")
            text.append("\n")
        for diagnosis in case.get("diagnoses") or []:
            text.append("• ", style="red")
            text.append(describe(diagnosis, lang))
            if diagnosis.get("line"):
                text.append(f"  ({t('line_n', lang, line=diagnosis['line'])})", style="dim")
            text.append("\n")
        drawn = map_lines(case, lang)
        if drawn and not case.get("passed"):
            # The map first: where the wrong elements are is the picture; the values below are the detail.
            text.append(f"\n{t('mismatch_map', lang)}\n", style="bold")
            text.append("\n".join(drawn).rstrip() + "\n")
        first = case.get("first") or []
        if first:
            text.append(f"\n{t('first_mismatches', lang)}\n", style="bold")
            for item in first[:8]:
                text.append(
                    "  "
                    + t(
                        "got_expected",
                        lang,
                        index=item.get("index"),
                        got=value_text(item.get("got")),
                        expected=value_text(item.get("expected")),
                    )
                    + "\n"
                )
        inputs = case_inputs(case, lang)
        if inputs:
            text.append(f"\n{t('inputs', lang)}\n", style="bold")
            for name, description in inputs:
                text.append(f"  {name}: {description}\n", style="dim")
        if raw and self._error_is_about(case, lang):
            text.append("\n")
            text.append_text(raw)
        body.update(text)
