"""Capstone: cross-entropy loss over a large vocabulary, in one pass over the logits. Write it yourself.

    cross_entropy(logits, target) -> loss

    loss[i] = logsumexp(logits[i, :]) - logits[i, target[i]]      (PyTorch's reduction='none')
    logsumexp(x) = max(x) + log(sum(exp(x - max(x))))

    logits : [M, V], float32, float16 or bfloat16; V can be 128k (a LLaMA-3 vocabulary), so a row does not fit
             in one block, and reading it twice costs twice the time of a memory-bound kernel
    target : [M], int64 class ids, each in [0, V)
    loss   : [M], float32 (compute in float32 whatever the logits' dtype)

logits may be a row-strided view: its rows lie logits.stride(0) elements apart, and one case puts them 2**30
apart, so row 2 starts at element 2**31 (where an int32 row offset wraps).

Reject, with an exception before any launch: logits that are not 2D, a target whose length is not M or whose dtype
is not an integer type, tensors on different devices. The lab checks on vocabularies and row counts it does not show
you and times your kernel against `F.cross_entropy(logits.float(), target, reduction="none")`.

Your tests: under `if __name__ == "__main__":`, compare with torch; try large logits (x * 100) too, where a naive
exp overflows.
"""

# TODO: everything below the imports is yours: the @triton.jit kernel(s), the wrapper, and your tests.
import torch  # noqa: F401
import triton  # noqa: F401
import triton.language as tl  # noqa: F401


def cross_entropy(logits, target):
    raise NotImplementedError("write the kernel and this wrapper")
