"""Rules added for probe round 17 (tests/integration/probe_round17_a/README.md findings 4, 6 and 8;
probe_round17_b/README.md finding 9), each tested both ways: the wrong pattern gets its fact and its line, the
right code (or another slip) does not.

- verify._store_mask_line / _store_mask_named: an output left unwritten by the store's own mask (`masked-off`,
  `tail-masked`) names the line that builds that mask (the `mask=` name followed to its one assignment).
- verify._contract_lines: a `wrong-dtype` output names the line that made the returned tensor
  (`contracts.returned_line`), with its code.
- memcheck/report._mask_facts: `mask_line` (the mask's assignment) and `off_by_one` (`cols <= N`: use <).
- verify_runner._second_run_warnings: a case's second run (padding left 0, values shifted) drops Triton's
  warnings instead of printing them among the learner's output; cli.printed_tail starts at a line."""

from __future__ import annotations

import linecache
import os
import warnings
from pathlib import Path

import pytest
import triton

from tritonlab.engine.memcheck.report import OutOfBounds, _mask_facts
from tritonlab.engine.tasks import verify
from tritonlab.engine.tasks.verify_runner import _second_run_warnings, _triton_warnings
from tritonlab.present.cli import printed_tail
from tritonlab.present.diagnoses import describe

PROBES_A = Path(__file__).parents[1] / "integration" / "probe_round17_a"
PROBES_B = Path(__file__).parents[1] / "integration" / "probe_round17_b"


def write(tmp_path: Path, source: str) -> str:
    path = tmp_path / f"k{abs(hash(source))}.py"
    path.write_text(source)
    linecache.checkcache(str(path))
    return str(path)


def line_of(file: str, marker: str) -> int:
    return next(i for i, text in enumerate(Path(file).read_text().splitlines(), 1) if marker in text)


# --- finding 4: the line of the store's mask ---------------------------------------------------------------------

KERNEL = """
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    MASKS
    x = tl.load(x_ptr + offsets, mask=offsets < n_elements)
    tl.store(y_ptr + offsets, x, STORE)
"""


def kernel(tmp_path: Path, masks: str, store: str) -> str:
    return write(tmp_path, KERNEL.replace("MASKS", masks).replace("STORE", store))


@pytest.mark.parametrize(
    "masks, store, marker, text",
    [
        ("mask = offsets < n_elements - 1", "mask=mask", "mask = offsets", "mask = offsets < n_elements - 1"),
        (
            "keep = offsets <= n_elements - 2",
            "mask=keep",
            "keep = offsets",
            "keep = offsets <= n_elements - 2",
        ),
        (
            "pass",
            "mask=offsets < n_elements - 1",
            "tl.store(",
            "offsets < n_elements - 1",
        ),  # inline: the store
        (
            "mask = offsets < n_elements - 1",
            "mask",
            "mask = offsets",
            "mask = offsets < n_elements - 1",
        ),  # third arg
    ],
)
def test_the_store_mask_is_followed_to_its_line(tmp_path, masks, store, marker, text):
    file = kernel(tmp_path, masks, store)
    assert verify._store_mask_line(file, {"k"}) == (line_of(file, marker), text)
    assert verify._store_mask_line(file) == (line_of(file, marker), text)  # no launch known: every kernel


@pytest.mark.parametrize(
    "masks, store",
    [
        ("mask = offsets < n_elements\n    mask = mask & (offsets > 0)", "mask=mask"),  # assigned twice
        ("mask = offsets < n_elements\n    mask &= offsets > 0", "mask=mask"),  # and updated
        ("pass", "mask=n_elements"),  # a parameter: no assignment
        ("pass", "other=0.0"),  # an unmasked store: no mask line at all
    ],
)
def test_a_mask_that_is_not_one_line_names_none(tmp_path, masks, store):
    assert verify._store_mask_line(kernel(tmp_path, masks, store), {"k"}) is None


def test_two_stores_with_masks_made_on_different_lines_name_none(tmp_path):
    source = KERNEL.replace("MASKS", "a = offsets < n_elements\n    b = offsets < n_elements - 1").replace(
        "STORE", "mask=a)\n    tl.store(y_ptr + offsets + 1, x, mask=b"
    )
    assert verify._store_mask_line(write(tmp_path, source), {"k"}) is None


def test_only_the_launched_kernels_count(tmp_path):
    file = kernel(tmp_path, "mask = offsets < n_elements - 1", "mask=mask")
    assert verify._store_mask_line(file, {"other_kernel"}) is None


def unwritten(cause: str, **extra) -> dict:
    message = {
        "masked-off": "no element was written (1 element still holds the poison): your kernel ran tl.store, but "
        "its mask switched off every lane — check the store's mask (it must be True for every offset below "
        "n_elements)",
        "tail-masked": "element 96 was never written: a program covered it (1 × BLOCK_SIZE 1024 ≥ 97), but the "
        "store's mask switched off the last 1 — it must be True for every offset below n_elements (an "
        "off-by-one?)",
    }.get(cause, "x: y")
    return {"kind": "unwritten", "cause": cause, "count": 1, "numel": 97, "message": message, **extra}


PROBE_MASK = str(PROBES_A / "l02_gelu_tanh_wrong_mask_n_minus_one.py")
LAUNCH = [{"kernel": "gelu_tanh_kernel", "grid": [1, 1, 1]}]


@pytest.mark.parametrize("cause", ["masked-off", "tail-masked"])
def test_masked_off_and_tail_masked_name_the_masks_line(cause):
    diags = [unwritten(cause, grid_programs=1, block=1024, first=96, start=96)]
    verify._store_mask_named(diags, LAUNCH, PROBE_MASK)
    line = line_of(PROBE_MASK, "    mask = offsets < n_elements - 1")
    assert diags[0]["line"] == line and diags[0]["mask"] == "mask = offsets < n_elements - 1", diags
    assert f"line {line}" in diags[0]["message"], diags[0]["message"]
    en, ja = describe(diags[0], "en"), describe(diags[0], "ja")
    assert f"line {line}" in en and "(mask = offsets < n_elements - 1)" in en.replace(": mask", " (mask"), en
    assert f"{line} 行目" in ja and "mask = offsets < n_elements - 1" in ja, ja
    if cause == "tail-masked":
        assert "off-by-one?" in en and "1 つずれていませんか" in ja


@pytest.mark.parametrize(
    "diag",
    [
        unwritten("grid-short"),  # another cause: the grid, not the mask
        unwritten("value-masked"),  # its own rule names its line
        unwritten("masked-off", per_program=True, line=3, mask="pid < 1"),  # already named: kept
    ],
)
def test_other_unwritten_causes_are_left_alone(diag):
    before = dict(diag)
    verify._store_mask_named([diag], LAUNCH, PROBE_MASK)
    assert diag == before


def test_a_right_store_mask_says_the_old_sentence_without_a_line():
    diag = unwritten("masked-off")
    verify._store_mask_named(
        [diag], LAUNCH, str(PROBES_A / "l03_program_map_ok_padded_buffer_unmasked_store.py")
    )
    assert "line" not in diag  # an unmasked store: no mask line to name
    assert "check the store's mask (it must be True" in describe(diag, "en")
    assert "ストアのマスク(n_elements 未満" in describe(diag, "ja")


# --- finding 6: the wrong dtype's allocation ---------------------------------------------------------------------

WRAPPER = """
import torch


def program_map(x, BLOCK_SIZE):
    n_elements = x.numel()
    ALLOC
    kernel[(1,)](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
"""


def dtype_diag(fixed: bool, **extra) -> dict:
    got, expected = ("torch.float32", "torch.int32") if fixed else ("torch.float32", "torch.float16")
    return {"kind": "wrong-dtype", "got": got, "expected": expected, "fixed": fixed, "message": "m", **extra}


@pytest.mark.parametrize("fixed", [True, False])
def test_a_wrong_dtype_names_the_allocation(tmp_path, fixed):
    file = write(tmp_path, WRAPPER.replace("ALLOC", "out = torch.empty_like(x)"))
    diags = [dtype_diag(fixed)]
    verify._contract_lines(diags, [], file, "program_map")
    line = line_of(file, "out = torch.empty_like(x)")
    assert diags[0]["line"] == line and diags[0]["code"] == "out = torch.empty_like(x)", diags
    en, ja = describe(diags[0], "en"), describe(diags[0], "ja")
    assert f"line {line} (out = torch.empty_like(x))" in en or f"line {line} makes it float32" in en, en
    assert f"{line} 行目(out = torch.empty_like(x))" in ja, ja
    if fixed:
        assert "dtype=torch.int32 at line" in en and "dtype=torch.int32 を指定して確保" in ja
    assert en.split(" — ", 1)[1] == diags[0]["message"].split(" — ", 1)[1], (en, diags[0]["message"])


def test_the_probe_program_map_names_line_21():
    file = str(PROBES_A / "l03_program_map_wrong_output_empty_like_x_float.py")
    diags = [dtype_diag(True)]
    verify._contract_lines(diags, [], file, "program_map")
    assert diags[0]["line"] == line_of(file, "out = torch.empty_like(x)"), diags


@pytest.mark.parametrize(
    "alloc",
    [
        "out = torch.empty_like(x)\n    out = out.float()",  # made twice: no one line
    ],
)
def test_a_returned_tensor_made_on_several_lines_names_none(tmp_path, alloc):
    file = write(tmp_path, WRAPPER.replace("ALLOC", alloc))
    diags = [dtype_diag(True)]
    verify._contract_lines(diags, [], file, "program_map")
    assert "line" not in diags[0] and "code" not in diags[0]
    assert "at line" not in describe(diags[0], "en")


def test_an_output_of_several_is_not_given_the_wrappers_return(tmp_path):
    file = write(tmp_path, WRAPPER.replace("ALLOC", "out = torch.empty_like(x)"))
    diags = [dtype_diag(True, output="grad_x")]  # outputs.py: one of several outputs, named
    verify._contract_lines(diags, [], file, "program_map")
    assert "line" not in diags[0]


# --- finding 9: the mask's own line, and a `<=` that is off by one -----------------------------------------------

RMS = """
def rms_norm_kernel(x_ptr, w_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym, eps, BLOCK_N):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_N)
    mask = MASK

    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0)
"""


def rms_facts(tmp_path: Path, mask: str) -> dict:
    file = write(tmp_path, RMS.replace("MASK", mask))
    line = line_of(file, "x = tl.load(")
    return _mask_facts(linecache.getline(file, line), file, line)


@pytest.mark.parametrize(
    "mask, fix",
    [
        ("cols <= N", "cols < N"),
        ("N >= cols", "N > cols"),
        ("(cols <= N) & (row >= 0)", "cols < N"),
    ],
)
def test_a_less_or_equal_bound_is_off_by_one(tmp_path, mask, fix):
    facts = rms_facts(tmp_path, mask)
    assert facts["off_by_one"]["fix"] == fix, facts
    assert facts["mask_line"] == 5, facts  # `mask = ...` is the fifth line of RMS


@pytest.mark.parametrize(
    "mask",
    [
        "cols < N",  # right
        "cols <= N - 1",  # right, written with <=
        "cols >= 0",  # a lower bound
        "0 <= cols",  # a lower bound, the other way round
        "(cols < N) & (eps <= 1.0)",  # <= on a name the pointer does not use
        "0 <= cols < N",  # chained: the precedence fact's
    ],
)
def test_other_masks_are_not_called_off_by_one(tmp_path, mask):
    facts = rms_facts(tmp_path, mask)
    assert "off_by_one" not in facts, facts
    assert facts["mask_line"] == 5, facts


def test_a_mask_assigned_twice_has_no_single_line(tmp_path):
    facts = rms_facts(tmp_path, "cols < N\n    mask = mask & (row >= 0)")
    assert "mask_line" not in facts, facts


def test_an_inline_mask_has_no_mask_line_beside_the_access(tmp_path):
    file = write(tmp_path, RMS.replace("mask=mask", "mask=cols <= N").replace("MASK", "None"))
    line = line_of(file, "x = tl.load(")
    facts = _mask_facts(linecache.getline(file, line), file, line)
    assert "mask_line" not in facts and facts["off_by_one"]["fix"] == "cols < N", facts


def rms_report(file: str) -> OutOfBounds:
    line = line_of(file, "x = tl.load(")
    return OutOfBounds(
        access="load",
        kernel="rms_norm_kernel",
        arg="x_ptr",
        program_id=(0, 0, 0),
        lanes=1,
        offsets=[1],
        extent=1,
        numel=1,
        shape=(1, 1),
        strides=(1, 1),
        file=file,
        line=line,
        code=linecache.getline(file, line).strip(),
    )


def both(oob: OutOfBounds) -> tuple[str, str]:
    error = {"kind": "oob", "detail": oob.to_dict()}
    en, ja = describe(error, "en"), describe(error, "ja")
    assert en.split(" — ", 1)[1] == oob.message.split(" — ", 1)[1], (en, oob.message)
    return en, ja


def test_the_probe_rms_mask_is_named_off_by_one_at_its_line():
    file = str(PROBES_B / "l10_rms_wrong_mask_less_or_equal_n.py")
    oob = rms_report(file)
    detail = oob.to_dict()
    mask_line = line_of(file, "    mask = cols <= N")
    assert detail["line"] == line_of(file, "x = tl.load(") and detail["mask_line"] == mask_line, detail
    en, ja = both(oob)
    assert f"cols <= N at line {mask_line} is off by one" in en and "use cols < N" in en, en
    assert "it must be False for every offset past the end" in en, en
    assert f"{mask_line} 行目の cols <= N は 1 つずれて" in ja and "cols < N としてください" in ja, ja


def test_a_mask_that_is_not_off_by_one_keeps_the_old_sentence_with_its_line(tmp_path):
    # `<= N - 1` is `< N`: not an off-by-one, the generic sentence, now with the mask's line
    file = write(tmp_path, RMS.replace("MASK", "cols <= N - 1"))
    oob = rms_report(file)
    en, ja = both(oob)
    assert "off by one" not in en and "1 つずれて" not in ja, en
    assert "(mask = cols <= N - 1, line 5) lets these lanes through" in en, en
    assert "(mask = cols <= N - 1)(5 行目)がこれらのレーンを通しています" in ja, ja


# --- finding 8: a second run's Triton warnings are not the learner's output --------------------------------------

INSIDE = os.path.join(os.path.dirname(triton.__file__), "runtime", "interpreter.py")


def shown_in_second_run(learner: str, message: str, category, filename: str, lineno: int) -> list[str]:
    """What reaches warnings.showwarning (the learner's output) from a warning raised in a second run."""
    shown: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = lambda message, *rest, **kw: shown.append(str(message))
        with _second_run_warnings(learner):
            warnings.warn_explicit(message, category, filename, lineno)
    return shown


def test_a_second_run_drops_tritons_warnings(tmp_path):
    learner = str(tmp_path / "learner.py")
    assert shown_in_second_run(learner, "overflow encountered in exp", RuntimeWarning, INSIDE, 725) == []


def test_a_second_run_still_shows_the_learners_own_warnings(tmp_path):
    learner = str(tmp_path / "learner.py")
    assert shown_in_second_run(learner, "the learner's own", UserWarning, learner, 3) == ["the learner's own"]


def test_the_first_run_still_records_them(tmp_path):
    learner = str(tmp_path / "learner.py")
    found: list = []
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        with _triton_warnings(learner, found):
            warnings.warn_explicit("overflow encountered in exp", RuntimeWarning, INSIDE, 725)
    assert found and found[0]["message"] == "overflow encountered in exp"


def test_what_the_program_printed_is_cut_at_a_line_start():
    output = "".join(f"line {i}: some text\n" for i in range(200))
    tail = printed_tail(output, 100)
    assert tail.startswith("…\nline ") and tail.endswith("line 199: some text\n"), tail
    assert printed_tail("short\n", 100) == "short\n"
    assert printed_tail("x" * 300, 100) == "…" + "x" * 100  # one long line: nothing to start at
