"""The interpreter's CPU stand-in driver: installed only where triton has no driver, unless the developer switch
TRITONLAB_INTERP_DRIVER=standin asks for it on a GPU box (where the real driver's part in the H200 autotune-verify
deaths is still to be told apart). A child process per case: the driver choice is process-wide."""

import os
import subprocess
import sys
from pathlib import Path

from tritonlab.engine import sandbox

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
from triton.runtime import driver
from tritonlab.engine import interpreter_support

class PretendGpuDriver:  # stands for the real CUDA driver of a GPU box
    def get_current_target(self):
        return "pretend"

driver.set_active(PretendGpuDriver())
installed = interpreter_support.install_if_needed()
print(installed, type(driver.active).__name__)
"""


def _run(switch: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "TRITONLAB_INTERP_DRIVER"}
    env.update(TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
    if switch is not None:
        env["TRITONLAB_INTERP_DRIVER"] = switch
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def test_a_present_driver_is_kept_without_the_switch():
    assert _run(None) == "False PretendGpuDriver"
    assert _run("real") == "False PretendGpuDriver"


def test_the_switch_installs_the_stand_in_over_a_present_driver():
    assert _run("standin") == "True CpuInterpreterDriver"


def test_the_switch_reaches_the_runner_environment():
    env = sandbox.scrubbed_env({"TRITONLAB_INTERP_DRIVER": "standin", "TRITONLAB_HOME": "/x"}, "/tmp/h")
    assert env.get("TRITONLAB_INTERP_DRIVER") == "standin"
    assert "TRITONLAB_HOME" not in env
