"""engine/torch_work.py, probe round 14, the false-fail side through a whole verify: correct files whose wrappers
use the mechanisms the round-14 fakes used, for something that is not the answer, still pass (the fakes fail:
tests/integration/test_probe_round14.py). Each file is a probe round's correct file with a few lines added.

- 14/cross-entropy: the logits' values leave for a numpy check, ctypes answers a size question, a constant goes
  through torch.save / torch.load and a constant table through a file and torch.from_file; the output is a
  fresh torch.empty written by the kernel alone.
- 9/matmul: allocations under `_ExcludeDispatchKeyGuard` of another key (AutogradCPU) and in inference mode.
- 10/debug-rms-norm: a Python kernel registered on aten::alias_copy that only copies, used on the weight."""

from pathlib import Path

import pytest

from tritonlab.engine.client import WorkerClient

ROOT = Path(__file__).resolve().parents[1] / "integration"


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="interpreter")
    yield client
    client.close()


def _variant(tmp_path: Path, source: str, name: str, edits: list[tuple[str, str]]) -> str:
    text = (ROOT / source).read_text()
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text)
    return str(path)


CROSS_ENTROPY = [
    (
        "import torch\n",
        "import ctypes\nimport io\nimport os\nimport tempfile\n\nimport numpy as np\nimport torch\n",
    ),
    (
        "    loss = torch.empty(M, device=logits.device, dtype=torch.float32)\n",
        "    assert np.isfinite(logits.detach().float().cpu().numpy()).all()  # the values leave: a check\n"
        "    assert ctypes.sizeof(ctypes.c_float) == 4\n"
        "    config = io.BytesIO()\n"
        "    torch.save({'rows': torch.full((2,), 0.5)}, config)\n"
        "    config.seek(0)\n"
        "    assert torch.load(config)['rows'].shape == (2,)\n"
        "    fd, table_path = tempfile.mkstemp(suffix='.bin')\n"
        "    os.close(fd)\n"
        "    try:\n"
        "        np.linspace(0.0, 1.0, 8, dtype=np.float32).tofile(table_path)\n"
        "        table = torch.from_file(table_path, shared=False, size=8, dtype=torch.float32)\n"
        "    finally:\n"
        "        os.unlink(table_path)\n"
        "    assert table.shape == (8,)\n"
        "    loss = torch.empty(M, device=logits.device, dtype=torch.float32)\n",
    ),
]

MATMUL = [
    (
        "    c = torch.empty((M, N), device=a.device, dtype=a.dtype)\n",
        "    other = torch._C.DispatchKeySet(torch._C.DispatchKey.AutogradCPU)\n"
        "    with torch._C._ExcludeDispatchKeyGuard(other):\n"
        "        c = torch.empty((M, N), device=a.device, dtype=a.dtype)\n"
        "    with torch.inference_mode():\n"
        "        assert torch.empty(1, device=a.device).numel() == 1\n",
    ),
]

RMS = [
    (
        "import triton.language as tl\n",
        "import triton.language as tl\n\n"
        "_lib = torch.library.Library('aten', 'IMPL')\n\n\n"
        "def _copied(t):\n"
        "    return t.clone()  # a copy: nothing computed\n\n\n"
        "_lib.impl('alias_copy', _copied, 'CPU')\n",
    ),
    ("x, weight.contiguous(), y,", "x, torch.ops.aten.alias_copy.default(weight.contiguous()), y,"),
]


@pytest.mark.parametrize(
    "exercise, source, edits",
    [
        (
            "14/cross-entropy",
            "probe_round14/l14_cross_entropy_ok_base2_scalar_running_state.py",
            CROSS_ENTROPY,
        ),
        ("9/matmul", "probe_round14/l09_matmul_ok_k_tiles_last_to_first_ieee_dot.py", MATMUL),
        ("10/debug-rms-norm", "probe_round13/l10_rms_ok_two_level_sum_via_reshape.py", RMS),
    ],
    ids=[
        "cross-entropy-numpy-ctypes-save-from-file",
        "matmul-other-key-excluded",
        "rms-aten-kernel-that-copies",
    ],
)
def test_a_correct_file_using_the_mechanism_for_something_else_passes(
    worker, tmp_path, exercise, source, edits
):
    path = _variant(tmp_path, source, "correct_" + Path(source).name, edits)
    result = worker.request("verify", {"exercise": exercise, "file": path}, timeout=600)
    failing = [c for c in result.get("cases", []) if not c.get("passed")]
    assert result["passed"], (result.get("error"), failing[:1])
