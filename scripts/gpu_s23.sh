#!/usr/bin/env bash
# Twenty-third session (copied from gpu_s22.sh): part w added (the broken-kernel corpus and the worker tests, not reached
# by the twenty-second session's b), and part n also verifies the cross-entropy whose small first launch hid the main
# kernel's block (loop-once read from the widest launch on a GPU).
# Twenty-second session: the content check split by lesson groups (side by side: the whole check takes ~800 s
# serial on a GPU, more than one device call), beside tests/unit + tests/integration with -n 6, stopped by SIGINT
# before the call's limit so pytest still prints its failures. One archive: $OUT/s23-PART.tgz.
#   bash scripts/gpu_s23.sh a     content check (5 groups) + unit/integration
#   bash scripts/gpu_s23.sh b     tests/gpu + the broken-kernel corpus + the worker tests, serial
#   bash scripts/gpu_s23.sh n     the twenty-second session's verify changes, each on the GPU (~3 min): the race
#                                 replay, t38, cast provenance, a learner operator's watched body (autograd's
#                                 device thread), loop-once's GPU branch, the builtin-alias repair on Triton 3.6
#   bash scripts/gpu_s23.sh w     the broken-kernel corpus and the worker tests, serial
#   bash scripts/gpu_s23.sh c     the other gpu-marked tests outside tests/gpu (-n 4)
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
part=${1:-a}; LIMIT=${LIMIT:-470}
OUT=${OUT:-/tmp/s23-out}; W=/tmp/s23-work; rm -rf $W; mkdir -p $W $OUT
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
if [ "$part" = c ]; then
  SECONDS=0
  TRITONLAB_HOME=$W/home timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q -n 4 -m gpu tests \
    --ignore=tests/gpu > $W/pytest-marked.log 2>&1
  echo "pytest marked rc=$? ${SECONDS}s: $(tail -1 $W/pytest-marked.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-marked.log | head -25
fi
if [ "$part" = b ]; then
  SECONDS=0
  TRITONLAB_HOME=$W/home timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q --durations=15 \
    tests/gpu tests/integration/test_broken_corpus.py tests/integration/test_worker.py > $W/pytest-gpu.log 2>&1
  echo "pytest gpu rc=$? ${SECONDS}s: $(tail -1 $W/pytest-gpu.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-gpu.log | head -25
fi
if [ "$part" = w ]; then
  SECONDS=0
  TRITONLAB_HOME=$W/home timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q --durations=10 \
    tests/integration/test_broken_corpus.py tests/integration/test_worker.py > $W/pytest-corpus.log 2>&1
  echo "pytest corpus+worker rc=$? ${SECONDS}s: $(tail -1 $W/pytest-corpus.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-corpus.log | head -25
fi
if [ "$part" = n ]; then
  SECONDS=0
  TRITONLAB_HOME=$W/home timeout -s INT $LIMIT python3 -m pytest -p no:cacheprovider -rfEs -q \
    "tests/integration/test_lessons_11_12.py::test_the_last_program_summing_the_partial_rows_is_a_cross_program_read" \
    tests/unit/test_interpreter_builtin_alias.py tests/unit/test_torch_work.py tests/unit/test_replay.py \
    tests/integration/test_cast_provenance.py > $W/pytest-new.log 2>&1
  echo "pytest new rc=$? ${SECONDS}s: $(tail -1 $W/pytest-new.log)"
  grep -E "^(FAILED|ERROR) " $W/pytest-new.log | head -10
  TRITONLAB_HOME=$W/home timeout -s INT 200 python3 -m pytest -p no:cacheprovider -rfEs -q \
    tests/integration/tamper/test_tamper.py -k "gpu and t38" > $W/pytest-t38.log 2>&1
  echo "pytest t38 rc=$?: $(tail -1 $W/pytest-t38.log)"
  v() {  # label exercise args...: one GPU verify, its verdict and first failing diagnosis
    local label=$1; shift
    TRITONLAB_HOME=$W/home timeout 200 python3 -m tritonlab --backend gpu verify "$@" --json > $W/v-$label.json 2> $W/v-$label.err
    python3 - $W/v-$label.json $label <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"  {sys.argv[2]:34s} no json: {e}"); sys.exit()
bad = next((c for c in d.get("cases", []) if not c.get("passed")), None)
diag = (bad or {}).get("diagnoses", [{}])[0] if bad and bad.get("diagnoses") else {}
err = (d.get("error") or {}).get("kind")
print(f"  {sys.argv[2]:34s} passed={d.get('passed')} {d.get('seconds')}s error={err} first={diag.get('kind')}/{diag.get('cause')} line={diag.get('line')}")
PY
  }
  P9=tests/integration/probe_round9_11_14; P10=tests/integration/probe_round10
  v rms-op-solution 12/rms-norm-op --solution
  v rms-op-fake-body 12/rms-norm-op --file $P9/l12_rms_op_fake_bwd_op_body_in_torch.py
  v add-cast-back 5/add --file $P10/l05_add_ok_fp32_result_cast_back.py
  v softmax-exec-fake 8/softmax --file $P10/l08_softmax_fake_softmax_in_exec_string.py
  v attention-solution 11/attention --solution
  v attention-one-key-block 11/attention --file $P9/l11_attention_wrong_whole_sequence_one_key_block.py
  v online-softmax-solution 11/online-softmax --solution
  v cross-entropy-solution 14/cross-entropy --solution
  v swiglu-backward-solution 14/swiglu-backward --solution
  v ce-small-first-launch 14/cross-entropy --file tests/integration/probe_round11/l14_cross_entropy_fake_whole_row_block_after_small_first_launch.py
fi
tar czf $OUT/s23-$part.tgz -C $W . && echo "archive s23-$part.tgz"
