#!/usr/bin/env bash
# Twenty-eighth session: what this session built and could not run on a GPU (no device time was left), in one
# call, in sequence:
#   - probe round 15 (46 held-out files, lessons 4-14) through Lab.verify on the GPU, against their names;
#   - the GPU compiler's own refusals the interpreter now mirrors (loop-carried types, globals, constructs) and the
#     rules' tests that need CUDA;
#   - bf16 atomics (repair_atomics on the interpreter; the GPU's own atomics must agree): the 5/add probe file;
#   - `tritonlab check 5 7 8 10 12 14 --backend gpu` (lesson data changed: 5/add-checked reject, 7/copy-2d case).
# One archive: $OUT/s28.tgz.
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
OUT=${OUT:-/tmp/s28-out}; W=/tmp/s28-work; rm -rf $W; mkdir -p $W $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
  python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"; } > $W/versions.txt
cat $W/versions.txt
SECONDS=0
export TRITONLAB_HOME=$W/home
timeout -s INT 200 python3 -m pytest -p no:cacheprovider -rfEs -q tests/unit/test_gpu_rules_compile.py \
  tests/gpu/test_global_rule_gpu.py tests/integration/test_loop_carried_type.py > $W/rules.log 2>&1
echo "rules rc=$? ${SECONDS}s: $(tail -1 $W/rules.log)"; grep -E "^(FAILED|ERROR|E  )" $W/rules.log | head -20
timeout -s INT 300 python3 scripts/probe_files_on_gpu.py --backend gpu --folders probe_round15_a probe_round15_b \
  probe_round15_c --json $W/probe15.json > $W/probe15.log 2>&1
echo "probe 15 rc=$? ${SECONDS}s"; tail -8 $W/probe15.log
timeout -s INT 400 python3 -m tritonlab check 5 7 8 10 12 14 --backend gpu --json > $W/check.json 2> $W/check.err
echo "check rc=$? ${SECONDS}s"
python3 scripts/check_summary.py $W/check.json
tar czf $OUT/s28.tgz -C $W --exclude=home . && echo "archive s28.tgz"
