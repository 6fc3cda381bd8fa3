"""Imports run one way: each folder's allowed imports, read with ``ast`` from every module (imports in functions too).

The rules (docs/architecture.md, issue 18):

- ``banker/`` (the core) imports only the standard library and itself;
- ``drivers/`` imports only the core, ``render/`` and vendor libraries;
- ``runtime/`` and ``store/`` never import ``firmware_sim/``, ``web/`` or ``banker_cli/``;
- ``web/`` never imports ``firmware_sim/`` or ``drivers/``;
- ``banker/modes`` never imports ``banker/flows``;
- no cycle between top-level folders;
- inside ``banker/``, its rooms in one order (:data:`CORE_LAYERS`): each imports only the rooms below it, and at most
  five modules stand at its top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The project's own top-level packages (pyproject's packages.find).
FOLDERS = ("banker", "store", "render", "runtime", "drivers", "firmware_sim", "cards", "banker_cli", "web")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (top level, functions, ``if`` blocks), relative ones resolved."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)  # ``from banker import flows``
    return found


def _modules() -> dict[str, set[str]]:
    modules = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            modules[_module_name(path)] = _imports(path)
    return modules


MODULES = _modules()


def _own(imported: str) -> str | None:
    """The top-level folder of the project that ``imported`` is in, or None (the standard library, a vendor's)."""
    top = imported.split(".", 1)[0]
    return top if top in FOLDERS else None


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def offenders(source: str, forbidden: tuple[str, ...]) -> list[str]:
    """``module -> imported`` for each import from a module under ``source`` into one under ``forbidden``."""
    return sorted(f"{module} -> {imported}" for module, imports in MODULES.items() if _within(module, source)
                  for imported in imports if any(_within(imported, f) for f in forbidden))


def test_every_folder_has_modules_to_check():
    assert all(any(_within(m, folder) for m in MODULES) for folder in FOLDERS)
    assert "banker.script.syntax" in MODULES and "runtime.shell" in MODULES


def test_the_core_imports_only_the_standard_library_and_itself():
    others = tuple(f for f in FOLDERS if f != "banker")
    assert offenders("banker", others) == []


def test_drivers_import_only_the_core_render_and_vendor_libraries():
    others = tuple(f for f in FOLDERS if f not in ("banker", "render", "drivers"))
    assert offenders("drivers", others) == []


@pytest.mark.parametrize("source", ["runtime", "store"])
def test_runtime_and_store_never_import_the_simulators_the_web_or_the_cli(source):
    assert offenders(source, ("firmware_sim", "web", "banker_cli")) == []


def test_the_web_never_imports_the_simulators_or_the_drivers():
    assert offenders("web", ("firmware_sim", "drivers")) == []


#: The core's rooms, lowest first (docs/architecture.md); a room imports only those before it. ``audit`` and ``unit``
#: stand side by side and never import each other; ``ports`` names the devices and the store over all of them.
CORE_LAYERS = (("errors", "frozen"), ("text",), ("money",), ("journal",), ("rules",), ("fold",), ("audit", "unit"),
               ("script",), ("ports",))


def _room(module: str) -> str | None:
    """The room of the core that ``module`` is in (``banker.fold.game``: ``fold``), or None outside the core."""
    parts = module.split(".")
    return parts[1] if parts[0] == "banker" and len(parts) > 1 else None


def _rank(room: str) -> int:
    return next(i for i, rooms in enumerate(CORE_LAYERS) if room in rooms)


def test_the_core_has_its_rooms_and_few_modules_at_its_top():
    rooms = {p.stem for p in (ROOT / "banker").iterdir() if p.name != "__pycache__" and not p.name.startswith(".")}
    assert rooms - {"__init__"} == {room for layer in CORE_LAYERS for room in layer}
    assert len(list((ROOT / "banker").glob("*.py"))) <= 5


def test_each_room_of_the_core_imports_only_the_rooms_below_it():
    upward = sorted(f"{module} -> {imported}" for module, imports in MODULES.items()
                    for imported in imports
                    if (room := _room(module)) and (target := _room(imported)) and target in _ROOMS
                    and room != target and _rank(target) >= _rank(room))
    assert upward == []


_ROOMS = {room for layer in CORE_LAYERS for room in layer}


def test_modes_never_import_flows():
    assert offenders("banker.unit.modes", ("banker.unit.flows",)) == []


def _folder_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {folder: set() for folder in FOLDERS}
    for module, imports in MODULES.items():
        source = module.split(".", 1)[0]
        for imported in imports:
            target = _own(imported)
            if target is not None and target != source:
                graph[source].add(target)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                here = path + [node]
                return here[here.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [node])
                if found:
                    return found
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def test_no_cycle_between_top_level_folders():
    cycle = _cycle(_folder_graph())
    assert cycle is None, " -> ".join(cycle) + "\n" + "\n".join(
        f"{a} -> {b}: " + ", ".join(offenders(a, (b,))[:3]) for a, b in zip(cycle, cycle[1:]))


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) in (["a", "b", "c", "a"],)
    assert _cycle({"a": {"b"}, "b": set()}) is None


def _core_graph() -> dict[str, set[str]]:
    """The core's modules and what each imports of the others (top level, functions and ``TYPE_CHECKING`` alike)."""
    core = {module for module in MODULES if _within(module, "banker")}
    return {module: {imported for imported in MODULES[module] if imported in core and imported != module}
            for module in core}


def test_no_circle_inside_the_core():
    cycle = _cycle(_core_graph())
    assert cycle is None, "a circle inside banker/: " + " -> ".join(cycle)


def test_the_core_graph_sees_an_import_made_only_for_type_hints():
    graph = _core_graph()
    assert "banker.fold.state" in graph["banker.fold.retired"]  # under ``if TYPE_CHECKING:``
    assert "banker.unit.outcome" in graph["banker.unit.voice"]
