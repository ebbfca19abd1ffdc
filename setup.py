"""The package build: setuptools, with the C core compiled by cffi and the
gRPC code generated from protos/ (everything else is in pyproject.toml)."""
from __future__ import annotations

import importlib.util
from importlib import metadata
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PROTO_PACKAGE = Path("service", "_proto")


def _build_protos():
    spec = importlib.util.spec_from_file_location("build_protos", ROOT / "protos" / "build_protos.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class build_py_with_protos(build_py):
    """build_py, then the generated modules into ``service/_proto``: into
    the build directory, or in place for an editable install."""

    def run(self) -> None:
        super().run()
        self._generated = _build_protos().generate(self._proto_dir())

    def _proto_dir(self) -> Path:
        return ROOT / PROTO_PACKAGE if self.editable_mode else Path(self.build_lib) / PROTO_PACKAGE

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return super().get_outputs(include_bytecode) + [str(p) for p in getattr(self, "_generated", [])]


def _service_requirements() -> list[str]:
    """The generated code checks at import that grpcio and protobuf are at
    least the versions that generated it: require what this build used."""
    tools = metadata.version("grpcio-tools")
    protobuf = [r for r in metadata.requires("grpcio-tools") or [] if r.startswith("protobuf")]
    return [f"grpcio>={tools}", f"grpcio-health-checking>={tools}", f"grpcio-reflection>={tools}",
            *(protobuf or ["protobuf"]), "starlette>=0.40", "uvicorn>=0.30", "httptools>=0.6",
            # uvicorn's event loop when installed: a call's hand-off to a solver thread and back
            # measured 42 µs of CPU against 71 µs with asyncio's own loop
            "uvloop>=0.19; sys_platform != 'win32'", "prometheus_client>=0.17"]


setup(
    cffi_modules=["csrc/build_ffi.py:make_builder"],
    cmdclass={"build_py": build_py_with_protos},
    extras_require={
        "service": _service_requirements(),
        "dask": ["distributed>=2024.1"],
        "test": ["pytest>=8", "pytest-benchmark>=4", "hypothesis>=6.100", "grpcio-tools", "playwright>=1.40",
                 "jsonschema>=4.18"],
    },
)
