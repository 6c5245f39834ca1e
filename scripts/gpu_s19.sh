# Nineteenth session, prepared for the next GPU session (no device was lent in the nineteenth either).
# Run on the device from the repo root after `bash scripts/gpu_s18.sh a` and `b` (one call, ~3 min):
#   bash scripts/gpu_s19.sh   probe round 7's GPU-side fixes: the GPU compiler's refusal of a small tl.dot, the
#                             autotuner's timing runs in a pinned case; the new interpreter rules on Triton 3.6
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD TRITONLAB_HOME=/tmp/tlhome
timeout 300 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_round7_gpu.py > $OUT/pytest-round7-gpu.log 2>&1
echo "round 7 gpu tests rc=$?"; tail -3 $OUT/pytest-round7-gpu.log
# the interpreter rules added this session, on the box's Triton 3.6 (its numpy 2.5 breaks range loops: see
# docs/GPU-RESULTS.md; these tests use none)
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/unit/test_interpreter_dot_sizes.py \
  tests/unit/test_reverse_order.py tests/unit/test_contracts.py > $OUT/pytest-round7-units.log 2>&1
echo "interpreter rules on triton 3.6 rc=$?"; tail -3 $OUT/pytest-round7-units.log
