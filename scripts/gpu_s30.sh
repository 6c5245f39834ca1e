#!/usr/bin/env bash
# Thirtieth session. Call A (`bash scripts/gpu_s30.sh a`): probe rounds 15 and 16 (93 held-out files) through
# Lab.verify on the GPU, with round 17 (44 more), four shards side by side, after the replay change (a GPU case that only says "all
# wrong" or "NaN" takes the cause the interpreter's replay of that case names). One archive: $OUT/s30a.tgz.
# Call B (`bash scripts/gpu_s30.sh b`): every gpu-marked test (`pytest -n 3 -m gpu tests`), stopped before LIMIT.
set -uo pipefail
part=${1:-a}
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
LIMIT=${LIMIT:-470}
OUT=${OUT:-/tmp/s30-out}; W=/tmp/s30-work; rm -rf $W; mkdir -p $W $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
  python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"; } > $W/versions.txt
cat $W/versions.txt
SECONDS=0
if [ "$part" = a ]; then
  N=${SHARDS:-4}
  for s in $(seq 0 $((N - 1))); do
    ( TRITONLAB_HOME=$W/home-p$s timeout -s INT $LIMIT python3 scripts/probe_files_on_gpu.py --backend gpu \
        --folders probe_round15_a probe_round15_b probe_round15_c probe_round16_a probe_round16_b probe_round16_c probe_round17_a probe_round17_b probe_round17_c \
        --shard $s/$N --json $W/probe-$s.json > $W/probe-$s.log 2>&1; echo "probe shard $s rc=$? ${SECONDS}s" > $W/probe-$s.rc ) &
  done
  wait
  cat $W/*.rc
  cat $W/probe-*.log | grep -v "^ok " | head -40
  grep -h "^ok " $W/probe-*.log | wc -l
  python3 - $W <<'PY'
import json, glob, sys
rows = [r for f in sorted(glob.glob(sys.argv[1] + "/probe-*.json")) for r in json.load(open(f))]
wrong = [r for r in rows if r["promised"] == "fail"]
print(f"{len(rows)} files, {sum(r['surprise'] for r in rows)} surprises; causes of the wrong files:")
for r in sorted(wrong, key=lambda r: r["file"]):
    print(f"  {r['file'][:78]:78} {r['kind']}/{r['cause']}")
PY
fi
if [ "$part" = b ]; then
  TRITONLAB_HOME=$W/home-m timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q -n 3 -m gpu tests \
    --ignore=tests/functional > $W/pytest-marked.log 2>&1
  echo "pytest -m gpu rc=$? ${SECONDS}s: $(tail -1 $W/pytest-marked.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-marked.log | head -25
fi
tar czf $OUT/s30$part.tgz -C $W --exclude='home-*' . && echo "archive s30$part.tgz"
