"""The generated protobuf and gRPC modules of ``protos/preferans/v1/analysis.proto``.

The package build generates them into :mod:`service._proto`
(``protos/build_protos.py``; never edited by hand, never committed).
"""
from __future__ import annotations

from pathlib import Path

try:
    from ._proto import analysis_pb2 as pb
    from ._proto import analysis_pb2_grpc as pb_grpc
except ModuleNotFoundError as error:
    if error.name != f"{__package__}._proto.analysis_pb2":
        raise
    raise ImportError("the generated gRPC code is missing from service/_proto: the package build "
                      "makes it (pip install -e . in a checkout)") from error

GENERATED = Path(pb.__file__).resolve().parent
"""The directory of the generated modules."""

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["Analysis"].full_name
"""``preferans.v1.Analysis``."""

__all__ = ["GENERATED", "SERVICE_NAME", "pb", "pb_grpc"]
