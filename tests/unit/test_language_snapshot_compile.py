"""The integrity watch compares `triton.language` with its snapshot at every launch (twenty-fifth session). If
Triton's own compiler changed anything there, every GPU verify would say `tampered`. Compiling for sm_90 needs no
GPU (`triton.compile` with a GPUTarget): a reduction, a jit helper, tensor descriptors with `tl.range`, atomics
and `tl.reduce` leave the snapshot as it was (Triton 3.9 here; 3.6 checked by hand with
scripts/check_language_snapshot_compile.py). A replaced `tl.store` after the same compile is still seen."""

import pytest
import triton
import triton.language as tl

from tritonlab.engine import integrity

compiler = pytest.importorskip("triton.compiler")
GPUTarget = pytest.importorskip("triton.backends.compiler").GPUTarget


@triton.jit
def _twice(x):
    return x * 2


@triton.jit
def _rows(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    y = tl.exp(x - tl.max(x, axis=0)) / tl.sum(x, axis=0) + _twice(x)
    tl.store(y_ptr + offs, y, mask=offs < n)
    tl.atomic_add(y_ptr, tl.reduce(x, 0, _add))


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _gemm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=3):
        acc = tl.dot(a_desc.load([0, k * BK]), b_desc.load([k * BK, 0]), acc)
    rows, cols = tl.arange(0, BM), tl.arange(0, BN)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc.to(tl.float16))


@pytest.fixture
def language_snapshot():
    """The watch's language snapshot as this test leaves it would be compared at later in-process launches:
    put back what was there."""
    kept = dict(integrity._LANGUAGE)
    yield
    integrity._LANGUAGE.clear()
    integrity._LANGUAGE.update(kept)


def test_compiling_for_a_hopper_gpu_changes_nothing_the_watch_compares(monkeypatch, language_snapshot):
    integrity.snapshot("gpu")
    assert integrity._LANGUAGE, "the language is in the snapshot"
    target = GPUTarget("cuda", 90, 32)
    sources = [
        compiler.ASTSource(
            _rows,
            {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
            constexprs={"BLOCK": 128},
        ),
        compiler.ASTSource(
            _gemm,
            {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32"}
            | {"BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
            constexprs={"BM": 128, "BN": 128, "BK": 64},
        ),
    ]
    for source in sources:
        try:
            compiled = triton.compile(source, target=target)
        except Exception as e:  # noqa: BLE001 - a Triton without the CUDA backend's tools cannot show this
            pytest.skip(f"cannot compile for sm_90 here: {type(e).__name__}: {e}"[:200])
        assert "ptx" in compiled.asm
    assert integrity.changed(integrity._LANGUAGE) == []
    monkeypatch.setattr(tl, "store", lambda *a, **k: None)  # the watch still sees a real change
    assert "triton.language.store" in integrity.changed(integrity._LANGUAGE)
