"""A PEP 517 build backend for the kjit package that needs nothing beyond the standard library.

pip builds packages in an isolated environment and downloads their build requirements there (setuptools);
with no network that fails. The package is pure Python, so its wheel is a zip of kjit/ and the dist-info,
written here: `pip install ./python` works offline."""

import base64
import hashlib
import os
import tarfile
import zipfile

NAME = "kjit"
VERSION = "0.4.0"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METADATA = f"""Metadata-Version: 2.1
Name: {NAME}
Version: {VERSION}
Summary: kjit from Python: Numba's decorators compiled by the kjit JIT compiler (libkjit)
License: BSD-2-Clause
Requires-Python: >=3.9
Requires-Dist: numpy
"""
WHEEL = "Wheel-Version: 1.0\nGenerator: kjit_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_sdist = get_requires_for_build_editable = get_requires_for_build_wheel


def _files():
    for dirpath, dirnames, filenames in os.walk(os.path.join(HERE, NAME)):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for f in sorted(filenames):
            if f.endswith(".py"):
                full = os.path.join(dirpath, f)
                yield full, os.path.relpath(full, HERE)


def _record_line(arc, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arc},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = f"{NAME}-{VERSION}-py3-none-any.whl"
    info = f"{NAME}-{VERSION}.dist-info"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        entries = [(arc, open(full, "rb").read()) for full, arc in _files()]
        entries += [(f"{info}/METADATA", METADATA.encode()), (f"{info}/WHEEL", WHEEL.encode())]
        for arc, data in entries:
            z.writestr(arc, data)
            records.append(_record_line(arc, data))
        records.append(f"{info}/RECORD,,")
        z.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return name


build_editable = build_wheel


def build_sdist(sdist_directory, config_settings=None):
    base = f"{NAME}-{VERSION}"
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for rel in ["pyproject.toml", "README.md", "_backend/kjit_build.py"]:
            t.add(os.path.join(HERE, rel), f"{base}/{rel}")
        for full, arc in _files():
            t.add(full, f"{base}/{arc}")
        pkg_info = os.path.join(sdist_directory, "PKG-INFO.tmp")
        with open(pkg_info, "w") as f:
            f.write(METADATA)
        t.add(pkg_info, f"{base}/PKG-INFO")
        os.remove(pkg_info)
    return name
