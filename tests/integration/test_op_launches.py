"""A kernel launched bare inside a torch.library operator, through the real worker on the interpreter.

Lesson 12's `rms-norm-op` asks for `wrap_triton(kernel)[grid](...)` inside each `triton_op`: torch.compile traces the
op's body with fake tensors and only a wrapped launch becomes a graph node. Eagerly the two launches are the same,
so the runner watches for them (engine/op_launches.py). Each variant is the shipped solution with one edit: bare
launches (in the forward, in the backward's operator, by `.run`, with torch's switch turned back on) fail with
`kernel-not-wrapped` naming the kernel, the operator and the line; other ways of wrapping pass; and an exercise
that asks for no operator is not judged on it (vector add launched bare inside a triton_op of the learner's own).
"""

from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parents[2] / "kernels"
OP = "12/rms-norm-op"
FWD = "wrap_triton(rms_norm_fwd_kernel)[(M,)](x, weight, y, rstd, N, x.stride(0), eps, BLOCK_N=BLOCK_N, num_warps=num_warps)"
DW = "wrap_triton(rms_norm_bwd_dw_kernel)[(triton.cdiv(N, DW_BLOCK),)]"


def variant(tmp_path, solution: str, edits: list[tuple[str, str]], name: str) -> Path:
    text = (KERNELS / solution).read_text()
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text)
    return path


def verify(worker, exercise: str, path: Path) -> dict:
    return worker.request("verify", {"exercise": exercise, "file": str(path)}, timeout=600)


def unwrapped(result) -> list[dict]:
    return [d for c in result["cases"] for d in c["diagnoses"] if d["kind"] == "kernel-not-wrapped"]


def line_of(path: Path, snippet: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if snippet in line)


BARE = {
    # the forward's kernel launched as kernel[grid](...) inside tritonlab_l12::rms_norm_fwd
    "forward_bare": (
        [(FWD, FWD.replace("wrap_triton(rms_norm_fwd_kernel)", "rms_norm_fwd_kernel"))],
        "rms_norm_fwd_kernel",
        "tritonlab_l12::rms_norm_fwd",
        "rms_norm_fwd_kernel[(M,)](",
    ),
    # only the backward's second stage is bare, inside tritonlab_l12::rms_norm_bwd (called from the autograd hook)
    "backward_stage2_bare": (
        [(DW, DW.replace("wrap_triton(rms_norm_bwd_dw_kernel)", "rms_norm_bwd_dw_kernel"))],
        "rms_norm_bwd_dw_kernel",
        "tritonlab_l12::rms_norm_bwd",
        "rms_norm_bwd_dw_kernel[(triton.cdiv",
    ),
    # JITFunction.run by hand is a bare launch too
    "forward_run_by_hand": (
        [
            (
                FWD,
                "rms_norm_fwd_kernel.run(x, weight, y, rstd, N, x.stride(0), eps, BLOCK_N=BLOCK_N, "
                "num_warps=num_warps, grid=(M,), warmup=False)",
            )
        ],
        "rms_norm_fwd_kernel",
        "tritonlab_l12::rms_norm_fwd",
        "rms_norm_fwd_kernel.run(",
    ),
    # torch's wrap_triton switch turned back on inside the body: the runner's dispatch watch still sees the op
    "forward_switch_turned_on": (
        [
            (
                FWD,
                "with __import__('torch')._library.triton.set_wrap_triton_enabled(True):\n"
                "        rms_norm_fwd_kernel[(M,)](x, weight, y, rstd, N, x.stride(0), eps, BLOCK_N=BLOCK_N, "
                "num_warps=num_warps)",
            )
        ],
        "rms_norm_fwd_kernel",
        "tritonlab_l12::rms_norm_fwd",
        "        rms_norm_fwd_kernel[(M,)](",
    ),
}


@pytest.mark.parametrize("name", sorted(BARE))
def test_a_bare_launch_inside_an_operator_fails_naming_kernel_operator_and_line(worker, tmp_path, name):
    edits, kernel, op, snippet = BARE[name]
    path = variant(tmp_path, "rms_norm_op.py", edits, f"{name}.py")
    result = verify(worker, OP, path)
    assert result.get("error") is None, result.get("error")
    assert not result["passed"], "a bare launch inside a triton_op passed"
    found = unwrapped(result)
    assert found, [(c["name"], [d["kind"] for d in c["diagnoses"]]) for c in result["cases"]]
    assert {(d["kernel"], d["op"], d["line"]) for d in found} == {(kernel, op, line_of(path, snippet))}
    assert all(not c["passed"] for c in result["cases"] if c.get("kind") != "reject")


WRAPPED = {
    "solution": [],
    # wrap_triton at module level (torch hands back the kernel itself there on the interpreter)
    "module_level_wrap": [
        ("def _row_block(", "_fwd = wrap_triton(rms_norm_fwd_kernel)\n\n\ndef _row_block("),
        (FWD, FWD.replace("wrap_triton(rms_norm_fwd_kernel)", "_fwd")),
    ],
    # the launcher kept in a variable, called on the next line
    "launcher_in_a_variable": [
        (
            FWD,
            FWD.replace("[(M,)](", "[(M,)]\n    launch(").replace("wrap_triton(", "launch = wrap_triton(", 1),
        )
    ],
    # wrapped twice, and through torch.library's full name
    "wrapped_twice_full_name": [
        (
            FWD,
            FWD.replace(
                "wrap_triton(rms_norm_fwd_kernel)",
                "torch.library.wrap_triton(wrap_triton(rms_norm_fwd_kernel))",
            ),
        )
    ],
    # .run through the wrapped kernel
    "wrapped_run": [
        (
            FWD,
            "wrap_triton(rms_norm_fwd_kernel).run(x, weight, y, rstd, N, x.stride(0), eps, BLOCK_N=BLOCK_N, "
            "num_warps=num_warps, grid=(M,), warmup=False)",
        )
    ],
}


@pytest.mark.parametrize("name", sorted(WRAPPED))
def test_a_launch_through_wrap_triton_passes(worker, tmp_path, name):
    path = variant(tmp_path, "rms_norm_op.py", WRAPPED[name], f"{name}.py")
    result = verify(worker, OP, path)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], c["diagnoses"][:1]) for c in result["cases"] if not c["passed"]]
    assert unwrapped(result) == []


def test_a_bare_launch_in_an_exercise_without_operators_is_not_judged(worker, tmp_path):
    # vector add launched bare inside a triton_op of the learner's own: lesson 5 asks for no operator
    path = variant(
        tmp_path,
        "vector_add.py",
        [
            (
                "import triton.language as tl\n",
                "import triton.language as tl\nfrom torch.library import triton_op\n",
            ),
            (
                "def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:",
                '@triton_op("mine_l05::add", mutates_args={})\n'
                "def add_op(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:\n"
                "    output = torch.empty_like(x)\n"
                "    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, output, x.numel(), BLOCK_SIZE=1024)\n"
                "    return output\n\n\n"
                "def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:",
            ),
            (
                "    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)\n    return output",
                "    return torch.ops.mine_l05.add(x, y)",
            ),
        ],
        "add_in_own_op.py",
    )
    result = verify(worker, "5/add", path)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], c["diagnoses"][:1]) for c in result["cases"] if not c["passed"]]
