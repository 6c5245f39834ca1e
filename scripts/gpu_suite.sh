#!/usr/bin/env bash
# The whole GPU pass (device tool: 10 minutes a call, ~45 minutes a session). Prints a short table and leaves
# ONE archive per call, $OUT/gpu-results-PART.tgz, because the device tool brings back only a few files per call.
#   bash scripts/gpu_suite.sh [gpu|unit|tests|check|bench|all]   (default: all; textual is not on the GPU image, so
#                                                                tests/functional is skipped there)
# Limits: PYTEST_LIMIT (s, each pytest part, default 520), BENCH_LIMIT (s, default 400), GPU_CHECK_BUDGET_S.
# Seen on the H200 (2026-12-02): "gpu" 340 s, "unit" > 190 s (the content tests JIT every solution), content
# "check" ~4 min, "bench" (scripts/gpu_check.py) ~155 s. One part per call; "tests" = gpu + unit does not fit one.
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

# pytest in two parts, so each fits a 10-minute call: "gpu" = the GPU-marked tests, the broken-kernel corpus and
# the worker tests (the GPU paths); "unit" = the rest. -v puts each test's name in the log before it runs, and
# faulthandler dumps the stacks of a test that runs past 150 s, so a cut-off log still says where the time went.
run_pytest() {  # $1 = label, rest = test paths
  local label="$1"; shift
  SECONDS=0
  timeout "${PYTEST_LIMIT:-520}" $PY -m pytest -v -p no:cacheprovider -rs --durations=25 -o faulthandler_timeout=150 \
    --ignore=tests/functional "$@" --junitxml="$WORK/pytest-$label.xml" > "$WORK/pytest-$label.log" 2>&1
  echo "pytest $label rc=$? in ${SECONDS}s: $(tail -1 "$WORK/pytest-$label.log")"
  grep -E "(FAILED|ERROR)( |$)" "$WORK/pytest-$label.log" | grep -v "^tests/.*PASSED" | head -20
}
GPU_TESTS="tests/gpu tests/integration/test_broken_corpus.py tests/integration/test_worker.py"
if [ "$PART" = gpu ] || [ "$PART" = tests ] || [ "$PART" = all ]; then
  run_pytest gpu $GPU_TESTS
fi
# "marked": every gpu-marked test anywhere (tamper corpus, tutorials, lessons 11-14 on the GPU) plus the corpus.
if [ "$PART" = marked ]; then
  run_pytest marked tests -m "gpu" ; run_pytest corpus tests/integration/test_broken_corpus.py
fi
if [ "$PART" = unit ] || [ "$PART" = tests ] || [ "$PART" = all ]; then
  run_pytest unit tests/unit tests/integration \
    --ignore=tests/integration/test_broken_corpus.py --ignore=tests/integration/test_worker.py
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
  OUT="$WORK" timeout "${BENCH_LIMIT:-400}" $PY scripts/gpu_check.py > "$WORK/gpu_check.log" 2>&1
  echo "gpu_check rc=$? in ${SECONDS}s"; tail -40 "$WORK/gpu_check.log"
fi
tar czf "$OUT/gpu-results-$PART.tgz" -C "$WORK" . && echo "archive: \$OUT/gpu-results-$PART.tgz"
