"""The UI process must never import torch or triton (2.7 s here, 5.9 s on a GPU box): checked in a subprocess.
And the engine has one door: nothing outside `tritonlab/engine/` imports its client or replay modules."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "tritonlab"

UI_SIDE = [
    "tritonlab.cli",
    "tritonlab.content.loader",
    "tritonlab.content.check",
    "tritonlab.dev.check",
    "tritonlab.engine.client",
    "tritonlab.engine.replay",
    "tritonlab.engine.lab",
    "tritonlab.engine.results",
    "tritonlab.present.cli",
    "tritonlab.present.bench",
    "tritonlab.present.diagnoses",
    "tritonlab.store",
    "tritonlab.doctor",
    "tritonlab.quiz",
]

BEHIND_THE_DOOR = ("tritonlab.engine.client", "tritonlab.engine.replay")


@pytest.mark.parametrize("module", UI_SIDE)
def test_module_does_not_import_torch_or_triton(module):
    code = (
        f"import sys, {module}; "
        "bad = [m for m in ('torch', 'triton', 'numpy') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"{module} imported {out.stdout.strip()}"


@pytest.mark.parametrize(
    "module",
    [
        "tritonlab.engine.client",
        "tritonlab.content.loader",
        "tritonlab.engine.protocol",
        "tritonlab.engine.lab",
        "tritonlab.present.cli",
        "tritonlab.present.bench",
        "tritonlab.present.cjk_wrap",
    ],
)
def test_engine_content_and_present_do_not_import_textual(module):
    code = f"import sys, {module}; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def imported_modules(source: str) -> set[str]:
    """Every module an `import`/`from … import` names, with `from pkg import mod` as `pkg.mod` too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def door_violations(root: Path) -> list[str]:
    bad = []
    for path in sorted(root.rglob("*.py")):
        if "engine" in path.relative_to(root).parts[:1]:
            continue
        hits = imported_modules(path.read_text(encoding="utf-8")) & set(BEHIND_THE_DOOR)
        bad += [f"{path.relative_to(root)}: {name}" for name in sorted(hits)]
    return bad


def test_nothing_outside_the_engine_imports_its_client_or_replay():
    assert door_violations(PACKAGE) == []


def test_the_door_check_sees_both_import_forms(tmp_path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "lab.py").write_text(
        "from tritonlab.engine.client import WorkerClient\n"
    )  # allowed
    (tmp_path / "ui.py").write_text("from tritonlab.engine import replay\n")
    (tmp_path / "cli.py").write_text(
        "import tritonlab.engine.client as c\nfrom tritonlab.engine.lab import Lab\n"
    )
    assert door_violations(tmp_path) == ["cli.py: tritonlab.engine.client", "ui.py: tritonlab.engine.replay"]


CONTENT_MODULES = [
    "tritonlab.content." + name
    for name in (
        "model",
        "loader",
        "check",
        "schema",
        "exercises",
        "quiz_parser",
        "toml_source",
        "where",
        "problems",
    )
]


@pytest.mark.parametrize("module", CONTENT_MODULES)
def test_content_does_not_import_the_engine(module):
    """Content is content: the developer check that needs kernels lives in tritonlab.dev (rustlings' src/dev)."""
    code = (
        f"import sys, {module}; print(','.join(m for m in sys.modules if m.startswith('tritonlab.engine')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"{module} imported {out.stdout.strip()}"
