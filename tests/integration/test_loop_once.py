"""Contract `loop = [param, block]` at the GPU's size: a wrapper whose block covers the whole row
(BLOCK_SIZE = next_power_of_2(N)) is right on every interpreter case and never streams; at the GPU's largest
size one program would hold it all. The interpreter calls the wrapper once at that size with launches recorded
and not run (`run_dry`); a GPU judges its own case's launch. Both sides: the fake fails with `loop-once`, the
reference solutions (capped blocks, or fixed tiles) pass."""

from pathlib import Path

import pytest

from tritonlab.engine.tasks.verify import _loop_once
from tritonlab.present.diagnoses import describe

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def verify(worker, exercise: str, path: Path | None = None) -> dict:
    args = {"exercise": exercise, **({"file": str(path)} if path else {"solution": True})}
    return worker.request("verify", args, timeout=600)


def scale_cases(result: dict) -> list:
    return [c for c in result["cases"] if c.get("kind") == "gpu-scale"]


def test_online_softmax_with_one_chunk_per_row_fails_at_the_gpus_size(worker, tmp_path):
    source = (KERNELS / "online_softmax.py").read_text(encoding="utf-8")
    capped = "        BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 4096)\n"
    assert source.count(capped) == 1
    path = tmp_path / "one_chunk.py"
    path.write_text(source.replace(capped, "        BLOCK_SIZE = triton.next_power_of_2(n_cols)\n"))
    result = verify(worker, "11/online-softmax", path)
    assert result["passed"] is False
    assert all(c["passed"] for c in result["cases"] if c.get("kind") != "gpu-scale"), result["summary"]
    (case,) = scale_cases(result)
    diag = case["diagnoses"][0]
    assert diag["kind"] == "loop-once" and diag["launched_only"] is True
    assert (diag["param"], diag["value"], diag["block"]) == ("N", 1_000_003, "BLOCK_SIZE")
    assert diag["block_value"] == 1 << 20
    assert "1,000,003" in describe(diag, "en") or "1000003" in describe(diag, "en")
    assert "GPU のサイズ" in describe(diag, "ja")


@pytest.mark.parametrize("exercise", ["11/online-softmax", "11/attention", "14/cross-entropy"])
def test_the_reference_solutions_stream_at_the_gpus_size(worker, exercise):
    result = verify(worker, exercise)
    assert result["passed"], result["summary"]
    assert scale_cases(result) == []


class _Exercise:
    class verify:  # noqa: N801 - the shape of exercise.verify
        contracts = {"loop": ["S", "BLOCK_N"]}


def _gpu_case(S: int, block: int) -> dict:
    return {
        "name": f"S={S}",
        "params": {"S": S, "D": 64},
        "dtype": "float16",
        "passed": True,
        "meta": {"BLOCK_N": block},
        "diagnoses": [],
    }


def test_on_a_gpu_the_largest_case_itself_is_judged():
    """A GPU ran the case (it may pass, slowly, with a giant tile): the largest case fails there; a fixed
    tile, or a one-block loop at a short size, is left alone."""
    cases = [_gpu_case(16, 16), _gpu_case(4099, 8192)]
    _loop_once(cases, _Exercise, "learner.py", "gpu", None, None)
    assert cases[0]["passed"] and not cases[1]["passed"]
    assert (
        cases[1]["diagnoses"][0]["kind"] == "loop-once" and cases[1]["diagnoses"][0]["launched_only"] is False
    )
    fixed = [_gpu_case(16, 64), _gpu_case(4099, 64)]
    _loop_once(fixed, _Exercise, "learner.py", "gpu", None, None)
    assert all(c["passed"] and not c["diagnoses"] for c in fixed)
    short = [_gpu_case(16, 16), _gpu_case(1000, 1024)]  # below LOOP_ONCE_MIN: one block is a sane choice
    _loop_once(short, _Exercise, "learner.py", "gpu", None, None)
    assert all(c["passed"] for c in short)


def test_a_small_first_launch_does_not_hide_the_main_kernels_block(worker):
    """Probe round 11: a clearing kernel launched first with BLOCK_V = 64 hid the main kernel's BLOCK_V =
    131072 (the first launch with the block was read); the widest of the learner's launches is judged."""
    probe = (
        Path(__file__).parent
        / "probe_round11"
        / "l14_cross_entropy_fake_whole_row_block_after_small_first_launch.py"
    )
    result = verify(worker, "14/cross-entropy", probe)
    (case,) = scale_cases(result)
    diag = case["diagnoses"][0]
    assert (diag["kind"], diag["param"], diag["value"], diag["block_value"]) == (
        "loop-once",
        "V",
        128256,
        131072,
    )


def test_on_a_gpu_the_case_reports_its_widest_launch_under_a_loop_contract():
    """On a GPU the case's `meta` is what loop-once reads: a small first launch (BLOCK_V = 64, clearing a
    buffer) must not stand for the main kernel's BLOCK_V = 131072; without a loop contract the first
    launch's tiles are kept (a K-loop pattern reads them)."""
    from tritonlab.engine.tasks.verify import _case_blocks

    class _Loop:
        class verify:  # noqa: N801 - the shape of exercise.verify
            contracts = {"loop": ["V", "BLOCK_V"]}

    class _Plain:
        class verify:  # noqa: N801
            contracts: dict = {}

    mine = [{"meta": {"BLOCK_V": 64}}, {"meta": {}}, {"meta": {"BLOCK_V": 131072, "BLOCK_M": 1}}]
    assert _case_blocks(_Loop, mine) == {"BLOCK_V": 131072, "BLOCK_M": 1}
    assert _case_blocks(_Plain, mine) == {"BLOCK_V": 64}
    assert _case_blocks(_Loop, [{"meta": {"BLOCK_K": 32}}]) == {"BLOCK_K": 32}
    assert _case_blocks(_Loop, []) is None
    cases = [_gpu_case(16, 16), dict(_gpu_case(128256, 64), meta=_case_blocks(_Loop, mine))]
    cases[1]["params"] = {"V": 128256}
    _loop_once(cases, _Loop, "learner.py", "gpu", None, None)
    assert not cases[1]["passed"] and cases[1]["diagnoses"][0]["block_value"] == 131072


def test_on_a_gpu_the_launch_only_call_judges_before_any_case_runs():
    """Probe rounds 11 and 12 on the H100: a whole-row block (BLOCK_V = 131072, BLOCK_KV = 8192) made the GPU
    case run out the verify's time, a timeout instead of `loop-once`. The GPU runner now calls the wrapper
    once at the largest size with launches recorded and not compiled, and stops there when one block covers
    the whole dimension: no case ran, and the judge names loop-once from those launches alone."""
    dry = {"params": {"S": 4099, "D": 64}, "dtype": "float16"}
    facts = {
        "launches": [{"file": "learner.py", "kernel": "attn", "meta": {"BLOCK_M": 64, "BLOCK_KV": 8192}}]
    }
    cases: list = []
    _loop_once(cases, _Exercise, "learner.py", "gpu", dry, dict(facts, stopped="loop-once"))
    (case,) = cases
    diag = case["diagnoses"][0]
    assert case["kind"] == "gpu-scale" and not case["passed"]
    assert (diag["kind"], diag["block"], diag["block_value"], diag["launched_only"]) == (
        "loop-once",
        "BLOCK_KV",
        8192,
        True,
    )
    streamed = {
        "launches": [{"file": "learner.py", "kernel": "attn", "meta": {"BLOCK_M": 64, "BLOCK_N": 64}}]
    }
    ran = [_gpu_case(16, 16), _gpu_case(4099, 64)]
    _loop_once(ran, _Exercise, "learner.py", "gpu", dry, streamed)  # a fixed tile: nothing to say
    assert all(c["passed"] and not c["diagnoses"] for c in ran)
    other = {"launches": [{"file": "lab.py", "kernel": "x", "meta": {"BLOCK_N": 8192}}]}
    _loop_once(cases := [], _Exercise, "learner.py", "gpu", dry, other)  # not the learner's launch
    assert cases == []


def test_launch_only_records_a_compiled_launch_without_compiling_it():
    """The GPU half of `memcheck.launch_only`: JITFunction.run is stubbed, so a kernel whose block would take
    minutes to compile is recorded (its BLOCK meta) and never reaches the compiler; outside, run is back."""
    import torch
    import triton
    import triton.language as tl
    from triton.runtime.jit import JITFunction

    from tritonlab.engine import memcheck

    def whole_row(x_ptr, n, BLOCK: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros([BLOCK], tl.float32), mask=tl.arange(0, BLOCK) < n)

    kernel = JITFunction(whole_row)
    before = JITFunction.run
    x = torch.empty(8)
    with memcheck.track_launches() as launches, memcheck.launch_only():
        compiled = kernel[(triton.cdiv(8, 4),)](x, 8, BLOCK=1 << 17)
    assert compiled is None  # a launch that ran would return its CompiledKernel (and, here, need a GPU)
    assert JITFunction.run is before
    (launch,) = launches
    assert launch["meta"] == {"BLOCK": 1 << 17} and launch["grid"] == [2, 1, 1]


def test_launch_only_leaves_no_autotune_pick_behind():
    """Under launch_only an autotuner "times" every config on launches that never ran (all take no time): the
    config it would pick from that must not be cached for the real cases that follow (on a GPU the launch-only
    call now runs first)."""
    import torch
    import triton
    import triton.language as tl
    from triton.runtime.jit import JITFunction

    from tritonlab.engine import memcheck

    def fill(x_ptr, n, BLOCK: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros([BLOCK], tl.float32), mask=tl.arange(0, BLOCK) < n)

    def timer(kernel_call, quantiles):  # no GPU timer needed: each "run" is a stubbed launch
        kernel_call()
        return [1.0, 1.0, 1.0]

    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 4096})]
    tuned = triton.autotune(configs=configs, key=["n"], do_bench=timer)(JITFunction(fill))
    tuned.cache[(8, "torch.float32")] = "an earlier pick"
    x = torch.empty(8)
    with memcheck.track_launches() as launches, memcheck.launch_only():
        tuned[(1,)](x, 5000)
    assert sorted(launch["meta"]["BLOCK"] for launch in launches if launch["meta"])[-1] == 4096
    assert tuned.cache == {(8, "torch.float32"): "an earlier pick"}
