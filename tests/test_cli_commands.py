"""How ``prefdd`` is put together: the subcommands, their one dispatch
convention, commands registered by other packages, the version, and the
layering (solver/ never imports service/)."""
from __future__ import annotations

import argparse
import ast
import importlib
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import solver
from solver import cli

from conftest import REPO


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_subcommand_sets_func_and_nothing_else() -> None:
    commands = _subcommands(cli.build_parser())
    expected = {"solve", "table", "batch", "score", "pool", "analyze", "whist", "bid", "enumerate", "serve"}
    assert expected <= set(commands)
    for name, parser in commands.items():
        defaults = parser._defaults
        assert callable(defaults.get("func")), f"{name} sets no func"
        assert "run" not in defaults, f"{name} uses another dispatch convention"


def test_serve_is_registered_by_the_service_package_through_an_entry_point() -> None:
    entries = {e.name: e.value for e in metadata.entry_points(group=cli.COMMAND_GROUP)}
    assert entries.get("serve") == "service.cli:register"
    assert _subcommands(cli.build_parser())["serve"]._defaults["func"].__module__ == "service.cli"


def test_version_has_one_source(capsys) -> None:
    try:
        cli.main(["--version"])
    except SystemExit as done:
        assert done.code == 0
    assert capsys.readouterr().out.strip() == f"prefdd {solver.__version__}"
    assert metadata.version("preferans-dd") == solver.__version__


def test_a_broken_registered_command_surfaces(tmp_path: Path) -> None:
    """A registered command whose module fails to import stops prefdd with
    an error naming it and the real cause (nothing swallowed) whenever the
    whole parser is built: that command, or any command line not naming a
    built-in command. A built-in command does not load the others."""
    dist = tmp_path / "broken_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[{cli.COMMAND_GROUP}]\nbroken = broken_plugin:register\n")
    (tmp_path / "broken_plugin.py").write_text("import no_such_module_of_prefdd\n\n"
                                               "def register(subparsers):\n    pass\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    for argv in (["broken"], ["--help"], ["serve", "--help"]):
        done = subprocess.run([sys.executable, "-m", "solver.cli", *argv], capture_output=True,
                              text=True, env=env, timeout=60)
        assert done.returncode != 0, argv
        assert "cannot load the prefdd command 'broken' (broken_plugin:register)" in done.stderr, argv
        assert "No module named 'no_such_module_of_prefdd'" in done.stderr, argv
    done = subprocess.run([sys.executable, "-m", "solver.cli", "table", "..."], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 2 and "broken" not in done.stderr and "prefdd: error:" in done.stderr


def _registered(module_name: str) -> list[str]:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers()
    module = cli if module_name == cli.CORE else importlib.import_module(module_name)
    module.register(commands)
    return list(commands.choices)


def test_the_command_table_names_what_each_module_registers() -> None:
    """:data:`cli.COMMANDS` is the one list a command line is dispatched by:
    each module registers exactly the commands the table gives it, and the
    whole parser has those (in that order) and the registered ones."""
    by_module: dict[str, list[str]] = {}
    for command, module in cli.COMMANDS.items():
        by_module.setdefault(module, []).append(command)
    for module, commands in by_module.items():
        assert _registered(module) == commands, module
    plugins = [e.name for e in metadata.entry_points(group=cli.COMMAND_GROUP)]
    assert list(_subcommands(cli.build_parser())) == list(cli.COMMANDS) + plugins
    for command, module in cli.COMMANDS.items():
        assert list(_subcommands(cli.build_parser(command))) == by_module[module]


def test_a_command_word_is_the_first_word_not_an_option() -> None:
    assert cli.command_word(["enumerate", "AK.Q..", "--declarer", "0"]) == "enumerate"
    assert cli.command_word(["--version"]) is None
    assert cli.command_word([]) is None
    assert cli.command_word(["-h", "solve"]) is None   # the whole parser's help


def _modules_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


NOT_FOR_ENUMERATE = {"grpc", "service", "importlib.metadata", "solver.distributed", "solver.formats",
                     "solver.report", "solver.advice.bid", "solver.advice.whist", "solver.advice.card_play",
                     "solver.advice.optimism", "solver.advice.jsonio", "solver.advice.single_dummy",
                     "solver.advice.blind_discard", "solver.advice.cli", "solver.advice.play_cli",
                     "solver.analysis.cli", "solver.analysis.deal", "solver.analysis.table",
                     "solver.scoring.cli", "solver.scoring.jsonio", "solver.scoring.sheet"}


def _loaded(modules: set[str], names: set[str]) -> set[str]:
    return {m for m in modules if m in names or any(m.startswith(n + ".") for n in names)}


def test_the_command_line_imports_what_its_command_needs() -> None:
    """``import solver.cli`` loads no command's module; ``prefdd enumerate``
    loads the enumeration and not the other advice, the analysis CLI, the
    service, the records' formats or Dask's glue (each one a module the run
    does not use); ``prefdd whist`` does load its own."""
    assert _loaded(_modules_after("import solver.cli"),
                   NOT_FOR_ENUMERATE | {"solver.advice.enumeration", "solver.advice.enumerate_cli"}) == set()
    parse = "import solver.cli as c\nc.build_parser(c.command_word(ARGS)).parse_args(ARGS)"
    enumerate_ = _modules_after(parse.replace("ARGS", repr(["enumerate", "AKT8.7.QJT8.QJ9", "--discard", "8...J",
                                                            "--declarer", "0", "--contract", "6d"])))
    assert "solver.advice.enumerate_cli" in enumerate_ and "solver.advice.enumeration" in enumerate_
    assert _loaded(enumerate_, NOT_FOR_ENUMERATE) == set()
    whist = _modules_after(parse.replace("ARGS", repr(["whist", "JT98.JT.98.A9", "--talon", "..J.K",
                                                        "--contract", "6s", "--declarer", "0", "--seat", "1"])))
    assert {"solver.advice.cli", "solver.advice.whist"} <= whist


def _package_of(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1])


def _imported_modules(source: str, package: str) -> set[str]:
    """Absolute names of every module a file of ``package`` imports (relative
    imports resolved, and ``from M import n`` counted as M and M.n)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def test_solver_never_imports_service() -> None:
    files = sorted((REPO / "solver").rglob("*.py"))
    assert len(files) > 20
    upward = {}
    for path in files:
        found = sorted(n for n in _imported_modules(path.read_text(), _package_of(path))
                       if n == "service" or n.startswith("service."))
        if found:
            upward[str(path.relative_to(REPO))] = found
    assert upward == {}


def test_the_import_walk_sees_every_spelling() -> None:
    source = ("import service.server\nfrom service import cli\nfrom .. import engine\n"
              "from .discard import best_discard\ndef f():\n    import service\n")
    names = _imported_modules(source, "solver.analysis")
    assert {"service.server", "service", "service.cli", "solver.engine",
            "solver.analysis.discard"} <= names
