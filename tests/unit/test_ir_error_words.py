"""`tritonlab ir`'s own errors carry facts and are worded in the learner's language: a wrapper that launches no
kernel, SASS that cannot be shown, a stage this Triton does not keep, the compiler taking too long, the
compiler process dying. Under --lang ja they were the engine's English quoted in «…» ("コードが例外を送出しま
した: «add() launched no Triton kernel…»"), the timeout said "? 秒" and blamed an infinite loop and a stopped
worker, the crash said "ワーカープロセスが終了しました: ?". The English `message` is unchanged, for --json."""

from __future__ import annotations

import json
import subprocess
from types import SimpleNamespace

import pytest

from tritonlab import cli
from tritonlab.app.formatting import restart_notice
from tritonlab.engine import kernel_ir
from tritonlab.engine.results import IrResult
from tritonlab.engine.worker import runner_timeout_facts
from tritonlab.present.diagnoses import describe


def _worded(err: dict) -> tuple[str, str]:
    en, ja = describe(err, "en"), describe(err, "ja")
    assert "«" not in ja and "?" not in ja and "?" not in en, (en, ja)
    return en, ja


def test_a_wrapper_that_launches_no_kernel(tmp_path):
    learner = tmp_path / "add.py"
    learner.write_text("def add(x, y):\n    return x + y\n", encoding="utf-8")
    result = kernel_ir.compile_exercise(
        {"exercise": "5", "file": str(learner), "stage": "ttir", "arch": "sm_90"}, "cpu"
    )
    err = result["error"]
    assert err["kind"] == "runtime" and err["cause"] == "no-launch" and err["entry"] == "add", err
    assert err["message"].startswith("add() launched no Triton kernel")
    en, ja = _worded(err)
    assert en == err["message"]
    assert ja.startswith("add() が Triton のカーネルを 1 つも起動しなかったので") and "kernel[grid]" in ja


def _described(stage: str, asm: dict) -> dict:
    result: dict = {"kernel": "add_kernel", "triton": "3.4.0", "arch": "sm_90", "error": None}
    compiled = SimpleNamespace(metadata={"shared": 0, "num_warps": 4, "num_stages": 3}, asm=asm)
    launch = kernel_ir.Launch(fn=None, args=(), kwargs={})
    kernel_ir.describe(result, compiled, stage, launch, {"n": 8}, "float32", on_device=False)
    return result["error"]


def test_sass_without_a_cubin_and_a_stage_this_triton_does_not_keep():
    err = _described("sass", {"ptx": "..."})
    assert err["cause"] == "no-sass" and err["reason"] == "no-cubin", err
    en, ja = _worded(err)
    assert en == err["message"] == "cannot show SASS: this Triton produced no cubin"
    assert ja == "SASS を表示できません: この Triton は cubin を出力しませんでした"

    err = _described("llir", {"ptx": "..."})
    assert err == {
        "kind": "compile",
        "message": "this Triton (3.4.0) does not keep the llir stage",
        "line": None,
        "cause": "stage-missing",
        "stage": "llir",
        "triton": "3.4.0",
    }
    en, ja = _worded(err)
    assert en == err["message"]
    assert ja == "この Triton(3.4.0)は llir ステージの出力を残しません"


def test_sass_without_a_tool_or_with_tools_that_fail(monkeypatch):
    monkeypatch.setattr(kernel_ir, "nvidia_tool", lambda name: None)
    text, why = kernel_ir.disassemble(b"\0")
    assert text is None and why == {"reason": "no-tool"}
    err = _described("sass", {"cubin": b"\0"})
    assert err["reason"] == "no-tool"
    en, ja = _worded(err)
    assert en == err["message"] and "cuobjdump も nvdisasm も見つかりません" in ja

    monkeypatch.setattr(kernel_ir, "nvidia_tool", lambda name: "/bin/false")  # found, but gives no SASS
    err = _described("sass", {"cubin": b"\0"})
    assert err["reason"] == "tool-failed" and err["tools"] == ["cuobjdump", "nvdisasm"], err
    en, ja = _worded(err)
    assert en == err["message"] == "cannot show SASS: cuobjdump and nvdisasm could not disassemble the cubin"
    assert ja == "SASS を表示できません: cuobjdump と nvdisasm では cubin を逆アセンブルできませんでした"


def _compile_with(monkeypatch, outcome) -> dict:
    def run(*args, **kwargs):
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    monkeypatch.setattr(kernel_ir.subprocess, "run", run)
    return kernel_ir.compile_in_subprocess({"exercise": "5", "stage": "ttir"}, timeout=100.0)


def test_a_compile_timeout_says_the_compiler_took_too_long_with_its_seconds(monkeypatch):
    result = _compile_with(monkeypatch, subprocess.TimeoutExpired(["python"], 100.0))
    runner_timeout_facts(result, 120.0)  # the worker's pass over a result must not make it a runner timeout
    err = result["error"]
    assert err["kind"] == "timeout" and err["timeout_s"] == 100.0 and err["stopped"] == "compiler", err
    assert err["message"] == "compiling took more than 100 s"
    en, ja = _worded(err)
    assert en.startswith("compiling the kernel took more than 100 s, so the lab stopped the compiler"), en
    assert ja.startswith("カーネルのコンパイルが 100 秒を超えたため、コンパイラを停止しました"), ja
    for wrong in ("loop forever", "worker"):
        assert wrong not in en, en
    for wrong in ("無限ループ", "ワーカー"):
        assert wrong not in ja, ja
    assert restart_notice(err, "en", None) is None  # the worker was never stopped


@pytest.mark.parametrize(
    ("returncode", "en_why", "ja_why"),
    [(-9, "SIGKILL (killed", "SIGKILL (強制終了"), (1, "exit code 1", "終了コード 1")],
)
def test_a_compiler_crash_says_how_the_compiler_ended(monkeypatch, returncode, en_why, ja_why):
    done = subprocess.CompletedProcess(["python"], returncode, "", "Killed\n")
    err = _compile_with(monkeypatch, done)["error"]
    assert err["kind"] == "crash" and err["cause"] == "compiler" and err["exit_code"] == returncode, err
    assert (err.get("signal") == "SIGKILL") == (returncode == -9)
    assert err["message"] == f"the compiler process failed (exit status {returncode})"
    en, ja = _worded(err)
    assert en.startswith(f"the compiler process failed and gave no answer: {en_why}"), en
    assert ja.startswith(f"コンパイラのプロセスが異常終了し、結果を返しませんでした: {ja_why}"), ja
    assert "worker process died" not in en and "ワーカープロセスが終了" not in ja
    assert restart_notice(err, "en", None) is None  # the worker did not restart


class _Lab:
    def __init__(self, result) -> None:
        self.result = result

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def request(self, op, args, **kwargs):
        return self.result


def test_the_cli_prints_the_compile_timeout_in_japanese_and_json_keeps_the_facts(monkeypatch, capsys):
    err = {
        "kind": "timeout",
        "message": "compiling took more than 100 s",
        "line": None,
        "timeout_s": 100.0,
        "stopped": "compiler",
    }
    monkeypatch.setattr(cli, "_lab", lambda opts: _Lab(IrResult.from_json({"exercise": "5", "error": err})))
    assert cli.main(["--lang", "ja", "ir", "5"]) == cli.EXIT_FAIL
    out = capsys.readouterr().out.replace("\n", "")  # as wrapped for the terminal
    assert "100 秒" in out and "? 秒" not in out and "«" not in out, out
    assert "コンパイラを停止しました" in out and "無限ループ" not in out and "ワーカー" not in out, out
    assert cli.main(["--lang", "ja", "ir", "5", "--json"]) == cli.EXIT_FAIL
    assert json.loads(capsys.readouterr().out)["error"] == err
