"""Triton's interpreter refuses a mask that is not a block of booleans ("mask has unsupported dtype"): the lab
names the cause (mask-not-lanes) instead of relaying the raw error; other ValueErrors keep their own words."""

from __future__ import annotations

from tritonlab.engine.learner import classify


def raised(exc: BaseException) -> BaseException:
    try:
        raise exc
    except BaseException as caught:  # noqa: BLE001 - a traceback like a real learner error's
        return caught


def test_the_interpreters_mask_refusal_is_named():
    info = classify(raised(ValueError("mask has unsupported dtype")), __file__)
    assert info["kind"] == "runtime" and info.get("cause") == "mask-not-lanes", info
    assert "offsets < n_elements" in info["message"], info["message"]


def test_another_value_error_keeps_its_words():
    info = classify(raised(ValueError("shapes do not match")), __file__)
    assert info.get("cause") != "mask-not-lanes", info
    assert "shapes do not match" in info["message"], info["message"]
