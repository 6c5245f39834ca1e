"""The UI process must never import torch or triton (2.7 s here, 5.9 s on a GPU box): checked in a subprocess."""

import subprocess
import sys

import pytest

UI_SIDE = [
    "tritonlab.cli",
    "tritonlab.content.loader",
    "tritonlab.content.check",
    "tritonlab.dev.check",
    "tritonlab.engine.client",
    "tritonlab.engine.replay",
    "tritonlab.store",
    "tritonlab.render",
    "tritonlab.doctor",
    "tritonlab.quiz",
]


@pytest.mark.parametrize("module", UI_SIDE)
def test_module_does_not_import_torch_or_triton(module):
    code = (f"import sys, {module}; "
            "bad = [m for m in ('torch', 'triton', 'numpy') if m in sys.modules]; "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"{module} imported {out.stdout.strip()}"


@pytest.mark.parametrize("module", ["tritonlab.engine.client", "tritonlab.content.loader", "tritonlab.engine.protocol"])
def test_engine_and_content_do_not_import_textual(module):
    code = f"import sys, {module}; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False"


CONTENT_MODULES = ["tritonlab.content." + name for name in (
    "model", "loader", "check", "schema", "exercises", "quiz_parser", "toml_source", "where", "problems")]


@pytest.mark.parametrize("module", CONTENT_MODULES)
def test_content_does_not_import_the_engine(module):
    """Content is content: the developer check that needs kernels lives in tritonlab.dev (rustlings' src/dev)."""
    code = f"import sys, {module}; print(','.join(m for m in sys.modules if m.startswith('tritonlab.engine')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"{module} imported {out.stdout.strip()}"

