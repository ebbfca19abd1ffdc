"""Generate the protobuf and gRPC Python modules of ``protos/`` into a package.

    python protos/build_protos.py OUTDIR

protoc writes imports that follow the .proto path (``from preferans.v1
import analysis_pb2``). The modules are written flat into OUTDIR (the
package ``service._proto`` in the build) and those imports of the
package's own modules are made relative (``from . import analysis_pb2``),
so the generated code needs nothing on ``sys.path``. The package build
(``setup.py``) runs this; the generated files are never committed.
"""
from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

PROTOS = Path(__file__).resolve().parent
PACKAGE = "preferans.v1"
OWN_IMPORT = re.compile(rf"^from {re.escape(PACKAGE)} import (\w+_pb2)\b", re.MULTILINE)


def proto_files() -> list[str]:
    """The .proto files, relative to protos/ (as protoc and the descriptors name them)."""
    return sorted(p.relative_to(PROTOS).as_posix() for p in PROTOS.rglob("*.proto"))


def relative_imports(text: str) -> str:
    return OWN_IMPORT.sub(r"from . import \1", text)


def generate(outdir: Path) -> list[Path]:
    """Write the modules into ``outdir``; answers the files written."""
    from grpc_tools import protoc

    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        code = protoc.main(["protoc", f"-I{PROTOS}", f"--python_out={scratch}", f"--pyi_out={scratch}",
                            f"--grpc_python_out={scratch}", *proto_files()])
        if code != 0:
            raise RuntimeError(f"protoc failed on {proto_files()} (exit status {code})")
        made = sorted(Path(scratch, *PACKAGE.split(".")).iterdir())
        if not made:
            raise RuntimeError(f"protoc made no module of the package {PACKAGE}")
        for source in made:
            target = outdir / source.name
            target.write_text(relative_imports(source.read_text()))
            written.append(target)
    left = [str(p) for p in written if OWN_IMPORT.search(p.read_text())]
    if left:
        raise RuntimeError(f"absolute imports of {PACKAGE} left in {left}")
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    for path in generate(Path(sys.argv[1])):
        print(path)
