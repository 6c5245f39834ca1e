# Shared by scripts/start and scripts/test: make .venv and install TritonLab (non-editable) into it.
# TORCH_SPEC picks the torch build (default torch==2.13.0); PYTHON picks the interpreter (default python3).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${TRITONLAB_VENV:-$ROOT/.venv}"
PYTHON="${PYTHON:-python3}"
TORCH_SPEC="${TORCH_SPEC:-torch==2.13.0}"
EXTRAS="${1:-}"

if [ ! -x "$VENV/bin/python" ]; then
    echo "setting up $VENV with $($PYTHON --version 2>&1)" >&2
    "$PYTHON" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip install --disable-pip-version-check -q)
if ! "$VENV/bin/python" -c "import torch" >/dev/null 2>&1; then
    echo "installing $TORCH_SPEC (set TORCH_SPEC to choose another build)" >&2
    "${PIP[@]}" "$TORCH_SPEC"
fi
echo "installing tritonlab${EXTRAS}" >&2
"${PIP[@]}" "$ROOT$EXTRAS"
