"""`kernels/matmul_fast.py` on a GPU through each branch of `pick_config` (the deep-pipeline pointer tiles of one
wave, the TMA kernel for strides that are not multiples of 16 elements, and its fallback to pointers where TMA
cannot run), each against torch in fp32."""

from pathlib import Path

import pytest
import torch

from tritonlab.engine.learner import load_module

pytestmark = pytest.mark.gpu

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


@pytest.fixture(scope="module")
def fast():
    return load_module(KERNELS / "matmul_fast.py")  # as the lab imports a learner's file


CASES = [  # M, N, K, B transposed, bias, the path pick_config is expected to take on an sm_90 GPU
    (1024, 1024, 1024, False, False, "pointer"),  # one wave of 64 x 128 tiles: BLOCK_K 128, 4 stages
    (1024, 1024, 1088, False, True, "pointer"),  # the same with K % 128 != 0: BLOCK_K 64, 6 stages
    (1024, 2048, 1024, True, True, "pointer"),  # two waves: 4 stages
    (1000, 1000, 1000, False, False, "tma"),  # row strides of 1000: the TMA kernel
    (1000, 1000, 1000, True, True, "tma"),
    (999, 999, 999, False, False, "tma"),  # 1998-byte rows: TMA cannot run, the pointer kernel does
    (16, 4096, 4096, False, False, "pointer"),  # decode: 16-row tiles
    (48, 4096, 1024, True, True, "pointer"),  # decode, M > 16: 16 x 64 tiles
    (33, 1000, 1000, False, True, "tma"),  # decode with 1000-element rows
    (2048, 2048, 2048, False, True, "pointer"),  # mid size: 128 x 256 x 64 through pointer loads, 4 stages
    (2048, 2048, 2048, True, True, "tma-persistent"),  # the same with B = weight.t(): TMA
]


@pytest.mark.parametrize("M, N, K, transposed, with_bias, path", CASES)
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_every_branch_matches_torch(fast, M, N, K, transposed, with_bias, path, dtype):
    gen = torch.Generator(device="cuda").manual_seed(M + N + K)
    a = torch.randn(M, K, device="cuda", dtype=dtype, generator=gen)
    b = (
        torch.randn(N, K, device="cuda", dtype=dtype, generator=gen).t()
        if transposed
        else torch.randn(K, N, device="cuda", dtype=dtype, generator=gen)
    )
    bias = torch.randn(N, device="cuda", dtype=dtype, generator=gen) if with_bias else None
    if torch.cuda.get_device_capability()[0] >= 9:
        cfg = fast.pick_config(M, N, K, a.device, a.element_size(), fast.strides_aligned(a, b), transposed)
        assert cfg["path"] == path
    got = fast.matmul(a, b, bias)
    want = a.float() @ b.float() + (bias.float() if with_bias else 0)
    tol = dict(atol=2e-2, rtol=1e-2) if dtype == torch.float16 else dict(atol=1e-1, rtol=2e-2)
    torch.testing.assert_close(got.float(), want, **tol)


@pytest.mark.parametrize("M, K, path", [(1024, 1024, "pointer"), (1000, 1000, "tma")])
def test_a_transposed_matches_torch(fast, M, K, path):
    """A = x.t() (column-major A): its leading stride is M. TMA cannot load it (unit stride is along M), so even
    where pick_config asks for TMA the wrapper runs the pointer kernel."""
    gen = torch.Generator(device="cuda").manual_seed(M + K)
    a = torch.randn(K, M, device="cuda", dtype=torch.float16, generator=gen).t()
    b = torch.randn(K, 512, device="cuda", dtype=torch.float16, generator=gen)
    if torch.cuda.get_device_capability()[0] >= 9:
        assert fast.pick_config(M, 512, K, a.device, 2, fast.strides_aligned(a, b))["path"] == path
    torch.testing.assert_close(fast.matmul(a, b).float(), a.float() @ b.float(), atol=2e-2, rtol=1e-2)
