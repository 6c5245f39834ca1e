"""A pinned autotune case whose other GPU config has a BLOCK that is not a power of two fails on a tl.arange:
`contracts.explain_config_error` names the config at its line (probe 15b-7, cause config-not-pow2); a power-of-2
error without such a config, or with only a non-BLOCK knob odd, keeps its message."""

from tritonlab.engine.contracts import explain_config_error
from tritonlab.present.diagnoses import describe

ERR = "ValueError: arange's range must be a power of 2"


def _info() -> dict:
    return {"kind": "compile", "line": 75, "message": ERR, "exception": ERR}


def test_a_non_power_of_two_block_in_the_timed_config_is_named():
    info = _info()
    explain_config_error({"@config": {"BLOCK_M": 64, "BLOCK_N": 96, "GROUP_M": 8}}, info)
    assert info["cause"] == "config-not-pow2" and info["odd"] == {"BLOCK_N": 96}, info
    assert "BLOCK_N = 96, not a power of two" in info["message"] and info["line"] == 75, info
    with_line = dict(info, config_line=30, line=30, kernel_line=75)
    en, ja = describe(with_line, "en"), describe(with_line, "ja")
    assert "(line 30) has BLOCK_N = 96, not a power of two" in en and "line 75" in en, en
    assert "(30 行目)は BLOCK_N = 96 で、2 のべき乗ではありません" in ja, ja


def test_power_of_two_blocks_or_an_odd_group_keep_the_message():
    for config in ({"BLOCK_M": 64, "BLOCK_N": 128}, {"BLOCK_M": 64, "GROUP_M": 6}):
        info = _info()
        explain_config_error({"@config": config}, info)
        assert "cause" not in info and info["message"] == ERR, info
