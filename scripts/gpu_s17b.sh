# Seventeenth session, GPU check of fit_stages (run on the device from the repo root).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD TRITONLAB_HOME=/tmp/tlhome
timeout 240 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_fit_stages_gpu.py tests/gpu/test_matmul_fast_gpu.py > $OUT/pytest-b.log 2>&1; echo "pytest rc=$?"; tail -3 $OUT/pytest-b.log
timeout 300 python3 -m tritonlab check 09 13 --backend gpu > $OUT/check-09-13.log 2>&1; echo "check rc=$?"; tail -15 $OUT/check-09-13.log
