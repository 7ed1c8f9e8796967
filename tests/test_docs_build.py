"""The manual builds as a site with warnings as errors (broken references between pages, a
module the API reference names that does not import, a docstring that does not parse, duplicate
labels), and its API reference covers every module of the package."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytest.importorskip("sphinx", reason="the manual needs the docs extra")
pytest.importorskip("myst_parser", reason="the manual needs the docs extra")


def _modules() -> set[str]:
    names = set()
    for path in (ROOT / "analyzer").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
            if not (path.read_text(encoding="utf-8").lstrip().startswith(('"""', "'''"))):
                continue  # a package without a docstring has nothing to show
        names.add(".".join(parts))
    return names


def test_the_api_reference_lists_every_module():
    listed = set()
    for page in (DOCS / "api").glob("*.rst"):
        listed |= set(re.findall(r"^\.\. automodule:: (\S+)$", page.read_text(encoding="utf-8"), re.M))
    assert listed == _modules(), "docs/api/*.rst: add the new modules, drop the gone ones"


@pytest.mark.slow
def test_the_manual_builds_without_a_warning(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            "-d",
            str(tmp_path / "doctrees"),
            str(DOCS),
            str(tmp_path / "html"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    assert done.stderr.strip() == "", done.stderr[-5000:]
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert "punto-banco-analyzer" in index
    for page in ("shoes", "bets", "checks", "studies", "report", "web", "output", "exact", "rules", "cli"):
        assert (tmp_path / "html" / f"{page}.html").exists(), page
    reference = (tmp_path / "html" / "cli.html").read_text(encoding="utf-8")
    assert "--max-line-length" in reference, "the command reference comes from the commands"
