# Eighteenth session, prepared for the next GPU session (no device was lent in the eighteenth).
# Run on the device from the repo root, one part per call (each well under the 10-minute limit):
#   bash scripts/gpu_s18.sh a   lesson 12's one-launch backward: GPU tests, lab bench of both, autograd timing (~5 min)
#   bash scripts/gpu_s18.sh b   host µs per call; matmul_fast's GPU tests (is_weight_t); the cross-program read (~5 min)
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD TRITONLAB_HOME=/tmp/tlhome
part=${1:-a}
if [ "$part" = a ]; then
  timeout 300 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_rms_one_launch_gpu.py \
    tests/integration/test_rms_one_launch.py > $OUT/pytest.log 2>&1; echo "pytest rc=$?"; tail -3 $OUT/pytest.log
  for which in solution one-launch; do
    if [ $which = solution ]; then src=--solution; else src="--file kernels/rms_norm_backward_one_launch.py"; fi
    timeout 200 python3 -m tritonlab bench 12/rms-norm-backward $src --json > $OUT/bench-$which.json 2>$OUT/bench-$which.err
    echo "bench $which rc=$?"
    python3 -c "
import json; d=json.load(open('$OUT/bench-$which.json'))
for r in d.get('rows') or []:
    f = lambda v: '-' if v is None else f'{v * 1e3:.1f}'
    print('  ', r.get('label') or r.get('params'), r.get('dtype'), 'per call', f(r.get('ms')), 'vs torch', f(r.get('torch_ms')),
          '| GPU', f(r.get('gpu_ms')), 'vs torch', f(r.get('torch_gpu_ms')), 'us')
"
  done
  timeout 240 python3 scripts/rms_backward_autograd.py --json $OUT/autograd.json > $OUT/autograd.log 2>&1
  echo "autograd rc=$?"; grep -v -i warn $OUT/autograd.log | tail -14
fi
if [ "$part" = b ]; then
  timeout 120 python3 scripts/probe_autograd_host.py > $OUT/host.log 2>&1; echo "host rc=$?"; tail -14 $OUT/host.log
  # matmul_fast's B = weight.t() test now lives in one helper (is_weight_t): the TMA path with B.t() on the GPU
  timeout 240 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_matmul_fast_gpu.py > $OUT/pytest-matmul-fast.log 2>&1
  echo "matmul_fast gpu tests rc=$?"; tail -2 $OUT/pytest-matmul-fast.log
  # the cross-program read (lesson 12's "last program sums the partial rows") through a GPU verify: the GPU
  # cases and the interpreter audit that records the read
  timeout 150 python3 -m pytest -q -p no:cacheprovider tests/integration/test_lessons_11_12.py -k last_program \
    > $OUT/pytest-cross-read.log 2>&1; echo "cross-read (GPU verify + audit) rc=$?"; tail -1 $OUT/pytest-cross-read.log
  timeout 150 python3 -m pytest -q -p no:cacheprovider tests/unit/test_cross_program_read.py \
    tests/unit/test_reverse_order.py > $OUT/pytest-order.log 2>&1; echo "order tests (Triton 3.6) rc=$?"
  tail -1 $OUT/pytest-order.log
fi
