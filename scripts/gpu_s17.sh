# Seventeenth session, GPU check of the mid-size pointer path (run on the device from the repo root).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD TRITONLAB_HOME=/tmp/tlhome
timeout 240 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_matmul_fast_gpu.py tests/unit/test_kernel_launch_choices.py > $OUT/pytest.log 2>&1; echo "pytest rc=$?"; tail -3 $OUT/pytest.log
timeout 150 python3 -m tritonlab verify 9/matmul-fast --solution --backend gpu --json > $OUT/verify-9-matmul-fast.json 2>$OUT/verify.err; echo "verify rc=$?"
python3 -c "import json; d=json.load(open('$OUT/verify-9-matmul-fast.json')); print('passed', d.get('passed'), len(d.get('cases') or []), 'cases', d.get('elapsed_s'))"
timeout 150 python3 -m tritonlab bench 9/matmul-fast --solution --json > $OUT/bench-9-matmul-fast.json 2>$OUT/bench.err; echo "bench rc=$?"
timeout 200 python3 scripts/perf_kernels.py --only matmul fused --json $OUT/perf.json > $OUT/perf.log 2>&1; echo "perf rc=$?"
grep -E "matmul_fast|autotune" $OUT/perf.log | grep -v -i warn | cut -c1-130
