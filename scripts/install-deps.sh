#!/usr/bin/env bash
# Installs the Debian 12 packages kjit needs, only those missing (so a second
# run costs nothing). Runs apt as root, through sudo when not root.
set -euo pipefail

pkgs=(
    gcc git                             # the normal build
    meson ninja-build pkg-config        # build system
    llvm-22-dev clang-22                # LLVM C API (codegen), clang for libFuzzer
    libclang-rt-22-dev                  # libFuzzer and sanitizer runtimes for clang
    zlib1g-dev libzstd-dev              # LLVM linked statically (llvm-config --system-libs)
    libxml2-dev libz3-dev
    libcmocka-dev                       # unit tests
    python3-numba                       # differential tests: programs run under CPython + Numba
    openmpi-bin libopenmpi3             # MPI programs (tests/mpi/run.sh); kjit dlopens libmpi.so.40
    python3-mpi4py                      # the same MPI programs under CPython + Numba
    python3-pytest python3-venv python3-pip # the Python package: its tests (python/tests), pip install ./python
    python3-dev                         # its C fast path (python/kjit/_fast.c)
    libopenblas0 liblapacke             # np.dot/@/np.linalg: kjit dlopens libopenblas.so.0 and
                                        # liblapacke.so.3 (src/runtime/linalg.c); OpenBLAS is also
                                        # then the libblas.so.3 that NumPy uses
)

missing=()
for p in "${pkgs[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all ${#pkgs[@]} packages present"
    exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi
echo "deps: installing ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o Dpkg::Use-Pty=0 "${missing[@]}" </dev/null
