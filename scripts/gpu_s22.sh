#!/usr/bin/env bash
# Twenty-second session: the content check split by lesson groups (side by side: the whole check takes ~800 s
# serial on a GPU, more than one device call), beside tests/unit + tests/integration with -n 6, stopped by SIGINT
# before the call's limit so pytest still prints its failures. One archive: $OUT/s22-PART.tgz.
#   bash scripts/gpu_s22.sh a     content check (5 groups) + unit/integration
#   bash scripts/gpu_s22.sh b     tests/gpu + the broken-kernel corpus + the worker tests, serial
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
part=${1:-a}; LIMIT=${LIMIT:-470}
OUT=${OUT:-/tmp/s22-out}; W=/tmp/s22-work; rm -rf $W; mkdir -p $W $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"; } > $W/versions.txt
cat $W/versions.txt
if [ "$part" = a ]; then
  for g in "01 02 03 04 05 06" "07 08" "09 10" "11 12" "13 14"; do
    name=check-${g// /-}
    ( SECONDS=0; TRITONLAB_HOME=$W/home-$name timeout -s INT $LIMIT python3 -m tritonlab check $g --backend gpu --json \
        > $W/$name.json 2> $W/$name.err; echo "$name rc=$? ${SECONDS}s" > $W/$name.rc ) &
  done
  SECONDS=0
  TRITONLAB_HOME=$W/home-pytest timeout -s INT $((LIMIT + 10)) python3 -m pytest -p no:cacheprovider -rfE -q -n 6 \
    --ignore=tests/functional tests/unit tests/integration --ignore=tests/integration/test_broken_corpus.py \
    --ignore=tests/integration/test_worker.py > $W/pytest-unit.log 2>&1
  echo "pytest unit rc=$? ${SECONDS}s: $(tail -1 $W/pytest-unit.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-unit.log | head -25
  wait
  cat $W/check-*.rc
  python3 - $W <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/check-*.json")):
    try:
        d = json.load(open(f))
    except Exception as e:
        print(f.split("/")[-1], "no json:", e); continue
    bad = [r for r in d["runs"] if not r.get("skipped") and r["passed"] != (r["which"] == "solution")]
    slow = sorted(d["runs"], key=lambda r: -r["seconds"])[:3]
    print(f.split("/")[-1], len(d["runs"]), "runs,", len(bad), "wrong; failures:", d["failures"][:4])
    for r in bad:
        print("  WRONG", r["exercise"], r["which"], r["passed"], str(r.get("kind") or r.get("summary") or "")[:200])
    print("  slowest:", ", ".join(f"{r['exercise']} {r['which']} {r['seconds']:.1f}s" for r in slow))
PY
fi
if [ "$part" = b ]; then
  SECONDS=0
  TRITONLAB_HOME=$W/home timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q --durations=15 \
    tests/gpu tests/integration/test_broken_corpus.py tests/integration/test_worker.py > $W/pytest-gpu.log 2>&1
  echo "pytest gpu rc=$? ${SECONDS}s: $(tail -1 $W/pytest-gpu.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-gpu.log | head -25
fi
tar czf $OUT/s22-$part.tgz -C $W . && echo "archive s22-$part.tgz"
