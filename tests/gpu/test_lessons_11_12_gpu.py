"""Lessons 11-12 on a GPU: what the interpreter cannot check — torch.compile(fullgraph=True) of the registered
operators, bitwise determinism of dw (atomics fail it), and the reference kernels at the GPU's sizes."""

import subprocess
import sys
from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "kernels"

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="gpu")
    yield client
    client.close()


@pytest.mark.parametrize(
    "exercise", ["11/online-softmax", "11/attention", "12/rms-norm-backward", "12/rms-norm-op"]
)
def test_solutions_pass_on_the_gpu(worker, exercise):
    result = worker.request("verify", {"exercise": exercise, "solution": True}, timeout=600)
    assert result["passed"], result.get("summary")


def test_compile_is_checked_on_the_gpu(worker):
    result = worker.request("verify", {"exercise": "12/rms-norm-op", "solution": True}, timeout=600)
    compiled = [c["compile"] for c in result["cases"] if "compile" in c]
    assert compiled and compiled[0]["checked"] and compiled[0]["passed"], compiled


def test_a_compiled_path_that_differs_from_eager_is_compiled_differs(worker, tmp_path):
    """False pass guarded: eager right, torch.compile's graph scaled (dynamo folds is_compiling() to True)."""
    source = (KERNELS / "rms_norm_op.py").read_text(encoding="utf-8")
    tail = "    y, _ = torch.ops.tritonlab_l12.rms_norm_fwd(x, weight.contiguous(), eps)\n    return y\n"
    assert source.count(tail) == 1
    path = tmp_path / "compiled_scaled.py"
    path.write_text(
        source.replace(
            tail,
            "    y, _ = torch.ops.tritonlab_l12.rms_norm_fwd(x, weight.contiguous(), eps)\n"
            "    return y * 1.5 if torch.compiler.is_compiling() else y\n",
        ),
        encoding="utf-8",
    )
    result = worker.request("verify", {"exercise": "12/rms-norm-op", "file": str(path)}, timeout=600)
    diags = [
        d for c in result["cases"] for d in c.get("diagnoses", []) if d.get("kind") == "compiled-differs"
    ]
    assert result["passed"] is False and diags, result.get("summary")
    assert diags[0].get("differs_as") in ("mismatch", "scaled") and diags[0]["message"].startswith(
        "compiled:"
    )


def test_dw_by_atomics_is_caught_as_nondeterministic(worker, tmp_path):
    source = (KERNELS / "rms_norm_backward.py").read_text(encoding="utf-8")
    stage1 = "    tl.store(partial_dw_ptr + pid * N + cols, dw_acc, mask=mask)\n"
    assert source.count(stage1) == 1
    atomics = source.replace(stage1, "    tl.atomic_add(partial_dw_ptr + cols, dw_acc, mask=mask)\n")
    atomics = atomics.replace(
        "    partial = torch.empty((P, N), device=x.device, dtype=torch.float32)\n",
        "    partial = torch.zeros((P, N), device=x.device, dtype=torch.float32)\n",
    )
    path = tmp_path / "atomics.py"
    path.write_text(atomics, encoding="utf-8")
    result = worker.request("verify", {"exercise": "12/rms-norm-backward", "file": str(path)}, timeout=600)
    kinds = {d.get("kind") for c in result["cases"] for d in c.get("diagnoses", [])}
    assert result["passed"] is False and "nondeterministic" in kinds, (kinds, result.get("summary"))


def test_perf_script_runs_quick():
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "perf_lessons_11_12.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert '"rows"' in out.stdout.splitlines()[-1]
