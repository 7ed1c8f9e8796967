"""Every file a command writes is named by the user or created new (analyzer/output/files.py).

A file the user did not name (a Markdown report's charts beside it) is never replaced and never
written through a link of its name: the command refuses before it starts, and a file that
appears while it runs is refused too.  No output overwrites an input (the same file, a link
or a hard link to it, a rules or bet file named by any option); writes are atomic, all or
nothing, through links the user named; ``tables --out`` swaps a complete folder into place.
Each test here failed before the fix.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

import pytest
from clirun import one_error_line, run_process

from analyzer.output import files
from analyzer.output.files import OutputError, refuse_existing, replace_folder, write_files

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def listing(folder: Path) -> dict[str, str]:
    """What a folder holds: name -> the link's target, or the file's first bytes."""
    out = {}
    for p in sorted(folder.iterdir()):
        out[p.name] = f"-> {os.readlink(p)}" if p.is_symlink() else p.read_bytes()[:8].hex()
    return out


# -- the report's charts ---------------------------------------------------------------------------


@pytest.fixture()
def no_report(monkeypatch):
    """The report's computation, made to fail: a refusal must come before it."""

    def refuse(*args, **kwargs):
        raise AssertionError("the report was computed before its outputs were checked")

    monkeypatch.setattr("analyzer.studies.report_data.game_math_report", refuse)


@pytest.mark.parametrize("kind", ["file", "link to a file", "dangling link", "folder"])
def test_report_never_replaces_a_chart_name_it_was_not_given(cli, tmp_path, no_report, kind):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    chart = tmp_path / "lab-eor-2.png"
    if kind == "file":
        chart.write_text("precious chart")
    elif kind == "link to a file":
        chart.symlink_to(victim)
    elif kind == "dangling link":
        chart.symlink_to(tmp_path / "nowhere.png")
    else:
        chart.mkdir()
    before = listing(tmp_path) if kind != "folder" else None
    result = cli("report", "--bet", "tie", "--bet", "banker", "--decks", "8", "-o", str(tmp_path / "lab.md"))
    line = one_error_line(result)
    assert result.exit_code == 2
    assert "lab-eor-2.png" in line and "exists" in line
    assert not (tmp_path / "lab.md").exists() and not (tmp_path / "lab-eor-1.png").exists()
    assert victim.read_text() == "precious"
    if before is not None:
        assert listing(tmp_path) == before
    assert not (tmp_path / "nowhere.png").exists()


@pytest.mark.extra("plot")
def test_report_writes_its_charts_new_and_links_odd_names_safely(cli, tmp_path):
    out = tmp_path / "my (lab) #1.md"
    result = cli("report", "--bet", "tie", "--decks", "8", "-o", str(out))
    assert result.exit_code == 0, result.output
    chart = tmp_path / "my (lab) #1-eor-1.png"
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert "](my%20%28lab%29%20%231-eor-1.png)" in out.read_text()
    # a rerun finds its own chart there: refused, and nothing is touched
    stamp = chart.stat().st_mtime_ns, out.stat().st_mtime_ns
    again = cli("report", "--bet", "tie", "--decks", "8", "-o", str(out))
    assert again.exit_code == 2 and "my (lab) #1-eor-1.png" in one_error_line(again)
    assert (chart.stat().st_mtime_ns, out.stat().st_mtime_ns) == stamp


def test_the_report_itself_is_named_and_may_be_replaced(cli, tmp_path):
    out = tmp_path / "lab.html"
    out.write_text("old report")
    result = cli("report", "--bet", "tie", "--decks", "8", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<!DOCTYPE html>")


# -- the shared writer ---------------------------------------------------------------------------


def test_a_new_file_that_appears_while_the_command_runs_is_not_replaced(tmp_path, monkeypatch):
    named, chart, victim = tmp_path / "lab.md", tmp_path / "lab-eor-1.png", tmp_path / "victim.txt"
    named.write_text("old report")
    victim.write_text("precious")
    make_temporary = files._temporary

    def appears(target):
        if not chart.is_symlink():
            chart.symlink_to(victim)  # between the check and the write
        return make_temporary(target)

    monkeypatch.setattr(files, "_temporary", appears)
    with pytest.raises(OutputError, match=r"lab-eor-1\.png.*exists"):
        write_files({named: "new report", chart: b"\x89PNG"}, new=[chart])
    assert victim.read_text() == "precious" and named.read_text() == "old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab-eor-1.png", "lab.md", "victim.txt"]


def test_a_file_system_without_hard_links_still_creates_new_files_exclusively(tmp_path, monkeypatch):
    def no_links(src, dst, **kwargs):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    chart = tmp_path / "a-eor-1.png"
    write_files({tmp_path / "a.md": "report", chart: b"chart"}, new=[chart])
    assert chart.read_bytes() == b"chart" and (tmp_path / "a.md").read_text() == "report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-eor-1.png", "a.md"]
    # O_EXCL | O_NOFOLLOW: a link that appears is refused, its target untouched
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    late = tmp_path / "b-eor-1.png"
    make_temporary = files._temporary

    def appears(target):
        if not late.is_symlink():
            late.symlink_to(victim)
        return make_temporary(target)

    monkeypatch.setattr(files, "_temporary", appears)
    with pytest.raises(OutputError, match="exists"):
        write_files({late: b"chart"}, new=[late])
    assert victim.read_text() == "precious"


def test_a_failure_after_creating_new_files_removes_them(tmp_path, monkeypatch):
    folder = tmp_path / "out"
    folder.mkdir()
    named, chart = folder / "a.md", folder / "a-eor-1.png"

    def no_rename(src, dst):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(OutputError, match="Input/output error"):
        write_files({named: "report", chart: b"chart"}, new=[chart])
    assert list(folder.iterdir()) == []


def test_refuse_existing_checks_every_name_and_its_folder(tmp_path):
    refuse_existing([tmp_path / "new.png"])
    (tmp_path / "old.png").write_text("x")
    with pytest.raises(OutputError, match=r"old\.png"):
        refuse_existing([tmp_path / "new.png", tmp_path / "old.png"])
    with pytest.raises(OutputError, match="does not exist"):
        refuse_existing([tmp_path / "missing" / "a.png"])


def test_a_folder_swap_keeps_files_that_appear_in_the_old_folder(tmp_path, monkeypatch):
    out = tmp_path / "results"
    out.mkdir()
    (out / "a.md").write_text("old")
    rename = os.rename

    def late_file(src, dst):
        if Path(src) == out:
            (out / "late.txt").write_text("appeared while the command ran")
        rename(src, dst)

    monkeypatch.setattr(os, "rename", late_file)
    with pytest.warns(UserWarning, match="kept in"):
        replace_folder(out, {"a.md": "new"})
    assert (out / "a.md").read_text() == "new"
    kept = [p for p in tmp_path.iterdir() if p.name.endswith(".old")]
    assert len(kept) == 1 and [p.name for p in kept[0].iterdir()] == ["late.txt"]


def test_a_folder_swap_leaves_no_old_folder_behind(tmp_path):
    out = tmp_path / "results"
    replace_folder(out, {"a.md": "one"})
    replace_folder(out, {"a.md": "two"})
    assert [p.name for p in tmp_path.iterdir()] == ["results"]
    assert (out / "a.md").read_text() == "two"


# -- the study's plot --------------------------------------------------------------------------


def test_the_study_plot_and_output_are_written_all_or_nothing(cli, tmp_path):
    plot = tmp_path / "ev.png"
    missing = str(tmp_path / "no" / "x.txt")
    result = cli("study", "--bet", "tie", "--shoes", "3", "--plot", str(plot), "-o", missing)
    assert result.exit_code == 2 and "does not exist" in one_error_line(result)
    assert not plot.exists()
    bad = cli("study", "--bet", "tie", "--shoes", "3", "--plot", str(tmp_path / "ev.xyz"))
    assert bad.exit_code == 2 and ".png, .svg or .pdf" in one_error_line(bad)


@pytest.mark.extra("plot")
def test_the_study_plot_into_a_full_device_is_an_error(cli, tmp_path):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    link = tmp_path / "full.png"
    link.symlink_to("/dev/full")
    full = cli("study", "--bet", "tie", "--shoes", "3", "--table", "results", "--plot", str(link))
    assert full.exit_code == 2 and "No space left on device" in full.output


@pytest.mark.extra("plot")
def test_the_study_plot_through_a_link_the_user_named_is_written_atomically(cli, tmp_path):
    real = tmp_path / "real.svg"
    real.write_text("old")
    link = tmp_path / "ev.svg"
    link.symlink_to(real)
    result = cli("study", "--bet", "tie", "--shoes", "3", "--table", "results", "--plot", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and real.read_text().lstrip().startswith("<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ev.svg", "real.svg"]


def test_a_report_named_like_a_hidden_file_gets_charts_named_after_it():
    from analyzer.output.report import chart_name

    assert [chart_name(o, 0) for o in ("lab.md", ".md", "lab", "a.b.md")] == [
        "lab-eor-1.png",
        ".md-eor-1.png",  # never "-eor-1.png", a name that reads as an option
        "lab-eor-1.png",
        "a.b-eor-1.png",
    ]


def test_output_writes_through_symlinks_and_keeps_modes(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_files({link: "new"})
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.txt"
    write_files({fresh: "x"})
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


def test_output_is_all_or_nothing(tmp_path):
    (tmp_path / "b.md").mkdir()
    with pytest.raises(OutputError, match=r"b\.md': it is a folder"):
        write_files({tmp_path / "a.md": "a", tmp_path / "b.md": "b"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.md"]
    with pytest.raises(OutputError, match="empty"):
        write_files({"": "x"})


def test_tables_out_checks_every_target_first(cli, tmp_path, monkeypatch):
    import analyzer.output.results

    def build(*_: object) -> dict[str, str]:
        raise AssertionError("the tables were built before the folder was checked")

    for name in ("generate", "analysis_files", "catalogue_files", "symbolic_files"):
        monkeypatch.setattr(analyzer.output.results, name, build)
    (tmp_path / "bets-8-decks.md").mkdir()
    result = cli("tables", "--out", str(tmp_path))
    assert result.exit_code == 2 and "bets-8-decks.md" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["bets-8-decks.md"]


# -- no output destroys an input -----------------------------------------------------------------


def _copy(src: Path, dest: Path) -> Path:
    dest.write_bytes(src.read_bytes())
    return dest


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize(("command", "example"), [
    (("verify",), "hands.csv"), (("conform",), "observed.json"), (("bets", "--bet-file"), "bets.toml"),
])
def test_an_output_that_is_an_input_is_refused(cli, tmp_path, how, command, example):
    given = _copy(EXAMPLES / example, tmp_path / example)
    before = given.read_bytes()
    out = given
    if how == "symlink":
        out = tmp_path / f"link-{example}"
        out.symlink_to(given)
    elif how == "hardlink":
        out = tmp_path / f"hard-{example}"
        os.link(given, out)
    result = cli(*command, str(given), "-o", str(out))
    assert result.exit_code == 2
    assert "is the input" in one_error_line(result)
    assert given.read_bytes() == before


def test_standard_output_onto_the_input_is_refused(tmp_path):
    log = _copy(EXAMPLES / "hands.jsonl", tmp_path / "hands.jsonl")
    before = log.read_bytes()
    with open(log, "ab") as append, open(log, "rb") as stdin:
        for args in (("verify", str(log)), ("verify", "-", "--log-format", "jsonl", "-o", str(log))):
            proc = run_process(*args, stdout=append, stdin=stdin)
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 2 and b"is the input" in err, err
    assert log.read_bytes() == before


@pytest.mark.slow
def test_dev_stdout_appends_and_writes_into_a_pipe(tmp_path):
    app_log = tmp_path / "app.log"
    app_log.write_text("earlier line\n")
    with open(app_log, "ab") as append:  # punto-banco analyze -o /dev/stdout >> app.log
        proc = run_process("analyze", "--table", "outcomes", "-o", "/dev/stdout", stdout=append)
        assert proc.communicate(timeout=60)[1] == b"" and proc.returncode == 0
    text = app_log.read_text()
    assert text.startswith("earlier line\n# generated_by") and "2,292,252,566,437,888" in text
    for args in (("analyze", "--table", "outcomes", "-o", "/dev/stdout"),  # ... | cat
                 ("verify", str(EXAMPLES / "hands.csv"), "-o", "/dev/stdout")):
        proc = run_process(*args)
        out, err = proc.communicate(timeout=60)
        assert err == b"" and proc.returncode in (0, 1) and len(out) > 100


def test_a_missing_output_folder_is_an_error_not_created(cli, tmp_path):
    for args in (("analyze", "-o"), ("verify", str(EXAMPLES / "hands.csv"), "-o")):
        result = cli(*args, str(tmp_path / "nosuch" / "deeper" / "out.txt"))
        assert result.exit_code == 2
        assert "does not exist" in one_error_line(result)
        assert not (tmp_path / "nosuch").exists()


def test_the_eor_plot_is_written_only_when_every_output_can_be(cli, tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "eor.png"
    result = cli("eor", "--bet", "dragon-7", "--table", "summary", "--plot", str(plot),
                 "-o", str(tmp_path / "nosuch" / "eor.txt"))
    assert result.exit_code == 2 and "does not exist" in one_error_line(result)
    assert not plot.exists()
    folder = tmp_path / "afolder"
    folder.mkdir()
    result = cli("eor", "--bet", "dragon-7", "--table", "summary", "--plot", str(plot), "-o", str(folder))
    assert result.exit_code == 2
    assert not plot.exists()


def _fake_tables(monkeypatch, files: dict[str, str]) -> None:
    import analyzer.output.results

    monkeypatch.setattr(analyzer.output.results, "generate", lambda: dict(files))
    monkeypatch.setattr(analyzer.output.results, "file_names", lambda: frozenset(files))


def test_tables_out_swaps_a_complete_folder_into_place(cli, tmp_path, monkeypatch):
    out = tmp_path / "results"
    out.mkdir()
    (out / "a.md").write_text("old a")
    (out / "b.md").write_text("old b")
    _fake_tables(monkeypatch, {"a.md": "new a", "b.md": "new b", "c.md": "new c"})
    assert cli("tables", "--out", str(out)).exit_code == 0
    assert {p.name: p.read_text() for p in out.iterdir()} == {"a.md": "new a", "b.md": "new b",
                                                              "c.md": "new c"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]  # no staging folder left


def test_tables_out_is_all_or_nothing(cli, tmp_path, monkeypatch):
    import analyzer.output.files

    out = tmp_path / "results"
    out.mkdir()
    (out / "a.md").write_text("old a")
    (out / "b.md").write_text("old b")
    _fake_tables(monkeypatch, {"a.md": "new a", "b.md": "new b"})
    real_write = analyzer.output.files._write_new
    calls = []

    def fail_on_second(path: Path, content: str | bytes, mode: int) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_write(path, content, mode)

    monkeypatch.setattr(analyzer.output.files, "_write_new", fail_on_second)
    result = cli("tables", "--out", str(out))
    assert result.exit_code == 2 and "No space left" in one_error_line(result)
    assert {p.name: p.read_text() for p in out.iterdir()} == {"a.md": "old a", "b.md": "old b"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]


def test_tables_out_refuses_a_folder_holding_other_files(cli, tmp_path, monkeypatch):
    _fake_tables(monkeypatch, {"a.md": "new a"})
    (tmp_path / "notes.txt").write_text("mine")
    result = cli("tables", "--out", str(tmp_path))
    assert result.exit_code == 2 and "notes.txt" in one_error_line(result)
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert cli("tables", "--out", str(tmp_path / "nosuch" / "results")).exit_code == 2
    fresh = tmp_path / "fresh"
    assert cli("tables", "--out", str(fresh)).exit_code == 0 and (fresh / "a.md").read_text() == "new a"


@pytest.mark.parametrize(
    "command",
    [
        ["analyze", "--rules", "{rules}"],
        ["bets", "--bet", "tie", "--rules", "{rules}"],
        ["eor", "--decks", "1", "--rules", "{rules}"],
        ["symbolic", "--bet", "tie", "--table", "none", "--rules", "{rules}"],
        ["verify", str(EXAMPLES / "hands.csv"), "--rules", "{rules}"],
        ["conform", str(EXAMPLES / "observed.json"), "--family", "winner", "--against", "{rules}"],
        [
            "conform",
            str(EXAMPLES / "hands-banker-draws-on-6-against-5.jsonl"),
            "--family",
            "winner",
            "--compare",
            "standard,{rules}",
        ],
        ["study", "--bet", "dragon-7", "--shoes", "5", "--rules", "{rules}"],
        ["report", "--bet", "tie", "--decks", "1", "--rules", "{rules}"],
    ],
)
def test_an_output_onto_the_rules_file_is_refused(cli, tmp_path, command):
    rules = tmp_path / "mine.toml"
    shutil.copy(EXAMPLES / "rules" / "banker-stands-on-6.toml", rules)
    before = rules.read_bytes()
    args = [a.replace("{rules}", str(rules)) for a in command]
    result = cli(*args, "-o", str(rules))
    assert result.exit_code == 2, result.output
    assert "refusing to write" in result.output
    assert rules.read_bytes() == before


def test_a_report_onto_the_file_of_its_bet_is_refused(cli, tmp_path):
    bets = tmp_path / "mine.toml"
    shutil.copy(EXAMPLES / "bets.toml", bets)
    before = bets.read_bytes()
    result = cli("report", "--bet", f"{bets}:natural-tie", "--decks", "1", "-o", str(bets))
    assert result.exit_code == 2 and "refusing to write" in result.output
    assert bets.read_bytes() == before
@pytest.mark.parametrize("args", [["analyze"], ["bets", "--bet", "tie"], ["report", "--bet", "tie"]])
def test_an_output_name_ending_in_a_slash_is_a_folder_not_a_file(cli, tmp_path, args):
    # 'out/' names a folder: writing a file called 'out' (pathlib drops the slash) is not
    # what was asked, and the report would add out-eor-N.png beside it
    result = cli(*args, "-o", f"{tmp_path}/out/")
    assert result.exit_code == 2
    assert "folder" in one_error_line(result)
    assert list(tmp_path.iterdir()) == []
