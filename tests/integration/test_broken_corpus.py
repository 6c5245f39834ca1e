"""A corpus of broken learner kernels: each must get the right diagnosis kind (and line) — no crash, no hang."""

from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient
from tritonlab.engine.replay import with_replay

BROKEN = Path(__file__).parent / "broken"

# file → (exercise, expected kind (error.kind or a case diagnosis kind), expected line or None)
CORPUS = {
    "unmasked_load.py": ("5", "oob", 11),
    "unmasked_store.py": ("5", "oob", 13),
    "mask_le.py": ("5", "oob", 11),
    "offsets_shifted.py": ("5", "unwritten", None),
    "grid_short.py": ("5", "unwritten", None),
    "first_block_only.py": ("5", "unwritten", None),
    "wrong_dtype.py": ("5", "wrong-dtype", None),
    "wrong_shape.py": ("5", "wrong-shape", None),
    "returns_none.py": ("5", "wrong-shape", None),
    "input_overwritten.py": ("5", "input-modified", None),
    "pure_torch.py": ("5", "no-kernel-launched", None),
    "no_validation.py": ("5", "validation", None),
    "wrong_op.py": ("5", "mismatch", None),
    "python_error.py": ("5", "runtime", 9),
    "raise_base_exception.py": ("5", "runtime", 8),
    "raise_keyboard_interrupt.py": ("5", "runtime", 8),
    "os_exit.py": ("5", "crash", 8),
}

# One bug planted in a reference solution: (exercise, solution, text, replacement, kind, the bug's line is reported?)
KERNELS = Path(__file__).resolve().parents[2] / "kernels"
MUTATIONS = {
    "stride_ignored_copy2d": (
        "7/copy-2d",
        "copy_2d.py",
        "x_ptrs = x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn",
        "x_ptrs = x_ptr + rows[:, None] * n_cols + cols[None, :]",
        "mismatch",
        False,
    ),
    "transpose_swapped_strides": (
        "7/transpose",
        "transpose.py",
        "out_ptrs = output_ptr + cols[:, None] * stride_om + rows[None, :] * stride_on",
        "out_ptrs = output_ptr + cols[:, None] * stride_on + rows[None, :] * stride_om",
        "mismatch",
        False,
    ),
    "unstable_softmax": (
        "8/softmax",
        "softmax.py",
        "numerator = tl.exp(row - row_max)",
        "numerator = tl.exp(row)",
        "nan",
        False,
    ),
    "matmul_k_tail_unmasked": (
        "9/matmul",
        "matmul.py",
        ("a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_remaining), other=0.0)"),
        "a = tl.load(a_ptrs, mask=(offs_m[:, None] < M), other=0.0)",
        "oob",
        True,
    ),
    "matmul_store_off_by_one": (
        "9/matmul",
        "matmul.py",
        "tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))",
        "tl.store(c_ptrs, c, mask=(offs_m[:, None] <= M) & (offs_n[None, :] < N))",
        "oob",
        True,
    ),
    "transpose_without_trans": (
        "7/transpose",
        "transpose.py",
        "tl.store(out_ptrs, tl.trans(tile), mask=out_mask)",
        "tl.store(out_ptrs, tile, mask=out_mask)",
        "compile",
        True,
    ),
}


# Contracts the lessons teach (issue #13 item 3). A planted break in a reference solution:
# (exercise, solution, [(text, replacement)], expected kind, facts that kind's diagnosis must carry, or None).
# A `None` kind is a correct-but-different solution: it must pass (the false-fail side of each check).
CONTRACT_MUTATIONS = {
    "grid_floor_plus_one": (
        "3/grid-size",
        "../lessons/03-programming-model/grid_size.py",
        [('(n_elements // meta["BLOCK_SIZE"],)', '(n_elements // meta["BLOCK_SIZE"] + 1,)')],
        "grid-size",
        {"launched": 2, "expected": 1},
    ),
    "grid_floor_starter": (
        "3/grid-size",
        "../lessons/03-programming-model/grid_size.py",
        [],
        "grid-size",
        {"launched": 0, "expected": 1},
    ),
    "grid_floor_starter_slots": (
        "3/grid-size",
        "../lessons/03-programming-model/grid_size.py",
        [],
        "unwritten",
        {"cause": "grid-size"},
    ),  # not "check the tl.store pointer"
    "grid_ceil_by_negation": (
        "3/grid-size",
        "../lessons/03-programming-model/grid_size.py",
        [('(n_elements // meta["BLOCK_SIZE"],)', '(-(-n_elements // meta["BLOCK_SIZE"]),)')],
        None,
        None,
    ),
    "sweep_ignores_knobs": (
        "6/copy",
        "copy_sweep.py",
        [
            (
                "copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)",
                "copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=1024)",
            )
        ],
        "knob-ignored",
        {"name": "BLOCK_SIZE", "asked": 128, "launched": 1024},
    ),
    "sweep_block_by_position": (
        "6/copy",
        "copy_sweep.py",
        [
            (
                ("copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)"),
                "copy_kernel[grid](x, output, n_elements, BLOCK_SIZE, num_warps=num_warps)",
            )
        ],
        None,
        None,
    ),
    "copy2d_column_major_out": (
        "7/copy-2d",
        "copy_2d.py",
        [
            (
                "output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)",
                "output = torch.empty_like(x)",
            )
        ],
        "output-layout",
        {"expected": "contiguous"},
    ),
    "copy2d_contiguous_format_out": (
        "7/copy-2d",
        "copy_2d.py",
        [
            (
                "output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)",
                "output = torch.empty_like(x, memory_format=torch.contiguous_format)",
            )
        ],
        None,
        None,
    ),
    "copy2d_wrapper_does_the_strided_job": (
        "7/copy-2d",
        "copy_2d.py",
        [("    n_rows, n_cols = x.shape\n", "    x = x.contiguous()\n    n_rows, n_cols = x.shape\n")],
        "kernel-bypassed",
        {"input": "x"},
    ),
    "rms_norm_drops_eps": (
        "10/debug-rms-norm",
        "rms_norm.py",
        [("rstd = tl.rsqrt(mean_square + eps)", "rstd = tl.rsqrt(mean_square)")],
        "nan",
        None,
    ),
    "autotune_empty_key": (
        "10/autotune-matmul",
        "autotune_matmul.py",
        [('key=["M", "N", "K"]', "key=[]")],
        "autotune-key",
        {"key": []},
    ),
    # messages built from the recorded launches (issue #13 item 4): kind "unwritten" with its cause
    "matmul_grid_floor_division": (
        "9/matmul",
        "matmul.py",
        [
            (
                "grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)",
                "grid = ((M // BLOCK_M) * (N // BLOCK_N),)",
            )
        ],
        "unwritten",
        {"cause": "grid-zero", "programs": 0},
    ),
    "add_offsets_ignore_pid": (
        "5/add",
        "vector_add.py",
        [("offsets = block_start + tl.arange(0, BLOCK_SIZE)", "offsets = tl.arange(0, BLOCK_SIZE)")],
        "unwritten",
        {"cause": "same-block"},
    ),
    "add_grid_floor_division": (
        "5/add",
        "../tests/integration/broken/grid_short.py",
        [],
        "unwritten",
        {"cause": "grid-fewer-programs"},
    ),
    # out-of-bounds advice in the learner's own words: the mask expression and the index it never bounds
    "matmul_k_tail_names_the_k_index": (
        "9/matmul",
        "matmul.py",
        [
            (
                (
                    "a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < "
                    "k_remaining), other=0.0)"
                ),
                "a = tl.load(a_ptrs, mask=(offs_m[:, None] < M), other=0.0)",
            )
        ],
        "oob",
        {"mask": "offs_m[:, None] < M", "unbounded": [{"name": "offs_k", "axis": 1}]},
    ),
    "add_mask_le_quotes_the_mask": (
        "5/add",
        "../tests/integration/broken/mask_le.py",
        [],
        "oob",
        {"mask": "mask = offsets <= n_elements"},
    ),
    "transpose_store_shape_mismatch": (
        "7/transpose",
        "transpose.py",
        [("tl.store(out_ptrs, tl.trans(tile), mask=out_mask)", "tl.store(out_ptrs, tile, mask=out_mask)")],
        "compile",
        {"cause": "shape-mismatch", "value_shape": [16, 128], "pointer_shape": [128, 16]},
    ),
    # lesson 10: numerics before performance — a second pass over x alone is a perf verdict...
    "rms_norm_reads_x_twice": (
        "10/debug-rms-norm",
        "rms_norm.py",
        [
            (
                "    y = x * rstd * w\n",
                (
                    "    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, "
                    "other=0.0).to(tl.float32)\n    y = x * rstd * w\n"
                ),
            )
        ],
        "perf-bytes",
        None,
    ),
    # ...but with wrong values as well, the values lead and the byte count waits (a note, not a diagnosis)
    "rms_norm_reads_x_twice_and_drops_eps": (
        "10/debug-rms-norm",
        "rms_norm.py",
        [
            (
                "    y = x * rstd * w\n",
                (
                    "    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, "
                    "mask=mask, other=0.0).to(tl.float32)\n    y = x * rstd * w\n"
                ),
            ),
            ("rstd = tl.rsqrt(mean_square + eps)", "rstd = tl.rsqrt(mean_square)"),
        ],
        "nan",
        None,
    ),
    "autotune_no_gpu_configs": (
        "10/autotune-matmul",
        "autotune_matmul.py",
        [
            (
                "    return [\n        # Large square GEMMs",
                "    return []\n    unused = [\n        # Large square GEMMs",
            )
        ],
        "autotune-configs",
        {"count": 0},
    ),
}


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="auto")
    yield client
    client.close()


def kinds_of(result: dict) -> set:
    found = {d.get("kind") for c in result.get("cases", []) for d in c.get("diagnoses", [])}
    if result.get("error"):
        found.add(result["error"]["kind"])
    return found


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_broken_kernel_gets_the_right_diagnosis(worker, name):
    exercise, kind, line = CORPUS[name]
    args = {"exercise": exercise, "file": str(BROKEN / name)}
    result = with_replay(worker.request("verify", args, timeout=120), args)
    assert not result.get("passed")  # a crash report has no verdict at all, never a pass
    assert kind in kinds_of(result), (kind, kinds_of(result), result.get("summary"))
    if line is not None:
        if result.get("error"):
            assert result["error"]["kind"] == kind
            assert result["error"]["line"] == line, result["error"]
        else:  # GPU: a guard zone caught the store; the line comes from the interpreter replay
            diag = next(d for c in result["cases"] for d in c["diagnoses"] if d["kind"] == kind)
            assert diag.get("line") == line, diag


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_planted_bug_in_a_solution_gets_the_right_diagnosis(worker, name, tmp_path):
    exercise, solution, text, replacement, kind, has_line = MUTATIONS[name]
    source = (KERNELS / solution).read_text(encoding="utf-8")
    assert source.count(text) == 1, f"{solution} changed: the mutation no longer applies"
    line = source[: source.index(text)].count("\n") + 1
    path = tmp_path / f"{name}.py"
    path.write_text(source.replace(text, replacement), encoding="utf-8")
    args = {"exercise": exercise, "file": str(path)}
    result = with_replay(worker.request("verify", args, timeout=120), args)
    assert result.get("passed") is False
    assert kind in kinds_of(result), (kind, kinds_of(result), result.get("summary"))
    if has_line:
        lines = (
            {result["error"]["line"]}
            if result.get("error")
            else {d.get("line") for c in result["cases"] for d in c["diagnoses"] if d["kind"] == kind}
        )
        assert line in lines, (line, lines)


def test_the_corpus_covers_at_least_fifteen_bugs():
    assert len(CORPUS) + len(MUTATIONS) + len(CONTRACT_MUTATIONS) >= 24
    assert sorted(CORPUS) == sorted(p.name for p in BROKEN.glob("*.py"))


def _mutated(tmp_path, name, solution, edits) -> Path:
    source = (KERNELS / solution).read_text(encoding="utf-8")
    for text, replacement in edits:
        assert source.count(text) == 1, f"{solution} changed: {text!r} no longer applies"
        source = source.replace(text, replacement)
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(CONTRACT_MUTATIONS))
def test_contract_break_is_named_and_a_different_correct_solution_passes(worker, name, tmp_path):
    exercise, solution, edits, kind, facts = CONTRACT_MUTATIONS[name]
    args = {"exercise": exercise, "file": str(_mutated(tmp_path, name, solution, edits))}
    # as the CLI and the app do: a GPU failure or pass is replayed on the interpreter, which names the line
    result = with_replay(worker.request("verify", args, timeout=300), args, timeout=300)
    if kind is None:
        assert result.get("passed"), result.get("summary")
        return
    if name.endswith("_and_drops_eps"):  # numerics first: no byte verdict while values are wrong
        assert "perf-bytes" not in kinds_of(result) and "bytes" not in result["summary"], result["summary"]
    assert result.get("passed") is False
    assert kind in kinds_of(result), (kind, kinds_of(result), result.get("summary"))
    found = [
        dict(d.get("detail") or {}, **d)
        for c in result["cases"]
        for d in c["diagnoses"]
        if d.get("kind") == kind
    ]
    if facts and result.get("backend") == "gpu" and kind == "grid-size":
        # the GPU's own sizes: one program too many, or (floor division) one too few, as on the interpreter
        step = 1 if facts["launched"] > facts["expected"] else -1
        assert any(d.get("launched") == d.get("expected", 0) + step for d in found), found[:3]
    elif facts:  # on a GPU a guard hit carries the interpreter replay's `detail` (its mask, its pointer)
        assert any(all(d.get(k) == v for k, v in facts.items()) for d in found), (facts, found[:3])
