"""The package build: compiler flags (csrc/build_ffi.py), the optional
profile-guided step (``make pgo``: csrc/pgo_train.py) and the generated gRPC
code (protos/build_protos.py)."""
from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from solver import _core

REPO = Path(__file__).resolve().parent.parent
CSRC = REPO / "csrc"


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_ffi = _load(CSRC / "build_ffi.py")
pgo_train = _load(CSRC / "pgo_train.py")
build_protos = _load(REPO / "protos" / "build_protos.py")


# ---- compiler flags ---------------------------------------------------------

def test_default_build_is_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(build_ffi.PROFILE_ENV, raising=False)
    flags = build_ffi.compile_flags()
    assert flags == build_ffi.OPTIMISE + build_ffi.arch_flags()
    assert not any(flag.startswith("-fprofile") for flag in flags)


def test_profile_variable_makes_a_profile_guided_build(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    profile = tmp_path / "_core.gcda"
    profile.write_bytes(b"")
    monkeypatch.setenv(build_ffi.PROFILE_ENV, str(profile))
    flags = build_ffi.compile_flags()
    assert flags[:len(build_ffi.OPTIMISE)] == build_ffi.OPTIMISE
    assert "-fprofile-use" in flags
    # the profile is found by its own name, whatever directory the build compiles in
    assert flags[flags.index("-dumpdir") + 1] == f"{tmp_path}/"
    assert flags[flags.index("-dumpbase") + 1] == "_core"


def test_a_missing_profile_is_an_error_not_a_silent_plain_build(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    monkeypatch.setenv(build_ffi.PROFILE_ENV, str(tmp_path / "none.gcda"))
    with pytest.raises(FileNotFoundError, match="make pgo"):
        build_ffi.compile_flags()


def test_instrumented_and_sanitized_builds_ignore_the_profile(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    monkeypatch.setenv(build_ffi.PROFILE_ENV, str(tmp_path / "none.gcda"))
    generate = build_ffi.compile_flags(profile_generate=tmp_path / "_core.gcda")
    assert "-fprofile-generate" in generate and "-fprofile-use" not in generate
    sanitize = build_ffi.compile_flags(sanitize=True)
    assert "-fsanitize=address,undefined" in sanitize and not any("profile" in f for f in sanitize)


def test_setup_and_pyproject_name_no_compiler_flag() -> None:
    """The flags have one home: build_ffi.py."""
    for name in ("setup.py", "pyproject.toml", "Makefile"):
        text = (REPO / name).read_text()
        for flag in build_ffi.OPTIMISE:
            assert flag not in text.split(), f"{name} repeats the compiler flag {flag}"


def test_the_extension_uses_the_full_c_api() -> None:
    """One file name in every build (no .abi3.so beside an older build's)."""
    assert ".abi3." not in Path(_core.__file__).name


# ---- the profile-guided step -------------------------------------------------

def test_training_workload_runs_on_the_built_extension() -> None:
    done = subprocess.run([sys.executable, str(CSRC / "pgo_train.py"), _core.__file__],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_training_workload_in_process_uses_every_entry_point() -> None:
    """The workload solves, asks card values and best discards, once each
    per contract of each deal: calls counted through a wrapper of the
    extension's lib."""
    calls: dict[str, int] = {}

    class CountingLib:
        def __getattr__(self, name: str):
            target = getattr(_core.lib, name)
            if not callable(target):
                return target

            def counted(*args):
                calls[name] = calls.get(name, 0) + 1
                return target(*args)
            return counted

    pgo_train.train(_core.ffi, CountingLib())
    expected = pgo_train.DEALS * 3
    assert calls["pdd_solve"] == expected
    assert calls["pdd_card_values"] == expected
    assert calls["pdd_best_discard"] == expected
    assert calls["pdd_new"] == calls["pdd_free"] == 1


def test_training_refuses_a_missing_argument() -> None:
    done = subprocess.run([sys.executable, str(CSRC / "pgo_train.py")], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert "pgo_train.py PATH_TO_INSTRUMENTED_EXTENSION" in done.stderr


# ---- the generated gRPC code ------------------------------------------------

def test_generated_modules_import_each_other_relatively(tmp_path: Path) -> None:
    written = build_protos.generate(tmp_path)
    names = sorted(p.name for p in written)
    assert names == ["analysis_pb2.py", "analysis_pb2.pyi", "analysis_pb2_grpc.py"]
    imports = set()
    for path in written:
        if path.suffix == ".py":
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom):
                    imports.add((node.level, node.module))
    assert (1, None) in imports  # from . import analysis_pb2
    assert not any(module and module.startswith("preferans") for _, module in imports)


def test_relative_imports_rewrites_only_the_package_own_modules() -> None:
    text = ("from preferans.v1 import analysis_pb2 as a\n"
            "from google.protobuf import descriptor as d\n"
            "x = 'from preferans.v1 import y_pb2'\n")
    assert build_protos.relative_imports(text) == (
        "from . import analysis_pb2 as a\n"
        "from google.protobuf import descriptor as d\n"
        "x = 'from preferans.v1 import y_pb2'\n")


def test_no_generated_code_is_committed() -> None:
    tracked = subprocess.run(["git", "-C", str(REPO), "ls-files"], capture_output=True, text=True,
                             check=True).stdout.split()
    assert len(tracked) > 100
    assert [name for name in tracked if "_pb2" in name] == []
