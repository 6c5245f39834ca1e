export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD TRITONLAB_HOME=/tmp/tlhome
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_fit_stages_gpu.py > $OUT/pytest-fit.log 2>&1; echo "pytest rc=$?"; tail -3 $OUT/pytest-fit.log
timeout 200 python3 -m tritonlab check 11 --backend gpu > $OUT/check-11.log 2>&1; echo "check rc=$?"; tail -6 $OUT/check-11.log
timeout 150 python3 scripts/perf_lessons_11_12.py --quick > $OUT/l1112-quick.log 2>&1; echo "perf rc=$?"; grep -E "attention|rms|online" $OUT/l1112-quick.log | grep -v "^{" | head -8
