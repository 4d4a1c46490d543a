"""No folder imports one that imports it back (ARCHITECTURE.md, the rules of the house), and the
Rust rooms use only rooms that ``lib.rs`` declares before them.

Rust: the rooms are the top-level modules of ``rust_core/src`` (its folders, and leaf files such
as ``error.rs`` and ``rng.rs``); a room uses another when any of its files names it in a path:
``crate::room``, or ``super::`` climbing out of the room (test modules and inline paths count,
comments and strings do not). Python: every module of ``pql_repl`` is a node, and every
``import`` counts, also those inside functions and ``if TYPE_CHECKING:`` blocks, and so do
modules loaded by name (``importlib.import_module`` or ``__import__``): a literal name is that
module; a name computed at run time counts as every module of the package that the file names in
a string. The Python rooms (the subpackages of ``pql_repl``) use only rooms below them in
``PYTHON_ROOMS``.

Run as a script to print both graphs: ``python tests/test_import_circles.py``.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUST_SRC = ROOT / "rust_core" / "src"
PYTHON_PACKAGE = ROOT / "pql_repl"

# An edge of a graph: (from, to) -> where it is written, e.g. "plan/compile.rs:12".
Edges = dict[tuple[str, str], str]


RAW_STRING = re.compile(r'b?r(#*)"')
CHAR = re.compile(r"'(\\.|\\u\{[0-9a-fA-F]+\}|[^\\'])'")


def rust_code(text: str) -> str:
    """The text with comments and the insides of string and character literals blanked out (so
    that docs and messages mentioning paths do not count); lines stay where they were."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else " ")
                    i += 1
        elif c in "br" and (raw := RAW_STRING.match(text, i)):
            close = '"' + raw.group(1)
            end = text.find(close, raw.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'" and (char := CHAR.match(text, i)):
            out.append("' '")
            i = char.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def rust_module_path(path: Path, src: Path) -> list[str]:
    """The module path of a file: ``plan/mod.rs`` -> [plan], ``plan/expr.rs`` -> [plan, expr]."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return parts


TOKEN = re.compile(
    r"(?P<module>\bmod\s+(?P<name>\w+)\s*\{)"
    r"|(?P<path>\b(?P<root>crate|super|self)(?P<rest>(?:\s*::\s*(?:\w+|\{))+))"
    r"|(?P<open>\{)|(?P<close>\})"
)


def group_heads(code: str, start: int) -> list[str]:
    """The first name of every item of the `use` group whose `{` is at `start`: `{a::X, b}`."""
    depth = 0
    for end in range(start, len(code)):
        depth += {"{": 1, "}": -1}.get(code[end], 0)
        if depth == 0:
            break
    items = re.sub(r"\{[^{}]*\}", "", code[start + 1 : end])  # inner groups name no new heads
    return [m.group(0) for item in items.split(",") if (m := re.match(r"\w+", item.strip()))]


def rust_edges(src: Path = RUST_SRC) -> Edges:
    """Which room names which: (room, other room) -> the first place it does."""
    rooms = {p.stem if p.is_file() else p.name for p in src.iterdir() if p.suffix == ".rs" or p.is_dir()}
    rooms.discard("lib")
    edges: Edges = {}
    for file in sorted(src.rglob("*.rs")):
        module = rust_module_path(file, src)
        if not module:
            continue
        room = module[0]
        code = rust_code(file.read_text())
        # Inline modules (`mod tests { ... }`) with the brace depth they opened at.
        inline: list[tuple[str, int]] = []
        depth = 0
        for m in TOKEN.finditer(code):
            if m.group("module"):
                inline.append((m.group("name"), depth))
                depth += 1
            elif m.group("open"):
                depth += 1
            elif m.group("close"):
                depth -= 1
                if inline and inline[-1][1] == depth:
                    inline.pop()
            else:
                segments = [s.strip() for s in m.group("rest").split("::") if s.strip()]
                here = module + [name for name, _ in inline]
                base = here if m.group("root") == "self" else [] if m.group("root") == "crate" else here[:-1]
                while segments and segments[0] == "super":
                    segments.pop(0)
                    base = base[:-1]
                if base:
                    targets = [base[0]]
                elif segments[:1] == ["{"]:
                    targets = group_heads(code, m.end() - 1)
                else:
                    targets = segments[:1]
                if segments and segments[-1] == "{":
                    depth += 1
                line = code.count("\n", 0, m.start()) + 1
                for target in targets:
                    if target in rooms and target != room:
                        edges.setdefault((room, target), f"{file.relative_to(src)}:{line}")
    return edges


def python_modules(package: Path) -> dict[str, Path]:
    """Dotted name -> file of every module of the package (packages by their ``__init__``; the
    compiled extension by its stub, ``_core.pyi``)."""
    modules = {}
    for file in sorted(package.rglob("*.py")) + sorted(package.rglob("*.pyi")):
        parts = list(file.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules.setdefault(".".join(parts), file)
    return modules


def loaded_by_name(node: ast.AST, tree: ast.AST, modules: dict[str, Path]) -> list[str] | None:
    """What a call ``importlib.import_module(x)`` / ``__import__(x)`` loads: ``x`` when it is a
    literal, else every module of the package named by a string anywhere in the file (the name
    is computed from one of them); None when the node is no such call."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if called not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return [first.value]
    return [
        s.value
        for s in ast.walk(tree)
        if isinstance(s, ast.Constant) and isinstance(s.value, str) and s.value in modules
    ]


def python_edges(package: Path = PYTHON_PACKAGE) -> Edges:
    """Which module imports which, anywhere in its file: (module, other) -> the first place."""
    modules = python_modules(package)
    edges: Edges = {}
    for name, file in modules.items():
        is_package = file.name == "__init__.py"
        tree = ast.parse(file.read_text(), str(file))
        for node in ast.walk(tree):
            imported: list[str] = []
            if (by_name := loaded_by_name(node, tree, modules)) is not None:
                imported = by_name
            elif isinstance(node, ast.Import):
                imported = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parent = name.split(".")
                    parent = parent[: len(parent) - node.level + (1 if is_package else 0)]
                    base = ".".join(parent + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                # `from pkg import submodule` imports the submodule; `from mod import name` the module.
                imported = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for dotted in imported:
                # `import a.b.c` names a.b.c; the nearest module of the package that it is.
                target = dotted
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.setdefault((name, target), f"{file.relative_to(package.parent)}:{node.lineno}")
    return edges


def circles(edges: Edges) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan), each sorted."""
    graph: dict[str, list[str]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def lib_order(src: Path = RUST_SRC) -> list[str]:
    """The rooms in the order `lib.rs` declares them: lowest first."""
    return re.findall(r"^\s*(?:pub\s+)?mod\s+(\w+)\s*;", (src / "lib.rs").read_text(), re.MULTILINE)


def upward(edges: Edges, order: list[str]) -> list[str]:
    """The edges from a room to one declared after it, with where they are written."""
    rank = {room: i for i, room in enumerate(order)}
    return [f"{a} -> {b}  ({where})" for (a, b), where in sorted(edges.items()) if rank[a] < rank[b]]


def describe(groups: list[list[str]], edges: Edges) -> str:
    """Every edge inside each circle, with where it is written."""
    lines = []
    for group in groups:
        lines.append("circle: " + ", ".join(group))
        lines += [
            f"  {a} -> {b}  ({where})" for (a, b), where in sorted(edges.items()) if {a, b} <= set(group)
        ]
    return "\n".join(lines)


def test_no_rust_room_imports_one_that_imports_it_back() -> None:
    edges = rust_edges()
    # The check sees the house: the engine's rooms use the ones below them.
    assert ("plan", "pql") in edges
    assert ("run", "trial") in edges
    groups = circles(edges)
    assert not groups, describe(groups, edges)


def test_rust_rooms_use_only_rooms_declared_before_them_in_lib_rs() -> None:
    # lib.rs lists the rooms lowest first (ARCHITECTURE.md): dependencies point down that list.
    order = lib_order()
    assert order[-1] == "py"
    assert not upward(rust_edges(), order)


#: The rooms of ``pql_repl`` lowest first (ARCHITECTURE.md): a room uses only rooms of a lower
#: level. ``pql_repl`` is the package's own ``__init__`` (the public names, loaded from ``api``,
#: and ``%load_ext pql_repl``'s door to ``notebook``), ``_core`` the engine; rooms on one level
#: do not use each other.
PYTHON_ROOMS = [
    {"_core"},
    {"base"},
    {"files"},
    {"api"},
    {"editors", "session"},
    {"repl", "tui", "web", "notebook"},
    {"cli", "pql_repl"},
    {"start"},
]


def python_room(module: str) -> str:
    """``pql_repl.api.run`` -> ``api``; the package itself -> ``pql_repl``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def python_upward(edges: Edges, rooms: list[set[str]] = PYTHON_ROOMS) -> list[str]:
    """The edges from a room to one on its own level or above, with where they are written."""
    level = {room: i for i, group in enumerate(rooms) for room in group}
    found = []
    for (a, b), where in sorted(edges.items()):
        ra, rb = python_room(a), python_room(b)
        if ra != rb and level[ra] <= level[rb]:
            found.append(f"{a} -> {b}  ({where})")
    return found


def test_no_python_module_imports_one_that_imports_it_back() -> None:
    edges = python_edges()
    assert ("pql_repl.tui.app", "pql_repl.tui.palette") in edges
    assert ("pql_repl.cli.main", "pql_repl.session.session") in edges
    # Loaded by name: the cluster when asked for, the front ends when started.
    assert ("pql_repl.api.run", "pql_repl.api.cluster") in edges
    assert ("pql_repl.cli.main", "pql_repl.tui") in edges
    groups = circles(edges)
    assert not groups, describe(groups, edges)


def test_python_rooms_use_only_rooms_below_them() -> None:
    modules = python_modules(PYTHON_PACKAGE)
    rooms = {python_room(m) for m in modules}
    assert rooms == set().union(*PYTHON_ROOMS), "a new room goes into PYTHON_ROOMS at its level"
    assert not python_upward(python_edges())


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_rust_check_finds_circles_through_every_kind_of_path(tmp_path: Path) -> None:
    src = write(
        tmp_path / "src",
        {
            "lib.rs": "pub mod a;\npub mod b;\npub mod c;\npub mod d;\npub mod leaf;\n",
            "a/mod.rs": "//! uses crate::d in a comment only\npub mod x;\nuse crate::b::Thing;\n",
            # Out of the room through `super::super` from a test module, and a grouped `use`.
            "a/x.rs": 'const S: &str = "crate::d";\n#[cfg(test)]\n'
            "mod tests {\n    use super::super::super::leaf;\n}\n",
            "b/mod.rs": "use crate::{c::One, leaf};\n",
            "c/mod.rs": "fn f() { let _ = crate::a::x::g(); }\n",
            "d/mod.rs": "use super::a::Thing;\n",
            "leaf.rs": "pub struct One;\n",
        },
    )
    edges = rust_edges(src)
    assert set(edges) == {("a", "b"), ("a", "leaf"), ("b", "c"), ("b", "leaf"), ("c", "a"), ("d", "a")}
    assert edges[("a", "leaf")] == "a/x.rs:4"
    assert circles(edges) == [["a", "b", "c"]]
    assert lib_order(src) == ["a", "b", "c", "d", "leaf"]
    assert upward(edges, ["leaf", "c", "b", "a", "d"]) == ["c -> a  (c/mod.rs:1)"]


def test_the_python_check_finds_circles_through_type_checking_and_relative_imports(tmp_path: Path) -> None:
    package = write(
        tmp_path / "pkg",
        {
            "__init__.py": "from pkg.api import run\n",
            "api.py": "import pkg.util\n",
            "util.py": "",
            "ui/__init__.py": "",
            "ui/app.py": "from . import palette\n",
            "ui/palette.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from pkg.ui.app import App\n",
        },
    )
    edges = python_edges(package)
    assert set(edges) == {("pkg", "pkg.api"), ("pkg.api", "pkg.util"), ("pkg.ui.app", "pkg.ui.palette"),
                          ("pkg.ui.palette", "pkg.ui.app")}  # fmt: skip
    assert circles(edges) == [["pkg.ui.app", "pkg.ui.palette"]]


def test_the_python_check_follows_modules_loaded_by_name(tmp_path: Path) -> None:
    package = write(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "api.py": "def f():\n    import importlib\n    return importlib.import_module('pkg.extra')\n",
            "extra.py": "from pkg.api import f\n",
            "lazy.py": "HOMES = {'x': 'pkg.util'}\ndef g(n):\n    return __import__(HOMES[n])\n",
            "util.py": "",
        },
    )
    edges = python_edges(package)
    assert set(edges) == {("pkg.api", "pkg.extra"), ("pkg.extra", "pkg.api"), ("pkg.lazy", "pkg.util")}
    assert circles(edges) == [["pkg.api", "pkg.extra"]]
    assert python_upward(edges, [{"pkg"}, {"util"}, {"extra"}, {"api"}, {"lazy"}]) == [
        "pkg.extra -> pkg.api  (pkg/extra.py:1)"
    ]
    assert python_upward(edges, [{"pkg"}, {"lazy"}, {"util"}, {"extra"}, {"api"}]) == [
        "pkg.extra -> pkg.api  (pkg/extra.py:1)",
        "pkg.lazy -> pkg.util  (pkg/lazy.py:3)",
    ]


if __name__ == "__main__":
    for title, found in (("Rust rooms", rust_edges()), ("Python modules", python_edges())):
        print(f"{title}:")
        uses: dict[str, list[str]] = {}
        for a, b in found:
            uses.setdefault(a, []).append(b)
        for a in sorted(uses):
            print(f"  {a} -> {', '.join(sorted(uses[a]))}")
        print(describe(circles(found), found) or "  no circles")
    sys.exit(0)
