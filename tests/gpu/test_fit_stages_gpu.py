"""Pipeline stages fitted to the GPU's shared memory (`fit_stages` in lesson 9's wrappers), on a real GPU.

A caller's fp32 tile of 128 x 256 x 64 asked 3 stages of 96 KB (288 KB) and failed at launch with OutOfResources
even on an H200; a GPU that reports 99 KB per program (an RTX 4090) gets 2 stages of the fp16 big tile."""

from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from tritonlab.engine.learner import load_module

pytestmark = pytest.mark.gpu

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def _operands(dtype, M=512, N=768, K=320):
    gen = torch.Generator(device="cuda").manual_seed(5)
    a = torch.randn(M, K, device="cuda", dtype=dtype, generator=gen)
    b = torch.randn(K, N, device="cuda", dtype=dtype, generator=gen)
    bias = torch.randn(N, device="cuda", dtype=dtype, generator=gen)
    return a, b, bias


@pytest.mark.parametrize("name", ["matmul", "matmul_bias"])
def test_a_big_fp32_tile_launches(name):
    module = load_module(KERNELS / f"{name}.py")
    a, b, bias = _operands(torch.float32)
    assert module.fit_stages(a, 128, 256, 64, 3) == 2  # 3 x 96 KB would not fit 227 KB
    if name == "matmul":
        got, want = module.matmul(a, b, BLOCK_M=128, BLOCK_N=256, BLOCK_K=64), a @ b
    else:
        got, want = (
            module.matmul_bias(a, b, bias, BLOCK_M=128, BLOCK_N=256, BLOCK_K=64),
            torch.addmm(bias, a, b),
        )
    torch.testing.assert_close(got, want, atol=5e-2, rtol=1e-2)  # tf32 dot


@pytest.mark.parametrize("name", ["matmul", "matmul_fast"])
def test_a_99_kb_gpu_gets_two_stages_that_run(name, monkeypatch):
    module = load_module(KERNELS / f"{name}.py")
    real = torch.cuda.get_device_properties(0)
    small = SimpleNamespace(
        multi_processor_count=real.multi_processor_count,
        major=8,
        minor=9,
        shared_memory_per_block_optin=101376,
    )
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda device=None: small)
    a, b, _ = _operands(torch.float16, M=4096, N=4096, K=512)
    if name == "matmul":
        assert module.fit_stages(a, 128, 256, 64, 4) == 2
        got = module.matmul(a, b)
    else:
        cfg = module.pick_config(4096, 4096, 512, a.device)
        assert cfg["path"] == "tma-persistent" and module.fit_stages(a.device, cfg, 2) == 2  # no TMA at sm_89
        got = module.matmul(a, b)
    torch.testing.assert_close(got, a @ b, atol=2e-2, rtol=1e-2)
