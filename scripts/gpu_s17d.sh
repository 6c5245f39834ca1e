export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD TRITONLAB_HOME=/tmp/tlhome
timeout 60 python3 -m pytest -q -p no:cacheprovider tests/unit/test_runtime_causes.py 2>&1 | tail -1
sed 's/num_warps=num_warps, num_stages=num_stages,/num_warps=num_warps, num_stages=6,/' kernels/matmul.py > /tmp/oor_matmul.py
grep -c "num_stages=6" /tmp/oor_matmul.py
for lang in en ja; do timeout 150 python3 -m tritonlab verify 9/matmul --file /tmp/oor_matmul.py --backend gpu --lang $lang > $OUT/oor-$lang.txt 2>&1; echo "verify $lang rc=$?"; grep -i -E "shared|共有|FAIL|fail|passed" $OUT/oor-$lang.txt | head -6; done
timeout 150 python3 -m tritonlab verify 9/matmul --file /tmp/oor_matmul.py --backend gpu --json > $OUT/oor.json 2>&1
python3 -c "
import json; d=json.load(open('$OUT/oor.json'))
print('passed', d.get('passed'))
for c in d.get('cases') or []:
    e = c.get('error') or {}
    if e: print(c.get('name'), e.get('kind'), e.get('cause'), e.get('line'), e.get('required'), e.get('limit')); break
"
