#!/usr/bin/env bash
# The GPU runtime's logic without a GPU: kjit --target=cuda on a fake driver
# (tests/unit/fake_libcuda.c; memory is host memory, launches do nothing),
# checking the transfers the lazy coherence makes, as KJIT_STATS counts them.
#   tests/fake_gpu/run.sh KJIT FAKE_LIBCUDA ROOT [FAKE_CUDA_AWARE_MPI]
set -uo pipefail
kjit=$1
fake=$2
root=$3
aware_mpi=${4:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-fake.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KJIT_LIBCUDA=$fake KJIT_CACHE_DIR=$tmp/cache KJIT_STATS=1
failed=0
expect() { # WHAT TEXT: the last run's stderr holds TEXT
    if ! grep -qF -- "$2" "$tmp/err"; then
        echo "FAIL $1: no '$2' in: $(tr '\n' '|' <"$tmp/err")"
        failed=$((failed + 1))
    fi
}
"$kjit" run --target=cuda "$root/tests/fake_gpu/coherence.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect coherence.k "kjit stats: host->device 3 transfers, 24000 bytes"
expect coherence.k "kjit stats: device->host 2 transfers, 16000 bytes"
expect coherence.k "kjit stats: device->device 1 copies, 8000 bytes"
expect coherence.k "kjit stats: launches of inc: 5"
# grid.sync(): a cooperative launch within the occupancy's limit, then one over it
"$kjit" run --target=cuda "$root/tests/fake_gpu/grid_sync.k" >"$tmp/out" 2>"$tmp/err"
expect grid_sync "kjit stats: launches of step: 1"
expect grid_sync "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: kernel 'step' uses grid.sync() and was launched with grid (529, 1, 1) of 529 blocks; at most 528 blocks of 256 threads can be resident at once (4 per SM x 132 SMs)"
# kernel.max_cooperative_grid_blocks: the driver's occupancy x the SMs (4 x 132)
"$kjit" run --target=cuda "$root/tests/fake_gpu/max_coop.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
# records written by a kernel come back (90 bytes each way); a padded device_array(strides=) is its extent
"$kjit" run --target=cuda "$root/tests/fake_gpu/records.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect records "kjit stats: host->device 1 transfers, 90 bytes"
expect records "kjit stats: device->host 2 transfers, 210 bytes"
grep -qxF "0.0 (32, 8)" "$tmp/out" || { echo "FAIL records: $(tr '\n' '|' <"$tmp/out")"; failed=$((failed + 1)); }
# a misaligned array (a field of a packed record) is refused at launch
"$kjit" run --target=cuda "$root/tests/fake_gpu/misaligned.k" >"$tmp/out" 2>"$tmp/err" && failed=$((failed + 1))
expect misaligned "RuntimeError: argument 1 of kernel 'kern' is a misaligned array"
# Device.uuid from cuDeviceGetUuid's bytes (the fake's 00 11 22 ... ff), as numba-cuda formats it
"$kjit" run --target=cuda "$root/tests/golden/run/cuda_gpus_iter.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
grep -qxF "GPU-00112233-4455-6677-8899-aabbccddeeff 40" "$tmp/out" || { echo "FAIL uuid: $(tr '\n' '|' <"$tmp/out")"; failed=$((failed + 1)); }
"$kjit" run --target=cuda "$root/tests/golden/run/cuda_max_coop_overloads.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
grep -qx 528 "$tmp/out" || { echo "FAIL overloads[sig].max_cooperative_grid_blocks: $(tr '\n' '|' <"$tmp/out")"; failed=$((failed + 1)); }
# cuda.compile_ptx and its relatives on the cuda target: the golden's facts (the current device: the fake's arch)
"$kjit" run --target=cuda "$root/tests/golden/run/cuda_compile_ptx.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
cmp -s "$tmp/out" "$root/tests/golden/run/cuda_compile_ptx.expected" || { echo "FAIL cuda_compile_ptx.k on cuda"; failed=$((failed + 1)); }
# a @ b of device arrays without cuBLAS: the host's product, both operands back once
KJIT_CUBLAS=/nonexistent/libcublas.so "$kjit" run --target=cuda "$root/tests/fake_gpu/matmul_device.k" >"$tmp/out" 2>"$tmp/err" ||
    failed=$((failed + 1))
expect matmul_device "kjit stats: host->device 2 transfers, 144 bytes"
expect matmul_device "kjit stats: device->host 2 transfers, 144 bytes"
grep -qF "[[20. 23. 26. 29.]" "$tmp/out" || { echo "FAIL matmul_device: $(tr '\n' '|' <"$tmp/out")"; failed=$((failed + 1)); }
# ufuncs: inputs go up, outputs made on the device do not; c comes back once
"$kjit" run --target=cuda "$root/tests/fake_gpu/ufunc.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect ufunc "kjit stats: host->device 2 transfers, 16000 bytes"
expect ufunc "kjit stats: device->host 1 transfers, 8000 bytes"
expect ufunc "kjit stats: launches of f: 2"
# out= overlapping an input: a comes back once for the copy, which goes up (a needs no upload again)
"$kjit" run --target=cuda "$root/tests/fake_gpu/ufunc_overlap.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect ufunc_overlap "kjit stats: host->device 2 transfers, 16000 bytes"
expect ufunc_overlap "kjit stats: device->host 1 transfers, 8000 bytes"
expect ufunc_overlap "kjit stats: launches of f: 2"
# a kernel's read-only array keeps its host copy: a, b up; b back twice; a up again after the write
"$kjit" run --target=cuda "$root/tests/fake_gpu/read_only.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect read_only "kjit stats: host->device 3 transfers, 24000 bytes"
expect read_only "kjit stats: device->host 2 transfers, 16000 bytes"
# module slots read by a kernel: A up twice (again after the script writes it), its descriptor and S once;
# the globals hold A's device address, shape and strides, and S
FAKE_CUDA_SLOT_LOG=1 FAKE_CUDA_COUNTS=1 "$kjit" run --target=cuda "$root/tests/fake_gpu/module_slots.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect module_slots "kjit stats: host->device 5 transfers, 24040 bytes"
expect module_slots "kjit stats: device->host 0 transfers, 0 bytes"
expect module_slots "kjit stats: launches of scale: 133"
expect module_slots "fake cuda: 5 cuLaunchKernel, 2 cuGraphLaunch of 128 kernels"
expect module_slots "fake slot __kjit_slot_A: device 1000 8 0"
expect module_slots "fake slot __kjit_slot_S: 495.92153437178274"
if grep -v '^fake slot __kjit_slot_A: device 1000 8 0$' "$tmp/err" | grep -q '^fake slot __kjit_slot_A'; then
    echo "FAIL module_slots: a launch saw another A: $(grep '^fake slot __kjit_slot_A' "$tmp/err" | sort -u | tr '\n' '|')"
    failed=$((failed + 1))
fi
# new large ufunc results reuse the memory freed ones left, page-locked from their second copy
"$kjit" run --target=cuda "$root/tests/fake_gpu/ufunc_results.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect ufunc_results "kjit stats: device->host 6 transfers, 12582912 bytes"
expect ufunc_results "kjit stats: page-locked 2 host arrays copied more than once, 4194304 bytes"
# np.sum/np.max/a.min() of a device array: on the GPU, only the blocks' results come back
"$kjit" run --target=cuda "$root/tests/fake_gpu/np_reduce.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
# and nothing goes up: the blocks' results and the ticket are made on the device (a layout cast of
# them in host code is no host write: it made both go up at every reduction before)
expect np_reduce "kjit stats: host->device 0 transfers, 0 bytes"
expect np_reduce "kjit stats: device->host 3 transfers, 11736 bytes"
expect np_reduce "kjit stats: launches of sum: 1"
expect np_reduce "kjit stats: launches of max: 1"
expect np_reduce "kjit stats: launches of min: 1"
# loops: checks hoisted out of a loop that cannot launch
"$kjit" run --target=cuda "$root/tests/fake_gpu/coherence_loops.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect loops "kjit stats: host->device 2 transfers, 16000 bytes"
expect loops "kjit stats: device->host 4 transfers, 32000 bytes"
expect loops "kjit stats: launches of inc: 5"
# a host helper launching on a device array: no transfer per call (the helper checks its own accesses)
"$kjit" run --target=cuda "$root/tests/fake_gpu/helper_launch.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect helper_launch "kjit stats: host->device 1 transfers, 800000 bytes"
expect helper_launch "kjit stats: device->host 1 transfers, 800000 bytes"
expect helper_launch "kjit stats: launches of inc: 5"
# copies straight from where the data is; memory copied twice page-locked
"$kjit" run --target=cuda "$root/tests/fake_gpu/transfers.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect transfers "kjit stats: host->device 3 transfers, 6000000 bytes"
expect transfers "kjit stats: device->host 4 transfers, 9600000 bytes"
expect transfers "kjit stats: device->device 1 copies, 2400000 bytes"
expect transfers "kjit stats: page-locked 2 host arrays copied more than once, 4800000 bytes"
if ! printf '0.0 299999.0 1.0\n7.0 5.0\n299999.0\n150000 2.0\n' | cmp -s - "$tmp/out"; then
    echo "FAIL transfers: printed $(tr '\n' '|' <"$tmp/out")"
    failed=$((failed + 1))
fi
# device-array methods: copy_to_device and a slice write stay on the host side (no transfer), the
# F-ordered to_device goes up once and comes back for the host's read; the split views of another array
# come down one by one from its device copy (output from Numba's simulator)
"$kjit" run --target=cuda "$root/tests/fake_gpu/device_array.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect device_array "kjit stats: host->device 2 transfers, 128 bytes"
expect device_array "kjit stats: device->host 4 transfers, 128 bytes"
if ! printf '[9.  1.5 1.5] True\n(8, 16) 5.0 [0. 2. 4.]\n(4, 16) True (4, 5)\n(2000,) (4,)\n[0. 1. 2. 3.]\n[4. 5. 6. 7.]\n[8. 9.]\n' | cmp -s - "$tmp/out"; then
    echo "FAIL device_array: printed $(tr '\n' '|' <"$tmp/out")"
    failed=$((failed + 1))
fi
# auto picks the GPU when there is one
"$kjit" run "$root/tests/fake_gpu/coherence.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect auto "kjit stats: launches of inc: 5"
# the second run loads the cubin from the cache
expect cache "kjit stats: GPU code: 1 modules (1 from the cache)"
# launch specialisation (KJIT_INDEX32=1): the 32-bit index entry for the launch that fits, the generic one for
# 2**31 threads; none by default
KJIT_INDEX32=1 "$kjit" run --target=cuda "$root/tests/fake_gpu/index32.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect index32 "kjit stats: launches of fill: 2"
expect index32 "kjit stats: launches of fill with 32-bit indices: 1"
"$kjit" run --target=cuda "$root/tests/fake_gpu/index32.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect index32-off "kjit stats: launches of fill: 2"
if grep -qF "with 32-bit indices" "$tmp/err"; then echo "FAIL index32-off: a 32-bit entry ran"; failed=$((failed + 1)); fi
KJIT_INDEX32=1 KJIT_NO_SPECIALISE=1 "$kjit" run --target=cuda "$root/tests/fake_gpu/index32.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
if grep -qF "with 32-bit indices" "$tmp/err"; then echo "FAIL index32-nospec: a 32-bit entry ran"; failed=$((failed + 1)); fi
# over the device's shared memory: refused before launching, naming both
"$kjit" run --target=cuda "$root/tests/gpu/faults/shared_too_big.k" >"$tmp/out" 2>"$tmp/err" && failed=$((failed + 1))
expect shared "needs 0 bytes of static and 300000 bytes of dynamic shared memory per block; the device has at most 232448"
# over the 48 KiB default but within the opt-in limit: allowed on the GPU
"$kjit" run --target=cuda "$root/tests/gpu/pinned/big_dynamic_shared.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect big-shared "kjit stats: launches of spread: 1"
# out of device memory
"$kjit" run --target=cuda "$root/tests/fake_gpu/out_of_memory.k" >"$tmp/out" 2>"$tmp/err" && failed=$((failed + 1))
expect oom "MemoryError: out of device memory: 80000000 bytes requested, 67108864 of 67108864 bytes free"
# MPI buffers that are device arrays (one rank, no mpirun): a halo row staged
# through page-locked memory, its bytes only; a strided column through the
# host copy; KJIT_MPI_CUDA_AWARE; device pointers to a CUDA-aware library
if command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
    export OMPI_MCA_plm_rsh_agent=false OMPI_MCA_btl=self,vader
    # Open MPI does not free all it allocates: no leak report of its own under ASan
    export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
    halo=$root/tests/fake_gpu/mpi_halo.k
    want='1000.0 1999.0\n1005.0\n1000.0 1000.0 3000.0\n'
    "$kjit" run --target=cuda "$halo" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
    # up: the grid, then the received row; down: the sent row, then the grid for host code
    expect mpi-staged "kjit stats: host->device 2 transfers, 40000 bytes"
    expect mpi-staged "kjit stats: device->host 2 transfers, 40000 bytes"
    expect mpi-staged "device buffers: direct 0 (0 bytes), peer to peer 0 (0 bytes), pinned staging 2 (16000 bytes), through the host copy 1 (32 bytes); host buffers 3 (16032 bytes); the library is not CUDA-aware"
    printf "$want" | cmp -s - "$tmp/out" || { echo "FAIL mpi-staged: printed $(tr '\n' '|' <"$tmp/out")"; failed=$((failed + 1)); }
    # two ranks: device buffers GPU to GPU (the fake device memory is shared memory the peer maps), the
    # same bytes through pinned staging with KJIT_MPI_IPC=0 or when the peer cannot map it
    ipc=$root/tests/fake_gpu/mpi_ipc.k
    for how in ipc KJIT_MPI_IPC=0 FAKE_CUDA_NO_PEER=1; do
        [ "$how" = ipc ] && set -- || set -- "$how"
        env "$@" timeout 120 mpirun -n 2 "$kjit" run --target=cuda "$ipc" >"$tmp/out" 2>"$tmp/err" ||
            failed=$((failed + 1))
        printf '11000.0 11999.0 11005.0 1000.0 1001.0\n' | cmp -s - "$tmp/out" ||
            { echo "FAIL mpi-$how: printed $(tr '\n' '|' <"$tmp/out") $(tail -n 3 "$tmp/err" | tr '\n' '|')"; failed=$((failed + 1)); }
        if [ "$how" = ipc ]; then
            expect mpi-ipc "mpi rank 1 of 2: 6 messages, 32032 bytes; device buffers: direct 0 (0 bytes), peer to peer 4 (32000 bytes), pinned staging 0 (0 bytes)"
            expect mpi-ipc "kjit stats: host->device 1 transfers, 32000 bytes"
        else
            expect "mpi-$how" "mpi rank 0 of 2: 6 messages, 32032 bytes; device buffers: direct 0 (0 bytes), peer to peer 0 (0 bytes), pinned staging 3 (24000 bytes)"
        fi
    done
    # collectives of device arrays (KJIT_MPI_COLL_MIN=0: these small ones too): GPU to GPU, reduced by the
    # runtime's kernels (which the fake driver runs on the host); the same answer staged, where the peer
    # cannot map the sender's memory, and below the size limit (MPI's own collectives)
    coll=$root/tests/fake_gpu/mpi_coll.k
    for how in ipc KJIT_MPI_IPC=0 FAKE_CUDA_NO_PEER=1 KJIT_MPI_COLL_MIN=65536; do
        [ "$how" = ipc ] && set -- KJIT_MPI_COLL_MIN=0 || set -- KJIT_MPI_COLL_MIN=0 "$how"
        env "$@" timeout 120 mpirun -n 2 "$kjit" run --target=cuda "$coll" >"$tmp/out" 2>"$tmp/err" ||
            failed=$((failed + 1))
        printf '1000.0 2998.0 3 999 8.0 8.0 3.0 1\n' | cmp -s - "$tmp/out" ||
            { echo "FAIL coll-$how: printed $(tr '\n' '|' <"$tmp/out") $(tail -n 3 "$tmp/err" | tr '\n' '|')"; failed=$((failed + 1)); }
    done
    KJIT_MPI_COLL_MIN=0 timeout 120 mpirun -n 2 "$kjit" run --target=cuda "$coll" >"$tmp/out" 2>"$tmp/err" ||
        failed=$((failed + 1))
    expect coll-ipc "mpi rank 1 of 2: 8 messages, 40040 bytes; device buffers: direct 0 (0 bytes), peer to peer 6 (40000 bytes), pinned staging 0 (0 bytes), through the host copy 0 (0 bytes); host buffers 2 (40 bytes)"
    KJIT_MPI_COLL_MIN=0 FAKE_CUDA_NO_PEER=1 timeout 120 mpirun -n 2 "$kjit" run --target=cuda "$coll" \
        >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
    expect coll-no-peer "mpi rank 0 of 2: 8 messages, 40040 bytes; device buffers: direct 0 (0 bytes), peer to peer 0 (0 bytes), pinned staging 4 (28000 bytes), through the host copy 2 (12000 bytes)"
    timeout 120 mpirun -n 2 "$kjit" run --target=cuda "$coll" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
    expect coll-small "mpi rank 1 of 2: 6 messages, 28040 bytes; device buffers: direct 0 (0 bytes), peer to peer 0 (0 bytes), pinned staging 4 (28000 bytes)"
    KJIT_MPI_CUDA_AWARE=0 "$kjit" run --target=cuda "$halo" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
    expect mpi-forced-0 "pinned staging 2 (16000 bytes)"
    KJIT_MPI_CUDA_AWARE=1 "$kjit" run --target=cuda "$halo" >"$tmp/out" 2>"$tmp/err" && failed=$((failed + 1))
    expect mpi-forced-1 "RuntimeError: comm.Isend: KJIT_MPI_CUDA_AWARE=1 but the MPI library is not CUDA-aware"
    KJIT_MPI_CUDA_AWARE=yes "$kjit" run --target=cuda "$halo" >"$tmp/out" 2>"$tmp/err" && failed=$((failed + 1))
    expect mpi-forced-bad "KJIT_MPI_CUDA_AWARE=yes: expected 0"
    if [ -n "$aware_mpi" ]; then
        # the fake device memory is host memory, so the library can take its pointers
        KJIT_MPI_LIBRARY=$aware_mpi "$kjit" run --target=cuda "$halo" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
        expect mpi-direct "kjit stats: host->device 1 transfers, 32000 bytes"
        expect mpi-direct "kjit stats: device->host 1 transfers, 32000 bytes"
        expect mpi-direct "device buffers: direct 2 (16000 bytes), peer to peer 0 (0 bytes), pinned staging 0 (0 bytes)"
        expect mpi-direct "the library is CUDA-aware"
        printf "$want" | cmp -s - "$tmp/out" || { echo "FAIL mpi-direct: printed $(tr '\n' '|' <"$tmp/out")"; failed=$((failed + 1)); }
        KJIT_MPI_CUDA_AWARE=0 KJIT_MPI_LIBRARY=$aware_mpi "$kjit" run --target=cuda "$halo" >"$tmp/out" 2>"$tmp/err" ||
            failed=$((failed + 1))
        expect mpi-direct-off "pinned staging 2 (16000 bytes)"
    fi
fi
# thread-layout specialisation: the remapped kernel's block goes to the driver with x and y swapped, its grid too
# unless the swapped grid would pass the y limit (70000 blocks in x stay in x)
FAKE_CUDA_LAUNCH_LOG=1 "$kjit" run --target=cuda "$root/tests/fake_gpu/layout.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
expect layout "fake launch: grid (2, 3, 1), block (4, 16, 1)"
expect layout "fake launch: grid (5, 7, 1), block (8, 2, 3)"
expect layout "fake launch: grid (3, 2, 1), block (16, 4, 1)"
expect layout "fake launch: grid (70000, 1, 1), block (16, 2, 1)"
expect layout "kjit stats: layout: kernel naive remapped"
if grep -qF "kernel coalesced remapped" "$tmp/err" || grep -qF "kernel lanes remapped" "$tmp/err"; then
    echo "FAIL layout: a kernel remapped that must not be: $(tr '\n' '|' <"$tmp/err")"
    failed=$((failed + 1))
fi
KJIT_NO_SPECIALISE=1 FAKE_CUDA_LAUNCH_LOG=1 "$kjit" run --target=cuda "$root/tests/fake_gpu/layout.k" >"$tmp/out" 2>"$tmp/err" ||
    failed=$((failed + 1))
expect layout-off "fake launch: grid (3, 2, 1), block (16, 4, 1)"
if grep -qF "block (4, 16, 1)" "$tmp/err"; then echo "FAIL layout-off: a block was swapped"; failed=$((failed + 1)); fi
# the same results remapped or not, on the cpu targets too (the golden runner runs it remapped only)
for t in cpu parallel; do
    KJIT_NO_SPECIALISE=1 "$kjit" run --target=$t "$root/tests/golden/run/layout_remap.k" >"$tmp/out" 2>"$tmp/err" ||
        failed=$((failed + 1))
    cmp -s "$tmp/out" "$root/tests/golden/run/layout_remap.expected" ||
        { echo "FAIL layout-off $t: printed $(tr '\n' '|' <"$tmp/out")"; failed=$((failed + 1)); }
    grep -qF "remapped" "$tmp/err" && { echo "FAIL layout-off $t: remapped"; failed=$((failed + 1)); }
done
# CUDA graphs of host loops (runtime/gpu_graph.c): 1000 launches of touch and 201 of step (a, b swapped:
# period 2) learnt in 2 and 4 launches, then replayed 64 at a time with the rest launched plainly; a loop
# whose parameter changes, one that branches and one that reads device data stay plain; the launch counts
# are those of plain launches, and the fake driver sees the same kernels in the same order either way
graph=$root/tests/golden/run/cuda_graph_loop.k
FAKE_CUDA_COUNTS=1 "$kjit" run --target=cuda "$graph" >"$tmp/graph.out" 2>"$tmp/err" || failed=$((failed + 1))
expect graphs "kjit stats: launches of touch: 1010"
expect graphs "kjit stats: launches of step: 301"
expect graphs "kjit stats: CUDA graphs of host loops: 2 built, 18 replays of 1152 launches"
expect graphs "fake cuda: 159 cuLaunchKernel, 18 cuGraphLaunch of 1152 kernels"
for off in KJIT_NO_GRAPHS=1 KJIT_NO_SPECIALISE=1 FAKE_CUDA_NO_GRAPHS=1 FAKE_CUDA_GRAPH_FAIL=1; do
    env "$off" FAKE_CUDA_COUNTS=1 "$kjit" run --target=cuda "$graph" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
    expect "graphs-$off" "kjit stats: launches of touch: 1010"
    expect "graphs-$off" "fake cuda: 1311 cuLaunchKernel, 0 cuGraphLaunch of 0 kernels"
    cmp -s "$tmp/out" "$tmp/graph.out" || { echo "FAIL graphs-$off: printed $(tr '\n' '|' <"$tmp/out")"; failed=$((failed + 1)); }
done
FAKE_CUDA_TRACE=1 "$kjit" run --target=cuda "$graph" >"$tmp/out" 2>"$tmp/trace.graphs" || failed=$((failed + 1))
KJIT_NO_GRAPHS=1 FAKE_CUDA_TRACE=1 "$kjit" run --target=cuda "$graph" >"$tmp/out" 2>"$tmp/trace.plain" ||
    failed=$((failed + 1))
if [ "$(grep -c '^fake cuda: kernel' "$tmp/trace.graphs")" != 1311 ] ||
    ! cmp -s <(grep '^fake cuda: kernel' "$tmp/trace.graphs") <(grep '^fake cuda: kernel' "$tmp/trace.plain"); then
    echo "FAIL graphs-trace: the kernels run differ from plain launches'"
    failed=$((failed + 1))
fi
# loops that do more than launch, or launch with a configuration made in the loop: plain launches only
FAKE_CUDA_COUNTS=1 "$kjit" run --target=cuda "$root/tests/fake_gpu/graph_fallback.k" >"$tmp/out" 2>"$tmp/err" ||
    failed=$((failed + 1))
expect graph-fallback "kjit stats: launches of touch: 300"
expect graph-fallback "fake cuda: 300 cuLaunchKernel, 0 cuGraphLaunch of 0 kernels"
# numba.cuda's device API reads the driver: the fake's name and attributes (cuDeviceGetAttribute)
"$kjit" run --target=cuda "$root/tests/golden/run/cuda_device_api.k" >"$tmp/out" 2>"$tmp/err" || failed=$((failed + 1))
for want in "id 0                    fake                              [SUPPORTED]" "fake" "0 (9, 0)" "132 1024 32" \
    "49152 232448" "1024 1024 64" "2147483647 65535 65535" "True True"; do
    grep -qxF -- "$want" "$tmp/out" || { echo "FAIL device api: no line '$want' in: $(tr '\n' '|' <"$tmp/out")"; failed=$((failed + 1)); }
done
echo "fake gpu: $failed failed"
[ $failed -eq 0 ]
