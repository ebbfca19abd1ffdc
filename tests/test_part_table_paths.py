"""The partition table's two paths (csrc/tt.c): the look-ups and stores that
compare four entries at once with SSE2 and the portable ones that compare
entry by entry answer the same, for every bucket size (a last group of 1, 2,
3 or 4 entries), on a seeded run of stores, look-ups and new generations
(tests/c/part_table_paths.c, built here with and without -DPDD_NO_SIMD)."""
from __future__ import annotations

import platform
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "tests" / "c" / "part_table_paths.c"
WAYS = (1, 2, 3, 5, 15, 63)
OPERATIONS = 100_000


def compiler() -> str:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    found = shutil.which(cc) or shutil.which("cc")
    if not found:
        pytest.fail("no C compiler: the package build needs one too")
    return found


def build(tmp_path: Path, name: str, *flags: str) -> Path:
    out = tmp_path / name
    subprocess.run([compiler(), "-O2", "-std=c11", "-UNDEBUG", *flags, f"-I{ROOT / 'csrc'}", str(DRIVER),
                    "-o", str(out), "-lpthread"], check=True)
    return out


def run(program: Path, ways: int) -> list[str]:
    done = subprocess.run([str(program), str(ways), str(OPERATIONS)], check=True, capture_output=True, text=True,
                          timeout=60)
    return done.stdout.split()


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("part_table_paths")
    return build(tmp, "vector"), build(tmp, "portable", "-DPDD_NO_SIMD")


@pytest.mark.parametrize("ways", WAYS)
def test_vector_and_portable_look_ups_agree(programs: tuple[Path, Path], ways: int) -> None:
    vector, portable = (run(program, ways) for program in programs)
    assert vector[:3] == portable[:3]
    digest, hits, hints = vector[0], int(vector[1]), int(vector[2])
    assert len(digest) == 16 and hits > 1000 and hints > 1000   # the run finds entries and hints
    assert portable[3] == "0"
    if platform.machine().lower() in ("x86_64", "amd64"):
        assert vector[3] == "1"   # SSE2 is part of x86-64: the vector path was the one built
