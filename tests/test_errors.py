"""One exception tree: every library exception lives in ``analyzer.errors``, documents where it is
raised, and nothing but an :class:`~analyzer.errors.AnalyzerError` leaves the library on bad input."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from extras import missing_module

import analyzer
from analyzer import Shoe, errors, find_bet
from analyzer.errors import AnalyzerError

ROOT = Path(__file__).resolve().parent.parent
#: The engine rewrite owns these (core, engine, the bet model and catalogue): out of this check.
ENGINE_OWNED = ("analyzer/core/", "analyzer/engine/", "analyzer/bets/model.py", "analyzer/bets/catalogue.py")


def _library_modules() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(analyzer.__path__, "analyzer.")]
    # The CLI's click plumbing (usage errors) is the front end, not the library; the engine's
    # internal signal (engine.walk.SuitsUnknownError, never raised out of pricing) is the
    # engine rewrite's to place.
    owned = tuple(p.removesuffix(".py").replace("/", ".") for p in ENGINE_OWNED)
    return [n for n in names if n != "analyzer.__main__" and not n.startswith(("analyzer.cli", *owned))]


def test_every_library_exception_is_defined_in_errors():
    strays, unchecked = [], []
    for name in _library_modules():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            reason = missing_module((exc.name or "").split(".")[0])
            if reason is None:
                raise
            unchecked.append(f"{name} ({reason})")
            continue
        for attr, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, Exception) \
                    and value.__module__ == name and name != "analyzer.errors":
                strays.append(f"{name}.{attr}")
    assert strays == []
    if unchecked:  # every module that imports was checked; say which could not be
        pytest.skip("not importable without an extra: " + "; ".join(unchecked))


def test_every_error_is_an_analyzer_error_and_says_where_it_is_raised():
    classes = [c for c in vars(errors).values() if inspect.isclass(c) and issubclass(c, Exception)]
    assert len(classes) >= 15
    for cls in classes:
        assert issubclass(cls, errors.AnalyzerError), cls
        assert cls.__doc__ and "Raised by" in cls.__doc__, cls


@pytest.mark.parametrize(("module", "name"), [
    ("analyzer.checks.verify", "LogError"),
    ("analyzer.checks.conform", "ObservedError"),
    ("analyzer.checks.oracle", "OracleError"),
    ("analyzer.checks.oracle", "OracleTypeError"),
    ("analyzer.testing", "OracleError"),
    ("analyzer.studies.symbolic", "SymbolicError"),
    ("analyzer.studies.symbolic", "SymbolicTypeError"),
    ("analyzer.studies.symbolic", "SymbolicArithmeticError"),
    ("analyzer.studies.symbolic", "SymbolicZeroDivisionError"),
    ("analyzer.studies.eor", "PlotUnavailableError"),
    ("analyzer.output.files", "OutputError"),
])
def test_old_import_paths_still_name_the_same_class(module, name):
    assert getattr(importlib.import_module(module), name) is getattr(errors, name)


def test_no_bare_value_error_is_raised_outside_the_engine():
    offenders = []
    for path in sorted((ROOT / "analyzer").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(ENGINE_OWNED):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"raise (ValueError|TypeError|KeyError)\(", line):
                offenders.append(f"{rel}:{number}: {line.strip()}")
    assert offenders == []


def test_render_rejects_a_bad_format_with_an_analyzer_error():
    from analyzer.output.render import render

    with pytest.raises(errors.FormatError, match="unknown format"):
        render([], "yaml")
    with pytest.raises(errors.FormatError, match="digits"):
        render([], "text", -1)


@pytest.mark.parametrize(
    "call",
    [
        lambda: Shoe.parse(None),
        lambda: Shoe.from_counts(None),
        lambda: Shoe.standard(1).remove(None),
        lambda: Shoe.from_counts({"T": 2, "10": 2}),
        lambda: find_bet(None),
    ],
)
def test_api_wrong_types_raise_analyzer_errors(call):
    with pytest.raises(AnalyzerError):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: __import__("analyzer").price(None, Shoe.standard(8)),
        lambda: __import__("analyzer").analyze("K=4"),
        lambda: __import__("analyzer").analyze(Shoe.standard(8), ["tie"]),
        lambda: __import__("analyzer").pay_for_edge(find_bet("tie"), Shoe.standard(8), 0.01),
        lambda: __import__("analyzer").price(find_bet("tie"), Shoe.standard(8)).standard_deviation(1.5),
    ],
)
def test_api_rejects_wrong_types_with_analyzer_errors(call):
    with pytest.raises(AnalyzerError):
        call()
