"""numba-cuda's DeviceRecord (cuda.to_device of one numpy.void record): the record's bytes in memory of its own,
its dtype, copy_to_host() giving a numpy.void back, and passing it to a kernel (a record argument, by reference:
kernels write its fields, as Numba's). On the cpu target the memory is the host's; a launch on a GPU refuses a
record argument (kjit_launch: pass an array of records)."""

import numpy as np


class DeviceRecord:
    def __init__(self, rec):
        self._host = np.array(rec, copy=True)  # a 0-d structured array: the record's own bytes

    dtype = property(lambda self: self._host.dtype)
    shape = ()
    ndim = 0
    size = 1
    nbytes = property(lambda self: self._host.dtype.itemsize)

    def _kjit_record(self):
        """The numpy.void over this record's memory (what a kernel argument refers to)."""
        return self._host[()]

    def copy_to_host(self, ary=None, stream=0):
        if ary is not None:
            ary[...] = self._host
            return ary
        return self._host.copy()[()]

    def copy_to_device(self, ary, stream=0):
        src = ary.copy_to_host() if isinstance(ary, DeviceRecord) else ary
        self._host[...] = src

    def __repr__(self):
        return repr(self._host[()])
