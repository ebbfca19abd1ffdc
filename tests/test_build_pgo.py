"""The profile-guided build step (csrc/build_pgo.py, csrc/pgo_train.py).

The package build runs the training workload on an instrumented copy of the
extension; here it runs on the built extension, so a change to the C API
that breaks the workload fails a test rather than quietly turning PGO off."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from solver import _core

CSRC = Path(__file__).resolve().parent.parent / "csrc"
sys.path.insert(0, str(CSRC))

import build_pgo  # noqa: E402
import pgo_train  # noqa: E402


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


def test_pgo_switched_off_gives_no_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PREFDD_PGO", "0")
    assert build_pgo.profile_flags(["-O3"]) == []


def test_a_failed_training_builds_without_pgo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """No C wrapper to compile (an empty directory): no flags, and a warning
    that names the fallback."""
    monkeypatch.delenv("PREFDD_PGO", raising=False)
    monkeypatch.chdir(tmp_path)
    assert build_pgo.profile_flags(["-O3"]) == []
    assert "building without profile-guided optimisation" in capsys.readouterr().err
