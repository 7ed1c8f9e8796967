"""Where a module's tests are: in ``test_<module>.py``, or, for a module whose behaviour is
tested through another's, in the files :data:`TESTED_IN` names (``tests/conftest.py`` states
the rule).  A module with neither fails here, so a new module cannot arrive untested unseen; a
mapped file that no longer reaches its module fails too, so the map cannot go stale."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzer.cli import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

#: module -> the test files that test it, when it has no ``test_<module>.py``.  Each file must
#: import the module (or, for a command module, run one of its commands); a module reached only
#: through another (the catalogue's families, through the catalogue) says so in ``THROUGH``.
TESTED_IN: dict[str, tuple[str, ...]] = {
    "analyzer.bets.families.first_four": ("test_catalogue.py", "test_golden_figures.py"),
    "analyzer.bets.families.first_two": ("test_catalogue.py", "test_golden_figures.py"),
    "analyzer.bets.families.lucky_win": ("test_catalogue.py", "test_golden_figures.py"),
    "analyzer.bets.families.params": ("test_catalogue.py",),
    "analyzer.bets.families.progressive": ("test_catalogue.py", "test_golden_figures.py"),
    "analyzer.bets.families.ties": ("test_catalogue.py", "test_golden_figures.py"),
    "analyzer.bets.files": ("test_betfile.py", "test_verify.py"),
    "analyzer.bets.main": ("test_catalogue.py",),
    "analyzer.bets.model": ("test_pricing.py", "test_explore.py"),
    "analyzer.checks.compare": ("test_conform_cells.py",),
    "analyzer.checks.decisions": ("test_conform_cells.py", "test_check_tables.py"),
    "analyzer.checks.oracle": ("test_testing.py", "test_vectors.py"),
    "analyzer.checks.power": ("test_conform_cells.py",),
    "analyzer.cli.check_commands": ("test_verify.py", "test_conform.py"),
    "analyzer.cli.common": ("test_data_output.py", "test_cli.py"),
    "analyzer.cli.report_commands": ("test_report.py",),
    "analyzer.cli.shoe_commands": ("test_cli.py", "test_deal.py", "test_bet_tables.py"),
    "analyzer.cli.study_commands": ("test_symbolic.py", "test_eor.py", "test_peek.py"),
    "analyzer.cli.vectors_commands": ("test_vectors.py",),
    "analyzer.cli.web_commands": ("test_web_server.py",),
    "analyzer.core.canonical": ("test_cache.py", "test_engine.py"),
    "analyzer.core.coup_json": ("test_coup.py", "test_handlog.py"),
    "analyzer.core.dealt": ("test_coup.py", "test_explore.py"),
    "analyzer.core.digest": ("test_cache.py", "test_shipped.py"),
    "analyzer.core.hands": ("test_betfile.py", "test_bruteforce.py"),
    "analyzer.core.reads": ("test_explore.py", "test_cache.py"),
    "analyzer.engine.demand": ("test_engine.py", "test_explore.py"),
    "analyzer.engine.evaluate": ("test_native.py", "test_together.py"),
    "analyzer.engine.labels": ("test_batch.py", "test_kernel.py"),
    "analyzer.engine.lookup": ("test_cache.py", "test_engine.py"),
    "analyzer.engine.table": ("test_engine.py", "test_explore.py"),
    "analyzer.engine.values": ("test_native.py", "test_cache.py"),
    "analyzer.engine.walk": ("test_engine.py", "test_vectors.py"),
    "analyzer.games.model": ("test_game_model.py", "test_solve.py"),
    "analyzer.games.tableaux": ("test_game_model.py", "test_rooms.py"),
    "analyzer.limits": ("test_cli_exit_codes.py", "test_shoe.py"),
    "analyzer.output.charts": ("test_eor.py", "test_output_files.py"),
    "analyzer.output.eor_tables": ("test_eor.py",),
    "analyzer.output.files": ("test_output_files.py", "test_shipped.py"),
    "analyzer.output.peek_tables": ("test_peek.py",),
    "analyzer.output.study_tables": ("test_study.py",),
    "analyzer.output.symbolic_tables": ("test_symbolic.py",),
    "analyzer.output.tables": ("test_data_output.py", "test_provenance.py"),
    "analyzer.studies.counting": ("test_study_true_count.py",),
    "analyzer.studies.dealing": ("test_study.py", "test_study_true_count.py"),
    "analyzer.studies.moments": ("test_study_scale.py", "test_report.py"),
    "analyzer.studies.report_data": ("test_report.py",),
    "analyzer.studies.workers": ("test_study_scale.py", "test_study.py"),
    "analyzer.text": ("test_render.py",),
    "analyzer.web.app": ("test_web_api.py", "test_web_server.py"),
    "analyzer.web.budget": ("test_web_api.py",),
    "analyzer.web.jobs": ("test_web_api.py", "test_web_server.py"),
    "analyzer.web.limits": ("test_web_server.py", "test_web_api.py"),
    "analyzer.web.models": ("test_web_api.py",),
    "analyzer.web.pool": ("test_web_server.py",),
    "analyzer.web.server": ("test_web_server.py",),
}

#: Modules reached only through another module's tests, and what reaches them.
THROUGH: dict[str, str] = {
    "analyzer.bets.families.first_four": "the catalogue's entries, priced and held to their figures",
    "analyzer.bets.families.first_two": "the catalogue's entries, priced and held to their figures",
    "analyzer.bets.families.lucky_win": "the catalogue's entries, priced and held to their figures",
    "analyzer.bets.families.params": "the catalogue's parameters and their errors",
    "analyzer.bets.families.progressive": "the catalogue's entries, priced and held to their figures",
    "analyzer.bets.families.ties": "the catalogue's entries, priced and held to their figures",
    "analyzer.core.canonical": "the cache keys and fingerprints it writes",
    "analyzer.core.coup_json": "coups written and read back as JSON",
    "analyzer.core.digest": "the tables' digests, checked on load",
    "analyzer.engine.demand": "the engine's weights, against the brute force",
    "analyzer.limits": "the limits' one-line errors",
    "analyzer.output.eor_tables": "the eor command's tables",
    "analyzer.output.tables": "the bets and analyze tables' data",
    "analyzer.web.app": "the service's routes, on a real server",
    "analyzer.web.server": "the server, started and signalled",
}


def _modules() -> list[str]:
    out = []
    for path in sorted((ROOT / "analyzer").rglob("*.py")):
        if path.name in ("__init__.py", "__main__.py"):
            continue
        out.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return out


def _reaches(module: str, text: str) -> bool:
    """Whether a test file's text imports ``module`` or runs one of its commands."""
    package, _, name = module.rpartition(".")
    imports = re.compile(
        rf"(?:from {re.escape(module)} import|import {re.escape(module)}\b"
        rf"|from {re.escape(package)} import [^\n]*\b{name}\b)"
    )
    if imports.search(text):
        return True
    commands = [c for c, m in COMMANDS.items() if f"analyzer.cli.{m}" == module]
    return any(re.search(rf"[\"']{re.escape(c)}[\"']", text) for c in commands)


def test_every_module_has_its_test_file_or_a_mapped_one():
    def own_file(module: str) -> bool:
        return (TESTS / f"test_{module.rpartition('.')[2]}.py").exists()

    untested = [m for m in _modules() if not own_file(m) and m not in TESTED_IN]
    assert untested == [], "give each its test_<module>.py, or name its tests in TESTED_IN"
    assert set(THROUGH) <= set(TESTED_IN)


def test_the_map_names_only_modules_without_their_own_file():
    own = [m for m in TESTED_IN if (TESTS / f"test_{m.rpartition('.')[2]}.py").exists()]
    gone = [m for m in TESTED_IN if m not in _modules()]
    assert own == [] and gone == []


@pytest.mark.parametrize("module", sorted(TESTED_IN))
def test_a_mapped_file_reaches_its_module(module):
    texts = {name: (TESTS / name).read_text(encoding="utf-8") for name in TESTED_IN[module]}
    if module in THROUGH:
        assert all(texts.values()), module  # the files exist; THROUGH says what reaches it
        return
    reaching = [name for name, text in texts.items() if _reaches(module, text)]
    assert reaching, f"{module}: none of {list(texts)} imports it or runs its commands"
