"""engine/inputs.py: seeded values drawn on the target device, the same on every run; bench's init override."""

from types import SimpleNamespace

import torch

from tritonlab.content.model import InputSpec
from tritonlab.engine import inputs as inputs_mod
from tritonlab.engine.inputs import make_inputs


class _PlainAllocator:
    """Stands in for memcheck.GuardedAllocator: a plain tensor of the asked shape on the device."""

    def __init__(self, device):
        self.device = device

    def empty(self, shape, dtype, layout="contiguous", name=None):
        return torch.empty(shape, dtype=dtype, device=self.device)


def _exercise(*specs):
    return SimpleNamespace(inputs=list(specs))


def _make(exercise, seed=0, override=None, dtype="float32"):
    device = torch.device("cpu")
    return make_inputs(
        exercise, {"n": 1000}, dtype, seed, device, allocator=_PlainAllocator(device), override=override
    )


def test_same_seed_same_values_and_other_seed_or_name_differs():
    ex = _exercise(InputSpec("x", shape=["n"]), InputSpec("y", shape=["n"]))
    first, again, other = _make(ex), _make(ex), _make(ex, seed=1)
    assert torch.equal(first["x"], again["x"])  # false-fail guard: same seed, same values
    assert not torch.equal(first["x"], other["x"])  # false-pass guard: a new seed is new data
    assert not torch.equal(first["x"], first["y"])  # each input has its own stream


def test_values_are_drawn_on_the_target_device(monkeypatch):
    seen = []
    real = inputs_mod._generator

    def spy(device, seed, name):
        seen.append(torch.device(device).type)
        return real(device, seed, name)

    monkeypatch.setattr(inputs_mod, "_generator", spy)
    _make(_exercise(InputSpec("x", shape=["n"])))
    assert seen == ["cpu"]


def test_init_override_replaces_the_adversarial_distribution():
    ex = _exercise(InputSpec("x", shape=["n"], init="randint", init_args=(-100, 100)))
    verify_data = _make(ex)["x"]
    bench_data = _make(ex, override={"x": {"init": ("randn", ()), "scale": 1.0}})["x"]
    assert torch.equal(verify_data, verify_data.round()) and verify_data.abs().max() >= 50
    assert not torch.equal(bench_data, bench_data.round())  # real-valued, not integers
    assert bench_data.abs().max() < 10 and 0.8 < bench_data.std() < 1.2


def test_fp16_and_integer_rounding():
    ex = _exercise(InputSpec("x", shape=["n"], init="large", scale=10.0))
    half = _make(ex, dtype="float16")["x"]
    assert half.dtype == torch.float16 and torch.isfinite(half).all()
    ints = _make(_exercise(InputSpec("x", shape=["n"], scale=100.0, dtype="int8")))["x"]
    assert ints.dtype == torch.int8 and int(ints.max()) == 127 and int(ints.min()) == -128
