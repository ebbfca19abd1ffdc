"""Packages that import their modules on first use of a name.

A package whose ``__init__`` imports every module makes any program that
needs one of them (``prefdd enumerate`` needs a few of the scoring's and one
of the analysis's) load and compile them all. :func:`lazy_package` makes the
package answer each public name from its module on first use: the module's
own object, importable from the package; a submodule is an attribute on
first use too; an unknown name an AttributeError.
"""
from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any, Mapping, Sequence

__all__ = ["lazy_package"]


class _LazyPackage(ModuleType):
    """A package module answering its public names from their modules.

    A name that is both a public name of the package and the name of one of
    its modules (``solver.advice.whist_request``: a function, and the module
    defining it) stays the public name: the import system's binding of the
    submodule to the package is not kept (the submodule stays in
    ``sys.modules``)."""

    _homes: dict[str, str]

    def __getattr__(self, name: str) -> Any:
        homes = self.__dict__.get("_homes", {})
        package = self.__name__
        if name in homes:
            return getattr(importlib.import_module(f"{package}.{homes[name]}"), name)
        if not name.startswith("_"):
            try:
                return importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as error:
                if error.name != f"{package}.{name}":
                    raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        return sorted(set(self.__dict__) | set(self.__dict__.get("_homes", {})))

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and name in self.__dict__.get("_homes", {}):
            return
        super().__setattr__(name, value)


def lazy_package(name: str, homes: Mapping[str, Sequence[str]]) -> list[str]:
    """Make the package ``name`` answer each name of ``homes`` (module →
    the public names it defines) from that module on first use; answers the
    package's ``__all__``."""
    package = sys.modules[name]
    package.__dict__["_homes"] = {public: module for module, names in homes.items() for public in names}
    package.__class__ = _LazyPackage
    return sorted(package.__dict__["_homes"])
