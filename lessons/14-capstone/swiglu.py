"""Capstone: fused SwiGLU forward. Write it yourself: the kernel, the wrapper and your own tests.

    swiglu(a, b) -> c        c = silu(a) * b = a * sigmoid(a) * b, elementwise

    a, b : tensors of one shape (any number of dimensions; in an MLP [tokens, hidden]), one floating dtype
           (float32, float16 or bfloat16), one device
    c    : a new tensor, same shape and dtype as a

Compute in float32 and round once when you store. Reject, with an exception raised before any launch: shapes that
differ, dtypes that differ, tensors on different devices. The lab checks your function on shapes and seeds it does
not show you, and times it against torch's `F.silu(a) * b`.

Your tests: put them under `if __name__ == "__main__":` and run `TRITON_INTERPRET=1 python swiglu.py` on a machine
without a GPU. Compare with torch on awkward sizes, not just powers of two.
"""

# TODO: everything below the imports is yours: the @triton.jit kernel(s), the wrapper, and your tests.
import torch  # noqa: F401
import triton  # noqa: F401
import triton.language as tl  # noqa: F401


def swiglu(a, b):
    raise NotImplementedError("write the kernel and this wrapper")
