"""The README stays true: its console examples are real output and its quick start works.

Set UPDATE_README=1 to rewrite the console blocks with the current output.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from clirun import invoke

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BLOCK = re.compile(r"```console\n\$ (punto-banco [^\n]*)\n(.*?)```", re.S)


def _run(command: str) -> str:
    """The command's output (standard output and error), then ``[exit code N]`` unless 0."""
    args = shlex.split(command)[1:]
    result = invoke(*args)
    assert isinstance(result.exit_code, int), command
    return result.output + (f"[exit code {result.exit_code}]\n" if result.exit_code else "")


def test_console_examples_are_real_output(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "argv", ["punto-banco"])
    text = README.read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert len(blocks) >= 5

    def replace(match: re.Match[str]) -> str:
        command = match.group(1)
        monkeypatch.setattr(sys, "argv", shlex.split(command))
        return f"```console\n$ {command}\n{_run(command)}```"

    fresh = BLOCK.sub(replace, text)
    if os.environ.get("UPDATE_README"):
        README.write_text(fresh, encoding="utf-8")
    assert fresh == text, "README console output is stale: rerun with UPDATE_README=1"


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


def test_plain_pytest_is_the_fast_lane_and_the_readme_says_how_to_run_the_slow_one():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]
    addopts = shlex.split(options["ini_options"]["addopts"])
    assert addopts[addopts.index("-m") + 1] == "not slow"
    assert "--doctest-modules" in addopts and "--doctest-glob=README.md" in addopts
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


def test_oracle_example_in_the_readme_is_the_tested_one():
    text = README.read_text(encoding="utf-8")
    section = text.split("## Using the analyser as a test oracle", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    tests_part = block.group(1)[block.group(1).index("# ---- the tests"):]
    source = (ROOT / "tests" / "test_oracle_example.py").read_text(encoding="utf-8")
    assert tests_part in source
