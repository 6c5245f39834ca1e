"""How a lesson-12 operator was registered (`outputs.op_registration`): the judge fails an exercise that asks
for triton_op when the operator is a custom_op or a torch.library.define (kind op-not-triton), and must not
fail a real triton_op."""

from __future__ import annotations

import pytest
import torch

from tritonlab.engine.outputs import op_registration

pytestmark = pytest.mark.skipif(not hasattr(torch.library, "triton_op"), reason="this torch has no triton_op")


def test_triton_op_custom_op_and_library_are_told_apart():
    @torch.library.triton_op("tlreg_test::by_triton_op", mutates_args=())
    def by_triton_op(x: torch.Tensor) -> torch.Tensor:
        return x.clone()

    @torch.library.custom_op("tlreg_test::by_custom_op", mutates_args=())
    def by_custom_op(x: torch.Tensor) -> torch.Tensor:
        return x.clone()

    lib = torch.library.Library("tlreg_test", "FRAGMENT")
    lib.define("by_library(Tensor x) -> Tensor")
    lib.impl("by_library", lambda x: x.clone(), "CompositeExplicitAutograd")

    assert op_registration("tlreg_test::by_triton_op") == "triton_op"
    assert op_registration("tlreg_test::by_custom_op") == "custom_op"
    assert op_registration("tlreg_test::by_library") == "library"
    assert op_registration("tlreg_test::never_defined") is None
    x = torch.ones(3)
    assert torch.equal(torch.ops.tlreg_test.by_library(x), x)  # the library op is real and runs
