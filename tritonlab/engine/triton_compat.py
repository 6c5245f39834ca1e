"""The same verdict on every Triton the lab supports.

Triton 3.9 refuses an `@triton.autotune(key=[...])` (or `reset_to_zero=`, `restore_value=`) that names
something that is not a kernel argument; Triton 3.6 drops the name in silence, so a typo'd key tunes once and
never again (and `reset_to_zero` resets nothing). The GPU box has 3.6 and CI the newest Triton: without this,
the same learner file failed on one and passed on the other (tenth session, probe round 4 on the H200's
interpreter). Older Tritons get the newer check, with the newer message, raised from the learner's decorator.
"""

from __future__ import annotations

_installed = False


def check_autotune_names() -> bool:
    """Wrap Autotuner.__init__ once: unknown argument names raise as on Triton 3.9. True if in place."""
    global _installed
    if _installed:
        return True
    try:
        from triton.runtime.autotuner import Autotuner
    except Exception:  # noqa: BLE001 - no triton: nothing to align
        return False
    original = Autotuner.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        problem = unknown_names(self)
        if problem is not None:
            raise ValueError(problem)

    init.__wrapped__ = original  # type: ignore[attr-defined]
    Autotuner.__init__ = init  # type: ignore[method-assign]
    _installed = True
    return True


def unknown_names(tuner) -> str | None:
    """Triton 3.9's message when the tuner's key, reset_to_zero or restore_value names a non-argument."""
    arg_names = list(getattr(tuner, "arg_names", None) or [])
    if not arg_names:
        return None
    for param in ("keys", "reset_to_zero", "restore_value"):
        names = list(getattr(tuner, param, None) or [])
        unknown = [name for name in names if isinstance(name, str) and name not in arg_names]
        if unknown:
            label = "key" if param == "keys" else param
            return (
                f"{label} contains names that are not kernel arguments: {', '.join(unknown)}. "
                f"Valid argument names are: {', '.join(arg_names)}."
            )
    return None
