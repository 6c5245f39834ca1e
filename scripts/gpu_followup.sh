#!/usr/bin/env bash
# The second GPU pass of 2026-12-02 (fourth session): the bench/fault/lessons 13-14 tests, verify latency, and the
# lessons 11-14 perf scripts in one device call; leaves $OUT/gpu-final.tgz. Run: bash scripts/gpu_followup.sh
set -uo pipefail
export PYTHONUNBUFFERED=1 TRITONLAB_HOME=/tmp/tlhome
W=/tmp/gw; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import sys,torch,triton,numpy;print(sys.version.split()[0],torch.__version__,triton.__version__,numpy.__version__)"
SECONDS=0
timeout 250 python3 -m pytest -v -p no:cacheprovider -rs -o faulthandler_timeout=120 \
  tests/gpu/test_bench_gpu.py tests/gpu/test_cuda_fault.py tests/gpu/test_lessons_13_14_gpu.py \
  "tests/integration/tamper/test_tamper.py::test_tamper_attempt_fails_on_the_gpu[t20_memmove_after_kernel.py]" \
  tests/integration/tamper/test_tamper.py::test_solutions_still_pass_on_the_gpu \
  tests/integration/test_tutorials.py::test_persistent_softmax_launched_after_warmup_counts_as_the_learners_launch \
  "tests/integration/test_worker.py::test_endless_loop_times_out_and_the_next_request_works" > $W/pytest.log 2>&1
echo "pytest rc=$? ${SECONDS}s: $(tail -1 $W/pytest.log)"; grep -E "(FAILED|ERROR) " $W/pytest.log | head -20
SECONDS=0; timeout 60 python3 scripts/verify_latency.py 5/add 8/softmax 9/matmul 12/rms-norm-backward --repeat 3 --json $W/latency.json > $W/latency.log 2>&1; echo "latency rc=$? ${SECONDS}s"; tail -8 $W/latency.log
SECONDS=0; timeout 80 python3 scripts/perf_lessons_11_12.py > $W/perf1112.log 2>&1; echo "perf1112 rc=$? ${SECONDS}s"; grep -E "rms_norm|attention" $W/perf1112.log
SECONDS=0; timeout 110 python3 scripts/perf_lesson_13.py --json $W/perf13.json > $W/perf13.log 2>&1; echo "perf13 rc=$? ${SECONDS}s"; grep -v '^{' $W/perf13.log | tail -30
tar czf $OUT/gpu-final.tgz -C $W .
