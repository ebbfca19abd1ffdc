"""The protobuf and gRPC modules generated from ``protos/`` by the package
build (``protos/build_protos.py``): ``analysis_pb2``, ``analysis_pb2_grpc``.
Never edited by hand, never committed; import them through :mod:`service.proto`."""
