"""Shared test helpers: where the reference data lives."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
LOCAL_DATA = REPO / "tests" / "data"


def shared_file(name: str) -> Path:
    """A file of ../shared/data, or a skip naming what is missing."""
    path = SHARED_DATA / name
    if not path.exists():
        pytest.skip(f"reference data {path} is absent (the shared folder is not beside the repo)")
    return path


def load_jsonl(name: str) -> list[dict]:
    path = SHARED_DATA / name
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="session", autouse=True)
def sanitized_build_is_used() -> None:
    """Under `make sanitize`, make sure the sanitized core is the one loaded."""
    if os.environ.get("PREFDD_EXPECT_SANITIZED"):
        from solver import _core
        assert "sanitize" in _core.__file__, f"expected the sanitized build, got {_core.__file__}"


def batch_answer(request: object) -> dict:
    """``prefdd batch``'s answer object to a request, with this thread's solver."""
    from solver.analysis import batch
    from solver.api import thread_solver
    return batch.evaluate(request, thread_solver())


def batch_line(line: object) -> str:
    """``prefdd batch``'s output line for an input line, with this thread's solver."""
    from solver.analysis import batch
    from solver.api import thread_solver
    return batch.evaluate_line(line, thread_solver())  # type: ignore[arg-type]
