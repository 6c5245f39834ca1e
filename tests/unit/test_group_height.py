"""A grouped tile order whose height is not min(num_pid_m - first_pid_m, GROUP_M) leaves tiles unwritten where the
last group is short (lesson 10's M = 129 case): the 'tile-map' diagnosis names that line. It is read from the
learner's source (`contracts.group_height_line`); a right height, written any usual way, is never named."""

import pytest

from tritonlab.engine import contracts
from tritonlab.present.diagnoses import describe as say

HEAD = """
import triton
import triton.language as tl


@triton.jit
def k(M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
"""


def _file(tmp_path, body: str):
    path = tmp_path / "k.py"
    path.write_text(HEAD + body)
    return str(path)


def _grouped(height: str) -> str:
    """The kernel's last lines: a group height, then pid_m and pid_n from it."""
    return f"""    {height}
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
"""


@pytest.mark.parametrize(
    "height",
    [
        "group_size_m = GROUP_M",
        "group_size_m = num_pid_m % GROUP_M or GROUP_M",
        "group_size_m = tl.maximum(num_pid_m - first_pid_m, GROUP_M)",
    ],
)
def test_a_wrong_height_is_named_at_its_line(tmp_path, height):
    body = _grouped(height)
    found = contracts.group_height_line(_file(tmp_path, body))
    assert found is not None and found[1] == height
    assert found[0] == (HEAD + body).splitlines().index(f"    {height}") + 1


def test_the_constexpr_itself_as_height_names_the_pid_m_line(tmp_path):
    body = """    pid_m = first_pid_m + (pid % GROUP_M)
    pid_n = (pid % num_pid_in_group) // GROUP_M
"""
    found = contracts.group_height_line(_file(tmp_path, body))
    assert found is not None and found[1] == "pid_m = first_pid_m + pid % GROUP_M"


@pytest.mark.parametrize(
    "height",
    [
        "group_size_m = min(num_pid_m - first_pid_m, GROUP_M)",
        "group_size_m = min(GROUP_M, num_pid_m - first_pid_m)",
        "group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)",
    ],
)
def test_a_right_height_is_never_named(tmp_path, height):
    assert contracts.group_height_line(_file(tmp_path, _grouped(height))) is None


def test_no_grouped_order_names_nothing(tmp_path):
    body = """    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
"""
    assert contracts.group_height_line(_file(tmp_path, body)) is None


def test_the_sentence_names_the_line_in_both_languages():
    facts = {
        "kind": "unwritten",
        "cause": "tile-map",
        "count": 96,
        "programs": 5,
        "tiles": 5,
        "group_line": 66,
        "group_text": "group_size_m = GROUP_M",
    }
    en, ja = say(facts, "en"), say(facts, "ja")
    assert (
        "line 66" in en and "min(num_pid_m - first_pid_m, GROUP_M)" in en and "group_size_m = GROUP_M" in en
    )
    assert "66 行目" in ja and "min(num_pid_m - first_pid_m, GROUP_M)" in ja
    plain = dict(facts, group_line=None, group_text=None)
    assert "line 66" not in say(plain, "en") and "pid_m * BLOCK_M" in say(plain, "en")
