"""`import analyzer` stays cheap: other projects import it as an oracle in their test suites; and the
layers import one way (docs/ARCHITECTURE.md)."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"
HEAVY = ("click", "tabulate", "sympy", "numpy", "scipy", "matplotlib", "dask")
#: docs/ARCHITECTURE.md, "layers": data flows down this list; a module imports only from layers above.
LAYERS = ("core", "bets", "engine", "checks", "studies", "output", "cli")


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


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("layer", LAYERS[:3])
def test_core_bets_and_engine_import_only_from_layers_above(layer):
    # core, bets and engine are the layers this suite covers; a lazy import inside a function
    # counts too (it is still a dependency).
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    for path in sorted((PACKAGE / layer).glob("*.py")):
        for module in _imports(path):
            parts = module.split(".")
            if parts[0] != "analyzer" or len(parts) < 2 or parts[1] in ("errors", "__init__"):
                continue
            if parts[1] not in LAYERS:
                continue
            assert parts[1] in allowed, f"{path.relative_to(PACKAGE.parent)} imports {module}"


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
