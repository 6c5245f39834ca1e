"""bench and ir on a real GPU. The honesty check: bench's median agrees with triton.testing.do_bench's
median for the same callable, timed in the same process. A test never asserts a speed, only agreement and
structure."""

import os

import pytest

from tests.conftest import BENCH_ROW_KEYS
from tritonlab.present.bench import lines as bench_lines

pytestmark = pytest.mark.gpu

QUANTILES = [0.5, 0.2, 0.8]
TOLERANCE = 0.05


class Ctx:
    backend = "gpu"

    def __init__(self):
        import torch

        self.info = {"device": torch.cuda.get_device_name()}
        self.messages = []

    def progress(self, message, **extra):
        self.messages.append(message)


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """One user-data dir for the module: the ceilings are measured once, not once per test."""
    path = tmp_path_factory.mktemp("tritonlab-home")
    previous = os.environ.get("TRITONLAB_HOME")
    os.environ["TRITONLAB_HOME"] = str(path)
    yield path
    if previous is None:
        os.environ.pop("TRITONLAB_HOME", None)
    else:
        os.environ["TRITONLAB_HOME"] = previous


@pytest.fixture
def measured_home(home, isolated_home):
    """This test's own user-data dir, seeded with the module's measured ceilings (no re-measuring)."""
    import shutil

    from tritonlab.engine.ceilings import CACHE_FILE

    isolated_home.mkdir(parents=True, exist_ok=True)
    if (home / CACHE_FILE).is_file():
        shutil.copy(home / CACHE_FILE, isolated_home / CACHE_FILE)
    return isolated_home


def run_bench(**args):
    """bench's task in this process (the honesty check times the same callable here). The judge decides verify
    before a runner times anything; here the shipped solutions stand in for a verdict the judge gave."""
    from tritonlab.engine.tasks import bench

    assert args.get("solution"), "in-process bench is for solutions; a learner's file goes through the judge"
    ctx = Ctx()
    ctx.judged = {
        "exercise": args.get("exercise"),
        "passed": True,
        "cases": [{"passed": True}],
        "summary": "solution (the judge's verdict is tested elsewhere)",
    }
    return bench.handle(args, ctx)


@pytest.fixture(scope="module")
def add_result(home):
    return run_bench(exercise="5", solution=True)


@pytest.fixture(scope="module")
def matmul_result(home):
    return run_bench(exercise="9/matmul", solution=True)


def do_bench_median(ref: str, params: dict) -> float:
    """triton.testing.do_bench on the same wrapper and the same inputs that bench timed."""
    from triton.testing import do_bench

    from tritonlab.engine import exercise_env
    from tritonlab.engine.inputs import make_inputs

    loaded = exercise_env.load({"exercise": ref, "solution": True}, "gpu")
    inputs = make_inputs(loaded.exercise, params, loaded.exercise.bench.dtype, 0, loaded.device)
    values = list(inputs.values())
    return do_bench(lambda: loaded.wrapper(*values), quantiles=QUANTILES)[0]


def test_add_rows_carry_the_promised_fields(add_result):
    assert add_result["error"] is None, add_result["error"]
    assert add_result["backend"] == "gpu" and add_result["verified"]
    measured = add_result["ceilings"]["measured"]
    assert measured["copy_gbps"] > 0 and measured["matmul_fp16_tflops"] > 0
    for row in add_result["rows"]:
        for key in BENCH_ROW_KEYS:
            assert row.get(key) is not None, key
        assert row["ms_q20"] <= row["ms"] <= row["ms_q80"]
    assert bench_lines(add_result, "en")


def test_add_median_matches_do_bench(add_result):
    row = add_result["rows"][-1]
    reference = do_bench_median("5", row["params"])
    assert abs(row["ms"] - reference) <= TOLERANCE * reference, (row["ms"], reference)


def test_add_is_memory_bound(add_result):
    assert add_result["roofline"]["bound"] == "memory"
    assert all(row["bound"] == "memory" for row in add_result["rows"])
    assert add_result["roofline"]["ridge"] > add_result["roofline"]["arithmetic_intensity"]


def test_matmul_median_matches_do_bench(matmul_result):
    assert matmul_result["error"] is None, matmul_result["error"]
    row = next(r for r in matmul_result["rows"] if r["params"].get("M") == 4096)
    reference = do_bench_median("9/matmul", row["params"])
    assert abs(row["ms"] - reference) <= TOLERANCE * reference, (row["ms"], reference)
    assert row["tflops"] is not None and row["tflops"] > 0


def test_big_matmul_is_compute_bound(matmul_result):
    assert matmul_result["rows"][-1]["bound"] == "compute"


def test_sweep_marks_one_best(matmul_result):
    sweep = matmul_result["sweep"]
    best = [row for row in sweep["rows"] if row["best"]]
    assert len(best) == 1
    timed = [row for row in sweep["rows"] if row.get("ms")]
    assert best[0]["ms"] == min(row["ms"] for row in timed)
    assert sweep["best"] == best[0]["config"]
    assert sweep["best_gbps"] is not None


def test_naive_timing_is_shown_beside_the_real_one(add_result, measured_home):
    result = run_bench(exercise="6/copy", solution=True, skip=["sweep"])
    assert result["error"] is None, result["error"]
    naive = result["naive"]
    assert naive["rows"] and all(r["naive_ms"] > 0 and r["ms"] > 0 for r in naive["rows"])
    assert "synchronisation" in naive["note"]


def test_wrong_kernel_is_not_timed(measured_home):
    """Through the real judge: it verifies the starter, fails it, and no runner times it."""
    from tritonlab.engine.client import WorkerClient

    client = WorkerClient(backend="gpu", env={"TRITONLAB_HOME": str(measured_home)})
    try:
        result = client.request("bench", {"exercise": "5"}, timeout=300)
    finally:
        client.close()
    assert result["verified"] is False and result["rows"] == []
    assert result["error"] is not None


def test_autotune_explorer_times_every_config(add_result, measured_home):
    """Small shapes so that the test stays quick: the structure is what is checked, not the speeds."""
    from tritonlab.engine import exercise_env

    exercise = exercise_env.catalog().exercise("10/autotune-matmul")
    saved = (exercise.bench.sizes, exercise.bench.autotune)
    exercise.bench.sizes = [{"M": 512, "N": 512, "K": 512}]
    exercise.bench.autotune = [{"M": 512, "N": 512, "K": 512}, {"M": 16, "N": 512, "K": 512}]
    try:
        result = run_bench(exercise="10/autotune-matmul", solution=True)
    finally:
        exercise.bench.sizes, exercise.bench.autotune = saved
    assert result["error"] is None, result["error"]
    report = result["autotune"]
    assert len(report["shapes"]) == 2
    for shape in report["shapes"]:
        assert len(shape["rows"]) == len(report["configs"])
        assert sum(row["best"] for row in shape["rows"]) == 1
    assert report["winner"]
    assert report["second"]["gap"] >= 1.0


def test_ir_on_this_gpu_reports_registers():
    import torch

    from tritonlab.engine import kernel_ir

    result = kernel_ir.compile_exercise({"exercise": "5", "solution": True, "stage": "sass"}, "cuda")
    assert result["error"] is None, result["error"]
    major, minor = torch.cuda.get_device_capability()
    assert result["arch"] == f"sm_{major * 10 + minor}"
    assert "Function : add_kernel" in result["text"]
    assert result["registers"] > 0 and result["spills"] == 0


def test_ir_for_another_target_on_a_gpu_machine():
    from tritonlab.engine import kernel_ir

    result = kernel_ir.compile_exercise(
        {"exercise": "5", "solution": True, "stage": "ptx", "arch": "sm_80"}, "cuda"
    )
    assert result["error"] is None, result["error"]
    assert ".target sm_80" in result["text"]


def test_backward_bench_times_one_backward_pass_against_autograd(home):
    """Lesson 12 times the backward (timed = "backward"): both sides through autograd, on the same graph each
    time; the median agrees with do_bench on the same backward callable."""
    from triton.testing import do_bench

    from tritonlab.engine import exercise_env
    from tritonlab.engine.tasks.bench import backward_graph, bench_inputs

    result = run_bench(exercise="12/rms-norm-backward", solution=True)
    assert result["error"] is None, result["error"]
    assert result["timed"] == "backward"
    for row in result["rows"]:
        assert row.get("error") is None, row
        assert row["ms"] > 0 and row["torch_ms"] > 0 and row["speedup"] > 0 and row["gbps"] > 0
    assert any("backward" in line for line in bench_lines(result, "en"))
    # A backward through autograd is host-bound at these sizes (lesson 12: ~75 us of Python autograd per call
    # for ~70 us of GPU work), and this box's host time per call differs ~2x between processes
    # (docs/GPU-RESULTS.md, fifteenth session): do_bench medians of it in two processes, or two runs in one,
    # differed by more than 50 % (0.202 vs 0.155 ms, 2026-12-03; twice on 2026-12-04). What does not depend on
    # the host is the GPU's share (gpu_ms, the call replayed as a CUDA graph): a call never takes less, and the
    # bytes it moves in that time cannot beat the copy bandwidth.
    copy_gbps = result["ceilings"]["measured"]["copy_gbps"]
    captured = [row for row in result["rows"] if row.get("gpu_ms")]
    assert captured, [row.get("gpu_ms_error") for row in result["rows"]]
    for row in captured:
        assert row["ms"] >= 0.9 * row["gpu_ms"], row
        assert row["bytes"] / row["gpu_ms"] / 1e6 <= 1.15 * copy_gbps, (row, copy_gbps)
    row = captured[0]
    loaded = exercise_env.load({"exercise": "12/rms-norm-backward", "solution": True}, "gpu")
    spec = loaded.exercise.bench
    inputs = bench_inputs(loaded.exercise, spec, row["params"], loaded.device)
    backward, _ = backward_graph(
        lambda leaves: loaded.wrapper(*leaves.values()),
        inputs,
        loaded.exercise.verify.grad_inputs,
        loaded.device,
    )
    from tritonlab.engine import timing

    ours = timing.measure(backward)["ms"]  # the bench's own timing, on the same callable, in this process
    plain = do_bench(backward, quantiles=QUANTILES)[0]
    for ms in (ours, plain):  # the same work as the worker's row: not below its GPU share, same order above
        assert 0.9 * row["gpu_ms"] <= ms <= 3 * row["ms"], (ms, row["gpu_ms"], row["ms"])


def test_capstone_bench_times_torch_compile_of_the_baseline(home):
    result = run_bench(exercise="14/swiglu", solution=True)
    assert result["error"] is None, result["error"]
    assert result["compiled"] is True
    for row in result["rows"]:
        assert row.get("compiled_error") is None, row.get("compiled_error")
        assert row["compiled_ms"] > 0 and row["compiled_speedup"] == pytest.approx(
            row["compiled_ms"] / row["ms"]
        )
    assert any("torch.compile" in line for line in bench_lines(result, "en"))


# ---- the GPU's share of a call (timing.gpu_only) and the host-bound flag ------------------------------------------


def test_gpu_only_times_the_kernels_without_the_host_and_flags_a_slow_host():
    import time

    import torch

    from tritonlab.engine import timing

    x = torch.randn(1 << 20, device="cuda")

    def slow_host():  # 300 us of Python before a ~5 us kernel: the call is host-bound
        time.sleep(0.0003)
        return x * 2

    per_call = timing.measure(slow_host)["ms"]
    gpu = timing.gpu_only(slow_host)
    assert gpu is not None and gpu < 0.1 < per_call, (gpu, per_call)
    assert timing.host_bound(per_call, gpu)

    big = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    per_call = timing.measure(lambda: big @ big)["ms"]  # ~0.2 ms of GPU work hides the launch
    gpu = timing.gpu_only(lambda: big @ big)
    assert gpu is not None and abs(per_call - gpu) <= 0.15 * gpu, (per_call, gpu)
    assert not timing.host_bound(per_call, gpu)


def test_gpu_only_is_none_for_a_call_that_cannot_be_captured_and_cuda_still_works():
    import torch

    from tritonlab.engine import timing

    x = torch.randn(1024, device="cuda")
    assert timing.gpu_only(lambda: (x * 2).sum().item()) is None  # reads a value back: not capturable
    assert timing.gpu_only(lambda: torch.cuda.synchronize()) is None
    assert float((x * 0 + 1).sum()) == 1024.0  # the context survived both failed captures


def test_bench_rows_carry_the_gpu_only_time(add_result):
    from tritonlab.engine.timing import host_bound

    for row in add_result["rows"]:
        assert row.get("gpu_ms") is not None and row.get("torch_gpu_ms") is not None, row
        assert row["gpu_ms"] <= row["ms"] * 1.2, row
        assert row["host_bound"] == host_bound(row["ms"], row["gpu_ms"])


def test_a_backward_pass_through_autograd_is_captured_and_its_gpu_time_is_below_the_calls(home):
    import torch
    from triton.testing import do_bench

    from tritonlab.engine import exercise_env, timing
    from tritonlab.engine.tasks.bench import backward_graph, bench_inputs

    loaded = exercise_env.load({"exercise": "12/rms-norm-backward", "solution": True}, "gpu")
    inputs = bench_inputs(loaded.exercise, loaded.exercise.bench, {"M": 4096, "N": 4096}, loaded.device)
    # the first backward graph of a process would not capture on the H200 (the bench builds a second one:
    # tasks/bench.py, scripts/probe_capture_backward.py); the claim here is about the one after it
    for _ in range(2):
        backward, params = backward_graph(
            lambda leaves: loaded.wrapper(*leaves.values()),
            inputs,
            loaded.exercise.verify.grad_inputs,
            loaded.device,
        )
        backward()
    eager = [p.grad.clone() for p in params]
    gpu = timing.gpu_only(backward)
    per_call = do_bench(backward)
    assert gpu is not None and gpu <= per_call * 1.1, (gpu, per_call)
    backward()  # the graph left autograd usable: the same gradients, bit for bit (deterministic dw)
    assert all(torch.equal(p.grad, e) for p, e in zip(params, eager, strict=True))
