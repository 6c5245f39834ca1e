"""`bench` on the interpreter: nothing is timed, what the kernel moves is counted exactly; wrong kernels
are not benchmarked at all. Plus the pure parts (roofline placement, datasheet lookup, the ceilings cache)."""

import re
import shutil

import pytest

from tests.conftest import BENCH_ROW_KEYS
from tritonlab.engine import ceilings, roofline
from tritonlab.engine.client import WorkerClient
from tritonlab.paths import kernels_dir, lessons_dir
from tritonlab.present.bench import lines as bench_lines


@pytest.fixture(scope="module")
def client():
    worker = WorkerClient(backend="interpreter")
    yield worker
    worker.close()


def bench(client, **args):
    return client.request("bench", args, timeout=300)


def test_vector_add_solution_counts_exact_bytes_and_reports_no_times(client):
    result = bench(client, exercise="5", solution=True)
    assert result["error"] is None, result["error"]
    assert result["backend"] == "interpreter"
    assert result["verified"] is True
    assert result["ceilings"] is None
    assert "interpreter" in result["note"] and "GPU" in result["note"]
    (row,) = result["rows"]
    for key in BENCH_ROW_KEYS:
        assert key in row, key
    n, size = row["params"]["n"], 4
    assert row["numel"] == n and row["element_size"] == size and row["dtype"] == "float32"
    for key in ("ms", "ms_q20", "ms_q80", "gbps", "tflops", "torch_ms", "speedup", "pct_of_peak"):
        assert row[key] is None, key
    assert row["bytes_loaded"] == 2 * n * size
    assert row["bytes_stored"] == n * size
    assert row["programs"] == -(-n // 1024)
    assert row["arithmetic_intensity"] == pytest.approx(n / (3 * n * size))
    assert result["roofline"]["arithmetic_intensity"] == pytest.approx(1 / 12)
    assert result["roofline"]["bound"] is None
    assert any("32,768" in line for line in bench_lines(result, "en"))


def test_masked_off_lanes_are_not_counted(client, tmp_path):
    """n = 1000 in half precision: one program of 1024 lanes, 24 of them masked off, 2-byte elements."""
    lessons = tmp_path / "lessons"
    shutil.copytree(lessons_dir() / "05-vector-add", lessons / "05-vector-add")
    toml = lessons / "05-vector-add" / "lesson.toml"
    text = toml.read_text(encoding="utf-8")
    block = text[text.index("[exercise.bench]") :]
    edited = block.replace("interpreter = [{ n = 4096 }]", "interpreter = [{ n = 1000 }]", 1)
    edited = re.sub(r'dtype = "float32"', 'dtype = "float16"', edited, count=1)
    assert edited != block
    toml.write_text(text.replace(block, edited), encoding="utf-8")
    result = bench(
        client, exercise="5", solution=True, lessons_dir=str(lessons), kernels_dir=str(kernels_dir())
    )
    assert result["error"] is None, result["error"]
    (row,) = result["rows"]
    assert row["params"] == {"n": 1000}
    assert row["dtype"] == "float16" and row["element_size"] == 2
    assert row["programs"] == 1
    assert row["bytes_loaded"] == 2 * 1000 * 2
    assert row["bytes_stored"] == 1000 * 2
    assert row["extra_bytes"] == 0


def test_starter_is_not_timed(client):
    result = bench(client, exercise="5")
    assert result["verified"] is False
    assert result["rows"] == []
    assert result["error"] is not None and result["error"].get("not_timed")
    assert result["verify"]["passed"] is False
    assert "not timed" in " ".join(bench_lines(result, "en"))


def test_exercise_without_bench_is_a_usage_error_before_verify(client):
    result = bench(client, exercise="3/program-map", solution=True)
    assert result["error"]["kind"] == "usage"
    # facts for the UI to word (test_engine_refusal_words), beside the English message for --json readers
    assert result["error"]["code"] == "no-bench" and result["error"]["op"] == "bench"
    assert result["error"]["exercise"] == "03-programming-model/program-map"
    assert "declares no [exercise.bench]" in result["error"]["message"]
    assert result["verify"] is None


def test_sweep_counts_programs_per_block_size(client):
    result = bench(client, exercise="6/copy", solution=True)
    assert result["error"] is None, result["error"]
    sweep = result["sweep"]
    n = sweep["params"]["n"]
    by_block = {row["config"]["BLOCK_SIZE"]: row for row in sweep["rows"]}
    assert by_block[128]["programs"] == n // 128
    assert by_block[1024]["programs"] == -(-n // 1024)
    for row in sweep["rows"]:
        assert row["ms"] is None and row["gbps"] is None
        assert row["bytes_loaded"] == n * 4  # a bigger block masks its extra lanes off
    assert sweep["best"] is None
    assert "GPU" in sweep["note"]
    assert "synchronize" in result["naive"]["note"]


def test_autotune_on_the_interpreter_lists_configs(client):
    result = bench(client, exercise="10/autotune-matmul", solution=True)
    assert result["error"] is None, result["error"]
    report = result["autotune"]
    assert report["kernel"] == "matmul_kernel"
    assert report["configs"] and all("BLOCK_M=" in c for c in report["configs"])
    assert "GPU" in report["note"]


# ---- pure parts --------------------------------------------------------------------------------------------


def limits(bandwidth=4000.0, peak=700.0):
    return {"bandwidth_gbps": bandwidth, "peak_tflops": peak, "ridge": roofline.ridge(bandwidth, peak)}


def test_roofline_places_vector_add_under_the_memory_roof():
    ai = 1 / 12
    placed = roofline.place(ai, 3600.0, 3600.0 * ai / 1e3, limits())
    assert placed["bound"] == "memory"
    assert placed["attainable_tflops"] == pytest.approx(ai * 4000 / 1e3)
    assert placed["pct_of_peak"] == pytest.approx(90.0)


def test_roofline_places_a_big_matmul_under_the_compute_roof():
    m = 4096
    ai = 2 * m**3 / (3 * m * m * 2)
    placed = roofline.place(ai, None, 630.0, limits())
    assert placed["bound"] == "compute"
    assert placed["attainable_tflops"] == pytest.approx(700.0)
    assert placed["pct_of_peak"] == pytest.approx(90.0)
    assert roofline.ridge(4000.0, 700.0) == pytest.approx(175.0)


def test_a_copy_is_held_to_the_bandwidth():
    placed = roofline.place(0.0, 2000.0, None, limits())
    assert placed["bound"] == "memory" and placed["pct_of_peak"] == pytest.approx(50.0)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("NVIDIA H200", "H200 SXM"),
        ("NVIDIA H200 NVL", "H200 NVL"),
        ("NVIDIA H100 80GB HBM3", "H100 SXM"),
        ("NVIDIA H100 PCIe", "H100 PCIe"),
        ("NVIDIA A100-SXM4-40GB", "A100 SXM 40GB"),
        ("NVIDIA A100-SXM4-80GB", "A100 SXM 80GB"),
        ("NVIDIA L40S", "L40S"),
        ("NVIDIA GeForce RTX 4090", "GeForce RTX 4090"),
        ("Tesla T4", "T4"),
        ("NVIDIA L4", "L4"),
    ],
)
def test_datasheet_lookup(name, expected):
    entry = ceilings.datasheet(name)
    assert entry["name"] == expected
    assert entry["copy_gbps"] > 0 and entry["fp16_tflops"] > 0


def test_unknown_gpu_has_no_datasheet():
    assert ceilings.datasheet("Some Future GPU") is None
    assert ceilings.datasheet(None) is None


def test_ceilings_are_measured_once_and_cached(monkeypatch, isolated_home):
    import torch

    calls = []

    def fake_measure(progress=None):
        calls.append(1)
        return {"copy_gbps": 4000.0, "matmul_fp16_tflops": 700.0, "matmul_fp32_tflops": 50.0}

    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "NVIDIA H200")
    monkeypatch.setattr(ceilings, "measure", fake_measure)
    first = ceilings.get()
    second = ceilings.get()
    assert len(calls) == 1
    assert first["cached"] is False and second["cached"] is True
    assert second["measured"]["copy_gbps"] == 4000.0
    assert second["datasheet"]["name"] == "H200 SXM"
    assert (isolated_home / ceilings.CACHE_FILE).is_file()
    assert torch.__version__ in second["key"]
    lim = roofline.limits(second, "float16")
    assert lim["peak_tflops"] == 700.0 and lim["datasheet_peak_tflops"] == 989
    assert roofline.limits(second, "float32")["peak_tflops"] == 50.0


# ---- the judge owns the ceilings cache (runners have a private, throw-away HOME) --------------------------


class _Ctx:
    def __init__(self, backend: str):
        self.backend, self.events = backend, []

    def progress(self, message, **extra):
        self.events.append(message)


def _fake_gpu(monkeypatch, calls: list):
    import torch

    def fake_measure(progress=None):
        calls.append(1)
        return {"copy_gbps": 4000.0, "matmul_fp16_tflops": 700.0, "matmul_fp32_tflops": 50.0}

    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "NVIDIA H200")
    monkeypatch.setattr(ceilings, "measure", fake_measure)


def test_the_judge_hands_each_gpu_bench_its_cached_ceilings_and_measures_once(monkeypatch, isolated_home):
    from tritonlab.engine.worker import bench_ceilings

    calls: list = []
    _fake_gpu(monkeypatch, calls)
    passed = {"passed": True}
    first = bench_ceilings("bench", {}, _Ctx("gpu"), passed)
    second = bench_ceilings("bench", {}, _Ctx("gpu"), passed)  # the next bench: a new runner, one cache
    assert len(calls) == 1 and first["cached"] is False and second["cached"] is True
    assert second["measured"]["copy_gbps"] == 4000.0
    assert bench_ceilings("bench", {"refresh_ceilings": True}, _Ctx("gpu"), passed)["cached"] is False
    assert len(calls) == 2
    # nothing to hand over: not a bench, not verified, or no GPU
    assert bench_ceilings("run", {}, _Ctx("gpu"), passed) is None
    assert bench_ceilings("bench", {}, _Ctx("gpu"), {"passed": False}) is None
    assert bench_ceilings("bench", {}, _Ctx("interpreter"), passed) is None
    assert len(calls) == 2


def test_a_runner_uses_the_judges_ceilings_and_never_measures(monkeypatch, isolated_home):
    from tritonlab.engine.tasks import bench

    def refuse(*a, **k):
        raise AssertionError("the runner measured the ceilings itself")

    monkeypatch.setattr(ceilings, "get", refuse)
    given = {"gpu": "NVIDIA H200", "measured": {"copy_gbps": 4000.0}, "cached": True}
    result: dict = {}
    bench.set_ceilings(result, _Ctx("gpu"), given=given)
    assert result["ceilings"] == given and "ceilings_error" not in result

    result = {}
    bench.set_ceilings(result, _Ctx("gpu"), given={"error": "RuntimeError: CUDA out of memory"})
    assert result["ceilings"] is None and "out of memory" in result["ceilings_error"]


def test_without_a_judge_the_runner_measures_and_a_failure_is_reported(monkeypatch, isolated_home):
    from tritonlab.engine.tasks import bench

    calls: list = []
    _fake_gpu(monkeypatch, calls)
    result: dict = {}
    bench.set_ceilings(result, _Ctx("gpu"))
    assert len(calls) == 1 and result["ceilings"]["measured"]["copy_gbps"] == 4000.0

    def broken(progress=None):
        raise RuntimeError("no GPU")

    monkeypatch.setattr(ceilings, "measure", broken)
    result = {}
    bench.set_ceilings(result, _Ctx("gpu"), refresh=True)
    assert result["ceilings"] is None and result["ceilings_error"] == "RuntimeError: no GPU"


def test_backward_bench_counts_the_backward_pass_only(client):
    """timed = "backward" (lesson 12): the forward runs uncounted, the backward's launches are counted. The
    backward must read x and dy and write dx (3·M·N elements at least); the forward alone moves 2·M·N."""
    result = bench(client, exercise="12/rms-norm-backward", solution=True)
    assert result["error"] is None, result["error"]
    assert result["timed"] == "backward"
    (row,) = result["rows"]
    m, n, size = row["params"]["M"], row["params"]["N"], 2  # float16
    assert row["bytes_loaded"] >= 2 * m * n * size  # x and dy
    assert row["bytes_stored"] >= m * n * size  # dx
    assert row["bytes_moved"] >= 3 * m * n * size > 2 * m * n * size
    assert any("backward" in line for line in bench_lines(result, "en"))
    assert any("逆伝播" in line for line in bench_lines(result, "ja"))


def test_backward_graph_gives_autograds_gradients_and_refuses_a_dead_graph():
    import torch

    from tritonlab.engine.tasks.bench import backward_graph

    x, w = torch.randn(4, 6), torch.randn(6)
    inputs = {"x": x, "w": w, "eps": 1e-6}
    backward, (gx, gw) = backward_graph(
        lambda t: torch.nn.functional.rms_norm(t["x"], (6,), t["w"], t["eps"]), inputs, ["x", "w"], "cpu"
    )
    backward()
    first = (gx.grad.clone(), gw.grad.clone())
    backward()  # the graph is kept: a second pass gives the same gradients, not twice them
    assert torch.equal(first[0], gx.grad) and torch.equal(first[1], gw.grad)
    xr, wr = x.clone().requires_grad_(), w.clone().requires_grad_()
    y = torch.nn.functional.rms_norm(xr, (6,), wr, 1e-6)
    dy = torch.randn(y.shape, generator=torch.Generator().manual_seed(1))
    y.backward(dy)
    assert torch.allclose(gx.grad, xr.grad) and torch.allclose(gw.grad, wr.grad)
    with pytest.raises(TypeError):  # a forward that autograd cannot follow (computed without the leaves)
        backward_graph(lambda t: torch.zeros(4, 6), inputs, ["x", "w"], "cpu")


def test_compiled_baseline_is_a_real_function_of_the_inputs(monkeypatch):
    """bench.compiled (capstones): the baseline expression becomes `def baseline(<inputs>)` for torch.compile
    (Dynamo cannot trace eval). Checked with the eager backend (Inductor's CPU compile takes ~17 s here): the
    same values as the eager baseline, and new input values flow through (not baked in as constants)."""
    import torch

    from tritonlab.engine.exercise_env import catalog
    from tritonlab.engine.tasks import bench as bench_task

    real = torch.compile
    monkeypatch.setattr(torch, "compile", lambda fn, **kw: real(fn, backend="eager", **kw))
    for key in ("14/swiglu", "14/cross-entropy"):
        exercise = catalog().exercise(key)
        spec = exercise.bench
        assert spec.compiled
        params = spec.interpreter[0]
        inputs = bench_task.bench_inputs(exercise, spec, params, torch.device("cpu"))
        compiled = bench_task.compiled_baseline(exercise, spec, inputs, params)
        eager = bench_task._baseline(exercise, spec, inputs, params)
        assert torch.equal(compiled(), eager())
        first = next(v for v in inputs.values() if isinstance(v, torch.Tensor) and v.is_floating_point())
        before = eager().clone()
        first.mul_(2)
        assert torch.equal(compiled(), eager()) and not torch.equal(compiled(), before)


def test_compiled_rows_are_told_in_both_languages():
    from tritonlab.present.bench import _compiled

    rows = [
        {"label": "M=4096, N=14336", "compiled_ms": 0.5, "compiled_speedup": 1.25},
        {"label": "M=8192, N=14336", "compiled_error": "BackendCompilerFailed: no C compiler"},
        {"label": "M=1, N=1"},
    ]
    en = [block[1] for block in _compiled(rows, "en")]
    ja = [block[1] for block in _compiled(rows, "ja")]
    assert len(en) == len(ja) == 2
    assert "torch.compile" in en[0] and "1.25×" in en[0] and "0.5" in en[0]
    assert "no C compiler" in en[1] and "計測できません" in ja[1] and "1.25×" in ja[0]


# ---- host-bound calls: do_bench's time against the same call replayed as a CUDA graph -----------------------------


def test_host_bound_needs_a_call_well_above_its_gpu_time_and_by_more_than_a_few_microseconds():
    from tritonlab.engine.timing import host_bound

    assert host_bound(0.052, 0.011)  # 1024^3 matmul in a slow-host process: 52 us per call, 11 us of GPU work
    assert not host_bound(0.0115, 0.0110)  # the same call when the launch hides behind the GPU's work
    assert not host_bound(0.006, 0.002)  # 3x, but only 4 us: launch jitter, nothing to teach
    assert not host_bound(0.2, None) and not host_bound(None, 0.01)  # not capturable / not timed


def test_a_host_bound_size_is_told_with_both_times_in_both_languages():
    from tritonlab.present.bench import _host_bound

    rows = [
        {
            "label": "M=1024, N=1024, K=1024",
            "ms": 0.052,
            "gpu_ms": 0.0114,
            "host_bound": True,
            "torch_ms": 0.0098,
            "torch_gpu_ms": 0.0095,
        },
        {"label": "M=4096, N=4096, K=4096", "ms": 0.205, "gpu_ms": 0.203, "host_bound": False},
    ]
    en = [block[1] for block in _host_bound(rows, "en")]
    ja = [block[1] for block in _host_bound(rows, "ja")]
    assert len(en) == len(ja) == 1  # the GPU-bound size says nothing
    assert "M=1024" in en[0] and "0.052" in en[0] and "0.0114" in en[0] and "78%" in en[0]
    assert "host time" in en[0] and "torch: 0.0098 ms per call, 0.0095 ms on the GPU" in en[0]
    assert "ホスト側の時間" in ja[0] and "78%" in ja[0] and "CUDA グラフ" in ja[0]
    assert _host_bound([dict(rows[0], host_bound=False)], "en") == []


def test_gpu_time_without_cuda_says_why_instead_of_raising():
    import torch

    from tritonlab.engine.timing import gpu_time

    if torch.cuda.is_available():
        pytest.skip("a CUDA machine captures the call (tests/gpu/test_bench_gpu.py)")

    ms, reason = gpu_time(lambda: None)
    assert ms is None and reason, reason
