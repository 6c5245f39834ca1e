"""Older Tritons refuse a misnamed autotune key the way Triton 3.9 does (the lab's compat wrapper)."""

from types import SimpleNamespace

import pytest

from tritonlab.engine.learner import LearnerError, load_module
from tritonlab.engine.triton_compat import check_autotune_names, unknown_names


def tuner(**names):
    base = {"arg_names": ["x_ptr", "M", "N", "K"], "keys": ["M"], "reset_to_zero": [], "restore_value": []}
    base.update(names)
    return SimpleNamespace(**base)


def test_a_key_naming_a_non_argument_is_named_with_the_valid_ones():
    message = unknown_names(tuner(keys=["M", "N", "K_dim"]))
    assert message is not None and message.startswith("key contains") and "K_dim" in message
    assert "Valid argument names are: x_ptr, M, N, K." in message


def test_reset_to_zero_and_restore_value_are_checked_too():
    assert "reset_to_zero contains names that are not kernel arguments: y_ptr." in (
        unknown_names(tuner(reset_to_zero=["y_ptr"])) or ""
    )
    assert (unknown_names(tuner(restore_value=["out"])) or "").startswith("restore_value contains")


def test_names_that_are_all_arguments_pass():
    assert (
        unknown_names(tuner(keys=["M", "N", "K"], reset_to_zero=["x_ptr"], restore_value=["x_ptr"])) is None
    )
    assert unknown_names(SimpleNamespace(keys=["anything"])) is None  # no arg_names known: nothing to say


KERNEL = """
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 16})], key={key})
@triton.jit
def kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass
"""


def test_loading_a_file_with_a_misnamed_key_stops_at_the_decorator(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(KERNEL.replace("{key}", '["n_elements"]'))
    with pytest.raises(LearnerError) as caught:
        load_module(path)
    info = caught.value.info
    assert info["kind"] == "runtime" and "n_elements" in info["message"], info
    assert "@triton.autotune(" in path.read_text().splitlines()[info["line"] - 1], info
    assert check_autotune_names()  # load_module installed it (a second call finds it in place)


def test_loading_a_file_with_a_right_key_works(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(KERNEL.replace("{key}", '["n"]'))
    module = load_module(path)
    assert module.kernel.keys == ["n"]
