#!/usr/bin/env bash
# Twenty-seventh session: one GPU call, everything in sequence (no other GPU work beside it).
#   - the three items that failed in the twenty-sixth session's run only because 8 processes shared one H100 and
#     its memory ran out (bench median vs do_bench, tamper's solutions on the GPU, one probe file), each alone;
#   - `tritonlab check 5 8 9 12 --backend gpu` (starters fail, solutions pass) after the verify refactor;
#   - the global rule (a kernel's globals): Triton 3.6's own compile, GPU verify, the interpreter's stand-in;
#   - the out-of-memory verdict: tests/unit/test_out_of_memory.py and tests/gpu/test_out_of_memory_gpu.py (a GPU
#     that this test fills itself).
# One archive: $OUT/s27.tgz.
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
OUT=${OUT:-/tmp/s27-out}; W=/tmp/s27-work; rm -rf $W; mkdir -p $W $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
  python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"; } > $W/versions.txt
cat $W/versions.txt
SECONDS=0
export TRITONLAB_HOME=$W/home
timeout -s INT 240 python3 -m pytest -p no:cacheprovider -rfEs -q tests/unit/test_out_of_memory.py \
  tests/gpu/test_out_of_memory_gpu.py tests/unit/test_gpu_rules_compile.py tests/gpu/test_global_rule_gpu.py \
  tests/integration/test_global_rule.py tests/integration/test_unsupported_construct.py > $W/oom.log 2>&1
echo "oom + global-rule tests rc=$? ${SECONDS}s: $(tail -1 $W/oom.log)"; grep -E "^(FAILED|ERROR|E  )" $W/oom.log | head -20
timeout -s INT 150 python3 -m pytest -p no:cacheprovider -rfEs -q \
  "tests/gpu/test_bench_gpu.py::test_matmul_median_matches_do_bench" \
  "tests/integration/tamper/test_tamper.py::test_solutions_still_pass_on_the_gpu" > $W/alone.log 2>&1
echo "alone rc=$? ${SECONDS}s: $(tail -1 $W/alone.log)"; grep -E "^(FAILED|ERROR|E  )" $W/alone.log | head -20
timeout -s INT 100 python3 scripts/probe_files_on_gpu.py --backend gpu --folders probe_round14 \
  --files l14_cross_entropy_ok_base2_scalar_running_state.py --json $W/probe.json > $W/probe.log 2>&1
echo "probe rc=$? ${SECONDS}s"; cat $W/probe.log | tail -3
timeout -s INT 400 python3 -m tritonlab check 5 8 9 12 --backend gpu --json > $W/check.json 2> $W/check.err
echo "check 5 8 9 12 rc=$? ${SECONDS}s"
python3 scripts/check_summary.py $W/check.json
tar czf $OUT/s27.tgz -C $W --exclude=home . && echo "archive s27.tgz"
