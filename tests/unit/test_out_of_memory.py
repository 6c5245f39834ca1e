"""A verify the GPU had no memory for (seen on a shared H100, 2026-12-06: three other processes held 32 GiB and the
lab's own comparison failed with "the runner failed: ... torch.OutOfMemoryError"). The lab reads torch's numbers,
says whose request failed, and never calls it a lab bug or a verdict on the kernel; a mere mention of "out of memory"
in another error is not taken for one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from tritonlab.engine import gpu_memory, worker
from tritonlab.engine.client import WorkerClient
from tritonlab.engine.tasks.verify import _runner_problem
from tritonlab.present.diagnoses import describe
from tritonlab.present.numbers import nbytes

ROOT = Path(__file__).resolve().parents[2]
SHARED = (
    "CUDA out of memory. Tried to allocate 250.00 MiB. GPU 0 has a total capacity of 79.18 GiB of which 59.88 MiB "
    "is free. Process 573 has 8.79 GiB memory in use. Process 574 has 13.06 GiB memory in use. Process 575 has "
    "10.70 GiB memory in use. Including non-PyTorch memory, this process has 10.70 GiB memory in use. Of the "
    "allocated memory 9.9 GiB is allocated by PyTorch."
)
NO_LIST = (
    "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.18 GiB of which 1.20 GiB is "
    "free. Including non-PyTorch memory, this process has 77.90 GiB memory in use."
)


def test_torch_numbers_are_read_in_bytes():
    found = gpu_memory.facts(torch.OutOfMemoryError(SHARED), "lab")
    assert found["cause"] == "out-of-memory" and found["by"] == "lab"
    assert found["requested"] == 250 << 20
    assert found["total"] == int(79.18 * (1 << 30)) and found["free"] == int(59.88 * (1 << 20))
    # the NVML list names this process too: other processes are 8.79 + 13.06 GiB
    assert abs(found["others"] - (8.79 + 13.06) * (1 << 30)) < 1 << 20
    alone = gpu_memory.facts(torch.OutOfMemoryError(NO_LIST), "learner")
    assert alone["requested"] == 2 << 30 and alone["others"] is None
    bare = gpu_memory.facts(torch.OutOfMemoryError("CUDA out of memory."), "lab")
    assert bare["requested"] is None and bare["total"] is None and bare["free"] is None


def test_only_torch_out_of_memory_counts_even_behind_a_wrapper():
    oom = torch.OutOfMemoryError(SHARED)
    try:
        try:
            raise oom
        except torch.OutOfMemoryError as exc:
            raise RuntimeError("while comparing") from exc
    except RuntimeError as outer:
        assert gpu_memory.out_of_memory(outer) is oom
    # false positive guard: text that mentions memory is not torch's error
    assert gpu_memory.out_of_memory(RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")) is None
    assert gpu_memory.out_of_memory(MemoryError()) is None
    runtime = RuntimeError("CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported")
    assert gpu_memory.out_of_memory(runtime) is runtime  # no room for a CUDA context: torch's RuntimeError
    assert gpu_memory.facts(runtime, "lab")["requested"] is None


class _Outcome:
    violations: list = []
    timed_out = False
    done = False
    exit_status = 1
    zygote_died = False


def test_a_runner_that_ran_out_of_memory_is_not_a_lab_bug():
    facts = gpu_memory.oom_error(torch.OutOfMemoryError(SHARED), "lab")
    said = _runner_problem(
        _Outcome(), [{"type": "internal", "message": "Traceback ...", "oom": facts}], "", "x.py"
    )
    assert said is not None and said["cause"] == "out-of-memory" and said["by"] == "lab"
    assert "runner failed" not in said["message"]
    # and a runner bug without the out-of-memory facts still says the runner failed
    other = _runner_problem(_Outcome(), [{"type": "internal", "message": "KeyError: 'x'"}], "", "x.py")
    assert (
        other is not None and other["message"].startswith("the runner failed") and other.get("cause") is None
    )


def test_sentences_say_whose_request_and_what_to_do():
    lab = gpu_memory.oom_error(torch.OutOfMemoryError(SHARED), "lab")
    en, ja = describe(lab, "en"), describe(lab, "ja")
    assert "no verdict on your kernel" in en and "250 MiB" in en and "79.2 GiB" in en and "21.8 GiB" in en
    assert "nvidia-smi" in en and "other programs on this GPU hold its memory" in en
    assert "カーネルの判定ではありません" in ja and "250 MiB" in ja and "nvidia-smi" in ja
    mine = gpu_memory.oom_error(torch.OutOfMemoryError(NO_LIST), "learner", line=12)
    en = describe(mine, "en")
    assert "in your call" in en and "no verdict" not in en and "may hold its memory" in en
    huge = torch.OutOfMemoryError(SHARED.replace("250.00 MiB", "400.00 GiB"))
    en, ja = (
        describe(gpu_memory.oom_error(huge, "learner"), "en"),
        describe(gpu_memory.oom_error(huge, "learner"), "ja"),
    )
    assert "more than the whole GPU has" in en and "400 GiB" in en and "超えています" in ja
    # bench's row sentence (no `by`) is unchanged
    row = {"kind": "runtime", "message": "x", "cause": "out-of-memory", "line": None}
    assert describe(row, "en").endswith("out of GPU memory at this size")


def test_byte_counts_read_naturally():
    assert nbytes(250 << 20) == "250 MiB" and nbytes(int(79.18 * (1 << 30))) == "79.2 GiB"
    assert nbytes(512) == "512 B" and nbytes(None) == "?"


def test_the_judge_reports_a_full_gpu_instead_of_an_internal_error(monkeypatch):
    def full(op, args, ctx):
        raise torch.OutOfMemoryError(SHARED)

    class Channel:
        request_id = None

        def __init__(self):
            self.requests = [{"id": 1, "op": "verify", "args": {}}, None]
            self.sent: list = []

        def receive(self):
            return self.requests.pop(0)

        def send(self, message):
            self.sent.append(json.loads(json.dumps(message)))

    class Ctx:
        class pool:  # noqa: N801 - a stand-in for the runner pool
            @staticmethod
            def warm():
                pass

    monkeypatch.setattr(worker, "handle", full)
    channel = Channel()
    assert worker.serve(channel, Ctx(), "gpu") == 0
    got = channel.sent[0]["result"]["error"]
    assert got["cause"] == "out-of-memory" and got["by"] == "lab" and not got.get("internal")


# torch.empty on a full GPU, without a GPU: an allocator defined outside the learner's file raises torch's error, so
# the learner's innermost line is the allocation, as on a GPU
ADD = """import torch
import triton
import triton.language as tl

_torch = {"torch": torch}
exec(compile("def empty(like):\\n    raise torch.OutOfMemoryError(MESSAGE)\\n", "<allocator>", "exec"), _torch)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def add(x, y):
    out = _torch["empty"](x)
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK_SIZE=1024)
    return out
"""


@pytest.fixture(scope="module")
def client():
    c = WorkerClient(backend="interpreter")
    yield c
    c.close()


@pytest.mark.parametrize(
    "error, cause", [("torch.OutOfMemoryError", "out-of-memory"), ("RuntimeError", None)]
)
def test_an_out_of_memory_in_the_learners_call_names_their_line(client, tmp_path, error, cause):
    """The false-pass side: it never passes. The other side: a RuntimeError with the same words is not taken for a
    full GPU."""
    source = ADD.replace("MESSAGE", repr(SHARED)).replace("torch.OutOfMemoryError", error)
    path = tmp_path / "add.py"
    path.write_text(source)
    result = client.request("verify", {"exercise": "5/add", "file": str(path)}, timeout=300)
    assert result["passed"] is False
    err = result["error"]
    assert err.get("cause") == cause
    assert err["line"] == source.splitlines().index('    out = _torch["empty"](x)') + 1
    if cause:
        assert err["by"] == "learner" and err["requested"] == 250 << 20
        assert "in your call" in describe(err, "en") and "nvidia-smi" in describe(err, "ja")
