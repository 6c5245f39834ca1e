"""Typed results and the presentation layer: every kind has words in both languages, JSON keeps every key."""

from __future__ import annotations

import re

import pytest

from tritonlab.engine.results import Case, Diagnosis, Kind, VerifyResult
from tritonlab.present import diagnoses
from tritonlab.present.diagnoses import describe, label

ASCII_WORDS = re.compile(r"[A-Za-z]{2,}(?:[ \t]+[A-Za-z]{2,}){2,}")


def test_every_kind_has_a_sentence_and_a_label():
    missing = [k for k in Kind if not diagnoses.has_sentence(k) or k not in diagnoses.LABELS]
    assert missing == []


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_speaks_japanese_from_bare_facts(kind):
    text = describe({"kind": kind.value}, "ja")
    assert text and text != describe({"kind": kind.value}, "en")
    assert not re.search(r"[ぁ-んァ-ン一-龥]", describe({"kind": kind.value}, "en"))


def test_the_english_message_is_never_what_is_shown():
    diag = {
        "kind": "input-modified",
        "arg": "x_ptr",
        "changed": 3,
        "message": "ENGLISH PROSE FROM THE ENGINE",
    }
    assert "ENGLISH" not in describe(diag, "ja") and "ENGLISH" not in describe(diag, "en")
    assert "x_ptr" in describe(diag, "ja") and "3" in describe(diag, "ja")


def test_an_unknown_kind_gets_a_generic_sentence_with_its_facts():
    text = describe({"kind": "grid-too-small-v9", "programs": 3, "message": "an English message"}, "ja")
    assert "grid-too-small-v9" in text and "programs=3" in text and "English" not in text
    assert label("grid-too-small-v9", "ja") == "grid-too-small-v9"


def test_odd_facts_fall_back_instead_of_raising():
    text = describe({"kind": "unwritten", "cause": "one-program", "block": "not a number"}, "ja")
    assert "unwritten" in text  # the generic form, not a traceback


def test_kind_facts():
    assert Kind.OOB.replayable and Kind.CUDA_FAULT.replayable and not Kind.MISMATCH.replayable
    assert Kind.TIMEOUT.restarts_worker and not Kind.SYNTAX.restarts_worker
    assert Kind.SYNTAX.points_at_line and not Kind.CANCELLED.points_at_line
    assert Kind.parse("oob") is Kind.OOB and Kind.parse("nope") is None
    assert Kind.OOB == "oob"


def test_verify_json_round_trip_keeps_every_key():
    raw = {
        "exercise": "05-vector-add/add",
        "backend": "interpreter",
        "passed": False,
        "error": None,
        "cases": [
            {
                "name": "n=1",
                "passed": False,
                "params": {"n": 1},
                "diagnoses": [
                    {"kind": "unwritten", "count": 2, "ranges": [[0, 1]], "message": "m", "cause": "head"}
                ],
                "first": [{"index": [0], "got": 1.0, "expected": 2.0, "kind": "wrong"}],
                "stats": {"loads": 1},
            }
        ],
        "summary": "s",
        "seconds": 0.5,
        "file": "/tmp/x.py",
        "entry": "add",
    }
    result = VerifyResult.from_json(raw)
    assert result.to_json() == raw
    assert isinstance(result.cases[0], Case) and isinstance(result.cases[0].diagnoses[0], Diagnosis)
    assert result.cases[0].diagnoses[0].known is Kind.UNWRITTEN
    assert result.first_failure() is result.cases[0]
    assert VerifyResult.from_json({"passed": True}).to_json() == {"passed": True}


def test_a_near_miss_mismatch_says_precision_in_both_languages_and_a_named_cause_wins():
    facts = {
        "kind": "mismatch",
        "count": 9,
        "atol": 0.003,
        "rtol": 0.01,
        "max_abs_err": 0.0064,
        "near_miss": 1.9,
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "within 1.9× the tolerance" in en and "nearly right" in en and "wrong places" not in en
    assert "1.9 倍以内" in ja and "精度" in ja and not re.search(r"\bnearly\b", ja)
    named = dict(facts, cause="dtype-only", dtype="bfloat16", passing=["float16"])
    assert "nearly right" not in describe(named, "en")  # a cross-case cause is more specific


def test_a_race_names_the_line_the_buffer_and_two_programs_in_both_languages():
    facts = {
        "kind": "race",
        "kernel": "dx_kernel",
        "argument": "partial_dw_ptr",
        "count": 7,
        "programs": [[0, 0, 0], [1, 0, 0]],
        "line": 58,
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert (
        en.startswith("line 58: 7 elements of partial_dw_ptr are loaded") and "program 0 and program 1" in en
    )
    assert (
        ja.startswith("58 行目: dx_kernel の 1 回の起動の中で、partial_dw_ptr の 7 要素")
        and "プログラム 1" in ja
    )
    one = describe(dict(facts, count=1, programs=[[0, 2, 0], [1, 2, 0]], argument=None), "en")
    assert "1 element is loaded" in one and "program (0, 2) and program (1, 2)" in one


def test_unwritten_rows_with_an_overlap_name_the_store_offset_in_both_languages():
    facts = {
        "kind": "unwritten",
        "cause": "overlap",
        "count": 14,
        "numel": 21,
        "view_shape": [3, 7],
        "rows": [[1, 2]],
        "cols": [[0, 6]],
        "overlap_argument": "dx_ptr",
        "overlap_count": 7,
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "7 elements of dx_ptr were stored by more than one program" in en and "row * N" in en
    assert "grid" not in en
    assert "dx_ptr の 7 要素は複数のプログラムから" in ja and "row * N" in ja


def test_swapped_outputs_are_said_in_both_languages():
    facts = {
        "kind": "mismatch",
        "count": 4,
        "atol": 1e-5,
        "rtol": 1e-5,
        "max_abs_err": 3.0,
        "cause": "swapped",
        "output": "grad_a",
        "swapped_with": "grad_b",
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert en.startswith("grad_a: ") and "holds the expected grad_b" in en and "wrong order" in en
    assert "grad_a には期待される grad_b の値" in ja and "順序が逆" in ja


def test_a_carried_accumulator_is_said_in_both_languages():
    facts = {
        "kind": "mismatch",
        "count": 90,
        "atol": 0.01,
        "rtol": 0.01,
        "max_abs_err": 30.0,
        "cause": "carried-acc",
        "tiles": 5,
        "tiles_total": 7,
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "5 of the 7 wrong tiles are their right value plus another tile's result" in en
    assert "7 個のタイルのうち 5 個" in ja and "tl.zeros" in ja
    assert "the wrong tile is its right value" in describe(dict(facts, tiles=1, tiles_total=1), "en")
    assert "each of the 3 wrong tiles is its" in describe(dict(facts, tiles=3, tiles_total=3), "en")
    sampled = dict(facts, tiles=30, tiles_total=4096, tiles_checked=32)
    assert "30 of the 32 wrong tiles checked (of 4096) are their" in describe(sampled, "en")
    assert "4096 個のタイルから調べた 32 個のうち 30 個は" in describe(sampled, "ja")


def test_an_unmasked_helper_access_names_the_callers_range_in_both_languages():
    caller = {
        "function": "_blocks",
        "line": 115,
        "bounds": [{"param": "lo", "arg": "0"}, {"param": "hi", "arg": "end"}],
    }
    facts = {
        "kind": "oob",
        "access": "load",
        "arg": "k_ptr",
        "line": 38,
        "mask": None,
        "caller": caller,
        "reason": "past_end",
        "offsets": [16],
        "extent": 16,
        "numel": 16,
        "lanes": 8,
        "program_id": [0, 0, 0],
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "the call at line 115 passes lo = 0, hi = end" in en and "pass mask=" not in en
    assert "115 行目の呼び出しは lo = 0, hi = end を渡しています" in ja
    plain = describe(dict(facts, caller=None), "en")
    assert "pass mask=" in plain


def test_a_formula_difference_and_a_plain_float32_near_miss_in_both_languages():
    formula = {"kind": "mismatch", "count": 1, "cause": "formula", "dtype": "float32", "passing": ["float16"]}
    en, ja = describe(formula, "en"), describe(formula, "ja")
    assert "formula differs" in en and "16-bit type somewhere" not in en
    assert "float32 のケースだけ" in ja and "近似" in ja and "キャストしてください" not in ja
    near = {"kind": "mismatch", "count": 9, "atol": 1e-5, "rtol": 1e-5, "near_miss": 1.1, "lossy16": False}
    en, ja = describe(near, "en"), describe(near, "ja")
    assert "within 1.1× the tolerance" in en and "fp16/bf16" not in en and "padding" in en
    assert "1.1 倍以内" in ja and "fp16/bf16" not in ja and "パディング" in ja
    assert "fp16/bf16" in describe(dict(near, lossy16=True), "en")


def test_a_store_that_never_ran_and_swapped_arguments_in_both_languages():
    never = {"kind": "unwritten", "cause": "store-never-ran", "count": 1, "numel": 1}
    en, ja = describe(never, "en"), describe(never, "ja")
    assert "never ran its tl.store" in en and "return" in en and "tl.store pointer" not in en
    assert "tl.store を一度も実行していません" in ja and "return" in ja
    swapped = {"kind": "unwritten", "cause": "args-order", "count": 96, "numel": 97, "param": "degree"}
    en, ja = describe(swapped, "en"), describe(swapped, "ja")
    assert "exactly degree elements" in en and "order of the launch's arguments" in en
    assert "degree" in ja and "引数の順序" in ja


def test_every_program_but_the_first_wrong_in_both_languages():
    facts = {"kind": "mismatch", "count": 1, "cause": "all-but-first", "atol": 1e-5, "rtol": 1e-5}
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "program 0 is right" in en and "tl.program_id(0)" in en and "other=" not in en
    assert "プログラム 0 だけが正しく" in ja and "tl.program_id(0)" in ja


def test_a_false_flag_branch_leads_with_the_missing_bound_in_both_languages():
    facts = {
        "kind": "oob",
        "access": "load",
        "arg": "b_ptr",
        "line": 63,
        "mask": "n_ok = offs_n[None, :] < N",
        "unbounded": [{"name": "offs_k", "axis": 0}],
        "promise": {"name": "EVEN_K", "value": False, "branch": False, "line": 267, "expr": "K % 32 == 0"},
        "reason": "past_end",
        "offsets": [1],
        "span": [1, 31],
        "extent": 1,
        "numel": 1,
        "lanes": 31,
        "program_id": [0, 0, 0],
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "fix how the wrapper computes EVEN_K" not in en and "never bounds offs_k (axis 0)" in en, en
    assert "EVEN_K=False branch" in en and "offs_k < K - k * BLOCK_K" in en, en
    assert "ラッパー" not in ja and "offs_k(軸 0) を制限していません" in ja and "EVEN_K=False の分岐" in ja, (
        ja
    )
    promised = dict(facts, promise=dict(facts["promise"], value=True, branch=True))
    assert "fix how the wrapper computes EVEN_K" in describe(promised, "en")


def test_a_mask_term_with_the_wrong_size_in_both_languages():
    facts = {
        "kind": "oob",
        "access": "store",
        "arg": "output_ptr",
        "line": 29,
        "mask": "out_mask = (cols[:, None] < n_cols) & (rows[None, :] < n_cols)",
        "unbounded": [],
        "bounded": True,
        "wrong_bound": {
            "term": "rows[None, :] < n_cols",
            "index": "rows",
            "bound": "n_cols",
            "bound_value": 13,
            "axis": 1,
            "stride": "stride_on",
            "extent": 7,
            "expected": "n_rows",
        },
        "reason": "past_end",
        "offsets": [91],
        "span": [91, 96],
        "extent": 91,
        "numel": 91,
        "lanes": 6,
        "program_id": [0, 0, 0],
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "compare rows with n_rows (n_rows = 7), not n_cols" in en and "bounds every index" not in en, en
    assert "rows は n_cols ではなく n_rows(n_rows = 7)と比べてください" in ja and "軸 1" in ja, ja
    assert "bounds every index" in describe(dict(facts, wrong_bound=None), "en")
