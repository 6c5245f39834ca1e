"""The interpreter's stand-ins for a GPU compile's rules against the real thing: the global rule
(interpreter_support.GlobalNotConstexpr, tests/integration/test_global_rule.py) and the code generator's node types
(interpreter_support.UnsupportedConstruct, tests/integration/test_unsupported_construct.py) and its loop rule
(interpreter_support.LoopCarriedType, tests/integration/test_loop_carried_type.py). Each file is compiled
for sm_90 by this Triton (no GPU needed: triton.compile with a GPUTarget, in a process without TRITON_INTERPRET).
What the interpreter accepts must compile; what it refuses must not, for the reason the lab names. Passed with
Triton 3.9.0 (CI's) and 3.6.0 (the GPU box's, in a CPU venv: `pip install triton==3.6.0 torch==2.13.0
numpy==2.3.5`), twenty-seventh session."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration import test_global_rule as globals_rule
from tests.integration import test_loop_carried_type as loops
from tests.integration import test_unsupported_construct as constructs

ACCEPTED = {
    **globals_rule.ACCEPTED,
    **{f"construct_{k}": v for k, v in constructs.ACCEPTED.items()},
    **{f"loop_{k}": v for k, v in loops.ACCEPTED.items()},
}
REFUSED = globals_rule.REFUSED
CONSTRUCTS = {f"construct_{k}": v for k, v in constructs.REFUSED.items()}
LOOPS = {f"loop_{k}": v for k, v in loops.REFUSED.items()}

ROOT = Path(__file__).resolve().parents[2]

COMPILE = r"""
import importlib.util, inspect, json, sys
import triton
from tritonlab.engine.learner import classify
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

out, facts = {}, {}
for path in sys.argv[1:]:
    spec = importlib.util.spec_from_file_location(path.rsplit("/", 1)[-1][:-3], path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as the lab loads a learner's file
    spec.loader.exec_module(module)
    signature = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
    constexprs = {"BLOCK": 256}
    for param in inspect.signature(module.add_kernel.fn).parameters.values():
        if param.name not in signature:  # a further tl.constexpr (EARLY=False): its default, as the wrapper
            signature[param.name], constexprs[param.name] = "constexpr", param.default
    try:
        triton.compile(
            ASTSource(fn=module.add_kernel, signature=signature, constexprs=constexprs),
            target=GPUTarget("cuda", 90, 32),
        )
        out[path] = None
    except Exception as exc:  # the whole chain: a device function's error is the cause of the call's
        said = classify(exc, path)  # what the lab says of it on a GPU
        facts[path] = {
            k: said.get(k)
            for k in (
                "kind", "cause", "name", "plain_function", "value", "annotated", "construct", "line", "via",
                "loop_line", "before", "after", "before_shape", "after_shape",
            )
        }
        chain = []
        while exc is not None:
            chain.append(f"{type(exc).__name__}: {exc}")
            exc = exc.__cause__ or exc.__context__
        out[path] = " <- ".join(chain)
print(json.dumps({"errors": out, "facts": facts}))
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    folder = tmp_path_factory.mktemp("global_rule")
    paths = {}
    files = [
        *ACCEPTED.items(),
        *((n, v[0]) for n, v in REFUSED.items()),
        *((n, v[0]) for n, v in CONSTRUCTS.items()),
        *((n, v[0]) for n, v in LOOPS.items()),
    ]
    for name, text in files:
        path = folder / f"g_{name}.py"
        path.write_text(text)
        paths[name] = str(path)
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    run = subprocess.run(
        [sys.executable, "-c", COMPILE, *paths.values()],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    if run.returncode != 0 or not run.stdout.strip():
        pytest.skip(f"this Triton cannot compile for sm_90 here: {run.stderr[-400:]}")
    got = json.loads(run.stdout.strip().splitlines()[-1])
    return {name: (got["errors"][path], got["facts"].get(path)) for name, path in paths.items()}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_what_the_interpreter_accepts_compiles_for_a_gpu(compiled, name):
    assert compiled[name][0] is None, compiled[name]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_the_interpreter_refuses_does_not_compile(compiled, name):
    _, global_name, plain, value = REFUSED[name]
    error, said = compiled[name]
    assert error is not None, "the GPU compile accepted what the interpreter refuses"
    assert (
        f"Cannot access global variable {global_name}" in error
        or f"Unsupported function referenced: <function {global_name} " in error
    ), error
    # and the lab says the GPU's refusal as it says the interpreter's (the same cause and facts)
    said = {
        k: v
        for k, v in said.items()
        if k in ("kind", "cause", "name", "plain_function", "value", "annotated")
    }
    assert said == {
        "kind": "compile",
        "cause": "global-not-constexpr",
        "name": global_name,
        "plain_function": plain,
        "value": value,
        "annotated": name == "annotated_global",
    }, said


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
def test_what_the_interpreter_refuses_as_a_construct_does_not_compile(compiled, name):
    text, construct, line_text = CONSTRUCTS[name]
    error, said = compiled[name]
    assert error is not None, "the GPU compile accepted what the interpreter refuses"
    if construct == "ReturnInLoop":
        assert "Cannot have `return` statements inside `while` or `for`" in error, error
    else:
        assert f"unsupported AST node type: {construct}" in error, error
    assert (said["kind"], said["cause"], said["construct"]) == ("compile", "unsupported-construct", construct)
    at = text.splitlines().index(line_text) + 1
    # a GPU's error names the `if` around a return in a loop (its node); the lab names the return itself, as
    # the interpreter does (learner._return_under; seen on an H100 with Triton 3.6, twenty-ninth session)
    assert said["line"] == at, said


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_what_the_interpreter_refuses_as_a_loop_carried_type_does_not_compile(compiled, name):
    text, carried, line_text, via = LOOPS[name]
    error, said = compiled[name]
    assert error is not None, "the GPU compile accepted what the interpreter refuses"
    assert f"Loop-carried variable {carried} has initial type" in error, error
    # said as the interpreter says it: the same cause, name and lines (the new value's, the loop's)
    lines = text.splitlines()
    assert (said["kind"], said["cause"], said["name"], said["via"]) == (
        "compile",
        "loop-carried-type",
        carried,
        via,
    )
    assert said["line"] == lines.index(line_text) + 1, said
    assert lines[said["loop_line"] - 1].lstrip().startswith(("for ", "while ")), said
    assert f"has initial type {said['before']} but is re-assigned to {said['after']}" in error, (error, said)
    assert (said["before_shape"], said["before"]) != (said["after_shape"], said["after"]), said
