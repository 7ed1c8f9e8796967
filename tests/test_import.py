"""`import analyzer` stays cheap: other projects import it as an oracle in their test suites; and the
layers import one way (docs/ARCHITECTURE.md)."""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"
HEAVY = ("click", "tabulate", "sympy", "numpy", "scipy", "matplotlib", "dask")
#: docs/ARCHITECTURE.md, "layers": data flows down this list; a module imports only from layers above.
LAYERS = ("core", "bets", "engine", "checks", "studies", "games", "output", "cli")


def _loaded_after(code: str) -> list[str]:
    probe = code + f"\nimport sys\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [m for m in done.stdout.strip().split(",") if m]


def test_import_analyzer_loads_no_front_end_or_symbolic_library():
    assert _loaded_after("import analyzer") == []


@pytest.mark.parametrize("module", [
    "analyzer.core.cards", "analyzer.core.shoe", "analyzer.core.tableau", "analyzer.core.reads",
    "analyzer.core.coup", "analyzer.core.hands", "analyzer.core.exact", "analyzer.bets.model",
    "analyzer.bets.catalogue", "analyzer.bets.files",
])
def test_core_and_bets_import_no_heavy_library(module):
    assert _loaded_after(f"import {module}") == []


def test_pricing_a_bet_in_one_shot_needs_no_numpy():
    code = ("from analyzer import Shoe, find_bet, price\n"
            "from analyzer.engine.evaluate import one_shot\n"
            "with one_shot():\n    price(find_bet('banker'), Shoe.standard(8))\n")
    assert "numpy" not in _loaded_after(code)


#: What ``punto-banco analyze`` must not load on a shoe the shipped tables serve: the compile
#: (walk, explore), the side-bet catalogue, the writers of files (printing reads no input it
#: could overwrite) and the cache folder's lookup
#: (each one is start-up time the command does not use; issue 16's warm ``analyze``).
NOT_FOR_ANALYZE = ("analyzer.engine.walk", "analyzer.engine.explore", "analyzer.bets.catalogue",
                   "analyzer.output.files",
                   "tempfile", "shutil", "platformdirs", "difflib", "csv", "numpy", "traceback",
                   *(("_hashlib",) if sys.implementation.name == "cpython" else ()))


def test_analyze_from_the_shipped_tables_loads_only_what_it_uses():
    probe = ("import sys\nfrom analyzer.cli import main\n"
             "try:\n    main(['analyze'])\nexcept SystemExit:\n    pass\n"
             f"print('|' + ','.join(m for m in {NOT_FOR_ANALYZE!r} if m in sys.modules), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          env={**os.environ, "PUNTO_BANCO_CACHE_DIR": "off"})
    assert "Banker (5% commission)" in done.stdout
    assert done.stderr.strip().rsplit("|", 1)[-1] == ""


def _imports(path: Path) -> list[tuple[ast.stmt, str, bool]]:
    """Every import of the module at ``path``: (the statement, the module it names, whether it
    is written inside a function).  ``from analyzer import x`` names ``analyzer.x``."""
    found: list[tuple[ast.stmt, str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                if child.module == "analyzer":
                    found.extend((child, f"analyzer.{a.name}", in_function) for a in child.names)
                else:
                    found.append((child, child.module, in_function))
            elif isinstance(child, ast.Import):
                found.extend((child, a.name, in_function) for a in child.names)
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _layer(module: str) -> str | None:
    """The layer of ``analyzer.LAYER...`` (``web`` included); ``None`` outside the layers
    (``analyzer.errors``, ``analyzer.text``, ``analyzer.limits``, ``analyzer.__version__``)."""
    parts = module.split(".")
    if parts[0] != "analyzer" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in (*LAYERS, "web") else None


def _modules() -> list[Path]:
    """Every module of a layer (the package's top-level modules are in none)."""
    return sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE)


def _against_the_layers(path: Path, target: str) -> bool:
    """Whether a module of ``path``'s layer importing layer ``target`` goes against the order of
    docs/ARCHITECTURE.md: core -> bets -> engine -> checks -> studies -> games -> output -> cli, each
    importing only layers before it; web beside cli (anything below cli, not cli); cli imports
    web only in ``web_commands`` (``serve``)."""
    layer = path.relative_to(PACKAGE).parts[0]
    if layer == "web":
        return target == "cli"
    if target == "web":
        return (layer, path.name) != ("cli", "web_commands.py")
    return LAYERS.index(target) > LAYERS.index(layer)


def test_every_layer_imports_only_from_layers_before_it():
    # a lazy import inside a function is still a dependency: it counts too
    wrong = []
    for path in _modules():
        for node, module, _ in _imports(path):
            target = _layer(module)
            if target is not None and _against_the_layers(path, target):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} imports {module}")
    assert wrong == []


@pytest.mark.parametrize(("importer", "target", "wrong"), [
    ("core/coup.py", "bets", True), ("studies/eor.py", "output", True),
    ("checks/conform.py", "studies", True), ("studies/symbolic.py", "checks", False),
    ("output/report.py", "studies", False), ("output/tables.py", "cli", True),
    ("web/jobs.py", "output", False), ("web/jobs.py", "cli", True),
    ("cli/web_commands.py", "web", False), ("cli/common.py", "web", True),
])
def test_the_layer_order_check_itself(importer, target, wrong):
    assert _against_the_layers(PACKAGE / importer, target) is wrong


#: Libraries imported inside a function on purpose: heavy, or optional extras (the developers'
#: guide).  Any other import inside a function says why with a ``# lazy: <why>`` comment.
LAZY_LIBRARIES = ("numpy", "sympy", "scipy", "matplotlib", "openpyxl", "dask", "distributed",
                  "fastapi", "uvicorn", "pebble", "pydantic")


def test_no_import_inside_a_function_without_a_reason():
    unmarked = []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        where = path.relative_to(PACKAGE).as_posix()
        for node, module, in_function in _imports(path):
            if not in_function or module.split(".")[0] in LAZY_LIBRARIES:
                continue
            text = lines[node.lineno - 1 : node.end_lineno]
            if not any("# lazy: " in line for line in text):
                unmarked.append(f"{where}:{node.lineno} imports {module}")
    assert unmarked == [], "import at module level, or say why not with '# lazy: <why>'"


def test_the_architecture_names_every_module_in_its_layers_row():
    # docs/ARCHITECTURE.md's table is the map of the package: a module it does not name is one
    # a reader cannot find, and a name it keeps after the module went is a wrong map
    text = (PACKAGE.parent / "docs" / "ARCHITECTURE.md").read_text()
    rows = {
        cells[2].strip("` "): cells[3]
        for cells in (line.split("|") for line in text.splitlines() if line.startswith("| "))
        if len(cells) > 3
    }
    for package in sorted(p for p in PACKAGE.iterdir() if (p / "__init__.py").exists()):
        row = rows[f"analyzer/{package.name}"]
        named = set(re.findall(r"`([a-z_]+)`", row))
        modules = {m.stem for m in package.glob("*.py") if m.stem != "__init__"}
        assert modules - named == set(), f"analyzer/{package.name}: modules the table does not name"
        described = set(re.findall(r"`([a-z_]+)` \(", row))  # `name` (what it does)
        assert described - modules == set(), f"analyzer/{package.name}: modules the table names that are gone"


def _engine_graph() -> dict[str, set[str]]:
    """Module -> the engine modules it imports (at the top, inside functions and under
    ``TYPE_CHECKING`` alike): ``from analyzer.engine import x`` names ``x``."""
    engine = PACKAGE / "engine"
    modules = {p.stem for p in engine.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in sorted(engine.glob("*.py")):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [a.name for a in node.names] if node.module == "analyzer.engine" else [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[:2] == ["analyzer", "engine"] and len(parts) > 2:
                    name = parts[2]
                if name in modules:
                    found.add(name)
        graph[path.stem] = found - {path.stem}
    return graph


def _a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A circle of imports in ``graph`` (its modules in order, the first repeated at the end),
    or ``[]`` when there is none (a depth-first search)."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        path.append(module)
        for target in sorted(graph.get(module, ())):
            found = visit(target)
            if found:
                return found
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        found = visit(module)
        if found:
            return found
    return []


def test_the_engine_modules_import_one_another_without_a_circle():
    # a circle makes a module importable only in one order and a lazy import the price of it;
    # the table, the disk cache and the evaluation meet in engine/lookup, which none imports
    graph = _engine_graph()
    assert {"table", "cache", "evaluate", "lookup"} <= graph.keys()
    assert "lookup" in graph["pricing"] and "cache" in graph["lookup"]  # the graph sees imports
    assert _a_cycle(graph) == [], f"import circle in analyzer/engine: {' -> '.join(_a_cycle(graph))}"


@pytest.mark.parametrize(
    ("graph", "cycle"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, []),
        ({"x": {"y"}, "y": {"y2"}, "y2": {"y"}}, ["y", "y2", "y"]),
    ],
)
def test_the_circle_check_itself(graph, cycle):
    assert _a_cycle(graph) == cycle


def test_the_most_cards_of_a_coup_is_defined_once():
    # six cards a coup, the engine's one idea: one definition (core/shoe, beside MIN_CARDS),
    # which every module imports, never a second value to fall out of step with it
    defined = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign):
                targets = [node.target]
            else:
                continue
            if any(isinstance(t, ast.Name) and t.id == "MAX_CARDS" for t in targets):
                defined.append(path.relative_to(PACKAGE).as_posix())
    assert defined == ["core/shoe.py"]


#: The output modules that only render a frozen result, and every name each may import from the
#: layers below output: the result records, constants and words, never what chooses bets, prices,
#: solves a ladder, deals or settles a coup (``studies/bet_result``, ``bets/settle`` and
#: ``checks/vector_kit`` do that, once, before the rendering).
RENDER_ONLY: dict[str, dict[str, set[str]]] = {
    "output/bet_tables.py": {
        "analyzer.bets.choice": {"MatchKind", "PayMatch", "pays_text", "winning_pays"},
        "analyzer.bets.model": {"Bet"},
        "analyzer.core.exact": {"fraction_text"},
        "analyzer.engine.pricing": {"PRACTICAL_STEPS", "PracticalPay"},
        "analyzer.studies.bet_result": {"BetsResult", "CatalogueRow", "PaysResult", "SolvedLine"},
        "analyzer.studies.ladder": {"ScaledLadder"},
    },
    "output/deal.py": {
        "analyzer.bets.settle": {"Deal"},
        "analyzer.checks.verify": {"amount_text"},
        "analyzer.core.coup": {"Coup"},
        "analyzer.core.exact": {"fraction_text", "round_fraction"},
        "analyzer.core.tableau": {"Tableau"},
    },
    "output/vectors.py": {
        "analyzer.bets.model": {"Bet"},
        "analyzer.checks.coverage": {
            "COUP_CARDS", "COVERAGE_TRIES", "COVERAGE_VARIANTS", "SETTLEMENT_DECKS", "Coverage", "Target",
            "ValueCoup",
        },
        "analyzer.checks.vector_kit": {
            "DECKS", "MAX_COUPS", "GoldenRow", "KitData", "ProbabilityRow", "SettledCoup",
        },
        "analyzer.core.cards": {"Card"},
        "analyzer.core.coup": {"NATURAL_CLASSES"},
        "analyzer.core.exact": {"fraction_text"},
        "analyzer.core.tableau": {"Tableau"},
    },
}
#: Methods that price or settle, which a renderer must not call on the objects it is given.
COMPUTING_METHODS = {"settle", "summaries", "summary", "analyze", "price"}


def _computing(source: str, allowed: dict[str, set[str]]) -> list[str]:
    """What the module ``source`` takes from the layers below output beyond ``allowed``
    (``module.name``), and the computing methods it calls (``.settle(...)``)."""
    below = {f"analyzer.{layer}" for layer in LAYERS[: LAYERS.index("output")]}

    def lower(module: str) -> bool:
        return ".".join(module.split(".")[:2]) in below

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and lower(node.module):
            wanted = allowed.get(node.module, set())
            found += [f"{node.module}.{a.name}" for a in node.names if a.name not in wanted]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if lower(a.name)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            found += [f".{node.func.attr}()"] if node.func.attr in COMPUTING_METHODS else []
    return found


@pytest.mark.parametrize("module", sorted(RENDER_ONLY))
def test_the_renderers_of_results_import_no_choosing_pricing_dealing_or_settling(module):
    source = (PACKAGE / module).read_text(encoding="utf-8")
    assert _computing(source, RENDER_ONLY[module]) == [], f"{module} computes: render a result instead"


@pytest.mark.parametrize(("source", "found"), [
    ("from analyzer.engine.pricing import Pricer, PracticalPay", ["analyzer.engine.pricing.Pricer"]),
    ("from analyzer.core.coup import resolve", ["analyzer.core.coup.resolve"]),
    ("import analyzer.studies.ladder", ["analyzer.studies.ladder"]),
    ("def f(bet, coup):\n    return bet.settle(coup)", [".settle()"]),
    ("from analyzer.output.render import Table\nfrom analyzer.errors import OutputError", []),
])
def test_the_render_only_check_itself(source, found):
    allowed = {"analyzer.engine.pricing": {"PracticalPay"}}
    assert _computing(source, allowed) == found
