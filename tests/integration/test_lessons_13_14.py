"""Lessons 13-14 and their hooks: `verify.requires` (skip with the reason, never fail), `verify.hidden` (a fresh
random case per verify), `randint(0, V)` over a case param, the doctor's lesson-features check, and every starter
failing / every solution passing through the real worker."""

import shutil

import pytest

from tritonlab.content.loader import load_catalog
from tritonlab.engine import features
from tritonlab.engine.results import Kind
from tritonlab.paths import kernels_dir, lessons_dir
from tritonlab.present.diagnoses import describe, label
from tritonlab.present.verify import summary

EXERCISES = [
    "13/persistent-matmul",
    "13/matmul-descriptors",
    "14/swiglu",
    "14/swiglu-backward",
    "14/cross-entropy",
]


def verify(worker, exercise: str, **args) -> dict:
    return worker.request("verify", {"exercise": exercise, **args}, timeout=300)


def edited_lessons(tmp_path, folder: str, old: str, new: str):
    """A copy of one shipped lesson with one edit to its lesson.toml (the edit must apply)."""
    lessons = tmp_path / "lessons"
    shutil.copytree(lessons_dir() / folder, lessons / folder)
    toml = lessons / folder / "lesson.toml"
    text = toml.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{folder}/lesson.toml changed: {old!r} not found"
    toml.write_text(text.replace(old, new, 1), encoding="utf-8")
    return lessons


# --- every starter fails, every solution passes (what `tritonlab check 13 14` runs) ----------------------------
@pytest.mark.parametrize("exercise", EXERCISES)
def test_solution_passes_and_starter_fails(worker, exercise):
    solved = verify(worker, exercise, solution=True)
    assert solved["passed"] is True, solved.get("summary")
    assert not solved.get("skipped")
    catalog = load_catalog()
    starter = next(
        e
        for e in catalog.all_exercises()
        if e.key.endswith(exercise.split("/")[1]) and e.key.startswith(exercise.split("/")[0].zfill(2))
    )
    attempt = verify(worker, exercise, file=str(starter.starter))
    assert attempt["passed"] is False, attempt.get("summary")
    assert not attempt.get("skipped")


# --- verify.requires ----------------------------------------------------------------------------------------
def test_missing_features_are_named_in_the_lessons_order():
    assert features.missing([], "interpreter") == []
    assert features.missing(["gpu"], "interpreter") == ["gpu"]
    assert features.missing(["gpu"], "gpu") == []
    assert features.missing(["no-such-feature"], "gpu") == [
        "no-such-feature"
    ]  # a newer lesson: skipped, said


def test_a_gpu_only_exercise_is_skipped_on_the_interpreter_with_the_reason(worker, tmp_path):
    lessons = edited_lessons(
        tmp_path,
        "13-hopper",
        'requires = ["tensor-descriptors", "warp-specialize"]',
        'requires = ["gpu", "tensor-descriptors"]',
    )
    result = verify(
        worker,
        "13/matmul-descriptors",
        solution=True,
        lessons_dir=str(lessons),
        kernels_dir=str(kernels_dir()),
    )
    assert result["passed"] is False and result["error"] is None
    assert result["cases"] == []
    skipped = result["skipped"]
    assert skipped["kind"] == Kind.SKIPPED == "skipped"
    assert skipped["missing"] == ["gpu"] and skipped["requires"] == ["gpu", "tensor-descriptors"]
    assert "GPU" in summary(result, "en") and "not a failure" in summary(result, "en")
    assert "GPU" in summary(result, "ja") and "不合格ではありません" in summary(result, "ja")


def test_a_met_requirement_runs_the_cases(worker):
    """False skip: the shipped exercise needs features this Triton has, so it really runs (and passes)."""
    if features.missing(["tensor-descriptors", "warp-specialize"], "interpreter"):
        pytest.skip("this Triton lacks tensor descriptors: the skip path is the one tested above")
    result = verify(worker, "13/matmul-descriptors", solution=True)
    assert "skipped" not in result and len(result["cases"]) > 2 and result["passed"]


def test_skipped_sentence_names_triton_features_in_both_languages():
    facts = {"kind": "skipped", "missing": ["tensor-descriptors"], "triton": "3.6.0"}
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "tl.make_tensor_descriptor" in en and "3.6.0" in en
    assert "テンソルディスクリプタ" in ja and "3.6.0" in ja
    assert label("skipped", "ja") == "スキップ"


def test_unknown_requirement_is_a_lesson_problem(tmp_path):
    lessons = edited_lessons(
        tmp_path,
        "13-hopper",
        'requires = ["tensor-descriptors", "warp-specialize"]',
        'requires = ["tensor-cores"]',
    )
    catalog = load_catalog(lessons, kernels_dir())
    assert any("verify.requires" in str(p) and "tensor-cores" in str(p) for p in catalog.problems)
    assert not load_catalog(lessons_dir(), kernels_dir()).problems


# --- verify.hidden ------------------------------------------------------------------------------------------
def test_hidden_case_is_drawn_fresh_within_its_range(worker):
    listed = 3 * 3 * 2  # interpreter cases x dtypes x seeds in 14-capstone/lesson.toml (swiglu)
    seen = []
    for _ in range(2):
        result = verify(worker, "14/swiglu", solution=True)
        assert result["passed"], result.get("summary")
        cases = [c for c in result["cases"] if c.get("kind") != "reject"]
        assert len(cases) >= listed + 1  # then the engine's own jittered random case(s)
        hidden = cases[listed]
        assert 1 <= hidden["params"]["M"] <= 40 and 1 <= hidden["params"]["N"] <= 700
        seen.append((hidden["params"]["M"], hidden["params"]["N"], hidden["seed"]))
    assert seen[0] != seen[1]  # a 2**31 seed repeating is not a thing a test should meet


def test_hidden_case_catches_a_kernel_tuned_to_the_listed_sizes(worker, tmp_path):
    """A wrapper that launches a fixed grid covering the listed sizes (<= 1600 elements) passes those and fails
    the hidden case whenever it is larger; the listed cases alone would call it correct."""
    source = (kernels_dir() / "swiglu.py").read_text(encoding="utf-8")
    old = 'grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)  # noqa: E731'
    assert old in source
    tuned = tmp_path / "tuned.py"
    tuned.write_text(source.replace(old, "grid = (7,)"), encoding="utf-8")
    failed_hidden = False
    for _ in range(8):  # the hidden case is > 1792 elements with probability ~0.85 each time
        result = verify(worker, "14/swiglu", file=str(tuned))
        cases = [c for c in result["cases"] if c.get("kind") != "reject"]
        listed, hidden = cases[:18], cases[18]
        assert all(c["passed"] for c in listed), [c["name"] for c in listed if not c["passed"]]
        if hidden["params"]["M"] * hidden["params"]["N"] > 7 * 256:
            assert not hidden["passed"] and result["passed"] is False
            failed_hidden = True
            break
    assert failed_hidden


def test_hidden_ranges_are_validated(tmp_path):
    lessons = edited_lessons(
        tmp_path,
        "14-capstone",
        "hidden      = { interpreter = { M = [1, 40], N = [1, 700] }",
        "hidden      = { interpreter = { M = [40, 1], N = [1, 700] }",
    )
    assert any("verify.hidden" in str(p) for p in load_catalog(lessons, kernels_dir()).problems)


# --- randint(0, V) --------------------------------------------------------------------------------------------
def test_class_ids_are_drawn_below_the_cases_vocabulary():
    """randint(0, V) takes V from the case: every id is a valid class, and they are not all the same class."""
    from tritonlab.engine.inputs import make_inputs

    catalog = load_catalog()
    exercise = next(e for e in catalog.all_exercises() if e.key == "14-capstone/cross-entropy")
    for vocab in (7, 1000):
        inputs = make_inputs(exercise, {"M": 200, "V": vocab}, "float32", 0, "cpu")
        target = inputs["target"]
        assert str(target.dtype) == "torch.int64"
        assert int(target.min()) >= 0 and int(target.max()) < vocab
        assert len(set(target.tolist())) > 1
    # V = 1: the only class is 0 (a fallback to the default high of 10 would give other ids)
    assert set(make_inputs(exercise, {"M": 50, "V": 1}, "float32", 0, "cpu")["target"].tolist()) == {0}


# --- doctor -----------------------------------------------------------------------------------------------------
def test_doctor_lists_missing_lesson_features(monkeypatch):
    from tritonlab.engine.tasks import doctor
    from tritonlab.present import doctor as words

    monkeypatch.setattr(
        features,
        "available",
        lambda backend: {
            "gpu": False,
            "tensor-descriptors": False,
            "host-descriptors": True,
            "warp-specialize": False,
        },
    )
    check = doctor._lesson_features("interpreter")
    assert check["status"] == "warn" and check["missing"] == ["tensor-descriptors", "warp-specialize"]
    assert "warp_specialize" in words.value(check, "en") and "ワープ特化" in words.value(check, "ja")
    assert words.fix(check, "ja") and "pip install -U triton" in words.fix(check, "en")

    monkeypatch.setattr(
        features,
        "available",
        lambda backend: {
            "gpu": False,
            "tensor-descriptors": True,
            "host-descriptors": True,
            "warp-specialize": True,
        },
    )
    check = doctor._lesson_features("interpreter")
    assert check["status"] == "ok" and check["missing"] == [] and words.fix(check, "en") is None


# --- ir: Hopper data movement ------------------------------------------------------------------------------------
def test_hopper_instruction_counts_per_stage():
    from tritonlab.engine.ir_notes import hopper_instructions

    ptx = (
        "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [r1], [r2, {r3, r4}], [r5];\n"
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [r6, {r7, r8}], [r9];\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p1, [r5], r10;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {...};\n"
    )
    counts = hopper_instructions(ptx, "ptx")
    assert counts == {"tma_load": 1, "tma_store": 1, "descriptor_create": 0, "wgmma": 1, "mbarrier": 1}
    pointer = "ld.global.v4.b32 {r1, r2, r3, r4}, [rd1];\nmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {...};\n"
    assert set(hopper_instructions(pointer, "ptx").values()) == {0}
    assert hopper_instructions(
        "UTMALDG.2D [UR8], [UR4] ;\nHGMMA.64x128x16.F32 R24, gdesc[UR8], R24 ;", "sass"
    ) == {"tma_load": 1, "tma_store": 0, "wgmma": 1, "mbarrier": 0}
    assert hopper_instructions(ptx, "ttir") is None  # before the NVIDIA lowering: no counts, not zeros


def test_ir_of_the_descriptor_kernel_shows_tma_in_both_languages(worker):
    from tritonlab.present.ir import header

    result = worker.request(
        "ir", {"exercise": "13/matmul-descriptors", "solution": True, "stage": "ptx"}, timeout=300
    )
    assert result["error"] is None, result["error"]
    assert result["hopper"]["tma_load"] > 0 and result["hopper"]["tma_store"] > 0
    assert any("TMA tile loads" in line for line in header(result, "en"))
    assert any("TMA タイルロード" in line for line in header(result, "ja"))
    pointer = worker.request(
        "ir", {"exercise": "13/persistent-matmul", "solution": True, "stage": "ptx"}, timeout=300
    )
    assert pointer["error"] is None and pointer["hopper"]["tma_load"] == 0
    assert not any("TMA" in line for line in header(pointer, "en"))


def test_cli_says_skipped_not_failed():
    from rich.console import Console

    from tritonlab.present.cli import print_verify

    result = {
        "exercise": "13-hopper/matmul-descriptors",
        "backend": "interpreter",
        "passed": False,
        "cases": [],
        "error": None,
        "skipped": {"kind": "skipped", "requires": ["gpu"], "missing": ["gpu"], "triton": "3.9.0"},
    }
    for lang, word, other in (("en", "SKIPPED", "FAILED"), ("ja", "スキップ", "不合格")):
        console = Console(record=True, width=200)
        print_verify(console, result, lang)
        out = console.export_text()
        status = [line.split()[0] for line in out.splitlines() if line.strip()][-1]
        assert status == word and status != other, out
    failed = dict(result, skipped=None)
    console = Console(record=True, width=200)
    print_verify(console, failed, "en")
    assert console.export_text().splitlines()[-1].startswith("FAILED")
