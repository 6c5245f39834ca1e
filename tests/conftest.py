import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _has_cuda() -> bool:
    if shutil.which("nvidia-smi") is None and not os.path.exists("/dev/nvidiactl"):
        return False
    try:
        import torch

        return torch.cuda.is_available()
    except Exception:
        return False


HAS_CUDA = _has_cuda()

#: The fields every `bench --json` row promises (issue: benchmarks), on the GPU and on the interpreter alike.
BENCH_ROW_KEYS = (
    "numel",
    "element_size",
    "dtype",
    "ms",
    "ms_q20",
    "ms_q80",
    "gbps",
    "tflops",
    "torch_ms",
    "speedup",
    "pct_of_peak",
)


def pytest_collection_modifyitems(config, items):
    skip_gpu = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords and not HAS_CUDA:
            item.add_marker(skip_gpu)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """Every test gets its own user-data dir: drafts, progress and settings never touch the real ones."""
    home = tmp_path / "tritonlab-home"
    monkeypatch.setenv("TRITONLAB_HOME", str(home))
    return home


@pytest.fixture
def backend():
    return "gpu" if HAS_CUDA else "interpreter"
