"""Tamper attempts: learner files that try to get a PASS without a working Triton kernel, or to harm the lab.

Each file under files/ starts with `# expect: KIND` (and `# exercise: X`, default lesson 5's add): verify must
FAIL with that kind, as an error kind or a case diagnosis. The resource tests check what is left afterwards:
processes, files, memory, the client.
"""

import json
import os
import re
import time
from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

FILES = Path(__file__).parent / "files"
SPECIAL = {
    "t15_kill_parent.py",
    "t28_kill_the_judge.py",
    "t16_setsid_children.py",
    "t17_flood_stdout.py",
    "t19a_patch_lab_then_pass.py",
    "t19b_honest_wrong.py",
    "t13_write_progress_directly.py",
    "t14_ansi_hides_failed.py",
    "t31_patch_torch_random.py",
    "t32_reads_the_lab_honestly.py",
    "t33_read_the_seal_secret.py",
    "t36_two_kernels_and_a_self_check.py",
    "t37_reference_handed_to_kernel.py",
}


def header(path: Path) -> tuple[str, str]:
    text = path.read_text()
    expect = re.search(r"^# expect: *(.*)$", text, re.MULTILINE).group(1).strip()
    exercise = re.search(r"^# exercise: *(.*)$", text, re.MULTILINE)
    return expect, exercise.group(1).strip() if exercise else "5"


def kinds(result: dict) -> set[str]:
    found = set()
    if result.get("error"):
        found.add(result["error"].get("kind"))
    for case in result.get("cases") or []:
        for diag in case.get("diagnoses") or []:
            found.add(diag.get("kind"))
    return found


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return tmp_path_factory.mktemp("tritonlab-home")


@pytest.fixture(scope="module")
def client(home):
    worker = WorkerClient(backend="interpreter", env={"TRITONLAB_HOME": str(home)})
    yield worker
    worker.close()


def verify(client, path, exercise="5", timeout=120):
    return client.request("verify", {"exercise": exercise, "file": str(path)}, timeout=timeout)


def test_the_corpus_is_big_enough():
    assert len(list(FILES.glob("t*.py"))) >= 20


@pytest.mark.parametrize("name", sorted(p.name for p in FILES.glob("t*.py") if p.name not in SPECIAL))
def test_tamper_attempt_fails_with_its_kind(client, name):
    expect, exercise = header(FILES / name)
    result = verify(client, FILES / name, exercise)
    assert result["passed"] is False, result.get("summary")
    assert expect in kinds(result), (kinds(result), result.get("summary"))


def test_an_honest_solution_still_passes_after_the_corpus(client):
    """The false-fail side: the same judge, after every attempt, passes the reference solution."""
    result = client.request("verify", {"exercise": "5", "solution": True}, timeout=120)
    assert result["passed"], result.get("summary")
    assert any(c["name"].endswith("random") for c in result["cases"])  # random sizes were part of it


def test_writing_progress_directly_changes_nothing(client, home):
    result = verify(client, FILES / "t13_write_progress_directly.py")
    assert result["passed"] is False and "not-kernel-output" in kinds(result)
    assert not list(Path(home).rglob("progress-v1.json"))  # the runner had no path to the lab's data


def test_ansi_in_learner_output_is_stripped(client):
    result = verify(client, FILES / "t14_ansi_hides_failed.py")
    assert result["passed"] is False and "not-kernel-output" in kinds(result)
    assert "PASSED all cases" in result["output"]  # the text is shown …
    assert "\x1b" not in json.dumps(result) and "\r" not in result["output"]  # … but cannot move or recolour


def test_a_file_that_patches_the_lab_cannot_help_a_later_wrong_file(client):
    patched = verify(client, FILES / "t19a_patch_lab_then_pass.py")
    # its kernel is right, but it rewrote the lab's diagnose: named, and failed
    assert patched["passed"] is False and patched["error"]["kind"] == "tampered", patched.get("summary")
    wrong = verify(client, FILES / "t19b_honest_wrong.py")  # a fresh runner: the patches died with the last
    assert wrong["passed"] is False and "mismatch" in kinds(wrong), wrong.get("summary")


def test_patching_torch_random_at_import_changes_nothing(client):
    """The runner rebuilds inputs from (params, dtype, seed) before any learner code runs: a file that makes
    torch's random functions return ones at import still gets the judge's values. Its kernel is correct, so it
    passes; had the patch reached the inputs, its outputs would not match the judge's reference."""
    result = verify(client, FILES / "t31_patch_torch_random.py")
    assert result["passed"], result.get("summary")
    assert any(case["name"].endswith("random") for case in result["cases"])
    assert all(case["passed"] for case in result["cases"])


def test_a_kernel_computing_into_scratch_and_a_self_check_still_pass(client):
    """The false-fail side of t34/t35 (`copied-answer`): copying what a kernel of the file computed is fine,
    and so is comparing with torch afterwards."""
    result = verify(client, FILES / "t36_two_kernels_and_a_self_check.py")
    assert result["passed"], result.get("summary")


def test_a_kernel_given_torchs_answer_to_check_against_still_passes(client):
    """t37 hands torch's `x + y` to its kernel beside x and y, to assert against; the kernel stores its own sum.
    That is not a copy (the false-fail side of t34/t35 where a reference does reach a kernel)."""
    result = verify(client, FILES / "t37_reference_handed_to_kernel.py")
    assert result["passed"], result.get("summary")


def test_rewriting_the_labs_recording_is_named_and_reading_it_is_fine(client):
    """t30 rewrites the runner's provenance code to hide torch's `x + y`: the integrity check names what it
    changed. t32 reads the lab's modules and patches only its own class: it passes (the false-fail side)."""
    forged = verify(client, FILES / "t30_forge_provenance_facts.py")
    assert forged["passed"] is False and forged["error"]["kind"] == "tampered", forged.get("summary")
    assert "tritonlab.engine.tasks.verify_runner.Provenance.facts" in forged["error"]["changed"]
    from tritonlab.present.verify import summary

    assert "Provenance.facts" in summary(forged, "en") and "書き換え" in summary(forged, "ja")
    honest = verify(client, FILES / "t32_reads_the_lab_honestly.py")
    assert honest["passed"], honest.get("summary")


def test_the_learners_data_is_out_of_reach_even_by_its_path(client, home, tmp_path):
    """The runner is not told where the lab's data is, but the path can be guessed: with Landlock (Linux >=
    5.19) every file in it is out of reach (names can be listed, nothing read or written); a kernel without
    Landlock only has the scrubbed environment (skipped then)."""
    from tritonlab.engine import sandbox

    if sandbox.landlock_rules(str(home)) and not _landlock_here():
        pytest.skip("this kernel has no Landlock ABI >= 2")
    (Path(home) / "secret-v1").write_text("not for the learner")
    learner = tmp_path / "reads.py"
    learner.write_text((FILES / "t33_read_the_seal_secret.py").read_text().replace("@DATA_DIR@", str(home)))
    result = verify(client, learner)
    error = result["error"]
    assert result["passed"] is False and error and error["kind"] == "runtime", (
        result.get("output"),
        result.get("summary"),
    )
    assert error["exception"].startswith("PermissionError") and error["line"] == 9, error
    assert not (Path(home) / "progress-v1.json").exists()
    again = client.request("verify", {"exercise": "5", "solution": True}, timeout=120)  # the false-fail side
    assert again["passed"], again.get("summary")


def _landlock_here() -> bool:
    import ctypes

    from tritonlab.engine import sandbox

    try:
        return sandbox._landlock_abi(ctypes.CDLL(None, use_errno=True)) >= 2
    except OSError:
        return False


def _sandbox_says_no(result: dict) -> None:
    error = result["error"]
    assert result["passed"] is False and error["kind"] == "runtime", result.get("summary")
    assert error.get("cause") == "sandbox" and error["exception"].startswith("PermissionError"), error


def test_killing_its_parent_is_refused_and_nothing_dies(client):
    """The runner's parent is the zygote: older than the runner, so the signal filter answers EPERM."""
    client.start()
    judge = client.proc.pid
    result = verify(client, FILES / "t15_kill_parent.py")
    _sandbox_says_no(result)
    assert result["error"]["line"] == 52  # the learner's os.kill line, named like any exception of theirs
    assert client.alive and client.proc.pid == judge
    again = client.request("verify", {"exercise": "5", "solution": True}, timeout=120)
    assert again["passed"], again.get("summary")
    assert client.proc.pid == judge  # nothing had to be restarted


def test_killing_the_judge_is_refused_and_explained(client):
    """The judge is reachable by pid (same user) but older than the runner: EPERM, the judge and the app live."""
    client.start()
    judge = client.proc.pid
    result = verify(client, FILES / "t28_kill_the_judge.py")
    _sandbox_says_no(result)
    assert client.alive and client.proc.pid == judge
    from tritonlab.present.verify import summary

    assert "sandbox" in summary(result, "en") and "サンドボックス" in summary(result, "ja")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_no_process_is_left_after_a_verify_that_spawns_children(client, tmp_path):
    pid_file = tmp_path / "pids"
    learner = tmp_path / "spawns.py"
    learner.write_text((FILES / "t16_setsid_children.py").read_text().replace("@PID_FILE@", str(pid_file)))
    result = verify(client, learner)
    assert result["passed"] is False and "not-kernel-output" in kinds(result)
    pids = [int(p) for p in pid_file.read_text().split()]
    assert len(pids) == 2 and all(p > 0 for p in pids)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    assert not [p for p in pids if _alive(p)], "a learner's child outlived the verify"


def test_a_flood_is_capped_and_leaves_no_files(client):
    result = verify(client, FILES / "t17_flood_stdout.py", timeout=300)
    assert result["passed"] is False and "not-kernel-output" in kinds(result)
    assert 1024 < len(result["output"]) < 100 * 1024
    assert "output cut at 64 KiB" in result["output"]
    assert not list(client._dir.glob("out-*.txt"))  # the capture is deleted after the request
    scratch = Path(client.info["scratch"])  # the judge's directory for its runners
    assert len(list(scratch.glob("run-*"))) <= 1, list(scratch.iterdir())  # at most the warm spare's, empty
    assert all(not any(d.iterdir()) for d in scratch.glob("run-*"))


def _rss_kib(pid: int) -> int:
    total = 0
    for p in [pid] + _children(pid):
        try:
            with open(f"/proc/{p}/status") as handle:
                total += int(re.search(r"VmRSS:\s+(\d+)", handle.read()).group(1))
        except (OSError, AttributeError):
            pass
    return total


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


def test_memory_does_not_grow_over_twenty_edits(client, tmp_path):
    solution = (Path(__file__).resolve().parents[3] / "kernels" / "vector_add.py").read_text()
    sizes = []
    for edit in range(20):
        learner = tmp_path / f"edit_{edit}.py"
        learner.write_text(solution + f"\nEDIT = {edit}\nBIG = [0] * {200_000 * (edit + 1)}\n")
        result = verify(client, learner)
        assert result["passed"], result.get("summary")
        sizes.append(_rss_kib(client.proc.pid))
    growth = sizes[-1] - sizes[4]
    assert growth < 60 * 1024, sizes  # each edit's module (and its growing list) died with its runner


# ---- the same attempts on a GPU (skipped without CUDA) ---------------------------------------------------------

GPU_SKIP = {
    "t18_huge_allocation.py"
}  # no address-space limit on a GPU runner: CUDA maps far more than it uses


@pytest.fixture(scope="module")
def gpu_client(home):
    worker = WorkerClient(backend="gpu", env={"TRITONLAB_HOME": str(home)})
    yield worker
    worker.close()


@pytest.mark.gpu
@pytest.mark.parametrize(
    "name", sorted(p.name for p in FILES.glob("t*.py") if p.name not in SPECIAL | GPU_SKIP)
)
def test_tamper_attempt_fails_on_the_gpu(gpu_client, name):
    expect, exercise = header(FILES / name)
    on_gpu = re.search(r"^# expect-gpu: *(\S+)", (FILES / name).read_text(), re.MULTILINE)
    expect = on_gpu.group(1).strip() if on_gpu else expect
    result = verify(gpu_client, FILES / name, exercise, timeout=300)
    assert result["passed"] is False, result.get("summary")
    assert expect in kinds(result), (kinds(result), result.get("summary"))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["t36_two_kernels_and_a_self_check.py", "t37_reference_handed_to_kernel.py"])
def test_copying_a_kernels_own_answer_passes_on_the_gpu(gpu_client, name):
    """The false-fail side of `copied-answer` on a GPU, where "no kernel wrote it" comes from byte snapshots."""
    result = verify(gpu_client, FILES / name, "5", timeout=300)
    assert result["passed"], result.get("summary")


@pytest.mark.gpu
def test_solutions_still_pass_on_the_gpu(gpu_client):
    for exercise in ("5", "7/copy-2d", "8/softmax", "9/matmul"):
        result = gpu_client.request("verify", {"exercise": exercise, "solution": True}, timeout=300)
        assert result["passed"], (exercise, result.get("summary"))


@pytest.mark.gpu
def test_signals_are_refused_and_input_patches_do_nothing_on_the_gpu(gpu_client):
    """The seccomp filter and the rebuilt inputs on a GPU runner (CUDA's own threads must still work)."""
    gpu_client.start()
    judge = gpu_client.proc.pid
    for name in ("t15_kill_parent.py", "t28_kill_the_judge.py"):
        _sandbox_says_no(verify(gpu_client, FILES / name, timeout=300))
    assert gpu_client.alive and gpu_client.proc.pid == judge
    patched = verify(gpu_client, FILES / "t31_patch_torch_random.py", timeout=300)  # torch.randn patched
    assert patched["passed"], patched.get("summary")
