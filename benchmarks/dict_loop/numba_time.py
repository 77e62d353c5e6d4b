# Times insert_lookup of dict_loop.k under Numba: compiled once, then the
# best of `repeat` calls (seconds), as kjit bench reports its best run.
import runpy
import sys
import time

mod = runpy.run_path(sys.argv[1], run_name="bench")
f, n, repeat = mod["insert_lookup"], int(sys.argv[2]), int(sys.argv[3])
f(10)
times = []
for _ in range(repeat):
    t = time.perf_counter()
    f(n)
    times.append(time.perf_counter() - t)
print(f"{min(times):.6f}")
