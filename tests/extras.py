"""The optional extras of ``pyproject.toml`` as the tests see them: a test that needs one says so
with ``@pytest.mark.extra("plot")`` (a whole file: ``pytestmark = pytest.mark.extra("web")``),
and where the extra is not installed it is skipped with the reason, never failed.  The
repository's ``conftest.py`` also leaves the web service's modules out of the doctests then."""

from __future__ import annotations

import importlib
from functools import cache

PACKAGE = "punto-banco-analyzer"
#: Each extra and the modules its tests import (``pyproject.toml``, ``[project.optional-dependencies]``).
EXTRAS: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "uvicorn", "httptools"),
    "plot": ("matplotlib",),
    "report": ("openpyxl",),
    "parquet": ("pyarrow",),
    "cluster": ("distributed",),
    "study": ("distributed", "matplotlib"),
    "docs": ("sphinx", "myst_parser", "furo", "sphinx_click"),
    #: Not a package extra: the tests' reading of CSV files, in the test extra.
    "pandas": ("pandas",),
}


@cache
def importable(module: str) -> bool:
    """Whether ``module`` imports (a broken install counts as missing, as it would for a user)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def missing(*extras: str) -> str | None:
    """Why a test that needs ``extras`` cannot run here (``None``: it can).

    Raises:
        KeyError: an extra this file does not know (a typo in a mark fails the test).
    """
    for extra in extras:
        absent = [m for m in EXTRAS[extra] if not importable(m)]
        if absent:
            return (
                f"the {extra} extra is not installed ({', '.join(absent)} missing): "
                f"pip install '{PACKAGE}[{extra}]'"
            )
    return None


def missing_module(module: str) -> str | None:
    """Why a test that imports ``module``, a module of some extra, cannot run here (``None``: it
    can, or ``module`` belongs to no extra and must import)."""
    for extra, modules in EXTRAS.items():
        if module in modules and not importable(module):
            return f"{module} is not installed (the {extra} extra): pip install '{PACKAGE}[{extra}]'"
    return None
