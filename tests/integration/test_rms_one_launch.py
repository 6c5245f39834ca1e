"""Lesson 12's next step, kernels/rms_norm_backward_one_launch.py: the backward in one launch (stage 2 run by the
programs that start last, after waiting on a counter). The lab's verdict must pass it as a correct-but-different
answer to exercise 12/rms-norm-backward, and fail it when its second stage drops a partial row."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from tritonlab.engine.client import WorkerClient
from tritonlab.engine.replay import with_replay

ROOT = Path(__file__).resolve().parents[2]
ONE_LAUNCH = ROOT / "kernels" / "rms_norm_backward_one_launch.py"


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="auto")
    yield client
    client.close()


def verify(worker, path: Path) -> dict:
    args = {"exercise": "12/rms-norm-backward", "file": str(path)}
    return with_replay(worker.request("verify", args, timeout=300), args)


def test_one_launch_backward_passes_the_exercise(worker):
    result = verify(worker, ONE_LAUNCH)
    assert result["passed"], result.get("summary")
    assert len(result["cases"]) >= 4


def test_one_launch_backward_that_drops_a_partial_row_fails_on_dw_only(worker, tmp_path):
    source = ONE_LAUNCH.read_text(encoding="utf-8")
    text = "tile = (rows[:, None] < P) & dw_mask[None, :]"
    assert source.count(text) == 1
    path = tmp_path / "drops_last_partial.py"
    path.write_text(
        source.replace(text, "tile = (rows[:, None] < P - 1) & dw_mask[None, :]"), encoding="utf-8"
    )
    result = verify(worker, path)
    assert result["passed"] is False, result.get("summary")
    wrong = {
        d.get("output")
        for c in result["cases"]
        for d in c.get("diagnoses", [])
        if d.get("kind") == "mismatch"
    }
    assert wrong == {"grad_w"}, wrong


_COUNTERS = r"""
import importlib.util, os, sys
os.environ.setdefault("TRITON_INTERPRET", "0" if "--gpu" in sys.argv else "1")
import torch
spec = importlib.util.spec_from_file_location("ol", sys.argv[1])
ol = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ol)
device = "cuda" if "--gpu" in sys.argv else "cpu"
seen = {}
real_zeros = torch.zeros
def spy(*args, **kwargs):
    t = real_zeros(*args, **kwargs)
    if kwargs.get("dtype") is torch.int32:
        seen["counters"] = t
    return t
torch.zeros = spy
for M, N in [(9, 70), (2, 300)]:
    x = torch.randn(M, N, device=device)
    w = torch.randn(N, device=device)
    _, rstd = ol.rms_norm_forward(x, w, 1e-6)
    ol.rms_norm_backward(torch.randn(M, N, device=device), x, w, rstd)
    P = max(1, min(ol._programs(x.device), M))
    print(M, N, P, -(-N // ol.DW_BLOCK), *seen["counters"].tolist())
"""


def test_every_program_takes_one_ticket_and_every_stage1_program_reports_done(tmp_path):
    """After a launch, counters = [P + C, P]: one ticket per program (a ticket per thread would count 32-1024 per
    program), and the P stage-1 programs each published once."""
    if tuple(int(x) for x in np.__version__.split(".")[:2]) >= (2, 4):
        pytest.skip("Triton's interpreter breaks in range loops with numpy >= 2.4 (pyproject pins numpy<2.4)")
    script = tmp_path / "counters.py"
    script.write_text(_COUNTERS, encoding="utf-8")
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    out = subprocess.run(
        [sys.executable, str(script), str(ONE_LAUNCH)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [list(map(int, line.split())) for line in out.stdout.splitlines() if line.strip()]
    assert len(rows) == 2
    for M, N, P, C, tickets, done in rows:
        assert (tickets, done) == (P + C, P), (M, N, P, C, tickets, done)


def test_the_file_reads_on_its_own():
    """A kernel file in kernels/ is read (and copied) on its own: it imports nothing from the lab or its neighbours."""
    source = ONE_LAUNCH.read_text(encoding="utf-8")
    imports = {line.split()[1] for line in source.splitlines() if line.startswith(("import ", "from "))}
    assert imports == {"torch", "triton", "triton.language"}, imports


def test_roles_by_program_id_wait_forever_when_the_programs_run_in_reverse(worker, tmp_path):
    """The same kernel with roles by program_id instead of a ticket: in order it passes (stage 1 runs first);
    the reverse-order case starts a stage-2 program first, and it waits for programs that cannot run. The lab
    names the spin's line within seconds instead of the verify timeout — on a GPU this can deadlock."""
    if torch.cuda.is_available():  # the reverse order is the interpreter's run; a GPU launches in order
        pytest.skip("an interpreter check: on the H200 the GPU ran the programs in order and passed")
    source = ONE_LAUNCH.read_text(encoding="utf-8")
    ticket = "    ticket = tl.atomic_add(counters_ptr, 1)  # 0, 1, 2, … in the order programs start\n"
    assert source.count(ticket) == 1
    source = source.replace(ticket, "    ticket = tl.program_id(0)  # roles by program id\n")
    spin = '        while tl.atomic_add(counters_ptr + 1, 0, sem="acquire") < P:'
    line = source.splitlines().index(spin) + 1
    path = tmp_path / "roles_by_program_id.py"
    path.write_text(source, encoding="utf-8")
    result = verify(worker, path)
    assert result["passed"] is False, result.get("summary")
    errors = [c["error"] for c in result["cases"] if c.get("error")]
    assert errors and errors[0]["cause"] == "waits-forever", errors[:1]
    assert errors[0]["line"] == line and errors[0]["order"] == "reversed", errors[0]
