"""Pipeline stages fitted to the GPU's shared memory (`fit_stages` in lesson 9's wrappers), on a real GPU.

A caller's fp32 tile of 128 x 256 x 64 asked 3 stages of 96 KB (288 KB) and failed at launch with OutOfResources
even on an H200; a GPU that reports 99 KB per program (an RTX 4090) gets 2 stages of the fp16 big tile."""

from pathlib import Path

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


class _LessSharedMemory:
    """The GPU's real properties (Triton reads its architecture from them too), less shared memory per program."""

    shared_memory_per_block_optin = 101376  # an RTX 4090

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)


def _shared_bytes(jit_fn) -> list[int]:
    """Shared memory of every kernel this JIT function compiled (Triton's per-device caches)."""
    return [k.metadata.shared for cache in jit_fn.device_caches.values() for k in cache[0].values()]


@pytest.mark.parametrize("name", ["matmul", "matmul_fast"])
def test_a_99_kb_gpu_gets_two_stages_that_run(name, monkeypatch):
    module = load_module(KERNELS / f"{name}.py")
    real = torch.cuda.get_device_properties
    monkeypatch.setattr(
        torch.cuda, "get_device_properties", lambda device=None: _LessSharedMemory(real(device))
    )
    a, b, _ = _operands(torch.float16, M=4096, N=4096, K=512)
    if name == "matmul":
        assert module.fit_stages(a, 128, 256, 64, 4) == 2
        got = module.matmul(a, b)
    else:  # the pointer kernel with the TMA path's big tile, as on a GPU without TMA
        cfg = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=4)
        assert module.fit_stages(a.device, cfg, 2) == 2
        got = module.matmul(a, b, config=cfg, path="pointer")
    torch.testing.assert_close(got, a @ b, atol=2e-2, rtol=1e-2)
    kernel = module.matmul_kernel if name == "matmul" else module.matmul_fast_kernel
    assert 0 < max(_shared_bytes(kernel)) <= _LessSharedMemory.shared_memory_per_block_optin


@pytest.mark.parametrize("causal", [False, True])
def test_flash_attention_at_d_128_fits_99_kb(causal, monkeypatch):
    """3 stages of K and V tiles plus Q are 128 KB at d = 128 (measured: docs/GPU-RESULTS.md): 2 stages on a
    99 KB GPU."""
    fa = load_module(KERNELS / "flash_attention.py")
    real = torch.cuda.get_device_properties
    monkeypatch.setattr(
        torch.cuda, "get_device_properties", lambda device=None: _LessSharedMemory(real(device))
    )
    gen = torch.Generator(device="cuda").manual_seed(9)
    q, k, v = (
        torch.randn(2, 4, 1000, 128, device="cuda", dtype=torch.float16, generator=gen) for _ in range(3)
    )
    got = fa.attention(q, k, v, causal=causal)
    want = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)
    torch.testing.assert_close(got.float(), want, atol=2e-2, rtol=1e-2)
    assert 0 < max(_shared_bytes(fa.attention_kernel)) <= _LessSharedMemory.shared_memory_per_block_optin
