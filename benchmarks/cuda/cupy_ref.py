"""CuPy on the same expressions as the .k benchmarks: cupy_ref.py [reps].

Rows "name ms" (medians of CUDA-event timings after a warm-up): saxpy and
a*b + sin(a) + cos(b) as ElementwiseKernels (one fused kernel each, CuPy's
fastest form), the 3x3 stencil written with slices as NumPy users write it,
and matmul (cuBLAS) at 4096 and 8192."""
import sys
import cupy as cp

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 20


def timed(f):
    f()
    a, b = cp.cuda.Event(), cp.cuda.Event()
    t = []
    for _ in range(reps):
        a.record()
        f()
        b.record()
        b.synchronize()
        t.append(cp.cuda.get_elapsed_time(a, b))
    t.sort()
    h = len(t) // 2
    return t[h] if len(t) % 2 else (t[h - 1] + t[h]) / 2


def main():
    n = 1 << 26
    x = cp.random.rand(n, dtype=cp.float32)
    y = cp.random.rand(n, dtype=cp.float32)
    o = cp.empty_like(x)
    saxpy = cp.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 o", "o = a * x + y", "saxpy")
    print("saxpy", timed(lambda: saxpy(cp.float32(2.0), x, y, o)))
    n = 10000 * 10000
    a = cp.random.rand(n, dtype=cp.float32)
    b = cp.random.rand(n, dtype=cp.float32)
    o = cp.empty_like(a)
    elem = cp.ElementwiseKernel("float32 a, float32 b", "float32 o", "o = a * b + sinf(a) + cosf(b)", "elem")
    print("elementwise", timed(lambda: elem(a, b, o)))
    g = cp.random.rand(10000, 10000, dtype=cp.float32)
    out = cp.empty_like(g)

    def stencil():
        out[1:-1, 1:-1] = (g[:-2, :-2] + 2 * g[:-2, 1:-1] + g[:-2, 2:] + 2 * g[1:-1, :-2] + 4 * g[1:-1, 1:-1]
                           + 2 * g[1:-1, 2:] + g[2:, :-2] + 2 * g[2:, 1:-1] + g[2:, 2:]) / 16
    print("stencil", timed(stencil))
    for m in (4096, 8192):
        p = cp.random.rand(m, m, dtype=cp.float32)
        q = cp.random.rand(m, m, dtype=cp.float32)
        print("matmul-cublas", m, timed(lambda: p @ q))


main()
