/* SPDX-License-Identifier: BSD-2-Clause */
/* The driver's answers about a device for numba.cuda's host API
 * (rt_cuda_dev.c): any CU_DEVICE_ATTRIBUTE and the name of any ordinal. */
#include "gpu_int.h"

bool kj_gpu_device_attr(kj_gpu *g, int ordinal, int code, int64_t *v)
{
    CUdevice d;
    int x = 0;
    if (g->cu.cuDeviceGet(&d, ordinal) != CUDA_SUCCESS) return false;
    if (g->cu.cuDeviceGetAttribute(&x, (CUdevice_attribute)code, d) != CUDA_SUCCESS) return false;
    *v = x;
    return true;
}

bool kj_gpu_device_uuid(kj_gpu *g, int ordinal, unsigned char out[16])
{
    CUdevice d;
    CUuuid u;
    if (!g->cu.cuDeviceGetUuid || g->cu.cuDeviceGet(&d, ordinal) != CUDA_SUCCESS) return false;
    if (g->cu.cuDeviceGetUuid(&u, d) != CUDA_SUCCESS) return false;
    memcpy(out, u.bytes, 16);
    return true;
}

bool kj_gpu_device_name(kj_gpu *g, int ordinal, char *buf, size_t cap)
{
    CUdevice d;
    if (cap < 2 || g->cu.cuDeviceGet(&d, ordinal) != CUDA_SUCCESS) return false;
    buf[cap - 1] = 0;
    return g->cu.cuDeviceGetName(buf, (int)cap - 1, d) == CUDA_SUCCESS;
}
