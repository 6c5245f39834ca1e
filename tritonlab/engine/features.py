"""Which lesson features the installed Triton (and the active backend) can run.

Lessons name what an exercise needs in `verify.requires` (docs/lesson-format.md); verify skips an exercise
whose needs are not met, with the missing features as facts, and `doctor` lists what this Triton lacks.
Features are probed (does the API exist, does it take the argument), not inferred from a version table:
Triton's interpreter and its GPU backends gain features at different releases, and a probe is right for both.

Runs in the worker only (imports triton).
"""

from __future__ import annotations

import inspect

#: Every name a lesson may list in verify.requires (kept in step with tritonlab.content.model.REQUIREMENTS).
FEATURES = ("gpu", "tensor-descriptors", "host-descriptors", "warp-specialize")


def _tensor_descriptors() -> bool:
    """Device-side descriptors: `tl.make_tensor_descriptor` plus `triton.set_allocator` for their scratch
    memory."""
    import triton
    import triton.language as tl

    return hasattr(tl, "make_tensor_descriptor") and hasattr(triton, "set_allocator")


def _host_descriptors() -> bool:
    """Host-side descriptors built in the wrapper: `triton.tools.tensor_descriptor.TensorDescriptor`."""
    try:
        from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: F401
    except ImportError:
        return False
    return True


def _warp_specialize() -> bool:
    """`tl.range(..., warp_specialize=True)`: producer and consumer warps in one loop."""
    import triton.language as tl

    try:
        return "warp_specialize" in inspect.signature(tl.range.__init__).parameters
    except (TypeError, ValueError):
        return False


def available(backend: str) -> dict[str, bool]:
    """Each feature → whether it can run here."""
    return {
        "gpu": backend == "gpu",
        "tensor-descriptors": _tensor_descriptors(),
        "host-descriptors": _host_descriptors(),
        "warp-specialize": _warp_specialize(),
    }


def missing(requires: list[str], backend: str) -> list[str]:
    """The required features this backend and Triton lack, in the lesson's order (unknown names count as
    missing: a newer lesson on an older lab must not fail, it must say what it needs)."""
    if not requires:
        return []
    have = available(backend)
    return [name for name in requires if not have.get(name, False)]
