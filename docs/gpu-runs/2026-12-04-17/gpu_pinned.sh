export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
speed() { for c in $(seq 0 15); do t=$(taskset -c $c python3 -c "
import time
best=9e9
for _ in range(3):
    t=time.perf_counter(); s=0
    for i in range(200000): s+=i&7
    best=min(best,time.perf_counter()-t)
print(round(best*1e3,2))"); echo "$c $t"; done | sort -k2 -n; }
speed > $OUT/cpu-speed-before.txt; cat $OUT/cpu-speed-before.txt | tr '\n' ';'; echo
fast=$(head -1 $OUT/cpu-speed-before.txt | cut -d' ' -f1); slow=$(tail -1 $OUT/cpu-speed-before.txt | cut -d' ' -f1)
echo "fast=$fast slow=$slow"
for which in fast slow; do c=${!which}
  taskset -c $c python3 scripts/perf_kernels.py --only matmul fused --json $OUT/perf-$which.json > $OUT/perf-$which.log 2>&1
  taskset -c $c python3 scripts/perf_lessons_11_12.py > $OUT/l1112-$which.log 2>&1
done
taskset -c $fast python3 scripts/perf_lesson_13.py --no-capstone > $OUT/l13-fast.log 2>&1
speed > $OUT/cpu-speed-after.txt; cat $OUT/cpu-speed-after.txt | tr '\n' ';'; echo
cd $OUT && tar czf pin.tgz *.log *.json *.txt && ls
