"""The generated protobuf and gRPC modules of ``protos/preferans/v1/analysis.proto``.

``make proto`` runs ``grpc_tools.protoc`` into ``service/generated/`` (git-ignored,
never edited by hand). protoc writes imports that follow the .proto path
(``from preferans.v1 import analysis_pb2``), so that folder goes on ``sys.path``
and the modules are imported under their own names.
"""
from __future__ import annotations

import sys
from pathlib import Path

GENERATED = Path(__file__).resolve().parent / "generated"

if not (GENERATED / "preferans" / "v1" / "analysis_pb2.py").exists():
    raise ImportError(f"the generated gRPC code is missing from {GENERATED}: run `make proto`")
if str(GENERATED) not in sys.path:
    sys.path.append(str(GENERATED))

from preferans.v1 import analysis_pb2 as pb  # noqa: E402
from preferans.v1 import analysis_pb2_grpc as pb_grpc  # noqa: E402

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["Analysis"].full_name
"""``preferans.v1.Analysis``."""

__all__ = ["GENERATED", "SERVICE_NAME", "pb", "pb_grpc"]
