"""The out-of-bounds hint for a chunk loop whose mask leaves out the loop's variable (`cols = start + lanes`
loaded with `mask=lanes < n_cols`): the fact `loop_offset` names the offset, the loop variable and the mask's
index. Read from the learner's source only, so these tests need neither torch nor triton."""

from __future__ import annotations

import linecache
from pathlib import Path

import pytest

from tritonlab.engine.memcheck.report import _mask_facts, loop_offset_hint

KERNEL = """
def row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + lanes
        chunk = tl.load(LOAD)
        acc += chunk
"""


def facts_for(tmp_path: Path, load: str) -> dict:
    path = tmp_path / f"k{abs(hash(load))}.py"
    path.write_text(KERNEL.replace("LOAD", load))
    linecache.checkcache(str(path))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "tl.load(" in text)
    return _mask_facts(linecache.getline(str(path), line), str(path), line)


def test_mask_without_the_loop_start_names_the_offset(tmp_path):
    facts = facts_for(tmp_path, "x_ptr + row * n_cols + cols, mask=lanes < n_cols, other=0.0")
    assert facts["loop_offset"] == {
        "index": "cols",
        "expr": "start + lanes",
        "loop_var": "start",
        "mask_index": "lanes",
    }
    hint = loop_offset_hint(facts["mask"], facts["loop_offset"])
    assert "cols = start + lanes" in hint and "bound cols instead" in hint, hint


def test_inline_start_is_named_too(tmp_path):
    facts = facts_for(tmp_path, "x_ptr + row * n_cols + start + lanes, mask=lanes < n_cols, other=0.0")
    assert facts["loop_offset"] == {"index": None, "expr": None, "loop_var": "start", "mask_index": "lanes"}
    assert "bound start + lanes instead" in loop_offset_hint(facts["mask"], facts["loop_offset"])


@pytest.mark.parametrize(
    "load",
    [
        "x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0",  # the right mask
        "x_ptr + row * n_cols + start + lanes, mask=start + lanes < n_cols, other=0.0",  # right, inline
        "x_ptr + row * n_cols + cols, mask=lanes < n_cols - start, other=0.0",  # right: what is left
        "x_ptr + row * n_cols + lanes, mask=lanes < n_cols, other=0.0",  # no loop offset at all
    ],
)
def test_masks_that_include_the_start_get_no_such_fact(tmp_path, load):
    assert "loop_offset" not in facts_for(tmp_path, load)
