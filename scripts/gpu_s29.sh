#!/usr/bin/env bash
# Twenty-ninth session, call A: what sessions 27 and 28 could not run on a GPU, side by side on one card (three
# processes, well inside its memory), each stopped (SIGINT) before LIMIT seconds:
#   - the GPU compiler's refusals the interpreter mirrors (loop-carried types, globals, constructs), then probe
#     round 15 (46 held-out files, lessons 4-14) through Lab.verify on the GPU, shard 0 of 2;
#   - probe round 15, shard 1 of 2;
#   - `tritonlab check 5 7 8 9 10 12 14 --backend gpu` (lesson data changed in 5/add-checked and 7/copy-2d; 5 8 9
#     12 after the twenty-seventh session's verify refactor never finished on a GPU).
# One archive: $OUT/s29a.tgz.
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
LIMIT=${LIMIT:-480}
OUT=${OUT:-/tmp/s29-out}; W=/tmp/s29-work; rm -rf $W; mkdir -p $W $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
  python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"; } > $W/versions.txt
cat $W/versions.txt
SECONDS=0
( export TRITONLAB_HOME=$W/home-a
  timeout -s INT 150 python3 -m pytest -p no:cacheprovider -rfEs -q tests/unit/test_gpu_rules_compile.py \
    tests/gpu/test_global_rule_gpu.py tests/integration/test_loop_carried_type.py > $W/rules.log 2>&1
  echo "rules rc=$? ${SECONDS}s: $(tail -1 $W/rules.log)" > $W/rules.rc
  timeout -s INT $((LIMIT - SECONDS)) python3 scripts/probe_files_on_gpu.py --backend gpu --folders probe_round15_a \
    probe_round15_b probe_round15_c --shard 0/2 --json $W/probe15-0.json > $W/probe15-0.log 2>&1
  echo "probe15 shard 0 rc=$? ${SECONDS}s" > $W/probe15-0.rc ) &
( TRITONLAB_HOME=$W/home-b timeout -s INT $LIMIT python3 scripts/probe_files_on_gpu.py --backend gpu --folders \
    probe_round15_a probe_round15_b probe_round15_c --shard 1/2 --json $W/probe15-1.json > $W/probe15-1.log 2>&1
  echo "probe15 shard 1 rc=$? ${SECONDS}s" > $W/probe15-1.rc ) &
TRITONLAB_HOME=$W/home-c timeout -s INT $LIMIT python3 -m tritonlab check 5 7 8 9 10 12 14 --backend gpu --json \
  > $W/check.json 2> $W/check.err
echo "check rc=$? ${SECONDS}s"
wait
cat $W/*.rc
grep -hE "^(FAILED|ERROR|E  )" $W/rules.log | head -20
cat $W/probe15-*.log | grep -v "^ok " | head -40
grep -h "^ok " $W/probe15-*.log | wc -l
python3 scripts/check_summary.py $W/check.json
tail -5 $W/check.err
tar czf $OUT/s29a.tgz -C $W --exclude='home-*' . && echo "archive s29a.tgz"
