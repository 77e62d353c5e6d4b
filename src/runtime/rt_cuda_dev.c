/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda's device API in host code (docs/cuda.md § The device): the
 * driver's answers on the cuda target; on the cpu targets those of the
 * device they emulate (builtins_cuda_dev.h: an H100 SXM's limits, the ones
 * rt_launch.c and rt_grid.c check), named as what it is. */
#include "../abi/abi.h"
#include "gpu.h"
#include "rt_host.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The emulated device's name: honest about where kernels run. */
#define CPU_NAME "kjit cpu target (kernels run on the host, sm_90 limits)"

enum { ATTR_SINGLE_TO_DOUBLE = 87, ATTR_KERNEL_EXEC_TIMEOUT = 17, ATTR_PCI_BUS_ID = 33, ATTR_PCI_DEVICE_ID = 34,
       ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76 };

int64_t kj_rt_cuda_dev_attr(kj_rt *rt, int32_t code, int64_t cpu_value, int32_t line, int32_t col)
{
    if (!rt->gpu) return code < 0 ? 0 : cpu_value;
    int ord = kj_gpu_ordinal(rt->gpu);
    if (code < 0) return ord;
    int64_t v;
    if (kj_gpu_device_attr(rt->gpu, ord, code, &v)) return v;
    kj_rt_error e;
    kj_rt_errorf(&e, "RuntimeError", "cuDeviceGetAttribute: the driver has no device attribute %d", (int)code);
    kj_rt_raise_error(rt, &e, line, col);
}

void *kj_rt_cuda_dev_name(kj_rt *rt)
{
    char buf[256];
    if (!rt->gpu || !kj_gpu_device_name(rt->gpu, kj_gpu_ordinal(rt->gpu), buf, sizeof buf))
        snprintf(buf, sizeof buf, "%s", rt->gpu ? "?" : CPU_NAME);
    return kj_rt_str_cat(rt, buf, "");
}

int64_t kj_rt_cuda_mem_info(kj_rt *rt, int32_t which)
{
    size_t fb = 0, tb = 0;
    if (rt->gpu) {
        kj_gpu_mem_info(rt->gpu, &fb, &tb);
    } else { /* the cpu targets' device memory is the host's */
        long page = sysconf(_SC_PAGESIZE), avail = sysconf(_SC_AVPHYS_PAGES), phys = sysconf(_SC_PHYS_PAGES);
        fb = page > 0 && avail > 0 ? (size_t)page * (size_t)avail : 0;
        tb = page > 0 && phys > 0 ? (size_t)page * (size_t)phys : 0;
    }
    return (int64_t)(which ? tb : fb);
}

/* numba-cuda's Device.uuid: 'GPU-%02x...' of the driver's 16 bytes (cuDeviceGetUuid) in groups of
 * 4-2-2-2-6; all zeros for the cpu targets' device, as Numba's simulator gives. */
static bool uuid_of(kj_rt *rt, int ord, char out[48])
{
    unsigned char u[16] = {0};
    if (rt->gpu && !kj_gpu_device_uuid(rt->gpu, ord, u)) return false;
    char *p = out + sprintf(out, "GPU-");
    for (int i = 0; i < 16; i++) p += sprintf(p, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", u[i]);
    return true;
}

void *kj_rt_cuda_dev_uuid(kj_rt *rt, int32_t line, int32_t col)
{
    char s[48];
    if (!uuid_of(rt, rt->gpu ? kj_gpu_ordinal(rt->gpu) : 0, s)) {
        kj_rt_error e;
        kj_rt_errorf(&e, "RuntimeError", "cuDeviceGetUuid: the CUDA driver has no device UUID");
        kj_rt_raise_error(rt, &e, line, col);
    }
    return kj_rt_str_cat(rt, s, "");
}

static int64_t attr_of(kj_rt *rt, int ord, int code, int64_t cpu_value)
{
    int64_t v = cpu_value;
    if (rt->gpu && !kj_gpu_device_attr(rt->gpu, ord, code, &v)) v = -1;
    return v;
}

/* numba.cuda.detect()'s report, line for line (a driver without
 * cuDeviceGetUuid shows `?` as the UUID). */
int32_t kj_rt_cuda_detect(kj_rt *rt)
{
    int n = rt->gpu ? kj_gpu_count(rt->gpu) : 1, supported = 0;
    char line[1024], name[256], uuid[48];
    snprintf(line, sizeof line, "Found %d CUDA devices\n", n);
    kj_rt_print_str(rt, line);
    for (int d = 0; d < n; d++) {
        if (!rt->gpu || !kj_gpu_device_name(rt->gpu, d, name, sizeof name))
            snprintf(name, sizeof name, "%s", rt->gpu ? "?" : CPU_NAME);
        int64_t major = attr_of(rt, d, ATTR_CC_MAJOR, 9), minor = attr_of(rt, d, ATTR_CC_MINOR, 0);
        const char *support = major < 3 || (major == 3 && minor < 5) ? "[NOT SUPPORTED: CC < 3.5]"
                              : major < 5 || (major == 5 && minor < 3) ? "[SUPPORTED (DEPRECATED)]"
                                                                       : "[SUPPORTED]";
        supported += support[1] == 'S';
        if (!uuid_of(rt, d, uuid)) snprintf(uuid, sizeof uuid, "?");
        snprintf(line, sizeof line, "id %d    %20s %40s\n%40s: %" PRId64 ".%" PRId64 "\n%40s: %" PRId64 "\n%40s: %" PRId64
                 "\n%40s: %s\n%40s: %s\n%40s: %" PRId64 "\n",
                 d, name, support, "Compute Capability", major, minor, "PCI Device ID",
                 attr_of(rt, d, ATTR_PCI_DEVICE_ID, 0), "PCI Bus ID", attr_of(rt, d, ATTR_PCI_BUS_ID, 0), "UUID", uuid,
                 "Watchdog",
                 attr_of(rt, d, ATTR_KERNEL_EXEC_TIMEOUT, 0) > 0 ? "Enabled" : "Disabled",
                 "FP32/FP64 Performance Ratio", attr_of(rt, d, ATTR_SINGLE_TO_DOUBLE, 2));
        kj_rt_print_str(rt, line);
    }
    snprintf(line, sizeof line, "Summary:\n\t%d/%d devices are supported\n", supported, n);
    kj_rt_print_str(rt, line);
    return supported > 0;
}
