"""The runner's integrity watch over the libraries its checks use (torch, numpy, builtins, torch.Tensor):
what a learner's file rewrites is named; what torch does to itself is not."""

from __future__ import annotations

import functools

import torch

from tritonlab.engine import integrity


def test_replaced_torch_function_and_added_tensor_method_are_named():
    entries = integrity.snapshot("gpu")
    saved = torch.save
    try:
        torch.save = lambda *a, **k: None
        torch.Tensor.__ne__ = lambda a, b: torch.zeros_like(a, dtype=torch.bool)
        found = integrity.changed(entries)
    finally:
        torch.save = saved
        del torch.Tensor.__ne__
    assert "torch.save" in found and "torch.Tensor.__ne__" in found, found
    assert integrity.changed(entries) == []  # put back: nothing left to name


def test_a_learner_wrapper_with_functools_wraps_is_still_a_change():
    entries = integrity.snapshot("gpu")
    saved = torch.equal

    @functools.wraps(saved)
    def always(*args, **kwargs):
        return True

    try:
        torch.equal = always
        assert integrity.changed(entries) == ["torch.equal"]
    finally:
        torch.equal = saved


def test_torch_compiles_own_rewrites_are_not_a_change():
    """Importing Dynamo (what torch.compile does first) rewrites torch.manual_seed with a wrapper of the old
    one; a compile and a backward pass change nothing else the watch sees."""
    entries = integrity.snapshot("gpu")
    compiled = torch.compile(lambda x: torch.sin(x) * 2, backend="eager", fullgraph=True)
    assert torch.equal(compiled(torch.ones(4)), torch.sin(torch.ones(4)) * 2)
    x = torch.ones(3, requires_grad=True)
    (x * 2).sum().backward()
    assert integrity.changed(entries) == []
