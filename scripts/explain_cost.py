"""What the judge's explanations of one wrong output cost at GPU-case sizes (issues 13, 15): `diagnose`, the
value explanations, the K-loop and carried-tile checks, timed on a synthetic wrong matmul+bias output (the
bias added along the wrong axis) and a softmax whose rows are each off by their own factor.
Not a test: a table.
Run: python3 scripts/explain_cost.py [--device cuda] [--sizes 1024 2048 4096] [--rows 262147]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tritonlab.engine.diagnose import diagnose  # noqa: E402
from tritonlab.engine.tasks import verify as V  # noqa: E402


def timed(device, fn, *args, **kwargs) -> tuple[float, object]:
    """(seconds, what fn returned), the device synchronized on both sides."""
    if device.type == "cuda":
        torch.cuda.synchronize()
    began = time.perf_counter()
    out = fn(*args, **kwargs)
    if device.type == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - began, out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--sizes", type=int, nargs="*", default=[1024, 2048, 4096])
    parser.add_argument("--rows", type=int, default=262_147)
    opts = parser.parse_args()
    device = torch.device(opts.device)
    gen = torch.Generator(device=device).manual_seed(0)
    print(f"device {device}, torch {torch.__version__}")
    print(f"{'case':28} {'diagnose':>9} {'explain':>9} {'k-loop':>9} {'carried':>9}  cause")
    for n in opts.sizes:
        a = torch.randn(n, n, device=device, generator=gen).half()
        b = torch.randn(n, n, device=device, generator=gen).half()
        bias = torch.randn(n, device=device, generator=gen).half()
        product = a.float() @ b.float()
        expected = (product + bias.float()[None, :]).half()
        got = (product + bias.float()[:, None]).half()  # the bias along the rows: a usual mistake
        inputs = {"a": a, "b": b, "bias": bias}
        meta = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}
        first, rep = timed(device, diagnose, got, expected, atol=1e-2, rtol=1e-2)
        diags = rep["diagnoses"]
        t = [
            first,
            timed(device, V._explain_values, diags, got, expected, inputs, 1e-2, 1e-2)[0],
            timed(device, V._k_loop, diags, got, inputs, {"M": n, "N": n, "K": n}, meta, {}, 1e-2, 1e-2)[0],
            timed(device, V._carried_tiles, diags, got, expected, meta, 1e-2, 1e-2)[0],
        ]
        cause = [d.get("cause") for d in diags]
        print(f"{'matmul+bias ' + str(n) + '²':28} " + " ".join(f"{x:8.2f}s" for x in t) + f"  {cause}")
    x = torch.randn(opts.rows, 128, device=device, generator=gen)
    expected = torch.softmax(x, dim=1)
    got = expected * (1.0 + torch.rand(opts.rows, 1, device=device, generator=gen))  # each row its own factor
    first, rep = timed(device, diagnose, got, expected, atol=1e-5, rtol=1e-5)
    t = [first, timed(device, V._explain_values, rep["diagnoses"], got, expected, {"x": x}, 1e-5, 1e-5)[0]]
    cause = [d.get("cause") for d in rep["diagnoses"]]
    print(
        f"{'softmax rows ' + str(opts.rows) + '×128':28} " + " ".join(f"{v:8.2f}s" for v in t) + f"  {cause}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
