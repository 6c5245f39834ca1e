#!/usr/bin/env bash
# Twenty-fifth session: what the twenty-fourth session left unchecked on a GPU. All parts of one call run side by side
# and stop (SIGINT) before LIMIT seconds; one archive: $OUT/s25-PART.tgz.
#   bash scripts/gpu_s25.sh a   probe round 13 through Lab.verify on the GPU (two shards), the tamper tests' gpu cases,
#                               tests/integration/test_worker.py (the runner-crash cause) and the runner-crash words
#   bash scripts/gpu_s25.sh b   after this session's verify fixes: probe rounds 13 and 14 through Lab.verify on the GPU
#                               (three shards), `tritonlab check 8 10 11 12 13 14 --backend gpu`, the tamper tests' gpu
#                               cases, and every gpu-marked test (-n 4) until LIMIT
#   bash scripts/gpu_s25.sh p   issue 15/17/18 timings: scripts/perf_kernels.py (matmul, fused), perf_lesson_13.py
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
part=${1:-a}; LIMIT=${LIMIT:-450}
OUT=${OUT:-/tmp/s25-out}; W=/tmp/s25-work; rm -rf $W; mkdir -p $W $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"; } > $W/versions.txt
cat $W/versions.txt
if [ "$part" = a ]; then
  SECONDS=0
  for s in 0 1; do
    ( TRITONLAB_HOME=$W/home-probe$s timeout -s INT $LIMIT python3 scripts/probe_files_on_gpu.py --backend gpu \
        --folders probe_round13 --shard $s/2 --json $W/probe13-$s.json > $W/probe13-$s.log 2>&1
      echo "probe13 shard $s rc=$? ${SECONDS}s" > $W/probe13-$s.rc ) &
  done
  ( TRITONLAB_HOME=$W/home-worker timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q \
      tests/integration/test_worker.py tests/unit/test_runner_crash_words.py > $W/pytest-worker.log 2>&1
    echo "worker rc=$? ${SECONDS}s: $(tail -1 $W/pytest-worker.log)" > $W/worker.rc ) &
  TRITONLAB_HOME=$W/home-tamper timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q -n 3 \
    tests/integration/tamper/test_tamper.py -k gpu > $W/pytest-tamper.log 2>&1
  echo "tamper gpu rc=$? ${SECONDS}s: $(tail -1 $W/pytest-tamper.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-tamper.log | head -25
  wait
  cat $W/*.rc
  grep -hE "^(FAILED|ERROR) " $W/pytest-worker.log | head
  cat $W/probe13-*.log | grep -v "^ok " | head -40
  grep -h "^ok " $W/probe13-*.log | awk '{print $2, $4, $6, $7}'
fi
if [ "$part" = b ]; then
  SECONDS=0
  for s in 0 1 2; do
    ( TRITONLAB_HOME=$W/home-probe$s timeout -s INT $LIMIT python3 scripts/probe_files_on_gpu.py --backend gpu \
        --folders probe_round13 probe_round14 --shard $s/3 --json $W/probe-$s.json > $W/probe-$s.log 2>&1
      echo "probe 13+14 shard $s rc=$? ${SECONDS}s" > $W/probe-$s.rc ) &
  done
  ( TRITONLAB_HOME=$W/home-check timeout -s INT $LIMIT python3 -m tritonlab check 8 10 11 12 13 14 --backend gpu \
      --json > $W/check.json 2> $W/check.err; echo "check rc=$? ${SECONDS}s" > $W/check.rc ) &
  ( TRITONLAB_HOME=$W/home-tamper timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q \
      tests/integration/tamper/test_tamper.py -k gpu > $W/pytest-tamper.log 2>&1
    echo "tamper gpu rc=$? ${SECONDS}s: $(tail -1 $W/pytest-tamper.log)" > $W/tamper.rc ) &
  TRITONLAB_HOME=$W/home-marked timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q -n 4 -m gpu tests \
    --ignore=tests/functional > $W/pytest-marked.log 2>&1
  echo "pytest marked rc=$? ${SECONDS}s: $(tail -1 $W/pytest-marked.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-marked.log | head -25
  wait
  cat $W/*.rc
  grep -hE "^(FAILED|ERROR) " $W/pytest-tamper.log | head
  cat $W/probe-*.log | grep -v "^ok " | head -40
  python3 scripts/check_summary.py $W/check.json
fi
if [ "$part" = p ]; then
  timeout -s INT 150 python3 scripts/perf_kernels.py --only matmul fused > $W/perf-matmul-fused.log 2>&1
  echo "perf_kernels rc=$?"; grep -iE "3000|1024|ratio" $W/perf-matmul-fused.log | head -30
  timeout -s INT 110 python3 scripts/perf_lesson_13.py --json $W/lesson13.json > $W/lesson13.log 2>&1
  echo "perf_lesson_13 rc=$?"; grep -E "4096|8192" $W/lesson13.log | head -20
fi
tar czf $OUT/s25-$part.tgz -C $W . && echo "archive s25-$part.tgz"
