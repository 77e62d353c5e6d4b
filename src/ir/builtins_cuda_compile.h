/* SPDX-License-Identifier: BSD-2-Clause */
/* numba-cuda's compilation entry points in host code (host.rst
 * "Compilation", docs/cuda.md § Compiling to PTX): cuda.compile_ptx,
 * compile_ptx_for_current_device, compile, compile_for_current_device,
 * compile_all, as built-in rows (included by builtins.h). They are typed and
 * lowered by cuda_compile.c; the PTX text is made by the C API before the
 * host code (src/api/ptx_consts.c), through kjit ptx's path. */
#ifndef KJ_BUILTINS_CUDA_COMPILE_H
#define KJ_BUILTINS_CUDA_COMPILE_H

#define KJ_CUDA_COMPILE_PARAMS \
    "pyfunc, sig, debug=, lineinfo=, device=, fastmath=, cc=, opt=, abi=, abi_info=, output=, forceinline=, " \
    "launch_bounds="

/* The first row is KJ_B_CUDA_COMPILE_PTX, the last KJ_B_CUDA_COMPILE_ALL. */
#define KJ_BUILTINS_CUDA_COMPILE(X) \
    X(CUDA_COMPILE_PTX, "cuda.compile_ptx", KJ_BF_HOST, KJ_CUDA_COMPILE_PARAMS) \
    X(CUDA_COMPILE_PTX_CURDEV, "cuda.compile_ptx_for_current_device", KJ_BF_HOST, KJ_CUDA_COMPILE_PARAMS) \
    X(CUDA_COMPILE, "cuda.compile", KJ_BF_HOST, KJ_CUDA_COMPILE_PARAMS) \
    X(CUDA_COMPILE_CURDEV, "cuda.compile_for_current_device", KJ_BF_HOST, KJ_CUDA_COMPILE_PARAMS) \
    X(CUDA_COMPILE_ALL, "cuda.compile_all", KJ_BF_HOST, KJ_CUDA_COMPILE_PARAMS)

#endif
