"""The cffi (API mode) definition of the ``solver._core`` extension, and the
only home of its compiler flags.

The declarations are read from the ``CDEF BEGIN`` / ``CDEF END`` block of
``prefdd.h``, so the header stays the one source of truth. The generated
wrapper includes every C file of the core, so the whole solver is compiled as
one translation unit (the compiler inlines across files, as LTO would).

The package build calls :func:`make_builder` through ``setup.py``
(``cffi_modules=["csrc/build_ffi.py:make_builder"]``): a plain, portable
build. ``PREFDD_PROFILE=FILE.gcda`` (written by ``make pgo``) makes it a
profile-guided build that reads that GCC profile.

    python csrc/build_ffi.py OUTDIR [--sanitize | --profile-generate DIR]

compiles the extension into OUTDIR directly: the sanitizer build of ``make
sanitize``, or the instrumented build of ``make pgo`` (its profile is written
to DIR/_core.gcda when a process that loaded it exits).
"""
from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from cffi import FFI

CSRC = Path(__file__).resolve().parent
C_SOURCES = ["board.c", "tt.c", "quick.c", "order.c", "search.c", "api.c", "canonical.c", "discard.c", "discard_many.c", "discard_lines.c", "maxn.c", "sample.c", "splits.c"]
# -fno-semantic-interposition: an extension module is built with -fPIC, where
# by default every non-static function may be replaced at load time, so the
# compiler calls them through the PLT and never inlines them across the
# sources; nothing replaces ours. Measured: 7 % fewer instructions.
# assert() checks the core's invariants in the sanitizer build only: Python's
# own CFLAGS carry -DNDEBUG, which -UNDEBUG undoes there.
OPTIMISE = ["-O3", "-DNDEBUG", "-std=c11", "-Wall", "-Wextra", "-fno-strict-aliasing", "-fno-semantic-interposition"]
SANITIZE = ["-O1", "-g", "-UNDEBUG", "-std=c11", "-fsanitize=address,undefined",
            "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
PROFILE_ENV = "PREFDD_PROFILE"


def arch_flags() -> list[str]:
    """Machine flags: on x86-64 the POPCNT instruction (every x86-64 CPU since
    about 2009 has it; without it each popcount is a library call, measured
    10 % slower). Nothing elsewhere."""
    return ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []


def _profile_file(profile: Path) -> list[str]:
    """GCC names the profile after the object file and its directory, which
    differ between builds; -dumpdir/-dumpbase fix it to PROFILE's name."""
    return ["-dumpdir", f"{profile.parent}{os.sep}", "-dumpbase", profile.stem]


def profile_generate_flags(profile: Path) -> list[str]:
    """The instrumented build: running it writes ``profile`` (a .gcda file)."""
    return ["-fprofile-generate"] + _profile_file(profile)


def profile_use_flags(profile: Path) -> list[str]:
    """The optimised build that reads ``profile``. Code the training never
    ran keeps its usual optimisation (-fprofile-partial-training). The
    build compiles the cffi wrapper (and, from an sdist, the core) at other
    paths than the instrumented build did; GCC's per-function checksum of
    source locations then differs while the control flow's matches, and it
    still uses the profile: that mismatch stays a warning, not an error."""
    if not profile.is_file():
        raise FileNotFoundError(f"{PROFILE_ENV}={profile}: no such profile (run `make pgo`)")
    return (["-fprofile-use", "-fprofile-partial-training", "-Wno-missing-profile",
             "-Wno-error=coverage-mismatch"] + _profile_file(profile))


def compile_flags(sanitize: bool = False, profile_generate: Path | None = None) -> list[str]:
    """Every compiler flag of the extension."""
    if sanitize:
        return SANITIZE + arch_flags()
    flags = OPTIMISE + arch_flags()
    if profile_generate is not None:
        return flags + profile_generate_flags(profile_generate.resolve())
    profile = os.environ.get(PROFILE_ENV)
    if profile:
        return flags + profile_use_flags(Path(profile).resolve())
    return flags


def header_declarations() -> str:
    text = (CSRC / "prefdd.h").read_text()
    start = text.index("/* CDEF BEGIN */") + len("/* CDEF BEGIN */")
    end = text.index("/* CDEF END */")
    return text[start:end]


def wrapper_source() -> str:
    return "\n".join(['#include "prefdd.h"'] + [f'#include "{name}"' for name in C_SOURCES])


def make_builder(sanitize: bool = False, profile_generate: Path | None = None) -> FFI:
    """An FFI builder for ``solver._core``."""
    link = []
    if sanitize:
        link = ["-fsanitize=address,undefined"]
    elif profile_generate is not None:
        link = ["-fprofile-generate"]
    ffibuilder = FFI()
    ffibuilder.cdef(header_declarations())
    ffibuilder.set_source(
        "solver._core",
        wrapper_source(),
        include_dirs=[str(CSRC)],
        extra_compile_args=compile_flags(sanitize, profile_generate),
        extra_link_args=link,
        libraries=["pthread"],
        # The full C API: the extension is named _core.cpython-3XX-*.so in
        # every build (an .abi3.so would sit beside an older build's file).
        py_limited_api=False,
    )
    return ffibuilder


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    outdir = Path(argv[0]).resolve()
    generate = None
    if "--profile-generate" in argv:
        at = argv.index("--profile-generate")
        if at + 1 >= len(argv):
            print(__doc__, file=sys.stderr)
            return 2
        generate = Path(argv[at + 1]) / "_core.gcda"
    builder = make_builder(sanitize="--sanitize" in argv, profile_generate=generate)
    print(builder.compile(tmpdir=str(outdir), verbose=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
