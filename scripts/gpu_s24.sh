#!/usr/bin/env bash
# Twenty-fourth session: the twenty-third session's verify changes on a GPU, beside the gpu-marked tests
# outside tests/gpu. All parts of one call run side by side and stop (SIGINT) before LIMIT seconds; one archive:
# $OUT/s24-PART.tgz.
#   bash scripts/gpu_s24.sh n   probe round 12 through Lab.verify on the GPU (copy kernels beside inputs judged by a
#                               second run, numpy/dlpack routes, kernel_grads, _loop_block, rescale-after-add,
#                               max-dropped, the strided-gap launch argument), `tritonlab check 12 14` on the GPU
#                               (kernel_grads in every backward solution and starter), the broken-corpus mask quote and
#                               contract tests, and every other gpu-marked test outside tests/gpu (-n 4)
#   bash scripts/gpu_s24.sh v   the loop contract's launch-only call before the cases on a GPU: the two probes that
#                               timed out in part n (whole-row blocks), a one-chunk online softmax, `tritonlab check
#                               11 14` on the GPU, test_loop_once, the corpus test fixed after part n; then part p
#   bash scripts/gpu_s24.sh g   tests/gpu/test_loop_once_gpu.py (after the reject fix), beside tests/gpu's lesson 11-14
#                               modules
#   bash scripts/gpu_s24.sh f   the session's last engine changes on a GPU: launch_only forgetting autotune picks,
#                               bench/profile refused before verify, ir errors as facts (-n 4)
#   bash scripts/gpu_s24.sh p   issue 15/17/18 timings: scripts/perf_kernels.py (matmul, fused), perf_lesson_13.py,
#                               scripts/rms_backward_autograd.py
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
part=${1:-n}; LIMIT=${LIMIT:-480}
OUT=${OUT:-/tmp/s24-out}; W=/tmp/s24-work; rm -rf $W; mkdir -p $W $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"; } > $W/versions.txt
cat $W/versions.txt
if [ "$part" = n ]; then
  SECONDS=0
  for s in 0 1; do
    ( TRITONLAB_HOME=$W/home-probe$s timeout -s INT $LIMIT python3 scripts/probe_files_on_gpu.py --backend gpu \
        --folders probe_round12 --shard $s/2 --json $W/probe12-$s.json > $W/probe12-$s.log 2>&1
      echo "probe12 shard $s rc=$? ${SECONDS}s" > $W/probe12-$s.rc ) &
  done
  ( TRITONLAB_HOME=$W/home-check timeout -s INT $LIMIT python3 -m tritonlab check 12 14 --backend gpu --json \
      > $W/check-12-14.json 2> $W/check-12-14.err; echo "check 12 14 rc=$? ${SECONDS}s" > $W/check.rc ) &
  ( TRITONLAB_HOME=$W/home-corpus timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q \
      tests/integration/test_broken_corpus.py -k "add_mask_le_quotes or contract_break" > $W/pytest-corpus.log 2>&1
    echo "corpus rc=$? ${SECONDS}s: $(tail -1 $W/pytest-corpus.log)" > $W/corpus.rc ) &
  TRITONLAB_HOME=$W/home-marked timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q -n 4 -m gpu tests \
    --ignore=tests/gpu --ignore=tests/functional > $W/pytest-marked.log 2>&1
  echo "pytest marked rc=$? ${SECONDS}s: $(tail -1 $W/pytest-marked.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-marked.log | head -25
  wait
  cat $W/*.rc
  grep -hE "^(FAILED|ERROR) " $W/pytest-corpus.log | head
  cat $W/probe12-*.log | grep -v "^ok " | head -40
  grep -h "^ok " $W/probe12-*.log | awk '{print $2, $4, $6, $7}'
  python3 - $W/check-12-14.json <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("check: no json:", e); sys.exit()
bad = [r for r in d["runs"] if not r.get("skipped") and r["passed"] != (r["which"] == "solution")]
print("check 12 14:", len(d["runs"]), "runs,", len(bad), "wrong")
for r in bad:
    print("  WRONG", r["exercise"], r["which"], r["passed"], str(r.get("kind") or r.get("summary") or "")[:200])
PY
fi
if [ "$part" = v ]; then
  SECONDS=0
  ( TRITONLAB_HOME=$W/home-check timeout -s INT 300 python3 -m tritonlab check 11 14 --backend gpu --json \
      > $W/check-11-14.json 2> $W/check-11-14.err; echo "check 11 14 rc=$? ${SECONDS}s" > $W/check.rc ) &
  v() {  # label exercise args...: one GPU verify, its verdict and first failing diagnosis
    local label=$1; shift
    TRITONLAB_HOME=$W/home timeout 200 python3 -m tritonlab --backend gpu verify "$@" --json > $W/v-$label.json 2> $W/v-$label.err
    python3 - $W/v-$label.json $label <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"  {sys.argv[2]:28s} no json: {e}"); sys.exit()
bad = next((c for c in d.get("cases", []) if not c.get("passed")), None)
diag = (bad or {}).get("diagnoses", [{}])[0] if bad and bad.get("diagnoses") else {}
err = (d.get("error") or {}).get("kind")
print(f"  {sys.argv[2]:28s} passed={d.get('passed')} {d.get('seconds')}s cases={len(d.get('cases', []))} error={err} "
      f"first={diag.get('kind')}/{diag.get('block')}={diag.get('block_value')} launched_only={diag.get('launched_only')}")
PY
  }
  sed 's/        BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 4096)/        BLOCK_SIZE = triton.next_power_of_2(n_cols)/' \
    kernels/online_softmax.py > $W/one_chunk.py
  v ce-small-first-launch 14/cross-entropy --file tests/integration/probe_round11/l14_cross_entropy_fake_whole_row_block_after_small_first_launch.py
  v attention-block-kv 11/attention --file tests/integration/probe_round12/l11_attention_fake_one_key_block_named_block_kv.py
  v online-softmax-one-chunk 11/online-softmax --file $W/one_chunk.py
  v attention-one-key-block 11/attention --file tests/integration/probe_round9_11_14/l11_attention_wrong_whole_sequence_one_key_block.py
  TRITONLAB_HOME=$W/home-pt timeout -s INT 200 python3 -m pytest -p no:cacheprovider -rfEs -q \
    tests/integration/test_loop_once.py tests/unit/test_bench_not_timed_words.py \
    "tests/integration/test_broken_corpus.py::test_contract_break_is_named_and_a_different_correct_solution_passes[grid_floor_starter]" \
    > $W/pytest-v.log 2>&1
  echo "pytest v rc=$? ${SECONDS}s: $(tail -1 $W/pytest-v.log)"; grep -E "^(FAILED|ERROR) " $W/pytest-v.log | head
  wait; cat $W/check.rc
  python3 - $W/check-11-14.json <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("check: no json:", e); sys.exit()
bad = [r for r in d["runs"] if not r.get("skipped") and r["passed"] != (r["which"] == "solution")]
print("check 11 14:", len(d["runs"]), "runs,", len(bad), "wrong;", ", ".join(f"{r['exercise']} {r['which']} {r['seconds']:.0f}s" for r in d["runs"]))
for r in bad:
    print("  WRONG", r["exercise"], r["which"], r["passed"], str(r.get("kind") or r.get("summary") or "")[:200])
PY
  part=p
fi
if [ "$part" = g ]; then
  SECONDS=0
  ( TRITONLAB_HOME=$W/home-l timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q --durations=8 \
      tests/gpu/test_lessons_11_12_gpu.py tests/gpu/test_lessons_13_14_gpu.py > $W/pytest-lessons.log 2>&1
    echo "lessons rc=$? ${SECONDS}s: $(tail -1 $W/pytest-lessons.log)" > $W/lessons.rc ) &
  TRITONLAB_HOME=$W/home-g timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q --durations=8 \
    tests/gpu/test_loop_once_gpu.py > $W/pytest-loop.log 2>&1
  echo "loop-once gpu rc=$? ${SECONDS}s: $(tail -1 $W/pytest-loop.log)"; grep -E "^(FAILED|ERROR) " $W/pytest-loop.log
  wait; cat $W/lessons.rc; grep -E "^(FAILED|ERROR) " $W/pytest-lessons.log | head
fi
if [ "$part" = f ]; then
  SECONDS=0
  TRITONLAB_HOME=$W/home-f timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q -n 4 --durations=8 \
    tests/gpu/test_loop_once_gpu.py tests/gpu/test_bench_gpu.py tests/integration/test_loop_once.py \
    tests/unit/test_ir.py tests/unit/test_ir_error_words.py tests/unit/test_engine_error_words.py \
    tests/unit/test_engine_refusal_words.py tests/unit/test_bench_interpreter.py > $W/pytest-f.log 2>&1
  echo "pytest f rc=$? ${SECONDS}s: $(tail -1 $W/pytest-f.log)"; grep -E "^(FAILED|ERROR) " $W/pytest-f.log | head -20
  TRITONLAB_HOME=$W/home-f timeout 120 python3 -m tritonlab --backend gpu --lang ja bench 3/program-map > $W/bench-ja.txt 2>&1
  echo "bench ja rc=$?: $(head -c 300 $W/bench-ja.txt)"
fi
if [ "$part" = p ]; then
  timeout -s INT 150 python3 scripts/perf_kernels.py --only matmul fused > $W/perf-matmul-fused.log 2>&1
  echo "perf_kernels rc=$?"; grep -iE "3000|1024|ratio" $W/perf-matmul-fused.log | head -30
  timeout -s INT 110 python3 scripts/perf_lesson_13.py --json $W/lesson13.json > $W/lesson13.log 2>&1
  echo "perf_lesson_13 rc=$?"; grep -E "4096|8192" $W/lesson13.log | head -20
fi
tar czf $OUT/s24-$part.tgz -C $W . && echo "archive s24-$part.tgz"
