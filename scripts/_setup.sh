# Shared by scripts/start and scripts/test: make .venv and install TritonLab (non-editable) into it.
# TORCH_SPEC picks the torch build (default torch==2.13.0); PYTHON picks the interpreter (default python3).
#
# Installing takes seconds and `import torch` alone takes ~3 s, so nothing is re-checked when the venv carries a
# stamp of the source it was installed from (a hash of the packaged files plus the extras): an unchanged checkout
# launches at once, a changed one reinstalls. TRITONLAB_REINSTALL=1 forces a reinstall.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${TRITONLAB_VENV:-$ROOT/.venv}"
PYTHON="${PYTHON:-python3}"
TORCH_SPEC="${TORCH_SPEC:-torch==2.13.0}"
EXTRAS="${1:-}"
STAMP="$VENV/.tritonlab-installed"

source_stamp() {
    # Everything `pip install .` packages; __pycache__ and editor droppings do not count.
    (
        cd "$ROOT"
        printf 'extras=%s\n' "$EXTRAS"
        find pyproject.toml setup.py tritonlab lessons kernels -type f \
            -not -path '*/__pycache__/*' -not -name '*.pyc' -not -name '*~' -not -name '.*.swp' -print0 2>/dev/null |
            sort -z | xargs -0 sha256sum
    ) | sha256sum | cut -d' ' -f1
}

WANT="$(source_stamp)"
if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$WANT" ] && [ -z "${TRITONLAB_REINSTALL:-}" ]; then
    return 0 2>/dev/null || exit 0  # installed from this very source: nothing to do
fi

step() {
    if [ -t 2 ]; then printf '\033[1m[%s] %s\033[0m\n' "$1" "$2" >&2; else printf '[%s] %s\n' "$1" "$2" >&2; fi
}
if [ ! -x "$VENV/bin/python" ]; then
    step "1/3" "creating $VENV with $($PYTHON --version 2>&1)"
    "$PYTHON" -m venv "$VENV"
else
    step "1/3" "using $VENV"
fi
PIP=("$VENV/bin/python" -m pip install --disable-pip-version-check --progress-bar on)
if ! "$VENV/bin/python" -c "import torch" >/dev/null 2>&1; then
    step "2/3" "installing $TORCH_SPEC (large; set TORCH_SPEC to choose another build) — pip's progress follows"
    "${PIP[@]}" "$TORCH_SPEC"
else
    step "2/3" "torch is already installed"
fi
step "3/3" "installing tritonlab${EXTRAS} from $ROOT (the source changed since the last install)"
rm -f "$STAMP"
# The exit status is pip's (process substitution), the "already satisfied" noise is dropped.
"${PIP[@]}" "$ROOT$EXTRAS" > >(grep -v --line-buffered '^Requirement already satisfied' >&2)
"$VENV/bin/python" -c "import tritonlab" # fail here, not at launch, when the install did not work
echo "$WANT" > "$STAMP"
step "ok" "installed; next launches start at once until the source changes"
