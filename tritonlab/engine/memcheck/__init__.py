"""Memory safety for learner kernels: interpreter bounds checks, launch tracking, poison, guard zones.

Only the worker process imports this package. Triton is imported lazily, so poison and guard helpers work
(and are testable) without it.

On the interpreter every masked-in lane of every load and store is checked against the tensors handed to
the kernel *before* the access happens: the stock interpreter dereferences raw addresses, and one bad
store corrupts the worker's heap (abort, segfault or hang). On a GPU there is no such hook, so tensors live
inside poisoned guard zones and a changed guard after the run is reported instead.

One module per concern: `report` (the out-of-bounds report), `hooks` (patching helpers), `launches` (launch
recording), `bounds` (interpreter checks), `guards` (poison, guard zones, poisoned allocations). Everything
the rest of the engine used from the old single module is importable from here unchanged.
"""

from __future__ import annotations

from .bounds import InterpreterMemcheck, MemcheckStats, padding_left_zero
from .guards import (
    FAR_ROW_STRIDE,
    GuardedAllocation,
    GuardedAllocator,
    is_poison,
    poison_,
    poison_bits,
    poison_value,
    poisoned_allocations,
)
from .hooks import _kernel_file, _kernel_name
from .launches import (
    _arg_names,
    _compiled_fn,
    _compiled_launch,
    _record_launch,
    hold_forward_tensors,
    launch_only,
    phase,
    tensor_of,
    track_launches,
    unrecorded,
)
from .report import OutOfBounds, WaitsForever, find_oob, find_waits_forever

__all__ = [
    "FAR_ROW_STRIDE",
    "GuardedAllocation",
    "GuardedAllocator",
    "InterpreterMemcheck",
    "MemcheckStats",
    "OutOfBounds",
    "WaitsForever",
    "find_oob",
    "find_waits_forever",
    "hold_forward_tensors",
    "is_poison",
    "launch_only",
    "poison_",
    "poison_bits",
    "poison_value",
    "phase",
    "poisoned_allocations",
    "padding_left_zero",
    "tensor_of",
    "track_launches",
    "unrecorded",
]
# private helpers other engine modules and tests reach through the package (the runner's provenance watch uses
# _kernel_file, _kernel_name, _arg_names and _compiled_fn)
_private = (_compiled_launch, _record_launch, _kernel_file, _kernel_name, _arg_names, _compiled_fn)
