#!/usr/bin/env bash
# Twenty-first session: the GPU pass for the twentieth session's engine changes, with pytest-xdist (on the GPU image)
# so each part fits one 10-minute device call. One archive per call: $OUT/s21-PART.tgz.
#   bash scripts/gpu_s21.sh a   content check on the GPU (every solution passes, every starter fails) beside
#                               tests/unit + tests/integration (no corpus/worker) with -n 10
#   bash scripts/gpu_s21.sh b   tests/gpu + the broken-kernel corpus + the worker tests, serial (timings)
#   bash scripts/gpu_s21.sh c   every other gpu-marked test (-n 4)
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
part=${1:-a}
OUT=${OUT:-/tmp/s21-out}; W=/tmp/s21-work; rm -rf $W; mkdir -p $W $OUT
export TRITONLAB_HOME=$W/home
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"; } > $W/versions.txt
cat $W/versions.txt
pt() {  # label limit args...
  local label=$1 limit=$2; shift 2; SECONDS=0
  timeout $limit python3 -m pytest -p no:cacheprovider -rs -q --durations=15 --ignore=tests/functional "$@" \
    > $W/pytest-$label.log 2>&1
  echo "pytest $label rc=$? ${SECONDS}s: $(tail -1 $W/pytest-$label.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-$label.log | head -25
}
if [ "$part" = a ]; then
  ( SECONDS=0; timeout 520 python3 -m tritonlab check --backend gpu --json > $W/check.json 2> $W/check.err
    echo "content check rc=$? ${SECONDS}s" > $W/check.rc ) &
  pt unit 540 -n 10 tests/unit tests/integration --ignore=tests/integration/test_broken_corpus.py \
    --ignore=tests/integration/test_worker.py
  wait; cat $W/check.rc
  python3 - $W/check.json <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("no check.json", e); sys.exit()
bad = [r for r in d["runs"] if not r.get("skipped") and r["passed"] != (r["which"] == "solution")]
print(f"  {len(d['runs'])} runs, {len(bad)} wrong;", "failures:", d["failures"][:5])
for r in bad:
    print("  WRONG", r["exercise"], r["which"], r["passed"])
slow = sorted(d["runs"], key=lambda r: -r["seconds"])[:5]
print("  slowest:", ", ".join(f"{r['exercise']} {r['which']} {r['seconds']:.1f}s" for r in slow))
PY
fi
if [ "$part" = b ]; then
  pt gpu 570 tests/gpu tests/integration/test_broken_corpus.py tests/integration/test_worker.py
fi
if [ "$part" = c ]; then
  pt marked 560 -n 4 -m gpu tests --ignore=tests/gpu --ignore=tests/integration/test_broken_corpus.py \
    --ignore=tests/integration/test_worker.py
fi
tar czf $OUT/s21-$part.tgz -C $W . && echo "archive s21-$part.tgz"
