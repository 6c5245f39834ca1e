"""The interpreter's per-launch costs the lab removed, each without changing what a kernel computes or what the
integrity watch sees (twenty-sixth session; docs/MEASUREMENTS.md):

- integer-overflow sanitizing, whose result `device_assert` throws away unless debug is on (never, on the
  interpreter): off, and int32 arithmetic still wraps as before;
- a device-function call (`tl.cdiv`, the learner's own @triton.jit helper) re-patching the language on every
  call: patched once per module per launch; and what such a call patched (tl.core) is restored when the launch
  ends, as Triton leaves it patched otherwise;
- the integrity watch's language comparison at each launch: a fast path that answers "nothing changed" only
  when the full comparison would, checked here against the full comparison on each kind of change;
- the pinned autotune's timing runs, once per dtype and pinned tile; and (beside it, same session) hooks put back through
  the setters bound at import.

The interpreter parts run in a child process: TRITON_INTERPRET=1 must be set before triton is imported."""

import pytest

from tests.interpreted import last_json, run_interpreted

KERNEL = """
import triton, triton.language as tl


@triton.jit
def twice(x):  # the learner's own device function
    return x + x


@triton.jit
def wrap_kernel(x_ptr, y_ptr, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    blocks = tl.cdiv(n, B)  # a device function of triton.language.standard (module globals: `core`)
    y = twice(x * 65536) * 65536 + blocks  # wraps in int32
    tl.store(y_ptr + offs, y, mask=mask)
"""

SCRIPT = r"""
import importlib.util, json, sys
import torch
import triton.language as tl
from triton.runtime import interpreter
from tritonlab.engine import integrity, interpreter_support

on = sys.argv[2] == "on"
if on:
    interpreter_support.prepare_interpreter()
else:
    interpreter_support.repair_scalar_index()
entries = integrity.snapshot("interpreter")
pristine = {name: getattr(tl.core, name) for name in ("load", "store", "program_id", "reduce", "range")}
spec = importlib.util.spec_from_file_location("wrap_kernel", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
x = torch.arange(-6, 7, dtype=torch.int32) * 12345
runs = []
for _ in range(2):  # a second launch: the memo of the first must not skip its patching
    y = torch.zeros_like(x)
    module.wrap_kernel[(4,)](x, y, x.numel(), B=4)
    runs.append(y.tolist())
print(json.dumps({
    "runs": runs,
    "expected": (((x.long() * 65536 * 2) * 65536 + 4 + 2**31) % 2**32 - 2**31).tolist(),
    "sanitize": interpreter.interpreter_builder.options.sanitize_overflow,
    "debug": interpreter.interpreter_builder.options.debug,
    "core_restored": all(getattr(tl.core, k) is v for k, v in pristine.items()),
    "language_changed": integrity.changed(integrity._LANGUAGE),
    "all_changed": [n for n in integrity.changed(entries) if n.startswith("triton.")],
}))
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    kernel = tmp_path_factory.mktemp("speed") / "wrap_kernel.py"
    kernel.write_text(KERNEL)
    return {mode: last_json(run_interpreted(SCRIPT, str(kernel), mode)) for mode in ("on", "off")}


def test_sanitizing_is_off_and_int32_arithmetic_still_wraps(runs):
    on, off = runs["on"], runs["off"]
    assert on["sanitize"] is False and on["debug"] is False
    assert off["sanitize"] is True  # Triton's default: the lab's change is what turned it off
    assert on["runs"][0] == on["expected"] == off["runs"][0]  # same wrap-around as with sanitizing on
    assert on["runs"][1] == on["runs"][0]


def test_device_function_calls_run_in_every_launch_and_the_language_is_restored_after(runs):
    on = runs["on"]
    assert on["runs"][1] == on["expected"]  # the helper and tl.cdiv ran patched in the second launch too
    assert on["core_restored"] is True  # tl.core as before the launches (Triton alone leaves it patched)
    assert on["language_changed"] == [] and on["all_changed"] == []
    assert runs["off"]["core_restored"] is False  # without the lab's restore: Triton's leak, still there


def _same_as_full(entries) -> tuple[list, list]:
    from tritonlab.engine import integrity

    fast = integrity.changed(entries)
    saved = integrity._unchanged
    integrity._unchanged = lambda entries: False
    try:
        full = integrity.changed(entries)
    finally:
        integrity._unchanged = saved
    return fast, full


def test_the_fast_comparison_answers_as_the_full_one_on_each_kind_of_change():
    import triton.language as tl

    from tritonlab.engine import integrity

    integrity.snapshot("gpu")
    language = integrity._LANGUAGE
    assert _same_as_full(language) == ([], [])  # nothing changed: the fast path's answer

    inner = tl.core.load.__wrapped__
    code = inner.__code__
    inner.__code__ = code.replace()  # the same text, another code object: Triton would run something else
    try:
        fast, full = _same_as_full(language)
        assert fast == full and "triton.language.core.load" in fast
    finally:
        inner.__code__ = code

    outer = tl.core.store
    wrapped = outer.__wrapped__
    outer.__wrapped__ = lambda *a, **k: None  # the chain `_codes` walks now leads elsewhere
    try:
        fast, full = _same_as_full(language)
        assert fast == full and "triton.language.core.store" in fast
    finally:
        outer.__wrapped__ = wrapped

    saved = tl.arange
    tl.arange = lambda *a, **k: None
    try:
        fast, full = _same_as_full(language)
        assert fast == full == ["triton.language.arange"]
    finally:
        tl.arange = saved

    tl.tensor.sneaky = 1
    try:
        fast, full = _same_as_full(language)
        assert fast == full == ["triton.language.core.tensor.sneaky"]
    finally:
        del tl.tensor.sneaky

    defaults = tl.core.full.__defaults__
    tl.core.full.__defaults__ = tuple(defaults or ()) + (None,)
    try:
        fast, full = _same_as_full(language)
        assert fast == full and "triton.language.core.full" in fast
    finally:
        tl.core.full.__defaults__ = defaults

    assert _same_as_full(language) == ([], [])


def test_the_autotuner_times_configs_in_one_case_per_dtype_and_pinned_tile():
    """A pinned case lets the autotuner time its configs (the pinned one and a twin; in a "largest" case the
    file's other GPU configs too: a tl.dot too small for a GPU fails there): the first case of each dtype and
    pinned tile, and a second run of that same case — not every case (each timed run cost a launch)."""
    from types import SimpleNamespace

    from tritonlab.engine.tasks import verify_runner

    verify_runner._TIMING_CASE.clear()
    loaded = SimpleNamespace(file="/tmp/learner.py")
    largest, smallest = {"autotune": "largest"}, {"autotune": "smallest"}

    def case(m, dtype, seed=0, which="largest"):
        return {
            "params": {"M": m, "N": 1, "K": 1},
            "dtype": dtype,
            "seed": seed,
            "kwargs": {"@autotune": which},
        }

    timing = verify_runner._timing_case
    try:
        assert timing(loaded, case(1, "float16"), largest) is True
        assert timing(loaded, case(17, "float16"), largest) is False
        assert timing(loaded, case(1, "float16"), largest) is True  # that case's second run
        assert timing(loaded, case(1, "float16", seed=1), largest) is False
        assert timing(loaded, case(17, "float32"), largest) is True
        assert timing(loaded, case(1, "float16", which="smallest"), smallest) is True
        assert timing(loaded, case(17, "float16", which="smallest"), smallest) is False
        assert timing(loaded, case(1, "float16"), {}) is False
        assert timing(SimpleNamespace(file="/tmp/another.py"), case(17, "float16"), largest) is True
    finally:
        verify_runner._TIMING_CASE.clear()


def test_hooks_are_put_back_through_the_setters_the_lab_bound_at_import():
    """A learner call that left a trace hook, and replaced sys.settrace, gets the hook removed by the lab's
    own setter: the replacement is never called (exercise_env._remove_hooks -> integrity.restore_hooks)."""
    import sys

    from tritonlab.engine import exercise_env, integrity

    before = integrity.hooks_now()
    called = []
    real = sys.settrace

    def tracer(frame, event, arg):
        return None

    real(tracer)
    sys.settrace = called.append  # the learner's replacement
    try:
        names = exercise_env._remove_hooks(before)
    finally:
        sys.settrace = real
        real(before[0])
    assert names == ["sys.settrace"] and called == []
    assert integrity.hooks_now() == before
