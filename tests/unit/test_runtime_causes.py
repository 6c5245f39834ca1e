"""Runtime errors the lab words with their cause: a str handed to a kernel parameter that is not tl.constexpr
(refused on the GPU by Triton, by the lab on the interpreter), and tile numbers given as a tensor descriptor's
coordinates (the interpreter's 16-byte alignment assertion)."""

from types import SimpleNamespace

import pytest

from tritonlab.engine.learner import classify
from tritonlab.engine.tasks.verify_runner import StrArgument, _constexpr_names, _refuse_str_arguments
from tritonlab.present.diagnoses import describe


def test_the_interpreters_grid_executor_and_a_jit_function_both_name_their_constexprs():
    executor = SimpleNamespace(constexprs=["BLOCK", "ACTIVATION"])
    assert _constexpr_names(executor) == {"BLOCK", "ACTIVATION"}
    jit = SimpleNamespace(
        constexprs=[2],  # a JITFunction lists indices: read its params instead
        params=[
            SimpleNamespace(name="x_ptr", is_constexpr=False),
            SimpleNamespace(name="B", is_constexpr=True),
        ],
    )
    assert _constexpr_names(jit) == {"B"}
    assert _constexpr_names(SimpleNamespace()) is None


def test_a_str_for_a_runtime_parameter_is_refused_and_one_for_a_constexpr_is_not():
    executor = SimpleNamespace(constexprs=["ACTIVATION"])
    _refuse_str_arguments(executor, [("x_ptr", object()), ("ACTIVATION", "relu"), ("n", 3)])  # no raise
    with pytest.raises(StrArgument) as caught:
        _refuse_str_arguments(SimpleNamespace(constexprs=[]), [("ACTIVATION", "relu")])
    assert caught.value.param == "ACTIVATION" and "failed to specialize argument of type: str" in str(
        caught.value
    )
    _refuse_str_arguments(SimpleNamespace(), [("ACTIVATION", "relu")])  # nothing known: leave it to Triton


def _raised(exc: BaseException, path: str) -> BaseException:
    code = compile("def launch():\n    raise EXC\n", path, "exec")
    scope = {"EXC": exc}
    exec(code, scope)
    try:
        scope["launch"]()
    except BaseException as raised:  # noqa: BLE001 - the test raises it on purpose
        return raised
    raise AssertionError("launch() did not raise")


def test_the_gpus_own_error_and_the_labs_are_both_said_with_the_fix(tmp_path):
    path = str(tmp_path / "learner.py")
    gpu = classify(_raised(TypeError("failed to specialize argument of type: str"), path), path)
    assert gpu["kind"] == "runtime" and gpu["cause"] == "str-argument" and gpu["line"] == 2, gpu
    assert "tl.constexpr" in describe(gpu, "en") and "tl.constexpr" in describe(gpu, "ja")
    lab = classify(_raised(StrArgument("ACTIVATION", "relu"), path), path)
    assert lab["param"] == "ACTIVATION" and lab["value"] == "relu", lab
    assert "declare ACTIVATION: tl.constexpr" in describe(lab, "en")
    assert "ACTIVATION: tl.constexpr と宣言" in describe(lab, "ja")
    other = classify(_raised(TypeError("unsupported operand type(s)"), path), path)
    assert other.get("cause") != "str-argument"


def test_a_misaligned_descriptor_coordinate_names_the_call_and_element_offsets(tmp_path):
    path = tmp_path / "learner.py"
    path.write_text("def launch():\n    b = b_desc.load([ki, pid_n])\n")
    code = compile("def launch():\n    raise EXC\n", str(path), "exec")
    scope = {"EXC": AssertionError("block offset start must be 16-byte aligned")}
    exec(code, scope)
    try:
        scope["launch"]()
    except AssertionError as raised:
        info = classify(raised, str(path))
    assert info["cause"] == "descriptor-offset" and info["call"] == "b = b_desc.load([ki, pid_n])", info
    assert "not tile numbers" in describe(info, "en") and "タイルの番号ではなく" in describe(info, "ja")
    other = classify(_raised(AssertionError("something else"), str(path)), str(path))
    assert other.get("cause") != "descriptor-offset"


def test_a_float_grid_is_named_only_at_a_launch(tmp_path):
    path = tmp_path / "learner.py"
    path.write_text("def launch():\n    kernel[grid](out, n, BLOCK_SIZE=16)\n")
    code = compile("def launch():\n    raise EXC\n", str(path), "exec")
    exc = TypeError("'float' object cannot be interpreted as an integer")
    scope = {"EXC": exc}
    exec(code, scope)
    try:
        scope["launch"]()
    except TypeError as raised:
        info = classify(raised, str(path))
    assert info["cause"] == "grid-float" and info["line"] == 2, info
    assert "triton.cdiv" in describe(info, "en") and "triton.cdiv" in describe(info, "ja")
    elsewhere = str(tmp_path / "other.py")  # the same error off a launch line (range(n / 2)): not the grid
    assert classify(_raised(exc, elsewhere), elsewhere).get("cause") != "grid-float"


def test_a_config_missing_a_kernel_parameter_is_named_only_inside_the_autotuner(tmp_path):
    path = str(tmp_path / "learner.py")
    exc = TypeError("matmul_kernel() missing 1 required positional argument: 'GROUP_M'")
    plain = classify(_raised(exc, path), path)  # raised by the learner's own call: no autotuner frame
    assert plain.get("cause") != "config-missing-param", plain
    tuner = str(tmp_path / "triton" / "runtime" / "autotuner.py")
    inside = classify(_raised(exc, tuner), path)
    assert inside["cause"] == "config-missing-param" and inside["names"] == ["GROUP_M"], inside
    assert "triton.Config" in describe(inside, "en") and "GROUP_M" in describe(inside, "ja")


def test_out_of_resources_says_what_the_kernel_needs_and_what_the_gpu_gives(tmp_path):
    """Triton's OutOfResources at the launch line: the lab names the bytes, the limit and the two ways out."""
    from triton.runtime.errors import OutOfResources

    path = str(tmp_path / "learner.py")
    smem = classify(_raised(OutOfResources(294912, 232448, "shared memory"), path), path)
    assert smem["kind"] == "runtime" and smem["cause"] == "out-of-resources" and smem["line"] == 2, smem
    assert (smem["resource"], smem["required"], smem["limit"]) == ("shared memory", 294912, 232448)
    en, ja = describe(smem, "en"), describe(smem, "ja")
    assert "294,912 bytes of shared memory" in en and "232,448" in en and "num_stages" in en
    assert "294,912 バイトの共有メモリ" in ja and "232,448" in ja and "段数を減らす" in ja
    threads = classify(_raised(OutOfResources(2048, 1024, "threads"), path), path)
    assert "2,048 threads" in describe(threads, "en") and "ワープ数を減らして" in describe(threads, "ja")
    other = classify(
        _raised(RuntimeError("out of resource: shared memory"), path), path
    )  # not Triton's class
    assert other.get("cause") != "out-of-resources", other
    odd = dict(smem, required=None)  # facts without numbers still get a sentence, with Triton's words
    assert "294912" in describe(odd, "en") and "この GPU" in describe(odd, "ja")
