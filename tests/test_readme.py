"""The README's Python snippets run as written: each ```python block is run in
a fresh namespace. The gRPC client's block runs against a real server on
127.0.0.1 and the Dask block against a real (in-process) Dask cluster, their
addresses put in place of the README's. A line ending in ``# N`` states what
its expression gives, and must give it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from service_support import LOOPBACK, running_server

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(), flags=re.S | re.M)
STATED = re.compile(r"^(?P<expression>[^#\n]*\S)\s+#\s*(?P<value>-?\d+)\s*$", re.M)


def block(marker: str) -> str:
    found = [text for text in BLOCKS if marker in text]
    assert len(found) == 1, f"one README block with {marker!r}"
    return found[0]


def run(source: str) -> dict:
    namespace: dict = {"__name__": "readme"}
    exec(compile(source, str(README), "exec"), namespace)
    for stated in STATED.finditer(source):
        assert eval(stated["expression"], namespace) == int(stated["value"]), stated.group(0)
    return namespace


SERVER_BLOCKS = ("AnalysisClient", "from distributed import Client")
PLAIN = [text for text in BLOCKS if not any(marker in text for marker in SERVER_BLOCKS)]


def test_the_readme_has_its_blocks() -> None:
    assert len(BLOCKS) == len(PLAIN) + len(SERVER_BLOCKS) and PLAIN
    assert any(STATED.search(text) for text in PLAIN), "the solve line states its value"


@pytest.mark.parametrize("source", PLAIN, ids=[text.splitlines()[0] for text in PLAIN])
def test_plain_block(source: str) -> None:
    run(source)


def test_grpc_client_block() -> None:
    source = block("AnalysisClient")
    assert source.count('"127.0.0.1:50051"') == 1
    with running_server(workers=2) as server:
        run(source.replace('"127.0.0.1:50051"', f'"{LOOPBACK}:{server.port}"'))


def test_dask_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    source = block("from distributed import Client")
    assert source.count('"SCHEDULER:8786"') == 1
    lines = [{"deal": "AKJ9.A.KJ.T98 QT7.QJ8.A7.J7 8.T97.QT98.KQ", "contract": "6h", "declarer": 0,
              "leader": 2}, {"deal": "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9", "contract": "misere",
                             "declarer": 1}]
    (tmp_path / "deals.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    monkeypatch.chdir(tmp_path)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        namespace = run(source.replace('"SCHEDULER:8786"', repr(cluster.scheduler_address)))
        namespace["client"].close()
