"""Profile-guided optimisation (PGO) for the package build, GCC only.

The package build (``build_backend.py``) calls :func:`profile_flags` after it
has written the cffi wrapper ``build/cffi/_core.c``:

1. the same source is compiled as an instrumented extension into
   ``build/pgo`` (with the package's flags plus ``-fprofile-generate``);
2. ``pgo_train.py`` runs a fixed workload through it (seeded deals: solves,
   card values and best discards in trump, no trump and misère), and the
   compiler's runtime writes the profile ``build/pgo/_core.gcda`` at exit;
3. the answer is the flags that make the real compile read that profile.

``-dumpdir``/``-dumpbase`` name the profile file in both compiles, so it does
not depend on the temporary directories setuptools compiles in. Both compiles
see the same file names (``build/cffi/_core.c``, ``-Icsrc``), which GCC's
per-function checksums include. Anything that goes wrong (another compiler,
no profile written, a failed training run) gives no flags and a warning: the
build goes on without PGO. ``PREFDD_PGO=0`` switches it off.

Measured (benchmarks/README.md): -5 % on best discards in a C driver, -2.6 %
on the Python deal's table (mean of eight alternating runs); the search
itself, and so every value and node count, is the same.
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

PGO_DIR = Path("build") / "pgo"
TRAINING = Path(__file__).resolve().parent / "pgo_train.py"
TRAINING_TIMEOUT_S = 600


def _profile_file_flags(pgo_dir: Path) -> list[str]:
    return ["-dumpdir", f"{pgo_dir}/", "-dumpbase", "_core"]


def _instrumented_extension(pgo_dir: Path, compile_args: list[str]) -> str:
    """Build the instrumented extension; answers the path of its shared object."""
    from setuptools import Distribution, Extension

    extension = Extension(
        "solver._core",
        sources=["build/cffi/_core.c"],
        include_dirs=["csrc"],
        extra_compile_args=compile_args + ["-fprofile-generate"] + _profile_file_flags(pgo_dir),
        extra_link_args=["-fprofile-generate"],
        libraries=["pthread"],
    )
    distribution = Distribution({"name": "preferans-dd-pgo", "ext_modules": [extension]})
    command = distribution.get_command_obj("build_ext")
    command.build_temp = str(pgo_dir / "temp")
    command.build_lib = str(pgo_dir / "lib")
    command.force = True
    command.ensure_finalized()
    command.run()
    return command.get_ext_fullpath("solver._core")


def _check_compiler_takes(flags: list[str], pgo_dir: Path) -> None:
    """The real compile gets these flags from CFLAGS, outside our error
    handling: try them on an empty file first (an older GCC lacks
    -fprofile-partial-training, for one)."""
    probe = pgo_dir / "probe.c"
    probe.write_text("int preferans_dd_probe;\n")
    compiler = shlex.split(sysconfig.get_config_var("CC") or "cc")
    subprocess.run(compiler + flags + ["-c", str(probe), "-o", str(pgo_dir / "probe.o")],
                   check=True, capture_output=True, timeout=60)


def profile_flags(compile_args: list[str]) -> list[str]:
    """Train a profile of the extension (compiled with ``compile_args``, the
    package's own flags) and answer the flags that make the compiler use
    it; [] when PGO is off or anything failed."""
    if os.environ.get("PREFDD_PGO", "1") == "0":
        return []
    pgo_dir = PGO_DIR.resolve()
    profile = pgo_dir / "_core.gcda"
    try:
        pgo_dir.mkdir(parents=True, exist_ok=True)
        profile.unlink(missing_ok=True)
        shared_object = _instrumented_extension(pgo_dir, compile_args)
        subprocess.run([sys.executable, str(TRAINING), shared_object], check=True,
                       timeout=TRAINING_TIMEOUT_S)
        if not profile.exists():
            raise RuntimeError(f"the training run wrote no profile ({profile}): not GCC?")
        # Code the training never ran keeps its usual optimisation; functions
        # the profile lacks are compiled as without it.
        flags = (["-fprofile-use", "-fprofile-partial-training", "-Wno-missing-profile"]
                 + _profile_file_flags(pgo_dir))
        _check_compiler_takes(flags, pgo_dir)
    except Exception as error:  # any failure: build without PGO
        print(f"preferans-dd: building without profile-guided optimisation: {error}", file=sys.stderr)
        return []
    return flags
