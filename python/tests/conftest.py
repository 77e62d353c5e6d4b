"""The package under test is python/kjit of this checkout, on the library of $KJIT_LIBRARY (meson test sets
it to the build's libkjit.so) or of ../../build."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import kjit  # noqa: E402

kjit.config.TARGET = "cpu"  # CI has no GPU: kernels run on the cpu target
