#!/usr/bin/env bash
# Twenty-ninth session, call A: what sessions 27 and 28 could not run on a GPU, side by side on one card (three
# processes, well inside its memory), each stopped (SIGINT) before LIMIT seconds:
#   - the GPU compiler's refusals the interpreter mirrors (loop-carried types, globals, constructs), then probe
#     round 15 (46 held-out files, lessons 4-14) through Lab.verify on the GPU, shard 0 of 2;
#   - probe round 15, shard 1 of 2;
#   - `tritonlab check 5 7 8 9 10 12 14 --backend gpu` (lesson data changed in 5/add-checked and 7/copy-2d; 5 8 9
#     12 after the twenty-seventh session's verify refactor never finished on a GPU).
# One archive: $OUT/s29a.tgz.
#
# Call B (`bash scripts/gpu_s29.sh b`): probe round 16 (46 held-out files) through Lab.verify on the GPU, three
# shards side by side, with the return-in-loop compile test and the config-not-pow2 probe file; then, alone on
# the card, issue 15/17/18's timings: perf_kernels.py --only matmul fused, perf_lesson_13.py,
# rms_backward_autograd.py. One archive: $OUT/s29b.tgz.
#
# Call C (`bash scripts/gpu_s29.sh c`): every gpu-marked test (`pytest -n 3 -m gpu tests`, three workers: more ran
# the card out of memory in the twenty-sixth session), stopped before LIMIT. One archive: $OUT/s29c.tgz.
set -uo pipefail
part=${1:-a}
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
LIMIT=${LIMIT:-480}
OUT=${OUT:-/tmp/s29-out}; W=/tmp/s29-work; rm -rf $W; mkdir -p $W $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
  python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"; } > $W/versions.txt
cat $W/versions.txt
SECONDS=0
if [ "$part" = a ]; then
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
fi
if [ "$part" = b ]; then
  for s in 0 1 2; do
    ( TRITONLAB_HOME=$W/home-p$s timeout -s INT 250 python3 scripts/probe_files_on_gpu.py --backend gpu \
        --folders probe_round16_a probe_round16_b probe_round16_c --shard $s/3 --json $W/probe16-$s.json \
        > $W/probe16-$s.log 2>&1; echo "probe16 shard $s rc=$? ${SECONDS}s" > $W/probe16-$s.rc ) &
  done
  ( export TRITONLAB_HOME=$W/home-r
    timeout -s INT 200 python3 -m pytest -p no:cacheprovider -rfEs -q tests/gpu/test_global_rule_gpu.py \
      -k "return_in_loop" > $W/rules.log 2>&1; echo "rules rc=$? ${SECONDS}s: $(tail -1 $W/rules.log)" > $W/rules.rc
    timeout -s INT 100 python3 scripts/probe_files_on_gpu.py --backend gpu --folders probe_round15_b --files \
      l10_autotune_wrong_config_tile_width_96_not_power_of_two.py --json $W/pow2.json > $W/pow2.log 2>&1
    echo "pow2 rc=$? ${SECONDS}s" > $W/pow2.rc ) &
  wait
  cat $W/*.rc
  grep -hE "^(FAILED|ERROR|E  )" $W/rules.log | head -10
  cat $W/probe16-*.log | grep -v "^ok " | head -40
  grep -h "^ok " $W/probe16-*.log | wc -l
  python3 -c "import json;[print(r['file'],r['kind'],r['cause']) for r in json.load(open('$W/pow2.json'))]"
  T0=$SECONDS
  timeout -s INT 140 python3 scripts/perf_kernels.py --only matmul fused --json $W/perf-kernels.json \
    > $W/perf-kernels.log 2>&1; echo "perf_kernels rc=$? $((SECONDS - T0))s"
  grep -iE "1024|3000|ratio" $W/perf-kernels.log | head -30
  T0=$SECONDS
  timeout -s INT 100 python3 scripts/perf_lesson_13.py --no-capstone --json $W/lesson13.json > $W/lesson13.log 2>&1
  echo "perf_lesson_13 rc=$? $((SECONDS - T0))s"; grep -E "4096|8192" $W/lesson13.log | head -16
  T0=$SECONDS
  timeout -s INT 80 python3 scripts/rms_backward_autograd.py --json $W/rms.json > $W/rms.log 2>&1
  echo "rms_backward_autograd rc=$? $((SECONDS - T0))s"; tail -12 $W/rms.log
fi
if [ "$part" = c ]; then
  TRITONLAB_HOME=$W/home-m timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q -n 3 -m gpu tests \
    --ignore=tests/functional > $W/pytest-marked.log 2>&1
  echo "pytest -m gpu rc=$? ${SECONDS}s: $(tail -1 $W/pytest-marked.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-marked.log | head -25
  # the test that fills the card skips under -n: alone here, then the tamper test that ran out of memory beside it
  TRITONLAB_HOME=$W/home-o timeout -s INT 200 python3 -m pytest -p no:cacheprovider -rfEs -q \
    tests/gpu/test_out_of_memory_gpu.py "tests/integration/tamper/test_tamper.py::test_tamper_attempt_fails_on_the_gpu[t07_patch_torch_functions.py]" \
    > $W/pytest-alone.log 2>&1
  echo "alone rc=$? ${SECONDS}s: $(tail -1 $W/pytest-alone.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-alone.log | head
fi
if [ "$part" = d ]; then  # call C's one failure again, and the card-filling test alone
  TRITONLAB_HOME=$W/home-o timeout -s INT 200 python3 -m pytest -p no:cacheprovider -rfEs -q \
    tests/gpu/test_out_of_memory_gpu.py "tests/integration/tamper/test_tamper.py::test_tamper_attempt_fails_on_the_gpu[t07_patch_torch_functions.py]" \
    > $W/pytest-alone.log 2>&1
  echo "alone rc=$? ${SECONDS}s: $(tail -1 $W/pytest-alone.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-alone.log | head
  PYTEST_XDIST_WORKER=gw0 timeout -s INT 60 python3 -m pytest -p no:cacheprovider -q -rs \
    tests/gpu/test_out_of_memory_gpu.py > $W/pytest-skip.log 2>&1; echo "under a worker: $(tail -1 $W/pytest-skip.log)"
fi
tar czf $OUT/s29$part.tgz -C $W --exclude='home-*' . && echo "archive s29$part.tgz"
