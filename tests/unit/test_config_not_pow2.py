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


TUNED = """import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128}, num_warps=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 96}, num_warps=4),
    ],
    key=["N"],
)
@triton.jit
def kernel(x_ptr, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.arange(0, BLOCK_N)
"""


def test_a_gpu_compile_of_an_odd_block_that_a_config_holds_names_the_config(tmp_path):
    # on a GPU the autotuner compiles every config itself (no pinned config): the launch's odd BLOCK_N = 96 is
    # one of the file's triton.Configs, not a size the wrapper passed (probe 15b-7 on an H100, session 29)
    from tritonlab.engine.tasks.verify import _block_not_pow2

    path = tmp_path / "tuned.py"
    path.write_text(TUNED)
    info = _info()
    _block_not_pow2(info, [{"meta": {"BLOCK_M": 64, "BLOCK_N": 96}}], str(path))
    assert info["cause"] == "config-not-pow2" and info["odd"] == {"BLOCK_N": 96}, info
    assert info["line"] == 8 and info["kernel_line"] == 75, info
    assert "block_name" not in info, info


def test_a_gpu_compile_of_an_odd_block_from_the_wrapper_blames_the_wrapper(tmp_path):
    from tritonlab.engine.tasks.verify import _block_not_pow2

    path = tmp_path / "tuned.py"
    path.write_text(TUNED)
    info = _info()  # 80 is in no config: the wrapper passed it
    _block_not_pow2(info, [{"meta": {"BLOCK_M": 64, "BLOCK_N": 80}}], str(path))
    assert "cause" not in info and (info["block_name"], info["block_value"]) == ("BLOCK_N", 80), info
    assert "the wrapper passed a size" in info["message"], info
