"""register_autograd on an operator whose mutates_args names an input it only reads: torch refuses ("Cannot
register autograd formula for non-functional operator"); the lab says so in the learner's words (cause
`op-not-functional`), naming the mutates_args line. Both ways: a functional operator (mutates_args={}) imports,
and another RuntimeError at register_autograd keeps torch's words."""

import itertools
import textwrap
from pathlib import Path

import pytest

from tritonlab.engine.learner import LearnerError, classify, load_module
from tritonlab.present.diagnoses import describe

_COUNT = itertools.count()

SOURCE = textwrap.dedent("""
    import torch
    from torch.library import custom_op


    @custom_op("NAMESPACE::fwd", mutates_args=MUTATES)
    def fwd(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        return x * weight


    def _setup(ctx, inputs, output):
        ctx.save_for_backward(inputs[1])


    def _backward(ctx, dy):
        (weight,) = ctx.saved_tensors
        return dy * weight, None


    fwd.register_autograd(_backward, setup_context=_setup)
""")


def _file(tmp_path, mutates: str) -> str:
    namespace = f"tritonlab_test_nf{next(_COUNT)}"
    path = tmp_path / f"{namespace}.py"
    path.write_text(SOURCE.replace("NAMESPACE", namespace).replace("MUTATES", mutates), encoding="utf-8")
    return str(path)


def test_mutates_args_on_an_input_it_reads_is_said_with_its_line(tmp_path):
    path = _file(tmp_path, '{"x"}')
    with pytest.raises(LearnerError) as caught:
        load_module(path)
    info = caught.value.info
    assert info["kind"] == "runtime" and info["cause"] == "op-not-functional", info
    assert info["args"] == ["x"] and info["declared"] == '{"x"}', info
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    assert "mutates_args" in lines[info["mutates_line"] - 1], info
    assert "register_autograd" in lines[info["line"] - 1], info
    assert "non-functional operator" in info["message"] and "mutates_args={}" in info["message"]
    en, ja = describe(info, "en"), describe(info, "ja")
    assert f"line {info['mutates_line']}" in en and 'mutates_args={"x"}' in en and "mutates_args={}" in en, en
    assert f"{info['mutates_line']} 行目" in ja and "mutates_args={}" in ja and "Cannot register" not in ja, (
        ja
    )


def test_a_functional_operator_imports(tmp_path):
    module = load_module(_file(tmp_path, "{}"))
    assert hasattr(module, "fwd")


def test_another_error_at_register_autograd_keeps_torchs_words(tmp_path):
    path = str(tmp_path / "learner.py")
    code = compile(
        "def register():\n    raise RuntimeError('Cannot register autograd formula for this')\n", path, "exec"
    )
    scope: dict = {}
    exec(code, scope)
    try:
        scope["register"]()
    except RuntimeError as exc:
        info = classify(exc, path)
    assert info.get("cause") != "op-not-functional" and "Cannot register" in describe(info, "en"), info
