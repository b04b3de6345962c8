"""The house's layout rules, checked from the source: no import circle between files, no folder
of application code over 30 modules, no module over 500 lines.

Imports are read with `ast`, not by importing: every `import` and `from ... import` counts,
at module level or inside a function, under `TYPE_CHECKING` or not, because a circle between
files is one a reader must walk whichever line closes it. `from package import name` is an
edge to the submodule when `name` is one, else to the package's `__init__`. Importing
`a.b.c` also runs `a/__init__` and `a/b/__init__`, but those edges are left out: counting
them would make every package whose `__init__` imports one child a circle with each child
that imports a sibling; a package's `__init__` importing its own children back is caught
as the direct edges it is.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the project runs; tests/ and bench/ are checked for circles and length too.
APPLICATION = ("api", "benchmarks", "dashboard", "agent", "scripts")
SKIPPED_PARTS = {".venv", "node_modules", "migrations", "__pycache__", "var", ".git"}
MAX_MODULES_PER_FOLDER = 30
MAX_LINES = 500
# The agent is one standard-library file by design: it is copied onto a machine and run
# there alone (docs/architecture.md, "agent").
LONG_BY_DESIGN = {"agent/pricebench_agent.py"}


def project_files():
    """Every project .py file, as a path relative to the repository."""
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if SKIPPED_PARTS.isdisjoint(relative.parts):
            yield relative


def module_name(relative):
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(relative, modules):
    """The project modules one file imports (all of its imports, wherever they are)."""
    tree = ast.parse((ROOT / relative).read_text(), filename=str(relative))
    own = module_name(relative)
    package = own if relative.name == "__init__.py" else own.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                if name:
                    found.add(name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    found.add(f"{source}.{alias.name}")
                elif source in modules:
                    found.add(source)
    found.discard(own)
    return found


def import_graph():
    files = list(project_files())
    modules = {module_name(relative): relative for relative in files}
    return {name: imported_modules(relative, modules) for name, relative in modules.items()}


def import_circles(graph):
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index, low, on_stack, stack, circles = {}, {}, set(), [], []

    def visit(start):
        # Iterative, so that a deep chain of imports cannot hit the recursion limit.
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        circles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_import_circle_between_files():
    assert import_circles(import_graph()) == []


def test_the_checker_finds_a_circle_and_a_longer_one():
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c", "a"}, "f": {"a"}}
    assert import_circles(graph) == [["a", "b"], ["c", "d", "e"]]


def test_no_application_folder_holds_more_than_30_modules():
    counts = {}
    for relative in project_files():
        if relative.parts[0] in APPLICATION and relative.name != "__init__.py":
            counts[relative.parent] = counts.get(relative.parent, 0) + 1
    crowded = {
        str(folder): count for folder, count in counts.items() if count > MAX_MODULES_PER_FOLDER
    }
    assert crowded == {}


def test_no_module_is_over_500_lines():
    long = {}
    for relative in project_files():
        lines = len((ROOT / relative).read_text().splitlines())
        if lines > MAX_LINES and str(relative) not in LONG_BY_DESIGN:
            long[str(relative)] = lines
    assert long == {}
