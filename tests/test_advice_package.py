"""``solver.advice`` loads its modules on first use of a name: every public
name is importable from the package and is its module's object, whatever
was imported before; submodules are reachable as attributes; a name the
package does not have is an AttributeError."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import solver.advice as advice

from conftest import REPO


def test_importing_the_package_loads_no_advice() -> None:
    code = ("import sys, solver.advice\n"
            "print(' '.join(m for m in sys.modules if m.startswith('solver.advice.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []


@pytest.mark.parametrize("name", advice.__all__)
def test_every_public_name_is_its_modules_object(name: str) -> None:
    value = getattr(advice, name)
    home = importlib.import_module(f"solver.advice.{advice._MODULE_OF[name]}")
    assert value is getattr(home, name)
    namespace: dict = {}
    exec(f"from solver.advice import {name}", namespace)
    assert namespace[name] is value


@pytest.mark.parametrize("name", ["whist_request", "play_json"])
def test_a_name_of_a_function_and_a_module_stays_the_function(name: str) -> None:
    """The package's ``whist_request`` and ``play_json`` are functions, also
    after (and before) their modules of the same name are imported, in a fresh
    interpreter where nothing else was loaded first."""
    code = (f"import solver.advice.{name}\n"
            f"from solver.advice import {name}\n"
            f"import solver.advice as a\n"
            f"assert callable({name}) and {name}.__name__ == {name!r}, {name}\n"
            f"assert a.{name} is {name}\n"
            f"import sys\n"
            f"assert sys.modules['solver.advice.{name}'].__name__ == 'solver.advice.{name}'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert callable(getattr(advice, name)) and getattr(advice, name).__name__ == name


def test_submodules_are_attributes_and_unknown_names_are_errors() -> None:
    assert advice.layouts.LayoutSpace is advice.LayoutSpace
    assert advice.enumeration.__name__ == "solver.advice.enumeration"
    with pytest.raises(AttributeError, match="no_such_thing"):
        advice.no_such_thing  # noqa: B018
    with pytest.raises(ImportError):
        exec("from solver.advice import no_such_thing", {})
    assert set(advice.__all__) <= set(dir(advice))


def test_star_import_gives_every_public_name() -> None:
    namespace: dict = {}
    exec("from solver.advice import *", namespace)
    assert set(advice.__all__) <= set(namespace)
