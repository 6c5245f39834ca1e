"""Lesson 12's one-launch backward (kernels/rms_norm_backward_one_launch.py) on a GPU: what the interpreter cannot
check. Programs really run at once there, so the wait between the two stages is exercised; dw must keep its bits
from run to run; and the kernel must stay at <= 128 registers at N = 4096, or only one program fits an SM and the
2-per-SM stage 1 runs in two waves."""

from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from tritonlab.engine.client import WorkerClient
from tritonlab.engine.learner import load_module

pytestmark = pytest.mark.gpu

ONE_LAUNCH = Path(__file__).resolve().parents[2] / "kernels" / "rms_norm_backward_one_launch.py"


def test_one_launch_passes_the_exercise_on_the_gpu_deterministically():
    client = WorkerClient(backend="gpu")
    try:
        result = client.request(
            "verify", {"exercise": "12/rms-norm-backward", "file": str(ONE_LAUNCH)}, timeout=600
        )
    finally:
        client.close()
    assert result["passed"], result.get("summary")
    assert result.get("backend") == "gpu"


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_counters_registers_and_bits_at_the_bench_size(dtype, monkeypatch):
    module = load_module(ONE_LAUNCH)
    M, N = 8192, 4096
    gen = torch.Generator(device="cuda").manual_seed(3)
    x = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen)
    w = torch.randn(N, device="cuda", dtype=dtype, generator=gen)
    dy = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen)
    _, rstd = module.rms_norm_forward(x, w, 1e-6)
    counters = []
    real_zeros = torch.zeros

    def spy(*args, **kwargs):
        t = real_zeros(*args, **kwargs)
        if kwargs.get("dtype") is torch.int32:
            counters.append(t)
        return t

    monkeypatch.setattr(torch, "zeros", spy)
    first = module.rms_norm_backward(dy, x, w, rstd)
    runs = [module.rms_norm_backward(dy, x, w, rstd) for _ in range(5)]
    torch.cuda.synchronize()
    P = 2 * torch.cuda.get_device_properties(0).multi_processor_count
    C = N // module.DW_BLOCK
    assert [c.tolist() for c in counters] == [[P + C, P]] * 6
    for dx, dw in runs:
        assert torch.equal(dx, first[0]) and torch.equal(dw, first[1])
    xr, wr = x.float().requires_grad_(), w.float().requires_grad_()
    F.rms_norm(xr, (N,), wr, 1e-6).backward(dy.float())
    torch.testing.assert_close(first[0].float(), xr.grad, atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(first[1].float(), wr.grad, atol=0.5, rtol=4e-2)
    compiled = [k for cache in module.rms_norm_bwd_kernel.device_caches.values() for k in cache[0].values()]
    assert compiled
    for kernel in compiled:
        kernel._init_handles()
        assert kernel.n_regs <= 128 and kernel.n_spills == 0, (kernel.n_regs, kernel.n_spills)
