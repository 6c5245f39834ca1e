"""Capstone: SwiGLU forward AND backward, usable by autograd. Write it yourself from this file.

    swiglu(a, b) -> c        c = silu(a) * b,   silu(a) = a * sigmoid(a)

    Backward, for the gradient dc flowing into c:
        db = dc * silu(a)
        da = dc * b * d silu(a)/da     (derive d silu/da yourself; check it against torch.autograd)

    a, b : tensors of one shape and one floating dtype (float32, float16 or bfloat16), on one device
    c    : same shape and dtype; c.backward(dc) must fill a.grad and b.grad

Write Triton kernels for the forward and the backward (a torch.autograd.Function connects them), and decide what
the forward saves. The lab calls swiglu(a, b) on inputs that require grad, then c.backward(dc) with a random dc,
and compares c, a.grad and b.grad with torch's on shapes and seeds it does not show you. Reject mismatched shapes,
dtypes and devices with an exception before any launch.

Your tests: under `if __name__ == "__main__":`, compare with torch (`torch.autograd.grad` of `F.silu(a) * b`).
"""

# TODO: everything below the imports is yours: the @triton.jit kernel(s), the wrapper, and your tests.
import torch  # noqa: F401
import triton  # noqa: F401
import triton.language as tl  # noqa: F401


def swiglu(a, b):
    raise NotImplementedError("write the kernels, the autograd.Function and this wrapper")
