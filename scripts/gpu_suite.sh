#!/usr/bin/env bash
# The whole GPU pass (device tool: 10 minutes a call, ~45 minutes a session). Prints a short table and leaves
# ONE archive, $OUT/gpu-results.tgz, because the device tool brings back only a few files per call.
#   bash scripts/gpu_suite.sh [tests|check|bench|all]      (default: all; textual is not on the GPU image, so
#                                                            tests/functional is skipped there)
# Budget seen on the H200 (2026-12-02): tests ~5 min (the bench GPU tests measure ceilings and sweeps),
# content check ~4 min, scripts/gpu_check.py ~3 min. Run them as separate calls.
set -uo pipefail
PART="${1:-all}"
OUT="${OUT:-/tmp/gpu-out}"; mkdir -p "$OUT"
WORK=/tmp/gpu-work; rm -rf "$WORK"; mkdir -p "$WORK"
export PYTHONUNBUFFERED=1 TRITONLAB_HOME="$WORK/home"
PY=python3
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/gpu: /'
  $PY -c "import sys,torch,triton,numpy;print('python',sys.version.split()[0],'torch',torch.__version__,'triton',triton.__version__,'numpy',numpy.__version__)"
} | tee "$WORK/versions.txt"

if [ "$PART" = tests ] || [ "$PART" = all ]; then
  SECONDS=0
  TESTS="tests/unit tests/integration"; [ -d tests/gpu ] && TESTS="$TESTS tests/gpu"
  timeout 480 $PY -m pytest -q -p no:cacheprovider -rs --ignore=tests/functional $TESTS \
    --junitxml="$WORK/pytest.xml" > "$WORK/pytest.log" 2>&1
  echo "pytest rc=$? in ${SECONDS}s: $(tail -1 "$WORK/pytest.log")"
  grep -E "^(FAILED|ERROR)" "$WORK/pytest.log" | head -20
fi

if [ "$PART" = check ] || [ "$PART" = all ]; then
  SECONDS=0
  timeout 400 $PY -m tritonlab check --backend gpu --json > "$WORK/check.json" 2> "$WORK/check.err"
  echo "content check on GPU rc=$? in ${SECONDS}s"
  $PY - "$WORK/check.json" <<'PYEOF'
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

if { [ "$PART" = bench ] || [ "$PART" = all ]; } && [ -f scripts/gpu_check.py ]; then
  SECONDS=0
  OUT="$WORK" timeout 400 $PY scripts/gpu_check.py > "$WORK/gpu_check.log" 2>&1
  echo "gpu_check rc=$? in ${SECONDS}s"; tail -40 "$WORK/gpu_check.log"
fi
tar czf "$OUT/gpu-results.tgz" -C "$WORK" . && echo "archive: \$OUT/gpu-results.tgz"
