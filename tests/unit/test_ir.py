"""`ir`: the learner's kernel compiled for a chosen GPU target, on a machine with or without a GPU.

The worker runs on the interpreter here, so each request compiles in a fresh process (a few seconds each).
"""

import re

import pytest

from tritonlab.engine.client import WorkerClient
from tritonlab.engine.kernel_ir import parse_arch
from tritonlab.paths import kernels_dir


@pytest.fixture(scope="module")
def client():
    worker = WorkerClient(backend="interpreter")
    yield worker
    worker.close()


def ir(client, stage, **args):
    payload = {"exercise": "5", "solution": True, "stage": stage, "arch": "sm_90"}
    payload.update(args)
    return client.request("ir", payload, timeout=180)


def test_ptx_for_sm90_names_the_target_and_the_kernel(client):
    result = ir(client, "ptx")
    assert result["error"] is None, result["error"]
    assert ".target sm_90" in result["text"]
    assert ".entry add_kernel" in result["text"]
    assert result["kernel"] == "add_kernel"
    assert result["arch"] == "sm_90"
    assert result["stage"] == "ptx"
    assert result["shared"] == 0
    assert any("add_kernel" in line for line in result["header"])


def test_sass_has_instructions_and_registers(client):
    result = ir(client, "sass")
    assert result["error"] is None, result["error"]
    text = result["text"]
    assert "Function : add_kernel" in text
    assert re.search(r"\bLDG\.E", text), "a global load instruction"
    assert re.search(r"\bSTG\.E", text), "a global store instruction"
    assert "EXIT" in text
    assert isinstance(result["registers"], int) and result["registers"] > 0
    assert result["spills"] == 0


def test_ttir_is_the_default_stage(client):
    result = client.request("ir", {"exercise": "5", "solution": True}, timeout=180)
    assert result["error"] is None, result["error"]
    assert result["stage"] == "ttir"
    assert "tt.func" in result["text"] and "tt.load" in result["text"]


def test_broken_kernel_is_a_compile_error_on_its_line(client, tmp_path):
    source = (kernels_dir() / "vector_add.py").read_text(encoding="utf-8")
    broken = source.replace("tl.arange(0, BLOCK_SIZE)", "tl.arange(0, 1000)")
    assert broken != source
    path = tmp_path / "broken_add.py"
    path.write_text(broken, encoding="utf-8")
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if "tl.arange(0, 1000)" in text)
    result = ir(client, "ptx", solution=False, file=str(path))
    assert result["error"] is not None
    assert result["error"]["kind"] == "compile", result["error"]
    assert result["error"]["line"] == line
    assert "power of 2" in result["error"]["message"]


def test_unknown_arch_is_a_usage_error(client):
    result = ir(client, "ptx", arch="sm_banana")
    assert result["error"]["kind"] == "usage"
    assert result["error"]["code"] == "arch-format" and result["error"]["arch"] == "sm_banana"
    assert "expected sm_NN" in result["error"]["message"]


@pytest.mark.parametrize(
    "text, value", [("sm_90", 90), ("sm_90a", 90), ("80", 80), ("9.0", 90), ("sm_100a", 100)]
)
def test_parse_arch(text, value):
    assert parse_arch(text) == value
