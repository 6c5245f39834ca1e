"""Probe round 17b, 9/matmul-fast, WRONG: the learner keeps EVEN_K=True and makes it true instead: the wrapper
zero-pads A's columns up to a multiple of cfg["BLOCK_K"] and passes the padded K (K_pad) to the kernel, reasoning
that A's zeros multiply whatever B holds in rows K .. K_pad - 1 by 0. But B is not padded: it has only K rows,
so the last K step of the unmasked (EVEN_K) loads reads B past its end. On the interpreter that is an
out-of-bounds load; on a GPU it reads other memory, and NaN or inf there times 0 is NaN. K = 96 (a whole number
of steps for BLOCK_K = 32) passes; K = 1, 65 and 31 read past B.
Right verdict: FAIL, an out-of-bounds read of B in the EVEN_K branch, blamed on the wrapper: K_pad is passed as
K while B keeps K rows (the K_pad line / the launch's K_pad): pad B's rows too, or pass K and
EVEN_K = K % BLOCK_K == 0."""

import torch
import triton
import triton.language as tl

try:  # host-side TMA descriptors (Triton >= 3.4); without them the pointer kernel serves every call
    from triton.tools.tensor_descriptor import TensorDescriptor
except ImportError:  # pragma: no cover
    TensorDescriptor = None


@triton.jit
def matmul_fast_kernel(
    a_ptr,  # *A, shape [M, K]
    b_ptr,  # *B, shape [K, N]
    bias_ptr,  # *bias, shape [N] (ignored unless HAS_BIAS)
    c_ptr,  # *C, shape [M, N], written by this kernel
    M,
    N,
    K,  # problem size
    stride_am,
    stride_ak,  # A's strides (elements)
    stride_bk,
    stride_bn,  # B's strides
    stride_cm,
    stride_cn,  # C's strides
    HAS_BIAS: tl.constexpr,  # add bias[j] to column j in the epilogue
    ACTIVATION: tl.constexpr,  # "" (none), "relu" or "silu"
    EVEN_K: tl.constexpr,  # K % BLOCK_K == 0: no K mask in the loop
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,  # tile rows per group in the L2-friendly launch order
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    m_ok = offs_m[:, None] < M
    n_ok = offs_n[None, :] < N

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        if EVEN_K:
            a = tl.load(a_ptrs, mask=m_ok, other=0.0)
            b = tl.load(b_ptrs, mask=n_ok, other=0.0)
        else:
            k_remaining = K - k * BLOCK_K
            a = tl.load(a_ptrs, mask=m_ok & (offs_k[None, :] < k_remaining), other=0.0)
            b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_remaining) & n_ok, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    if HAS_BIAS:
        acc += tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
    if ACTIVATION == "relu":
        acc = tl.maximum(acc, 0.0)
    elif ACTIVATION == "silu":
        acc = acc * tl.sigmoid(acc)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=m_ok & n_ok)


@triton.jit
def matmul_tma_kernel(
    a_desc,  # TMA descriptor of A [M, K], block [BLOCK_M, BLOCK_K]
    b_desc,  # TMA descriptor of B [K, N] (block [BLOCK_K, BLOCK_N]), or of B.T [N, K] when B_TRANSPOSED
    c_desc,  # TMA descriptor of C [M, N], block [BLOCK_M, BLOCK_N]
    bias_ptr,  # *bias [N] (ignored unless HAS_BIAS)
    M,
    N,
    K,
    HAS_BIAS: tl.constexpr,
    ACTIVATION: tl.constexpr,
    B_TRANSPOSED: tl.constexpr,  # B is weight.t(): its descriptor is over the row-major weight [N, K]
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    NUM_PROGRAMS: tl.constexpr,  # programs launched: one per SM (persistent), or one per tile
    WARP_SPECIALIZE: tl.constexpr,  # producer warps load while consumer warps multiply
):
    """The same tiles, loaded by the Tensor Memory Accelerator: one instruction moves a whole tile into shared
    memory, out-of-range rows and columns come back as zeros (no masks), and with NUM_PROGRAMS = number of SMs each
    program walks several tiles, so the next tile's loads overlap this tile's epilogue."""
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_pid_in_group = GROUP_M * num_pid_n
    for tile in tl.range(
        tl.program_id(0), num_tiles, NUM_PROGRAMS, flatten=True, warp_specialize=WARP_SPECIALIZE
    ):
        group_id = tile // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + ((tile % num_pid_in_group) % group_size_m)
        pid_n = (tile % num_pid_in_group) // group_size_m
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([off_m, ki * BLOCK_K])
            if B_TRANSPOSED:
                b = b_desc.load([off_n, ki * BLOCK_K]).T
            else:
                b = b_desc.load([ki * BLOCK_K, off_n])
            acc = tl.dot(a, b, acc)
        if HAS_BIAS:
            offs_n = off_n + tl.arange(0, BLOCK_N)
            acc += tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
        if ACTIVATION == "relu":
            acc = tl.maximum(acc, 0.0)
        elif ACTIVATION == "silu":
            acc = acc * tl.sigmoid(acc)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


_DEVICE: dict = {}  # per GPU, asked once: (SM count, compute capability major, shared memory per program)


def _device_facts(device) -> tuple[int, int, int]:
    """Asked once per GPU, not on every call: each torch.cuda property query costs microseconds of host
    time, and at 1024^3 the whole GEMM takes ~10 us on the GPU (the host's share: docs/GPU-RESULTS.md)."""
    index = device.index if device.index is not None else torch.cuda.current_device()
    facts = _DEVICE.get(index)
    if facts is None:
        props = torch.cuda.get_device_properties(index)
        facts = _DEVICE[index] = (
            props.multi_processor_count,
            props.major,
            props.shared_memory_per_block_optin,
        )
    return facts


def _sm_count(device) -> int:
    return _device_facts(device)[0]


def pick_config(M, N, K, device, element_size=2, aligned=True, b_transposed=False) -> dict:
    """Kernel path, tile and launch options for this shape, from sweeps on an H200 and an H100 (docs/GPU-RESULTS.md).

    - M <= 64 (decode): 16-row tiles with a long K step; at M = 16, B is read once, spread over 128 programs.
      Pointer loads here: the same GPU time as TMA loads of the same tile (20.2 vs 20.4 us at 16 x 4096 x 4096 on
      an H200, torch 19.5) for about half the host time per call (no descriptors to encode). From M = 17 a
      16 x 64 tile, 4 warps: 0.85x instead of 0.58x at 32 x 11008 x 4096.
    - At least ~0.7 of a wave of 128 x 256 tiles: the persistent TMA kernel, one program per SM walking tiles.
      Except up to ~40 GFLOP (2048^3 to 4096 x 2048 x 2048, ~30-50 us on an H200) with row-major B and aligned
      strides: there the pointer kernel with the same tile and 4 stages takes 0.97x cuBLAS's GPU time against the
      TMA kernel's 0.98x, but a call costs half the host time (30-39 us against 63-86: no descriptors to encode),
      and at these sizes the host time shows in every call (docs/GPU-RESULTS.md, seventeenth session).
    - Below that (1024^3: 32 big tiles for 132 SMs): the pointer kernel with 64 x 128 tiles. When they make at
      most one wave (128 programs at 1024^3), each SM runs one program and nobody shares its shared memory, so on
      Hopper (227 KB per SM) a longer K step and a deeper pipeline are free: 64 x 128 x 128 with 4 stages (192 KB)
      took 1024^3 from 0.88x to 0.96x cuBLAS in GPU time. More programs than SMs keep 4 stages of 64 x 128 x 64
      (96 KB), so that two programs fit on one SM.
    - `aligned` False (a row stride that is not a multiple of 16 elements, e.g. K = 1000): the pointer kernel
      cannot prove 16-byte row starts and loads one element at a time (0.24x cuBLAS at 1000^3), so such shapes
      take the TMA kernel, whose descriptor states the stride once (0.77x; 128 x 128 tiles beyond one wave). The
      wrapper falls back to pointers where TMA cannot run.
    """
    if (
        device.type == "cpu"
    ):  # Triton's interpreter: small tiles, so test shapes span several tiles and K steps
        return dict(path="pointer", BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=4, num_warps=4, num_stages=1)
    sms, major, _ = _device_facts(device)
    if M <= 64:  # decode
        if not aligned and major >= 9:
            return dict(path="tma", BLOCK_M=16, BLOCK_N=32, BLOCK_K=128, GROUP_M=1, num_warps=2, num_stages=6)
        if M <= 16:
            return dict(
                path="pointer", BLOCK_M=16, BLOCK_N=32, BLOCK_K=128, GROUP_M=1, num_warps=2, num_stages=6
            )
        return dict(path="pointer", BLOCK_M=16, BLOCK_N=64, BLOCK_K=128, GROUP_M=1, num_warps=4, num_stages=4)
    if element_size > 2:  # fp32 (TF32 dot): twice the shared memory per tile; not part of the sweeps
        return dict(
            path="tma-persistent", BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, GROUP_M=8, num_warps=8, num_stages=3
        )
    if triton.cdiv(M, 128) * triton.cdiv(N, 256) >= 0.7 * sms:
        if major >= 9 and aligned and not b_transposed and 2 * M * N * K <= 40e9:  # host time would show
            return dict(
                path="pointer", BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=4
            )
        return dict(
            path="tma-persistent", BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=3
        )
    one_wave = triton.cdiv(M, 64) * triton.cdiv(N, 128) <= sms  # of 64 x 128 tiles, one program per SM
    if not aligned and major >= 9:
        if one_wave:
            return dict(path="tma", BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=4, num_stages=5)
        return dict(path="tma", BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=4)
    if major >= 9 and one_wave:
        if K % 128 == 0:
            return dict(
                path="pointer", BLOCK_M=64, BLOCK_N=128, BLOCK_K=128, GROUP_M=8, num_warps=4, num_stages=4
            )
        return dict(path="pointer", BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=4, num_stages=6)
    return dict(path="pointer", BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=4, num_stages=4)


def fit_stages(device, cfg, element_size) -> int:
    """cfg's num_stages, or fewer where this GPU's shared memory per program cannot hold them (one A and one B tile
    per stage): a TMA tile that runs through pointers on a GPU without TMA, 99 KB on most GeForce cards."""
    if device.type != "cuda":
        return cfg["num_stages"]
    per_stage = (cfg["BLOCK_M"] + cfg["BLOCK_N"]) * cfg["BLOCK_K"] * element_size
    return max(1, min(cfg["num_stages"], (_device_facts(device)[2] - 2048) // per_stage))


def strides_aligned(a, b) -> bool:
    """Whether the leading strides of A and of B (whichever of each one's strides is not 1: B may be weight.t())
    are multiples of 16 elements: what Triton needs to know before it vectorizes a load."""
    return max(a.stride()) % 16 == 0 and max(b.stride()) % 16 == 0


def _tma_ready(t) -> bool:
    """TMA's rules: a 16-byte aligned start, unit stride in the last dimension, 16-byte multiples elsewhere."""
    return t.stride(1) == 1 and (t.stride(0) * t.element_size()) % 16 == 0 and t.data_ptr() % 16 == 0


def is_weight_t(b) -> bool:
    """B = weight.t() (F.linear's layout): unit stride down a column, so B's rows are not contiguous."""
    return b.stride(0) == 1 and b.stride(1) != 1


def tma_path_ok(a, b, c) -> bool:
    if TensorDescriptor is None or a.device.type != "cuda" or _device_facts(a.device)[1] < 9:
        return False
    b_rows = b.t() if is_weight_t(b) else b
    return _tma_ready(a) and _tma_ready(b_rows) and _tma_ready(c)


def matmul_tma(a, b, c, bias, activation, cfg, persistent=True, warp_specialize=False):
    """Launch matmul_tma_kernel; `c` is the output, already allocated. cfg as from pick_config."""
    M, K = a.shape
    N = b.shape[1]
    bm, bn, bk = cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"]
    transposed = is_weight_t(b)
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = (
        TensorDescriptor.from_tensor(b.t(), [bn, bk])
        if transposed
        else TensorDescriptor.from_tensor(b, [bk, bn])
    )
    c_desc = TensorDescriptor.from_tensor(c, [bm, bn])
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    programs = min(tiles, _sm_count(a.device)) if persistent else tiles
    matmul_tma_kernel[(programs,)](
        a_desc,
        b_desc,
        c_desc,
        bias if bias is not None else c,
        M,
        N,
        K,
        HAS_BIAS=bias is not None,
        ACTIVATION=activation or "",
        B_TRANSPOSED=transposed,
        BLOCK_M=bm,
        BLOCK_N=bn,
        BLOCK_K=bk,
        GROUP_M=cfg["GROUP_M"],
        NUM_PROGRAMS=programs,
        WARP_SPECIALIZE=warp_specialize,
        num_warps=cfg["num_warps"],
        num_stages=cfg["num_stages"],
    )
    return c


def matmul(a, b, bias=None, activation=None, config=None, path=None):
    """activation(A @ B [+ bias]) for 2D A [M, K], B [K, N] (any strides) of one float dtype; fp32 accumulation.

    `config` (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages) overrides `pick_config`."""
    if a.dim() != 2 or b.dim() != 2:
        raise ValueError(f"matmul expects 2D tensors, got {a.dim()}D and {b.dim()}D")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"inner dimensions differ: a is {tuple(a.shape)}, b is {tuple(b.shape)}")
    if a.device != b.device or (bias is not None and bias.device != a.device):
        raise ValueError("tensors on different devices")
    if a.dtype != b.dtype or (bias is not None and bias.dtype != a.dtype):
        raise TypeError(
            f"dtypes differ: {a.dtype}, {b.dtype}" + (f", {bias.dtype}" if bias is not None else "")
        )
    if a.dtype not in (torch.float16, torch.bfloat16, torch.float32):
        raise TypeError(f"unsupported dtype {a.dtype}")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != b.shape[1]):
        raise ValueError(f"bias must be 1D with {b.shape[1]} values, got shape {tuple(bias.shape)}")
    if activation not in (None, "relu", "silu"):
        raise ValueError(f"activation must be None, 'relu' or 'silu', got {activation!r}")
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    transposed = is_weight_t(b)
    cfg = dict(config or pick_config(M, N, K, a.device, a.element_size(), strides_aligned(a, b), transposed))
    if bias is not None and bias.stride(0) != 1:
        bias = bias.contiguous()
    path = path or cfg.get("path", "tma-persistent")
    cfg.pop("path", None)
    if path.startswith("tma") and tma_path_ok(a, b, c):
        return matmul_tma(
            a, b, c, bias, activation, cfg, persistent="persistent" in path, warp_specialize="ws" in path
        )
    cfg["num_stages"] = fit_stages(a.device, cfg, a.element_size())
    # Every K step full, so EVEN_K=True is true: pad A's columns with zeros up to a multiple of BLOCK_K.
    # The zeros multiply B's values there by 0, so the padded step adds nothing.
    K_pad = triton.cdiv(K, cfg["BLOCK_K"]) * cfg["BLOCK_K"]
    if K_pad != K:
        a = torch.nn.functional.pad(a, (0, K_pad - K))
    grid = (triton.cdiv(M, cfg["BLOCK_M"]) * triton.cdiv(N, cfg["BLOCK_N"]),)
    matmul_fast_kernel[grid](
        a,
        b,
        bias if bias is not None else c,
        c,
        M,
        N,
        K_pad,
        a.stride(0),
        a.stride(1),
        b.stride(0),
        b.stride(1),
        c.stride(0),
        c.stride(1),
        HAS_BIAS=bias is not None,
        ACTIVATION=activation or "",
        EVEN_K=True,  # K_pad is a multiple of BLOCK_K
        **cfg,
    )
    return c
