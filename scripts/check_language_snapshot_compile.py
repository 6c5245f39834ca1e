"""Does compiling kernels for sm_90 change anything in triton.language that the integrity snapshot sees? (No GPU
needed: triton.compile with a GPUTarget.) If it did, every GPU verify would say `tampered`. Twenty-fifth session:
Triton 3.6.0 and 3.9.0, nothing changed. Run: PYTHONPATH=. python scripts/check_language_snapshot_compile.py"""
import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
import torch, triton, triton.language as tl
from triton.backends.compiler import GPUTarget
from tritonlab.engine import integrity

@triton.jit
def helper(x):
    return x * 2

@triton.jit
def k1(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    s = tl.sum(x, axis=0)
    y = tl.exp(x - tl.max(x, axis=0)) / s + helper(x) + tl.math.rsqrt(x * x + 1.0)
    tl.store(y_ptr + offs, y, mask=m)

@triton.jit
def k2(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=3):
        a = a_desc.load([0, k * BK])
        b = b_desc.load([k * BK, 0])
        acc = tl.dot(a, b, acc)
    offs_m = tl.arange(0, BM); offs_n = tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16))

@triton.jit
def k3(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in tl.static_range(0, 4):
        offs = start * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr, tl.sum(acc, axis=0))
    r = tl.reduce(acc, 0, _comb)
    tl.store(out_ptr + 1, r)

@triton.jit
def _comb(a, b):
    return a + b

entries = integrity.snapshot("gpu")
print("entries", len(entries), "language", len(integrity._LANGUAGE))
target = GPUTarget("cuda", 90, 32)
from triton.compiler import ASTSource
srcs = [
    ASTSource(k1, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 128}),
    ASTSource(k2, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}, constexprs={"BM": 128, "BN": 128, "BK": 64}),
    ASTSource(k3, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 256}),
]
for s in srcs:
    try:
        c = triton.compile(s, target=target)
        print("compiled", s.fn.__name__, "ptx" in c.asm, "cubin" in c.asm)
    except Exception as e:
        print("compile", s.fn.__name__, "failed:", type(e).__name__, str(e)[:300])
print("changed after compile:", integrity.changed(integrity._LANGUAGE))
print("changed (all entries):", integrity.changed(entries)[:20])
print(triton.__version__)
