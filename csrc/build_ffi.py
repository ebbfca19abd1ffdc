"""The cffi (API mode) definition of the ``solver._core`` extension.

The declarations are read from the ``CDEF BEGIN`` / ``CDEF END`` block of
``prefdd.h``, so the header stays the one source of truth. The generated
wrapper includes every C file of the core, so the whole solver is compiled as
one translation unit (the compiler inlines across files, as LTO would). Used by
the package build (``build_backend.py``) and by ``make sanitize``.

    python csrc/build_ffi.py OUTDIR [--sanitize]

compiles the extension into OUTDIR directly (for the sanitizer build).
"""
from __future__ import annotations

import platform
import sys
from pathlib import Path

from cffi import FFI

CSRC = Path(__file__).resolve().parent
C_SOURCES = ["board.c", "tt.c", "quick.c", "order.c", "search.c", "api.c", "discard.c", "maxn.c"]
# -fno-semantic-interposition: an extension module is built with -fPIC, where
# by default every non-static function may be replaced at load time, so the
# compiler calls them through the PLT and never inlines them across the
# sources; nothing replaces ours. Measured: 7 % fewer instructions.
# assert() checks the core's invariants in the sanitizer build only: Python's
# own CFLAGS carry -DNDEBUG, which -UNDEBUG undoes there.
OPTIMISE = ["-O3", "-DNDEBUG", "-std=c11", "-Wall", "-Wextra", "-fno-strict-aliasing", "-fno-semantic-interposition"]
SANITIZE = ["-O1", "-g", "-UNDEBUG", "-std=c11", "-fsanitize=address,undefined",
            "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]


def arch_flags() -> list[str]:
    """Machine flags: on x86-64 the POPCNT instruction (every x86-64 CPU since
    about 2009 has it; without it each popcount is a library call, measured
    10 % slower). Nothing elsewhere."""
    return ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []


def header_declarations() -> str:
    text = (CSRC / "prefdd.h").read_text()
    start = text.index("/* CDEF BEGIN */") + len("/* CDEF BEGIN */")
    end = text.index("/* CDEF END */")
    return text[start:end]


def wrapper_source() -> str:
    return "\n".join(['#include "prefdd.h"'] + [f'#include "{name}"' for name in C_SOURCES])


def make_builder(sanitize: bool = False) -> FFI:
    """An FFI builder for ``solver._core``."""
    flags = (SANITIZE if sanitize else OPTIMISE) + arch_flags()
    ffibuilder = FFI()
    ffibuilder.cdef(header_declarations())
    ffibuilder.set_source(
        "solver._core",
        wrapper_source(),
        include_dirs=[str(CSRC)],
        extra_compile_args=flags,
        extra_link_args=["-fsanitize=address,undefined"] if sanitize else [],
        libraries=["pthread"],
    )
    return ffibuilder


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = Path(argv[0]).resolve()
    builder = make_builder(sanitize="--sanitize" in argv)
    builder.compile(tmpdir=str(outdir), verbose=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
