"""`tritonlab profile`: the kernels one call launches and where the time goes (GPU), or the launches
(interpreter). Verify decides first: a wrong kernel is not profiled."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tritonlab.paths import kernels_dir

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = (kernels_dir() / "vector_add.py").read_text()


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tritonlab", "profile", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )


def profile_json(*args: str) -> tuple[int, dict]:
    done = cli(*args, "--json")
    return done.returncode, json.loads(done.stdout)


def test_interpreter_profile_lists_the_launches_of_one_call():
    code, data = profile_json("5", "--solution", "--backend", "interpreter", "--size", "n=5000")
    assert code == 0, data.get("error")
    assert data["verified"] is True and data["method"] == "interpreter"
    assert data["wall_us"] is None and data["kernels"] == []  # no times from the interpreter, ever
    (launch,) = data["launches"]
    assert launch["kernel"] == "add_kernel" and launch["yours"] is True
    assert launch["programs"] == 5 and launch["grid"][0] == 5  # cdiv(5000, 1024)
    assert any("GPU" in line for line in data["lines"])


def test_a_wrapper_that_launches_twice_shows_two_launches(tmp_path):
    """The false-pass side: the list is the launches that happened, not the kernels the file defines."""
    twice = tmp_path / "twice.py"
    twice.write_text(
        SOLUTION.replace(
            "    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)\n",
            "    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)\n"
            "    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=512)\n",
        )
    )
    code, data = profile_json("5", "--file", str(twice), "--backend", "interpreter", "--size", "n=5000")
    assert code == 0, data.get("error")
    assert [(x["kernel"], x["programs"]) for x in data["launches"]] == [("add_kernel", 5), ("add_kernel", 10)]


def test_a_kernel_that_fails_verify_is_not_profiled():
    code, data = profile_json("5", "--backend", "interpreter")  # the starter
    assert code == 1 and data["verified"] is False
    assert data["error"]["not_timed"] is True and data["launches"] == []


def test_profile_words_in_japanese_and_a_bad_size_is_a_usage_error():
    done = cli("12/rms-norm-backward", "--solution", "--backend", "interpreter", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert (
        "逆伝播 1 回" in done.stdout
        and "rms_norm_bwd_dx_kernel" in done.stdout
        and "インタプリタ" in done.stdout
    )
    bad = cli("5", "--solution", "--size", "n=lots")
    assert bad.returncode == 2 and "NAME=INTEGER" in bad.stderr


@pytest.mark.gpu
def test_gpu_profile_times_each_kernel_and_names_the_ones_not_yours(tmp_path):
    code, data = profile_json("5", "--solution", "--backend", "gpu")
    assert code == 0, data.get("error")
    assert data["method"] == "torch.profiler", data.get("profiler_error")
    mine = [k for k in data["kernels"] if k["yours"]]
    assert [k["name"] for k in mine] == ["add_kernel"] and mine[0]["per_call"] == 1
    assert data["events_us"] > 0 and data["device_us"] > 0 and data["host_us"] >= 0
    assert data["wall_us"] >= data["device_us"] * 0.5
    cloned = tmp_path / "cloned.py"
    cloned.write_text(
        SOLUTION.replace(
            "    output = torch.empty_like(x)\n", "    x = x.clone()\n    output = torch.empty_like(x)\n"
        )
    )
    code, data = profile_json("5", "--file", str(cloned), "--backend", "gpu")
    assert code == 0, data.get("error")
    assert any(not k["yours"] for k in data["kernels"]), data["kernels"]  # the clone's copy kernel
