#!/usr/bin/env bash
# The whole GPU pass in one call (device tool: 10-minute limit). Writes logs under $OUT, prints a short table.
#   run: bash scripts/gpu_suite.sh            (on the H200; textual is not there, so tests/functional is skipped)
set -uo pipefail
OUT="${OUT:-/tmp/gpu-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 TRITONLAB_HOME="$OUT/home"
PY=python3
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/gpu: /'
  $PY -c "import sys,torch,triton,numpy;print('python',sys.version.split()[0],'torch',torch.__version__,'triton',triton.__version__,'numpy',numpy.__version__)"
} | tee "$OUT/versions.txt"

SECONDS=0
TESTS="tests/unit tests/integration"; [ -d tests/gpu ] && TESTS="$TESTS tests/gpu"
timeout 300 $PY -m pytest -q -p no:cacheprovider -rs --ignore=tests/functional $TESTS \
  --junitxml="$OUT/pytest.xml" > "$OUT/pytest.log" 2>&1
echo "pytest rc=$? in ${SECONDS}s: $(tail -1 "$OUT/pytest.log")"

if [ -z "${SKIP_CHECK:-}" ]; then
SECONDS=0
timeout 240 $PY -m tritonlab check --backend gpu --json > "$OUT/check.json" 2> "$OUT/check.err"
echo "content check on GPU rc=$? in ${SECONDS}s"
$PY - "$OUT/check.json" <<'PYEOF'
import json, sys
try:
    data = json.load(open(sys.argv[1]))
except Exception as exc:
    print("  no check.json:", exc); sys.exit()
for run in data["runs"]:
    print(f"  {run['exercise']:<34} {run['which']:<8} {'pass' if run['passed'] else 'FAIL':<5} {run['seconds']:>6.2f}s {run['backend']}")
for f in data["failures"]:
    print("  FAIL:", f[:160])
PYEOF
fi

if [ -f scripts/gpu_check.py ]; then
  SECONDS=0
  timeout 200 $PY scripts/gpu_check.py > "$OUT/gpu_check.log" 2>&1
  echo "gpu_check rc=$? in ${SECONDS}s"; tail -40 "$OUT/gpu_check.log"
fi
grep -E "passed|failed|error" "$OUT/pytest.log" | tail -3
grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" | head -20
