"""The layers keep their boundaries: engines and renderers stay free of Discord, and no module
imports one that imports it back.

The cycle check reads import statements (ast, not by running them) anywhere in a file,
function-level imports included: a cycle hidden inside a function still ties two modules
together (neither can be understood, tested or moved without the other) and only waits for a
caller to run at import time. Imports under `if TYPE_CHECKING:` do not count: they never run,
and name a type for annotations only (the publisher's annotation of the bot it serves).
A part a game or the store names as "module:attribute" (`Game.hook`) is not an import either:
that is how a base names what builds on it without importing it.
An import names the most specific project module it reaches (`from games.castle import ai` is
games.castle.ai, `from games.core import Game` is games.core); a parent package run on the way is
not an edge, since a module may always import its own package.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATTERN = re.compile(r"^\s*(import\s+discord\b|from\s+discord\b)", re.M)
# The project's packages, and the tests' plugin game (advertised like an installed game).
TOP_LEVEL = ("bot", "games", "render", "data", "fakediscord", "sandbox", "bench")
PACKAGES = {**{name: ROOT for name in TOP_LEVEL}, "gk_keypile": ROOT / "tests" / "plugins"}
RULE = re.compile(r"^May import: (.+)$", re.M)


def test_no_discord_imports_in_games_or_render():
    offenders = []
    for folder in ("games", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            if PATTERN.search(path.read_text(encoding="utf-8")):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def modules(packages: dict[str, Path]) -> dict[str, Path]:
    """Every module of `packages` (name -> its root folder) by dotted name."""
    found = {}
    for package, root in packages.items():
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules that module `name` (at `path`) imports, wherever the statement is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
                 and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                 for statement in node.body for inner in ast.walk(statement)}
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            origin = ".".join([*base, *([node.module] if node.module else [])])
            targets = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in known else origin
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # `import a.b.c` of a non-module: its nearest module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm): every module
    of a group reaches every other through imports, so each is a cycle of some length."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while (top := stack.pop()) != node:
                group.append(top)
            if group:
                groups.append(sorted([node, *group]))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def import_graph() -> dict[str, set[str]]:
    found = modules(PACKAGES)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def allowed_imports(package: str) -> dict[str, set[str]]:
    """What a top-level package's docstring allows it to import: its "May import:" line, e.g.
    "May import: games, render, data; bot.cli also sandbox, bench." ({"": everywhere in the
    package, "bot.cli": more for that module})."""
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8")))
    match = RULE.search(doc or "")
    assert match, f"{package}/__init__.py's docstring has no 'May import:' line"
    general, *extras = match.group(1).rstrip(".").split(";")
    def names(listed: str) -> set[str]:
        return {word.strip() for word in listed.split(",")} & set(TOP_LEVEL)

    rules = {"": names(general)}
    for extra in extras:
        module, _, more = extra.strip().partition(" also ")
        rules[module] = rules[""] | names(more)
    return rules


def test_each_package_imports_only_what_its_docstring_allows():
    """The house's rooms: each top-level package says what it is and what it may import (the
    bot may not reach the fake Discord or the benchmarks, the fake Discord nothing at all)."""
    offenders = []
    for name, targets in import_graph().items():
        package = name.split(".")[0]
        if package not in TOP_LEVEL:
            continue
        rules = allowed_imports(package)
        allowed = rules.get(name, rules[""]) | {package}
        offenders += [f"{name} -> {t}" for t in sorted(targets) if t.split(".")[0] in TOP_LEVEL
                      and t.split(".")[0] not in allowed]
    assert offenders == []


def test_the_package_rule_reads_extras_for_one_module():
    rules = allowed_imports("bot")
    assert rules[""] == {"games", "render", "data"}
    assert rules["bot.cli"] == {"games", "render", "data", "sandbox", "bench"}
    assert allowed_imports("fakediscord")[""] == set()


def test_no_module_imports_one_that_imports_it_back():
    assert cycles(import_graph()) == []


def test_the_cycle_check_finds_cycles_of_any_length_and_function_level_imports(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    files = {"__init__.py": "", "a.py": "from . import b\n", "b.py": "from pkg.c import x\n",
             "c.py": "def f():\n    from .a import y\n", "d.py": "import pkg.a\n",
             "e.py": "from .d import z\n",
             "f.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import v\n"}
    for file, text in files.items():
        (pkg / file).write_text(text)
    found = modules({"pkg": tmp_path})
    graph = {name: imports(name, path, set(found)) for name, path in found.items()}
    assert graph["pkg.c"] == {"pkg.a"} and graph["pkg.d"] == {"pkg.a"} and graph["pkg.f"] == set()
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
