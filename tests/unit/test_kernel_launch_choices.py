"""The host-side choices of the reference kernels (tile by wave count, rows per program, copy tile by layout).

These are the decisions the lesson texts explain with GPU measurements; here they are checked without a GPU, on
stand-in tensors, so a change that breaks the stated rule fails before anyone reaches a GPU."""

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"k_{name}", KERNELS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def h100(monkeypatch):
    monkeypatch.setattr(
        torch.cuda,
        "get_device_properties",
        lambda device: SimpleNamespace(
            multi_processor_count=132, major=9, shared_memory_per_block_optin=232448
        ),
    )
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    return SimpleNamespace(device=torch.device("cuda"), element_size=lambda: 2)


@pytest.mark.parametrize("name", ["matmul", "matmul_bias"])
def test_gemm_tile_follows_the_wave_count(name, h100):
    tiles = _load(name).default_tiles
    assert tiles(h100, 4096, 4096)[:3] == (128, 256, 64)  # 512 big tiles: ~4 waves
    assert tiles(h100, 2048, 2048)[:3] == (128, 256, 64)  # 128 big tiles: ~1 wave
    assert tiles(h100, 1024, 1024)[:3] == (64, 128, 64)  # 32 big tiles would leave 100 SMs idle
    assert tiles(h100, 16, 4096)[0] == 16  # decode: a 16-row tile
    cpu = SimpleNamespace(device=torch.device("cpu"), element_size=lambda: 2)
    assert tiles(cpu, 4096, 4096)[:3] == (32, 32, 32)  # the interpreter keeps small tiles


def test_matmul_fast_paths(h100):
    pick = _load("matmul_fast").pick_config
    assert pick(8192, 8192, 8192, h100.device)["path"] == "tma-persistent"
    assert (
        pick(1024, 1024, 1024, h100.device)["path"] == "pointer"
    )  # host cost of descriptors ~ the GEMM itself
    assert pick(16, 4096, 4096, h100.device)["BLOCK_M"] == 16
    assert pick(4096, 4096, 4096, h100.device, element_size=4)["BLOCK_N"] == 128  # fp32: half the tile
    assert pick(64, 64, 64, torch.device("cpu"))["path"] == "pointer"


def _tile(cfg):
    return cfg["path"], cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"], cfg["num_stages"]


def test_matmul_fast_one_wave_of_small_tiles_gets_the_deep_pipeline(h100):
    pick = _load("matmul_fast").pick_config
    # 1024^3: 128 tiles of 64 x 128 for 132 SMs, one program per SM: the whole shared memory for one program
    assert _tile(pick(1024, 1024, 1024, h100.device)) == ("pointer", 64, 128, 128, 4)
    assert _tile(pick(1024, 1024, 1088, h100.device)) == (
        "pointer",
        64,
        128,
        64,
        6,
    )  # K not a multiple of 128
    # 256 tiles: two programs share an SM, so each keeps to 96 KB
    assert _tile(pick(1024, 2048, 1024, h100.device)) == ("pointer", 64, 128, 64, 4)


def test_matmul_fast_deep_pipeline_only_where_the_shared_memory_is(h100, monkeypatch):
    fast = _load("matmul_fast")
    monkeypatch.setattr(
        torch.cuda,
        "get_device_properties",
        lambda device: SimpleNamespace(
            multi_processor_count=82, major=8, shared_memory_per_block_optin=101376
        ),
    )  # an sm_86 card: 100 KB of shared memory per SM, no TMA
    assert _tile(fast.pick_config(1024, 1024, 1024, h100.device)) == ("pointer", 64, 128, 64, 4)
    assert _tile(fast.pick_config(1000, 1000, 1000, h100.device, aligned=False)) == (
        "pointer",
        64,
        128,
        64,
        4,
    )


def test_matmul_fast_unaligned_strides_take_the_tma_kernel(h100):
    fast = _load("matmul_fast")
    a = torch.empty(1000, 1000, dtype=torch.float16)
    assert not fast.strides_aligned(a, a)
    assert not fast.strides_aligned(
        a, torch.empty(1000, 1024, dtype=torch.float16).t()
    )  # B = weight.t(), K = 1000
    assert fast.strides_aligned(torch.empty(64, 1024), torch.empty(1024, 2048).t())
    assert fast.strides_aligned(torch.empty(1024, 64).t(), torch.empty(1024, 2048))  # A = x.t(): stride 64
    assert not fast.strides_aligned(torch.empty(1000, 1000).t(), torch.empty(1000, 2048))  # A = x.t(): 1000
    assert fast.pick_config(1000, 1000, 1000, h100.device, aligned=False)["path"] == "tma"
    assert fast.pick_config(1000, 1000, 1000, h100.device, aligned=True)["path"] == "pointer"


def test_matmul_fast_mid_sizes_take_pointer_loads_where_host_time_would_show(h100, monkeypatch):
    fast = _load("matmul_fast")
    pick = fast.pick_config
    # 2048^3 .. 4096 x 2048 x 2048 (<= 40 GFLOP): the big tile through pointer loads, no descriptors to encode
    assert _tile(pick(2048, 2048, 2048, h100.device)) == ("pointer", 128, 256, 64, 4)
    assert _tile(pick(4096, 2048, 2048, h100.device)) == ("pointer", 128, 256, 64, 4)
    # beyond it, B = weight.t() (pointer loads of a K-major B: 0.75x) or unaligned strides: the TMA kernel
    assert pick(4096, 4096, 4096, h100.device)["path"] == "tma-persistent"
    assert pick(4096, 4096, 2048, h100.device)["path"] == "tma-persistent"
    assert pick(2048, 2048, 2048, h100.device, b_transposed=True)["path"] == "tma-persistent"
    assert pick(2048, 2000, 2048, h100.device, aligned=False)["path"] == "tma-persistent"
    monkeypatch.setattr(
        torch.cuda,
        "get_device_properties",
        lambda device: SimpleNamespace(
            multi_processor_count=108, major=8, shared_memory_per_block_optin=166912
        ),
    )  # an A100: no TMA, 163 KB of shared memory per program
    fast._DEVICE.clear()
    cfg = pick(2048, 2048, 2048, h100.device)  # no mid-size rule before Hopper: the TMA tile, which runs
    assert cfg["path"] == "tma-persistent" and cfg["num_stages"] == 3  # through pointers there
    assert fast.fit_stages(h100.device, cfg, 2) == 3  # 3 x 48 KB fits 163 KB


_GPUS = {  # shared_memory_per_block_optin: what torch reports
    "H100/H200": 232448,
    "A100": 166912,
    "RTX 3090/4090": 101376,
}


def _pretend_gpu(monkeypatch, gpu, major):
    """torch.cuda.get_device_properties answers for `gpu` (its shared memory per program); returns that limit."""
    limit = _GPUS[gpu]
    props = SimpleNamespace(multi_processor_count=132, major=major, shared_memory_per_block_optin=limit)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda device: props)
    return limit


@pytest.mark.parametrize("gpu, big_tile_stages", [("H100/H200", 4), ("A100", 3), ("RTX 3090/4090", 2)])
@pytest.mark.parametrize("name", ["matmul", "matmul_bias"])
def test_pipeline_stages_fit_the_gpus_shared_memory(name, gpu, big_tile_stages, monkeypatch):
    """4 stages of 128 x 256 x 64 fp16 tiles are 192 KB: an A100 or a GeForce card would refuse the launch
    (OutOfResources) at 4096^3, in the learner's verify as well as in the reference's bench."""
    module = _load(name)
    limit = _pretend_gpu(monkeypatch, gpu, major=9)
    fp16 = SimpleNamespace(device=torch.device("cuda"), element_size=lambda: 2)
    fp32 = SimpleNamespace(device=torch.device("cuda"), element_size=lambda: 4)
    assert module.fit_stages(fp16, 128, 256, 64, 4) == big_tile_stages
    assert module.fit_stages(fp16, 128, 256, 64, 4) * (128 + 256) * 64 * 2 <= limit
    assert module.fit_stages(fp16, 64, 128, 64, 4) == 4  # 96 KB: fits everywhere
    assert module.fit_stages(fp32, 128, 256, 64, 3) * (128 + 256) * 64 * 4 <= limit  # a learner's fp32 sweep
    cpu = SimpleNamespace(device=torch.device("cpu"), element_size=lambda: 2)
    assert module.fit_stages(cpu, 128, 256, 64, 4) == 4  # the interpreter has no shared memory limit


@pytest.mark.parametrize("gpu, stages", [("H100/H200", 4), ("A100", 3), ("RTX 3090/4090", 2)])
def test_matmul_fast_pointer_stages_fit_the_gpus_shared_memory(gpu, stages, h100, monkeypatch):
    fast = _load("matmul_fast")
    _pretend_gpu(monkeypatch, gpu, major=8)
    big = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, num_stages=4)
    assert fast.fit_stages(h100.device, big, 2) == stages
    assert fast.fit_stages(h100.device, dict(big, num_stages=2), 2) == 2  # never more than asked
    assert fast.fit_stages(torch.device("cpu"), big, 2) == 4


def test_matmul_fast_decode_takes_pointer_loads_unless_the_strides_need_tma(h100):
    pick = _load("matmul_fast").pick_config
    assert _tile(pick(16, 4096, 4096, h100.device)) == ("pointer", 16, 32, 128, 6)  # no descriptors to encode
    assert _tile(pick(32, 11008, 4096, h100.device)) == ("pointer", 16, 64, 128, 4)
    assert _tile(pick(16, 4096, 1000, h100.device, aligned=False)) == ("tma", 16, 32, 128, 6)


def test_softmax_rows_per_program():
    pick = _load("softmax_fast").pick_launch
    for n_cols in (1, 3, 100, 128, 129, 256, 1000, 1024, 2048, 4096, 8192, 32768):
        block, rows, warps = pick(n_cols)
        assert block >= n_cols and block & (block - 1) == 0  # the whole row in one power-of-two block
        assert (rows == 1 or rows * block <= 8192) and warps in (4, 8, 16)
    assert pick(128)[1] == 8 and pick(1024)[1] == 1  # ~1,024 values per program for short rows


def test_copy_2d_tile_is_long_along_the_contiguous_direction(monkeypatch):
    module = _load("copy_2d")
    seen = {}

    class Recorder:
        def __getitem__(self, grid):
            return lambda *args, **meta: seen.update(meta)

    monkeypatch.setattr(module, "copy_2d_kernel", Recorder())
    module.copy_2d(torch.empty(64, 128)[:, ::2])
    assert (seen["BLOCK_M"], seen["BLOCK_N"]) == (16, 256)  # rows run along memory (column stride 2)
    module.copy_2d(torch.empty(128, 64).t())
    assert (seen["BLOCK_M"], seen["BLOCK_N"], seen["num_warps"]) == (64, 64, 8)  # a transposed view
    module.copy_2d(torch.empty(128, 64).t(), BLOCK_M=16, BLOCK_N=128)
    assert (seen["BLOCK_M"], seen["BLOCK_N"]) == (16, 128)  # a caller's tile wins
