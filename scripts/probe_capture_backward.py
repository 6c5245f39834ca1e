"""Probe (not a test): why a CUDA-graph capture of lesson 12's backward fails at 8192 x 4096 (H200)."""
import sys
import traceback

import torch

sys.path.insert(0, ".")
from tritonlab.engine import exercise_env  # noqa: E402
from tritonlab.engine.tasks.bench import backward_graph, bench_inputs  # noqa: E402

loaded = exercise_env.load({"exercise": "12/rms-norm-backward", "solution": True}, "gpu")
if "--prime" in sys.argv:  # one tiny capture first: does the first backward capture then work?
    x = torch.ones(16, device="cuda")
    x.mul(2)
    g0 = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g0, capture_error_mode="thread_local"):
        x.mul(2)
    g0.replay()
    torch.cuda.synchronize()
    print("primed", flush=True)
for M in (4096, 8192, 6144):
    inputs = bench_inputs(loaded.exercise, loaded.exercise.bench, {"M": M, "N": 4096}, loaded.device)
    backward, params = backward_graph(lambda leaves: loaded.wrapper(*leaves.values()), inputs,
                                      loaded.exercise.verify.grad_inputs, loaded.device)
    for _ in range(3):
        backward()
    torch.cuda.synchronize()
    for mode in ("thread_local", "global", "relaxed"):
        g = torch.cuda.CUDAGraph()
        try:
            with torch.cuda.graph(g, capture_error_mode=mode):
                backward()
            g.replay()
            torch.cuda.synchronize()
            print(M, mode, "ok", flush=True)
        except Exception as exc:  # noqa: BLE001
            print(M, mode, "FAILED", type(exc).__name__, str(exc).splitlines()[0][:150], flush=True)
            traceback.print_exc(limit=6)
        del g
    # the same capture with the autograd engine's device threads off (backward on this thread)
    torch.autograd.set_multithreading_enabled(False)
    g = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(g, capture_error_mode="thread_local"):
            backward()
        g.replay()
        torch.cuda.synchronize()
        print(M, "single-thread autograd", "ok", flush=True)
    except Exception as exc:  # noqa: BLE001
        print(M, "single-thread autograd", "FAILED", type(exc).__name__, str(exc).splitlines()[0][:150], flush=True)
    torch.autograd.set_multithreading_enabled(True)
    del g
