"""Probe round 14's ways past the integrity watch, each closed by a rule tested here on both sides (the fake is
named, the honest neighbour is not): Triton's language replaced (`tl.store = mine`) or its code rewritten; the
interpreter's own per-launch stand-ins, which a device-function call (`tl.sum`) leaves on `tl.core`; a trace or
profile hook present at a launch; a torch mode left on the stack (by the import or by a call); a perturbed second
run that launched nothing (a memoised wrapper); the judge's tensors taken with every mode off."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
import triton.language as tl
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from tests.interpreted import last_json, run_interpreted
from tritonlab.engine import exercise_env, integrity
from tritonlab.engine.tasks import verify_runner
from tritonlab.present.diagnoses import describe

ASCII_WORDS = re.compile(r"[A-Za-z]{2,}(?:[ \t]+[A-Za-z]{2,}){2,}")


# --- Triton's language in the snapshot -----------------------------------------------------------------------


def test_a_replaced_language_function_is_named_and_put_back_is_not():
    entries = integrity.snapshot("interpreter")
    real = tl.store

    def mine(pointer, value, mask=None, **options):
        return real(pointer, value, mask=mask, **options)

    mine.__triton_builtin__ = True  # type: ignore[attr-defined]
    try:
        tl.store = mine
        assert integrity.changed(entries) == ["triton.language.store"]
    finally:
        tl.store = real
    assert integrity.changed(entries) == []


def test_a_tensor_method_replaced_and_the_code_of_a_wrapped_builtin_rewritten_are_named():
    entries = integrity.snapshot("gpu")
    method = tl.tensor.__dict__["__add__"]
    inner = tl.core.store.__wrapped__
    code = inner.__code__

    def other(*args, **kwargs):
        return None

    try:
        tl.tensor.__add__ = lambda self, other: self
        inner.__code__ = other.__code__
        found = integrity.changed(entries)
    finally:
        tl.tensor.__add__ = method
        inner.__code__ = code
    assert "triton.language.core.tensor.__add__" in found, found
    assert "triton.language.store" in found and "triton.language.core.store" in found, found
    assert integrity.changed(entries) == []


def test_the_interpreters_own_stand_ins_are_no_change_and_one_that_calls_another_function_is():
    """`InterpretedFunction.__call__` (a device-function call such as `tl.sum`) patches `tl.core` and never
    restores it: its stand-ins (`range`, `multiple_of`, `reduce`, the builtins' lambdas, `tl.tensor.T`) stay
    after a launch. They are the interpreter's; the same lambda made around another function is not."""
    from triton.runtime import interpreter

    entries = integrity.snapshot("interpreter")
    scope = interpreter._LangPatchScope()
    try:
        interpreter._patch_builtin(tl.core, interpreter.interpreter_builder, scope)
        interpreter._patch_builtin(tl.core.tensor, interpreter.interpreter_builder, scope)
        interpreter._patch_lang_tensor(tl.core.tensor, scope)
        interpreter._patch_lang_core(tl.core, scope)
        assert tl.core.range is not entries["triton.language.core.range"][2]  # really patched
        assert integrity.changed(entries) == []

        def evil(*args, **kwargs):
            return None

        interpreter._patch_attr(tl.core, "load", evil, interpreter.interpreter_builder, scope)
        assert integrity.changed(entries) == ["triton.language.core.load"]
        scope.set_attr(tl.core, "load", interpreter._patch_lang_core)  # the interpreter's, but no stand-in
        assert integrity.changed(entries) == ["triton.language.core.load"]
    finally:
        scope.restore()
    assert integrity.changed(entries) == []


# --- at each launch, on the interpreter (a child process: TRITON_INTERPRET=1 before triton is imported) ------

LAUNCHES = r"""
import json, sys
import torch, triton, triton.language as tl
from tritonlab.engine import integrity, interpreter_support

interpreter_support.prepare_interpreter()
entries = integrity.snapshot("interpreter")


@triton.jit
def double(x):
    return x * 2


@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += double(tl.load(x_ptr + cols, mask=cols < n, other=0.0))
    tl.store(out_ptr + tl.program_id(0), tl.sum(acc, axis=0) + tl.max(acc, axis=0) * 0)


x = torch.arange(10, dtype=torch.float32)
out = torch.empty(1)
seen = {}
with integrity.launch_watch(integrity.hooks_now()):
    kernel[(1,)](x, out, 10, BLOCK=4)  # tl.sum, a helper, tl.range: the interpreter's stand-ins only
    kernel[(1,)](x, out, 10, BLOCK=4)
    seen["honest"] = integrity.take_seen_at_launch()
    sys.settrace(lambda frame, event, arg: None)
    try:
        kernel[(1,)](x, out, 10, BLOCK=4)
    finally:
        sys.settrace(None)
    seen["trace"] = integrity.take_seen_at_launch()
    real = {"store": tl.store}  # not a module global: the lab's alias repair would point it at ours

    def store(pointer, value, mask=None, **options):
        return real["store"](pointer, value, mask=mask, **options)

    store.__triton_builtin__ = True
    tl.store = store
    try:
        kernel[(1,)](x, out, 10, BLOCK=4)
    finally:
        tl.store = real["store"]
    seen["store"] = integrity.take_seen_at_launch()
print(json.dumps(dict(seen, out=out.item(), after=integrity.changed(entries))))
"""


def test_a_hook_or_a_replaced_builtin_at_a_launch_is_seen_and_an_honest_kernel_is_not():
    found = last_json(run_interpreted(LAUNCHES))
    assert found["honest"] == [], found
    assert found["trace"] == ["sys.settrace"], found
    assert found["store"] == ["triton.language.store"], found
    assert found["after"] == [] and found["out"] == 90.0, found  # put back before the call returned


def test_a_hook_that_was_there_before_the_call_is_not_seen(monkeypatch):
    def tracer(frame, event, arg):
        return None

    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        hooks = integrity.hooks_now()
        integrity.take_seen_at_launch()
        integrity.check_launch(hooks)
        assert integrity.take_seen_at_launch() == []
        sys.setprofile(tracer)
        integrity.check_launch(hooks)
        sys.setprofile(None)
        assert integrity.take_seen_at_launch() == ["sys.setprofile"]
    finally:
        sys.settrace(before)


# --- torch modes left on the stack ---------------------------------------------------------------------------


class _Swap(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") == "detach":
            return torch.full_like(args[0], 7.0)
        return func(*args, **(kwargs or {}))


class _Watch(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def test_modes_and_hooks_left_are_named_and_removed_a_default_device_is_not():
    before = exercise_env.environment()
    _Swap().__enter__()
    _Watch().__enter__()
    sys.setprofile(lambda frame, event, arg: None)
    left = exercise_env.restore_environment(before)
    assert left == ["sys.setprofile", "TorchFunctionMode _Swap", "TorchDispatchMode _Watch"], left
    assert exercise_env.environment() == before
    torch.set_default_device("cpu")  # a DeviceContext: where factories allocate, not a hook
    try:
        assert exercise_env.restore_environment(before) == []
    finally:
        torch.set_default_device(None)
    assert exercise_env.environment() == before


def _loaded(wrapper) -> exercise_env.Loaded:
    return exercise_env.Loaded(
        exercise=SimpleNamespace(),
        file=__file__,
        module=sys.modules[__name__],
        wrapper=wrapper,
        device=torch.device("cpu"),
    )


def test_a_call_that_leaves_a_mode_is_named_one_that_leaves_its_modes_is_not():
    exercise_env.take_hooks_left()

    def tidy(x):
        with torch.no_grad(), _Swap(), torch.device("cpu"):
            return torch.zeros_like(x) + x

    def leaves(x):
        _Swap().__enter__()
        return x + 1

    x = torch.ones(3)
    assert torch.equal(exercise_env.LearnerCall(_loaded(tidy), "gpu")(x), x)
    assert exercise_env.take_hooks_left() == []
    got = exercise_env.LearnerCall(_loaded(leaves), "gpu")(x)
    assert exercise_env.take_hooks_left() == ["TorchFunctionMode _Swap"]
    assert torch._C._len_torch_function_stack() == 0
    assert torch.equal(got.detach(), x + 1)  # the mode is gone: the lab's detach is torch's


def test_the_judges_tensors_are_taken_with_every_mode_off():
    t = torch.arange(4, dtype=torch.float32)
    with _Swap():
        assert torch.equal(t.detach(), torch.full_like(t, 7.0))  # what the mode does to anyone's detach
        assert torch.equal(verify_runner._compact(t), torch.arange(4, dtype=torch.float32))
        assert torch.equal(verify_runner._plain_tensors((t,))["0"], torch.arange(4, dtype=torch.float32))
        assert verify_runner._same(t, torch.arange(4, dtype=torch.float32))


def test_the_payload_saved_for_the_judge_is_torchs_own(tmp_path: Path):
    t = torch.arange(4, dtype=torch.float32)
    facts: dict = {}
    with _Swap():
        verify_runner._save({"out": t}, str(tmp_path / "out.pt"), facts)
    assert torch.equal(torch.load(tmp_path / "out.pt")["out"], torch.arange(4, dtype=torch.float32))


# --- a second run that launched nothing is no evidence -----------------------------------------------------


def _launch(kernel: str, *tensors: torch.Tensor, file: str = "/w/learner.py") -> dict:
    return {"kernel": kernel, "file": file, "ptrs": [t.data_ptr() for t in tensors]}


def test_a_second_run_without_the_first_runs_kernels_is_no_evidence():
    a, b = torch.ones(4), torch.ones(4)
    first = [_launch("checked_store", a, b)]
    file = "/w/learner.py"
    assert verify_runner._not_the_same_work(first, [], [a], [b], file)  # memoised: nothing launched
    assert verify_runner._not_the_same_work(first, [_launch("other", b)], [a], [b], file)
    # the kernel ran again, but not with the output it returns: handed back from a cache
    assert verify_runner._not_the_same_work(first, [_launch("checked_store", torch.ones(4))], [a], [b], file)
    # the same kernel wrote the second run's own output (an autotuned or lru_cache'd config choice too)
    assert not verify_runner._not_the_same_work(first + first, [_launch("checked_store", b)], [a], [b], file)
    # a lab kernel or one of another file does not count; a first run with no kernel of theirs has none to miss
    assert not verify_runner._not_the_same_work([_launch("k", a, file="/lab.py")], [], [a], [b], file)


# --- the words ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "names, at, what, text",
    [
        (["sys.settrace"], "launch", "hook", "while a kernel of the learner ran"),
        (["TorchFunctionMode _Finish"], "import", "hook", "when it was imported"),
        (["triton.language.store"], "return", "library", "Triton's language functions"),
        (["sys.setprofile"], "return", "hook", "left a hook installed"),
        (["torch.save"], "return", "library", "functions the lab's checks use"),
    ],
)
def test_the_tampered_error_says_what_and_when(names, at, what, text):
    error = verify_runner._tampered(names, at=at)
    assert error["kind"] == "tampered" and error["what"] == what and error["changed"] == names, error
    assert text in error["message"], error["message"]
    assert error.get("at") == (at if what == "hook" else None)


@pytest.mark.parametrize(
    "facts, en",
    [
        ({"changed": ["sys.settrace"], "what": "hook", "at": "launch"}, "while your kernel ran"),
        ({"changed": ["TorchFunctionMode _Finish"], "what": "hook", "at": "import"}, "when it was imported"),
        ({"changed": ["TorchDispatchMode _W"], "what": "hook", "at": "return"}, "when it returned"),
        ({"changed": ["sys.settrace"], "what": "hook", "at": "import"}, "installed when it was imported"),
        ({"changed": ["triton.language.store"], "what": "library"}, "functions of Triton's language"),
        ({"changed": ["sys.setprofile"], "what": "hook", "at": "return"}, "when it returned"),
    ],
)
def test_each_tampering_is_worded_in_both_languages(facts, en):
    facts = dict(facts, kind="tampered")
    english, japanese = describe(facts, "en"), describe(facts, "ja")
    assert en in english and facts["changed"][0] in english, english
    assert facts["changed"][0] in japanese and re.search(r"[ぁ-んァ-ン一-龥]", japanese), japanese
    assert not ASCII_WORDS.search(japanese.replace(facts["changed"][0], "")), japanese
