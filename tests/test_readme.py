"""The README and the manual (every Markdown page under docs/) stay true: their console examples
are real output, their Python examples run, the commands of their shell examples exist with the
options they give, and the quick start works.

Set UPDATE_README=1 (or UPDATE_DOCS=1) to rewrite the console blocks with the current output.
"""

import doctest
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import click
import pytest
from clirun import invoke
from extras import missing, missing_module

from analyzer.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: Every page whose examples are checked: the README and the manual's Markdown pages.
PAGES = [README, *sorted(DOCS.rglob("*.md"))]
BLOCK = re.compile(r"```console\n\$ (punto-banco [^\n]*)\n(.*?)```", re.S)
#: A fenced block: (text before it, its language, its body).
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
#: A Python block that is not a doctest names the test that runs it, just above it.
RUN_BY = re.compile(r"<!-- run by (tests/[\w/]+\.py) -->\s*$")
#: A command's line when an extra it needs is not installed: ``pip install 'punto-banco-analyzer[plot]'``.
NEEDS_EXTRA = re.compile(r"pip install 'punto-banco-analyzer\[([\w,]+)\]'")
#: The top-level modules a doctest imports.
IMPORTED = re.compile(r"^>>> (?:import|from) (\w+)", re.M)


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _run(command: str) -> str:
    """The command's output (standard output and error), then ``[exit code N]`` unless 0."""
    args = shlex.split(command)[1:]
    result = invoke(*args)
    assert isinstance(result.exit_code, int), command
    return result.output + (f"[exit code {result.exit_code}]\n" if result.exit_code else "")


def _blocks(page: Path, language: str) -> list[tuple[int, str, str]]:
    """(line number, text before, body) of each block of ``language`` on ``page``."""
    text = page.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start()) + 1, text[: m.start()], m.group(2))
        for m in FENCE.finditer(text)
        if m.group(1) == language
    ]


def test_the_pages_are_found():
    names = {_name(p) for p in PAGES}
    assert {"README.md", "docs/index.md", "docs/shoes.md", "docs/checks.md"} <= names
    assert len(BLOCK.findall(README.read_text(encoding="utf-8"))) >= 4


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_console_examples_are_real_output(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "argv", ["punto-banco"])
    text = page.read_text(encoding="utf-8")

    def replace(match: re.Match[str]) -> str:
        command = match.group(1)
        monkeypatch.setattr(sys, "argv", shlex.split(command))
        return f"```console\n$ {command}\n{_run(command)}```"

    fresh = BLOCK.sub(replace, text)
    needs = sorted(set(NEEDS_EXTRA.findall(fresh)) - set(NEEDS_EXTRA.findall(text)))
    if needs and fresh != text and any(missing(*n.split(",")) for n in needs):
        pytest.skip(f"{_name(page)}: " + "; ".join(filter(None, (missing(*n.split(",")) for n in needs))))
    if os.environ.get("UPDATE_README") or os.environ.get("UPDATE_DOCS"):
        page.write_text(fresh, encoding="utf-8")
    assert fresh == text, f"{_name(page)}: console output is stale: rerun with UPDATE_DOCS=1"


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_python_examples_run(page, monkeypatch):
    """Every ``python`` block is a doctest, run here (one namespace per page, as a reader types
    them in order), or names the test that runs it (``<!-- run by tests/... -->`` above it)."""
    monkeypatch.chdir(ROOT)
    lines = page.read_text(encoding="utf-8").splitlines()
    kept = [""] * len(lines)  # the doctest blocks, each at its own line, everything else blank
    for line, before, body in _blocks(page, "python"):
        if body.lstrip().startswith(">>>"):
            kept[line : line + body.count("\n")] = body.splitlines()
            continue
        claim = RUN_BY.search(before)
        assert claim, (
            f"{_name(page)}:{line}: a Python block that is neither a doctest nor run by a named test"
        )
        source = (ROOT / claim.group(1)).read_text(encoding="utf-8")
        assert _name(page) in source, f"{claim.group(1)} does not read {_name(page)}"
    if not any(kept):
        return
    for module in sorted(set(IMPORTED.findall("\n".join(kept)))):
        reason = missing_module(module)
        if reason:
            pytest.skip(f"{_name(page)}: {reason}")
    test = doctest.DocTestParser().get_doctest("\n".join(kept), {}, _name(page), str(page), 0)
    report = io.StringIO()
    runner = doctest.DocTestRunner()
    runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()


def _shell_commands() -> list[tuple[str, str]]:
    """(where, command) for each ``punto-banco`` line of the pages' ``sh`` blocks."""
    found = []
    for page in PAGES:
        for line, _, body in _blocks(page, "sh"):
            for offset, text in enumerate(body.splitlines(), start=1):
                text = text.removeprefix("$ ").strip()
                if text.startswith("punto-banco "):
                    found.append((f"{_name(page)}:{line + offset}", text))
    return found


@pytest.mark.parametrize(("where", "command"), _shell_commands(), ids=[w for w, _ in _shell_commands()])
def test_shell_examples_name_real_commands_and_options(where, command):
    """Commands shown without output (they take long, or need a server or a cluster) are parsed:
    the command and every option must exist and take the values given.  A value the command
    would check against the reader's own files (a bet file of theirs) is not judged here."""
    args = shlex.split(command, comments=True)[1:]
    if args and args[-1] == "&":
        args = args[:-1]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            ctx = main.make_context("punto-banco", list(args))
            rest = [*ctx.protected_args, *ctx.args]
        name, command_object, rest = main.resolve_command(ctx, rest)
        assert command_object is not None, where
        command_object.make_context(name, rest, parent=ctx)
    except click.BadParameter as error:
        if not isinstance(error, click.MissingParameter):
            return
        raise AssertionError(f"{where}: {error.format_message()}") from error
    except click.UsageError as error:
        raise AssertionError(f"{where}: {error.format_message()}") from error


def _quickstart() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", section, re.S)


def test_quickstart_has_two_commands_and_ci_runs_the_test_command():
    main_cmd, test_cmd = _quickstart()
    assert "punto-banco analyze" in main_cmd and "pytest" in test_cmd
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_cmd in ci.splitlines(), ".ci/run must run the README's test command verbatim"
    assert ".venv/bin/python -m pytest -m slow --dist load" in ci, ".ci/run must run the slow lane too"
    install = (DOCS / "install.md").read_text(encoding="utf-8")
    assert main_cmd in install and test_cmd in install, "the manual's quick start is the README's"


def test_the_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert "docs/index.md" in text, "the README links to the manual"


def test_plain_pytest_is_the_fast_lane_and_the_readme_says_how_to_run_the_slow_one():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]
    addopts = shlex.split(options["ini_options"]["addopts"])
    assert addopts[addopts.index("-m") + 1] == "not slow"
    assert "--doctest-modules" in addopts
    section = README.read_text(encoding="utf-8").split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "fast lane" in section and "`.venv/bin/python -m pytest -m slow --dist load`" in section


@pytest.mark.slow
def test_quickstart_main_command_on_a_clean_copy(tmp_path):
    main_cmd, _ = _quickstart()
    copy = tmp_path / "checkout"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv",
            ".git",
            "*.egg-info",
            "__pycache__",
            ".pytest_cache",
            ".mypy_cache",
            ".ruff_cache",
            ".hypothesis",
            "build",
        ),
    )
    done = subprocess.run(["bash", "-c", main_cmd], cwd=copy, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "2,292,252,566,437,888" in done.stdout and "1.0579057842%" in done.stdout


def test_oracle_example_in_the_manual_is_the_tested_one():
    text = (DOCS / "checks.md").read_text(encoding="utf-8")
    section = text.split("## The test oracle", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    tests_part = block.group(1)[block.group(1).index("# ---- the tests") :]
    source = (ROOT / "tests" / "test_oracle_example.py").read_text(encoding="utf-8")
    assert tests_part in source
