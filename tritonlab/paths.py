"""Where the shipped content lives, for a source checkout and for an installed wheel alike."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent


def _package_dir(name: str, fallback: Path) -> Path:
    # In a checkout, lessons/ and kernels/ sit beside tritonlab/; an installed wheel maps them to
    # tritonlab.lessons and tritonlab.kernels (see pyproject.toml's package-dir).
    if (_REPO_ROOT / "pyproject.toml").is_file() and fallback.is_dir():
        return fallback
    spec = importlib.util.find_spec(name)
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    return fallback


def lessons_dir() -> Path:
    override = os.environ.get("TRITONLAB_LESSONS_DIR")
    if override:
        return Path(override)
    return _package_dir("tritonlab.lessons", _REPO_ROOT / "lessons")


def kernels_dir() -> Path:
    return _package_dir("tritonlab.kernels", _REPO_ROOT / "kernels")
