"""engine/op_launches.py: the launch recorder tells a kernel launched through wrap_triton inside a torch.library
operator's body from a bare `kernel[grid](...)` there, and leaves launches outside any operator alone. The runner's
half (a fresh interpreted child: TRITON_INTERPRET=1 before triton is imported), the judge's and the words."""

import os
import subprocess
import sys
from types import SimpleNamespace

from tests.interpreted import ROOT, last_json, run_interpreted
from tritonlab.engine.tasks import verify, verify_runner
from tritonlab.present.diagnoses import describe

SCRIPT = r"""
import json, sys
import torch, torch.library, triton, triton.language as tl
from torch._library import triton as torch_triton
from tritonlab.engine import memcheck, op_launches
from tritonlab.engine.interpreter_support import repair_wrap_triton

if sys.argv[1] == "torch-2.11":  # torch 2.11 refuses an interpreted kernel; the lab's repair stands in front
    def refuses(kernel, /):
        raise RuntimeError("wrap_triton only works on functions annotated with triton.jit or triton.autotune")
    torch_triton.wrap_triton = torch.library.wrap_triton = refuses
    repair_wrap_triton()
before = torch.library.wrap_triton
installed = op_launches.install() and op_launches.install()  # idempotent

@triton.jit
def double_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)

module_level = torch.library.wrap_triton(double_kernel)
HOW = {}

@torch.library.triton_op("oplaunch::double", mutates_args={})
def double(x: torch.Tensor, how: int) -> torch.Tensor:
    out = x.clone()
    name = HOW[how]
    if name == "bare":
        double_kernel[(1,)](out, out.numel(), BLOCK=8)
    elif name == "run":
        double_kernel.run(out, out.numel(), BLOCK=8, grid=(1,), warmup=False)
    elif name == "wrapped":
        torch.library.wrap_triton(double_kernel)[(1,)](out, out.numel(), BLOCK=8)
    elif name == "wrapped-run":
        torch.library.wrap_triton(double_kernel).run(out, out.numel(), BLOCK=8, grid=(1,), warmup=False)
    elif name == "module-level":
        module_level[(1,)](out, out.numel(), BLOCK=8)
    elif name == "capture":
        torch._library.capture_triton(double_kernel)[(1,)](out, out.numel(), BLOCK=8)
    elif name == "custom-op":
        out = torch.ops.oplaunch.plain(out)
    elif name == "switched-on":
        with torch_triton.set_wrap_triton_enabled(True):
            double_kernel[(1,)](out, out.numel(), BLOCK=8)
    return out

@torch.library.custom_op("oplaunch::plain", mutates_args=())
def plain(x: torch.Tensor) -> torch.Tensor:  # opaque to torch.compile: its launches are its own business
    out = x.clone()
    double_kernel[(1,)](out, out.numel(), BLOCK=8)
    return out

def launched(name, watched=False):
    HOW[len(HOW)] = name
    x = torch.arange(8, dtype=torch.float32)
    with memcheck.track_launches() as launches:
        if watched:
            with op_launches.inside("oplaunch::double"):
                got = torch.ops.oplaunch.double(x, len(HOW) - 1)
        else:
            got = torch.ops.oplaunch.double(x, len(HOW) - 1)
    assert got.tolist() == (x * 2).tolist(), (name, got)
    (record,) = launches
    lines = [line for file, line in record.get("frames", []) if file == "<string>"]
    return {"op": record.get("op"), "wrapped": record.get("wrapped"), "line": lines[0] if lines else None}

with memcheck.track_launches() as outside:
    x = torch.arange(8, dtype=torch.float32)
    double_kernel[(1,)](x, 8, BLOCK=8)
print(json.dumps({
    "installed": installed,
    "same_object": torch.library.wrap_triton is before and torch_triton.wrap_triton is before,
    "outside": sorted(outside[0]),
    "cases": {name: launched(name) for name in ("bare", "run", "wrapped", "wrapped-run", "module-level", "capture")},
    "custom-op": launched("custom-op"),
    "switched-on": launched("switched-on"),
    "switched-on-watched": launched("switched-on", watched=True),
    "line_bare": next(i for i, l in enumerate(sys.argv[2].splitlines(), 1) if "double_kernel[(1,)](out" in l),
}))
"""


def run(torch_version: str) -> dict:
    return last_json(run_interpreted(SCRIPT, torch_version, SCRIPT))


def check(result: dict) -> None:
    assert result["installed"] and result["same_object"], result
    assert "wrapped" not in result["outside"] and "op" not in result["outside"], (
        result
    )  # no operator: no facts
    cases = result["cases"]
    op = "oplaunch::double"
    assert cases["bare"] == {"op": op, "wrapped": False, "line": result["line_bare"]}, cases
    assert cases["run"]["wrapped"] is False and cases["run"]["line"], cases
    for name in ("wrapped", "wrapped-run", "module-level", "capture"):
        assert cases[name]["wrapped"] is True and cases[name]["op"] == op, (name, cases[name])
    assert result["custom-op"]["wrapped"] is None, result  # a plain custom_op's body: not judged
    # torch's switch turned back on inside the body hides the operator from torch's flag alone; the runner's
    # dispatch watch (outputs.OpRecorder -> op_launches.inside) still names it
    assert result["switched-on"]["wrapped"] is None, result
    assert result["switched-on-watched"]["wrapped"] is False, result
    assert result["switched-on-watched"]["op"] == op, result


def test_bare_and_wrapped_launches_inside_a_triton_op_are_told_apart():
    check(run("torch-2.13"))


def test_the_marker_works_behind_the_torch_2_11_interpreter_repair():
    check(run("torch-2.11"))


DYNAMO = r"""
import json, torch, torch.library, triton, triton.language as tl
from tritonlab.engine import op_launches

op_launches.install()

real = op_launches._marked_wrap_triton

def marked(original, kernel):  # must never run while Dynamo traces: it treats wrap_triton as a no-op
    if torch.compiler.is_dynamo_compiling():
        raise RuntimeError("the runner's wrap_triton was traced")
    return real(original, kernel)

op_launches._marked_wrap_triton = marked

@triton.jit
def k(x_ptr):
    pass

def f(x):
    torch.library.wrap_triton(k)
    return x + 1

out = torch.compile(f, fullgraph=True, backend="eager")(torch.ones(2))
with torch._library.triton.set_wrap_triton_enabled(False):
    inside = type(torch.library.wrap_triton(k)).__name__
print(json.dumps({"out": out.tolist(), "outside": type(torch.library.wrap_triton(k)).__name__, "inside": inside}))
"""


def test_dynamo_still_treats_wrap_triton_as_a_no_op_and_a_gpu_kernel_is_marked_only_in_an_op_body(tmp_path):
    # no interpreter: triton.jit gives a JITFunction (from a file: it reads its source), as on a GPU; nothing
    # is launched
    script = tmp_path / "dynamo_wrap_triton.py"
    script.write_text(DYNAMO)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TRITON_INTERPRET", None)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
    )
    result = last_json(done)
    assert result == {"out": [2.0, 2.0], "outside": "TraceableTritonKernelWrapper", "inside": "WrappedKernel"}


def test_the_runner_names_the_learners_launch_line(tmp_path):
    mine = str(tmp_path / "mine.py")
    launches = [
        {"kernel": "k", "file": mine, "grid": [1, 1, 1]},  # outside any operator
        {"kernel": "k", "op": "lab::fwd", "wrapped": True, "frames": []},
        {"kernel": "k", "op": "lab::fwd", "wrapped": False, "frames": [["/triton/jit.py", 9], [mine, 42]]},
        {"kernel": "k", "op": "lab::fwd", "wrapped": False, "frames": [["/triton/jit.py", 9], [mine, 42]]},
        {"kernel": "j", "op": None, "wrapped": False, "frames": [["/else.py", 3]]},
    ]
    assert verify_runner._unwrapped(launches, mine) == [
        {"kernel": "k", "op": "lab::fwd", "line": 42},
        {"kernel": "j", "op": None, "line": None},
    ]


def test_the_judge_fails_a_bare_launch_only_where_the_exercise_asks_for_operators():
    facts = {
        "unwrapped": [{"kernel": "k", "op": "lab::fwd", "line": 42}, {"kernel": "k", "line": 42}, "junk"]
    }
    asks = SimpleNamespace(verify=SimpleNamespace(ops=["lab::fwd"]))
    found = verify._unwrapped_diagnoses(asks, facts)
    assert [(d["kind"], d["kernel"], d["op"], d["line"]) for d in found] == [
        ("kernel-not-wrapped", "k", "lab::fwd", 42)
    ]
    assert "wrap_triton(k)[grid](...)" in found[0]["message"]
    assert verify._unwrapped_diagnoses(asks, {"unwrapped": []}) == []
    assert verify._unwrapped_diagnoses(SimpleNamespace(verify=SimpleNamespace(ops=[])), facts) == []


def test_a_bare_launch_is_said_in_both_languages():
    facts = {"kind": "kernel-not-wrapped", "kernel": "fwd_kernel", "op": "lab::fwd", "line": 93}
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert "fwd_kernel[grid](...) inside the operator lab::fwd (line 93)" in en, en
    assert en.endswith("launch it as wrap_triton(fwd_kernel)[grid](...)"), en
    assert "演算子 lab::fwd の中で fwd_kernel が" in ja and "(93 行目)" in ja, ja
    assert "wrap_triton(fwd_kernel)[grid](...) として起動してください" in ja, ja
    bare = describe({"kind": "kernel-not-wrapped"}, "en")
    assert "inside a triton_op" in bare and "wrap_triton(kernel)" in bare, bare
    assert describe({"kind": "kernel-not-wrapped"}, "ja").startswith(
        "triton_op の中でカーネルが kernel[grid](...)"
    )
