"""PEP 517 build backend: setuptools, after writing the cffi wrapper.

cffi's API mode generates the extension's C wrapper from ``prefdd.h``; this
backend writes it to ``build/cffi/_core.c``, adds the machine flags of
``build_ffi.arch_flags`` to CFLAGS, trains a compiler profile and adds the
flags that use it (``build_pgo.py``; skipped with a warning where it cannot
be done), and hands over to setuptools, which compiles the extension
declared in ``pyproject.toml`` ([tool.setuptools] ext-modules). Everything
else is plain setuptools.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403  (the other PEP 517 hooks)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_ffi  # noqa: E402
import build_pgo  # noqa: E402

GENERATED = Path("build") / "cffi" / "_core.c"


def _add_cflags(flags: list[str]) -> None:
    if flags:
        os.environ["CFLAGS"] = (os.environ.get("CFLAGS", "") + " " + " ".join(flags)).strip()


def _write_wrapper() -> None:
    GENERATED.parent.mkdir(parents=True, exist_ok=True)
    build_ffi.make_builder().emit_c_code(str(GENERATED))
    # pyproject.toml's compile flags are fixed; machine flags and the
    # profile's flags go in by CFLAGS.
    _add_cflags(build_ffi.arch_flags())
    _add_cflags(build_pgo.profile_flags(build_ffi.OPTIMISE))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _write_wrapper()
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _write_wrapper()
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
