"""The pure parts of cause `stat-recomputed` (probe round 16c finding 4): the runner's `forward_unread` (the
forward's own buffers, by pointer, that no backward kernel was handed) and the judge's square-root lines in the
named kernels."""

import torch

from tritonlab.engine.tasks import verify, verify_runner

SOURCE = """
import triton
import triton.language as tl


@triton.jit
def fwd(x_ptr, r_ptr, N):
    x = tl.load(x_ptr)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N)
    tl.store(r_ptr, rstd)


@triton.jit
def bwd(x_ptr, dx_ptr, N):
    x = tl.load(x_ptr)
    mean = tl.sum(x, axis=0) / N
    r = 1.0 / tl.sqrt(tl.sum((x - mean) * (x - mean), axis=0) / N)
    tl.store(dx_ptr, x * r)


def helper():
    s = math.sqrt(2.0)
"""


def test_root_lines_are_the_square_roots_of_the_named_kernels(tmp_path):
    path = tmp_path / "learner.py"
    path.write_text(SOURCE)
    lines = SOURCE.splitlines()
    (found,) = verify._root_lines(str(path), {"bwd"})
    assert found[0] == next(i for i, t in enumerate(lines, 1) if "r = 1.0 / tl.sqrt(" in t), found
    assert found[2] == "bwd" and found[1].startswith("r = 1.0 / tl.sqrt("), found
    (forward,) = verify._root_lines(str(path), {"fwd"})
    assert forward[1].startswith("rstd = tl.rsqrt("), forward
    assert verify._root_lines(str(path), set()) == [] and verify._root_lines(str(path), {"other"}) == []


def test_forward_unread_counts_the_forwards_own_buffers_no_backward_kernel_got(tmp_path):
    x, w, y = torch.zeros(3, 4), torch.zeros(4), torch.zeros(3, 4)
    rstd, dx, dw = torch.zeros(3), torch.zeros(3, 4), torch.zeros(4)
    file = str(tmp_path / "learner.py")

    def launch(phase, *tensors):
        return {"file": file, "phase": phase, "ptrs": [t.data_ptr() for t in tensors]}

    forward = launch("forward", x, w, y, rstd)
    inputs = {"x": x, "w": w}
    recomputes = [forward, launch("backward", x, w, dx, dw)]
    assert verify_runner._forward_unread(inputs, (y, dx, dw), recomputes, file) == 1
    reads = [forward, launch("backward", x, w, rstd, dx, dw)]
    assert verify_runner._forward_unread(inputs, (y, dx, dw), reads, file) == 0
    # no backward launch of the learner's (torch made the gradients): nothing said here
    assert verify_runner._forward_unread(inputs, (y,), [forward], file) == 0
    # another file's kernels do not count
    other = dict(launch("backward", x, w, dx, dw), file=str(tmp_path / "lab.py"))
    assert verify_runner._forward_unread(inputs, (y,), [forward, other], file) == 0
