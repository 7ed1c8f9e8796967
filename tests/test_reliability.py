"""Reliability of the command line around the engine: bounded reads, odd text, flat memory, outputs
that never destroy data, signals, exit codes, injection, one behaviour for one thing.

Each test here once failed: a MemoryError, a traceback, an input overwritten, a wrong exit code.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import invoke
from deadline import deadline

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def cli(*args: str, env: dict[str, str] | None = None, stdin: str | None = None):
    return invoke(*args, env=env, input=stdin)


def one_error_line(result) -> str:
    """The single line a failed command printed (asserting there is exactly one, no traceback)."""
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output[-2000:]
    assert "Traceback" not in result.output
    return lines[0]


# -- bounded reads ----------------------------------------------------------------------------------


@pytest.fixture()
def zero_links(tmp_path: Path) -> dict[str, Path]:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    links = {}
    for name in ("zero.csv", "zero.jsonl", "zero.json"):
        links[name] = tmp_path / name
        links[name].symlink_to("/dev/zero")
    return links


@pytest.mark.parametrize("args", [
    ("verify", "zero.csv"), ("verify", "zero.jsonl"), ("verify", "/dev/zero", "--log-format", "csv"),
    ("conform", "zero.jsonl"), ("conform", "zero.csv", "--observed-format", "log-csv"),
])
def test_verify_and_conform_stop_on_an_endless_line(zero_links, args):
    args = tuple(str(zero_links.get(a, a)) for a in args)
    with deadline(20):
        result = cli(*args)
    line = one_error_line(result)
    assert result.exit_code == 2
    assert args[1] in line and "longer than the limit of 1,000,000 characters" in line


def test_conform_stops_on_an_endless_counts_file(zero_links):
    with deadline(20):
        result = cli("conform", str(zero_links["zero.json"]))
    line = one_error_line(result)
    assert result.exit_code == 2
    assert "zero.json" in line and "larger than the limit of 1,000,000 bytes" in line


@pytest.mark.slow
def test_the_limits_are_adjustable_by_option_and_environment(tmp_path):
    log = tmp_path / "long.jsonl"
    log.write_text('{"cards": "2 4 3 10 6 A", "id": "' + "x" * 500 + '"}\n')
    assert cli("verify", str(log)).exit_code == 0
    for result in (cli("verify", str(log), "--max-line-length", "100"),
                   cli("verify", str(log), env={"PUNTO_BANCO_MAX_LINE_LENGTH": "100"})):
        assert result.exit_code == 2
        assert "line 1 is longer than the limit of 100 characters" in one_error_line(result)
    counts = tmp_path / "counts.json"
    counts.write_text('{"winner": {"banker": 4586, "player": 4462, "tie": 952}}' + " " * 200)
    assert cli("conform", str(counts)).exit_code == 0
    for result in (cli("conform", str(counts), "--max-file-size", "100"),
                   cli("conform", str(counts), env={"PUNTO_BANCO_MAX_FILE_SIZE": "100"})):
        assert result.exit_code == 2
        assert "larger than the limit of 100 bytes" in one_error_line(result)
    assert cli("conform", str(log), "--max-line-length", "100",
               "--observed-format", "log-jsonl").exit_code == 2


def test_the_limits_are_documented_in_help():
    for command in ("verify", "conform"):
        text = cli(command, "--help").output
        assert "--max-line-length" in text and "PUNTO_BANCO_MAX_LINE_LENGTH" in text
    assert "PUNTO_BANCO_MAX_FILE_SIZE" in cli("conform", "--help").output
    manual = (ROOT / "docs" / "output.md").read_text(encoding="utf-8")
    for name in ("PUNTO_BANCO_MAX_LINE_LENGTH", "PUNTO_BANCO_MAX_FILE_SIZE", "--max-line-length"):
        assert name in manual


def test_reading_stdin_is_bounded_too():
    result = cli("verify", "-", "--log-format", "jsonl", "--max-line-length", "50",
                 stdin='{"cards": "2 4 3 10 6 A", "id": "' + "x" * 100 + '"}\n')
    assert result.exit_code == 2
    assert "standard input: line 1 is longer than the limit of 50 characters" in one_error_line(result)


def test_a_bad_limit_is_a_usage_error():
    for value in ("0", "-5", "lots", "１０"):
        result = cli("verify", str(EXAMPLES / "hands.csv"), "--max-line-length", value)
        assert result.exit_code == 2, value
        one_error_line(result)


# -- exit codes -------------------------------------------------------------------------------------


#: ``python -m analyzer`` with SIGINT, SIGTERM and SIGHUP at their defaults: the command keeps a
#: signal its parent ignores ignored (``nohup``), so a test run under nohup, or from a worker
#: that ignores one, must not hand that on to the command it signals.
_ANALYZER_WITH_DEFAULT_SIGNALS = (
    "import runpy, signal, sys\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "for name in ('SIGTERM', 'SIGHUP'):\n"
    "    signal.signal(getattr(signal, name), signal.SIG_DFL)\n"
    "sys.argv[0] = 'punto-banco'\n"
    "runpy.run_module('analyzer', run_name='__main__', alter_sys=True)\n"
)


def run_process(*args: str, env: dict[str, str] | None = None, **popen: object) -> subprocess.Popen[bytes]:
    """``python -m analyzer ARGS`` as a child process (for signals and pipes), its signals at
    their defaults."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.Popen([sys.executable, "-c", _ANALYZER_WITH_DEFAULT_SIGNALS, *args], cwd=ROOT,
                            env=full_env, stdout=popen.pop("stdout", subprocess.PIPE),
                            stderr=popen.pop("stderr", subprocess.PIPE), **popen)


def test_an_internal_error_is_one_line_and_exit_code_70(monkeypatch):
    import analyzer.engine.pricing

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("an engine bug")

    monkeypatch.setattr(analyzer.engine.pricing, "analyze", broken)
    result = cli("analyze")
    assert result.exit_code == 70
    assert one_error_line(result) == ("internal error: RuntimeError: an engine bug; rerun with --debug or "
                                      "PUNTO_BANCO_DEBUG=1 for the traceback")
    for shown in (cli("--debug", "analyze"), cli("analyze", env={"PUNTO_BANCO_DEBUG": "1"})):
        assert shown.exit_code == 70
        assert "Traceback" in shown.output and "an engine bug" in shown.output


def test_an_interrupt_is_exit_code_130(monkeypatch):
    import analyzer.engine.pricing

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(analyzer.engine.pricing, "analyze", interrupted)
    result = cli("analyze")
    assert result.exit_code == 130 and one_error_line(result) == "interrupted"


@pytest.mark.parametrize(("signum", "code", "line"), [(signal.SIGINT, 130, "interrupted"),
                                                     (signal.SIGTERM, 143, "ended by SIGTERM")])
def test_a_signal_a_library_masks_as_its_own_error_keeps_its_exit_code(monkeypatch, default_signals,
                                                                      signum, code, line):
    # numpy turns an exception raised inside a comparison (the KeyboardInterrupt of a Ctrl-C)
    # into "TypeError: Cannot compare structured arrays ...": the signal is how the run ended
    import analyzer.engine.pricing

    def masked(*_: object, **__: object) -> None:
        try:
            signal.raise_signal(signum)
        except BaseException:
            raise TypeError("Cannot compare structured arrays unless they have a common dtype") from None

    monkeypatch.setattr(analyzer.engine.pricing, "analyze", masked)
    result = cli("analyze")
    assert result.exit_code == code and one_error_line(result) == line


def test_findings_and_bad_input_keep_their_codes():
    assert cli("verify", str(EXAMPLES / "hands.jsonl")).exit_code == 0
    assert cli("verify", str(EXAMPLES / "hands.csv")).exit_code == 1
    assert cli("verify", str(EXAMPLES / "broken-hands.csv")).exit_code == 2
    assert cli("analyze", "--decks", "0").exit_code == 2
    assert cli("no-such-command").exit_code == 2


def test_the_exit_codes_are_documented_in_help():
    text = cli("--help").output
    for words in ("Exit codes", "70", "130", "141", "PUNTO_BANCO_DEBUG", "--debug"):
        assert words in text


@pytest.mark.parametrize("args", [("analyze", "--table", "all"), ("--help",), ("verify", "--help"),
                                  ("verify", "examples/hands.csv")])
def test_a_closed_pipe_ends_quietly_with_exit_code_141(args):
    # The reader is gone before the command starts (as `| head -0`): every write into the pipe
    # fails, however fast the command is (closing the reader after the start would race a
    # command that writes all its output into the pipe's buffer first).
    reader, writer = os.pipe()
    os.close(reader)
    try:
        proc = run_process(*args, stdout=writer)
    finally:
        os.close(writer)
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (141, b"")


# -- signals --------------------------------------------------------------------------------------


#: One coup of a hand log that is a discrepancy (the Banker on 3 must draw against a 9), with a
#: long id, so each coup writes a long line into the report.
_LONG_RECORD = '{"cards": "2 K 3 3 9", "id": "' + "x" * 4000 + '"}\n'


@pytest.mark.parametrize(("signum", "code"),
                         [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)])
def test_a_signal_during_a_write_leaves_no_partial_file(tmp_path, signum, code):
    out = tmp_path / "out" / "report.txt"
    out.parent.mkdir()
    proc = run_process("verify", "-", "--log-format", "jsonl", "-o", str(out),
                       stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stderr is not None
    # The command reads its log (standard input) only inside the report's atomic write.  A pipe
    # holds 64 KiB at most, so once this 1 MiB is written the command has read most of it: the
    # report's temporary file is open.  The log is never closed, so the command cannot finish:
    # the signal arrives during the write, whatever the machine's load.
    with deadline(120):
        proc.stdin.write((_LONG_RECORD * 256).encode())
        proc.stdin.flush()
    (partial,) = out.parent.iterdir()
    assert partial.name.startswith(".report.txt.") and partial.name.endswith(".tmp")
    proc.send_signal(signum)
    assert proc.wait(timeout=120) == code
    err = proc.stderr.read()
    proc.stdin.close()
    assert list(out.parent.iterdir()) == []
    assert len(err.decode().strip().splitlines()) == 1 and b"Traceback" not in err


@pytest.fixture()
def default_signals():
    """SIGINT, SIGTERM and SIGHUP at their defaults for the test (a run under nohup ignores
    SIGHUP, which the command would rightly keep ignored), restored afterwards."""
    names = [n for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]
    old = {n: signal.getsignal(getattr(signal, n)) for n in names}
    for n in names:
        signal.signal(getattr(signal, n), signal.default_int_handler if n == "SIGINT" else signal.SIG_DFL)
    yield
    for n, handler in old.items():
        signal.signal(getattr(signal, n), handler)


def _deliver(signum: int) -> None:
    # raise_signal runs the Python handler before it returns: no wait, whatever the load
    signal.raise_signal(signum)


def test_the_second_signal_lets_the_cleanup_finish_and_the_third_ends_it(default_signals):
    from analyzer.cli.process import Ended, signals_raise

    with signals_raise():
        with pytest.raises(Ended) as first:
            _deliver(signal.SIGTERM)
        assert first.value.name == "SIGTERM"
        _deliver(signal.SIGTERM)  # during the cleanup: ignored
        with pytest.raises(Ended):
            _deliver(signal.SIGHUP)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # restored


def test_a_signal_the_parent_ignores_stays_ignored():
    from analyzer.cli.process import signals_raise

    old = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup does
    try:
        with signals_raise():
            _deliver(signal.SIGHUP)  # nothing happens
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, old)


# -- odd text and injection -----------------------------------------------------------------------

SURROGATE_ID = '{"cards": "2 K 3 3 9", "id": "\\ud800"}\n'
FORGED_ID = '{"cards": "2 K 3 3 9", "id": "c1\\u001b[31m\\r\\nrecord 99 (line 99): forged"}\n'


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_a_lone_surrogate_in_an_id_is_escaped_in_every_format(tmp_path, fmt):
    log = tmp_path / "odd.jsonl"
    log.write_text(SURROGATE_ID)
    result = cli("verify", str(log), "--format", fmt)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "\\ud800" in result.output
    out = tmp_path / f"report.{fmt}"
    result = cli("verify", str(log), "--format", fmt, "-o", str(out))
    assert result.exit_code == 1 and "\\ud800" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(("encoding", "args", "spelling"), [
    ("latin-1", ("symbolic", "--table", "none", "--quantity", "house-edge"), "f(inf)"),
    ("ascii", ("bets", "--bet", "egalite:5"), "Egalite 5"),
])
def test_a_stream_that_cannot_encode_a_symbol_gets_an_ascii_spelling(encoding, args, spelling):
    proc = run_process(*args, env={"PYTHONIOENCODING": encoding})
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, b"")
    assert spelling in out.decode(encoding)


def test_control_characters_from_a_log_are_escaped_in_text_reports(tmp_path):
    log = tmp_path / "forged.jsonl"
    log.write_text(FORGED_ID + '{"cards": "2 4 3 10 6 A", "\\u001b]0;title\\u0007": 1}\n')
    for fmt in ("text", "csv"):
        result = cli("verify", str(log), "--format", fmt)
        assert result.exit_code == 1
        assert "\x1b" not in result.output and "\r" not in result.output and "\x07" not in result.output
        assert "c1\\x1b[31m\\r\\nrecord 99 (line 99): forged" in result.output
        body = [line for line in result.output.splitlines() if "record 99" in line]
        assert len(body) == 1  # the forged record is part of the real line, not a line of its own
    assert "note: ignored unknown fields: \\x1b]0;title\\x07" in result.output


def test_error_lines_escape_what_they_echo(tmp_path):
    bad = tmp_path / "bad\x1b[2Jname.csv"
    result = cli("verify", str(bad))
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "bad\\x1b[2Jname.csv" in one_error_line(result)


def _hostile_bet_file(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.toml"
    path.write_text('[[bet]]\nname = "hostile"\ntitle = "=HYPERLINK(\\"http://x.example\\",\\"click\\")"\n'
                    '[[bet.pay]]\nevent = "@SUM(1+1)"\nwhen = { winner = "tie" }\npays = 8\n')
    return path


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(tmp_path):
    bets = _hostile_bet_file(tmp_path)
    out = cli("bets", "--bet-file", str(bets), "--events", "--format", "csv").output
    assert "'=HYPERLINK" in out and "'@SUM(1+1)" in out
    assert ",-0.1435962878," in out  # a negative number is data: never quoted
    raw = cli("bets", "--bet-file", str(bets), "--events", "--format", "csv", "--raw-csv").output
    assert '"=HYPERLINK' in raw and "'=" not in raw and "'@" not in raw
    log = tmp_path / "inject.jsonl"
    log.write_text('{"cards": "2 K 3 3 9", "id": "=cmd|\' /C calc\'!A0"}\n')
    report = cli("verify", str(log), "--format", "csv").output
    assert "'=cmd|" in report
    assert "'=cmd" not in cli("verify", str(log), "--format", "csv", "--raw-csv").output


@pytest.mark.parametrize("command", ["analyze", "bets", "eor", "conform", "verify"])
def test_every_command_that_writes_csv_takes_raw_csv(command):
    text = cli(command, "--help").output
    assert "--raw-csv" in text


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_header_comments_cannot_be_closed_early(fmt):
    from analyzer.output.render import render

    text = render([], fmt, 4, {"command": "punto-banco x --> a --!> b <!-- c"})
    inner = text.split("<!--", 1)[1].rsplit("-->", 1)[0]
    assert "-->" not in inner and "--!>" not in inner and "<!--" not in inner


def test_the_closed_forms_guard_their_markdown_header_too():
    from analyzer.studies.symbolic import render_sections

    text = render_sections([], "markdown", 4, {"command": "x --!> y --> z"})
    inner = text.split("<!--", 1)[1].rsplit("-->", 1)[0]
    assert "-->" not in inner and "--!>" not in inner


# -- outputs never destroy data -------------------------------------------------------------------


def _copy(src: Path, dest: Path) -> Path:
    dest.write_bytes(src.read_bytes())
    return dest


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize(("command", "example"), [
    (("verify",), "hands.csv"), (("conform",), "observed.json"), (("bets", "--bet-file"), "bets.toml"),
])
def test_an_output_that_is_an_input_is_refused(tmp_path, how, command, example):
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


def test_a_missing_output_folder_is_an_error_not_created(tmp_path):
    for args in (("analyze", "-o"), ("verify", str(EXAMPLES / "hands.csv"), "-o")):
        result = cli(*args, str(tmp_path / "nosuch" / "deeper" / "out.txt"))
        assert result.exit_code == 2
        assert "does not exist" in one_error_line(result)
        assert not (tmp_path / "nosuch").exists()


def test_the_eor_plot_is_written_only_when_every_output_can_be(tmp_path):
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


def test_tables_out_swaps_a_complete_folder_into_place(tmp_path, monkeypatch):
    out = tmp_path / "results"
    out.mkdir()
    (out / "a.md").write_text("old a")
    (out / "b.md").write_text("old b")
    _fake_tables(monkeypatch, {"a.md": "new a", "b.md": "new b", "c.md": "new c"})
    assert cli("tables", "--out", str(out)).exit_code == 0
    assert {p.name: p.read_text() for p in out.iterdir()} == {"a.md": "new a", "b.md": "new b",
                                                              "c.md": "new c"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]  # no staging folder left


def test_tables_out_is_all_or_nothing(tmp_path, monkeypatch):
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


def test_tables_out_refuses_a_folder_holding_other_files(tmp_path, monkeypatch):
    _fake_tables(monkeypatch, {"a.md": "new a"})
    (tmp_path / "notes.txt").write_text("mine")
    result = cli("tables", "--out", str(tmp_path))
    assert result.exit_code == 2 and "notes.txt" in one_error_line(result)
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert cli("tables", "--out", str(tmp_path / "nosuch" / "results")).exit_code == 2
    fresh = tmp_path / "fresh"
    assert cli("tables", "--out", str(fresh)).exit_code == 0 and (fresh / "a.md").read_text() == "new a"


# -- memory flat in the log's length --------------------------------------------------------------


def _distinct_bets(path: Path, coups: int) -> Path:
    """A log whose every coup settles a different bet (tie:8.0000001, tie:8.0000002, ...), all
    correctly (the Banker wins, so each tie bet loses its stake)."""
    with open(path, "w") as fh:
        for i in range(1, coups + 1):
            bet, field = f"tie:8.{i:07d}", f"x{i}"
            fh.write(f'{{"cards": "2 4 3 10 6 A", "stake": 10, "bets": {{"{bet}": -10}}, "{field}": 1}}\n')
    return path


def test_every_verify_cache_is_bounded(tmp_path):
    import analyzer.checks.verify as verify
    from analyzer.checks import logs

    coups = 3 * max(logs.BET_CACHE_SIZE, verify.CLAIM_CACHE_SIZE, verify.AMOUNT_CACHE_SIZE) + 10
    log = _distinct_bets(tmp_path / "many.jsonl", coups)
    verifier = verify.Verifier()
    ignored: list[str] = []
    with verify.open_log(log) as fh:
        assert list(verifier.run(verify.read_records(fh, "jsonl", ignored=ignored))) == []
    assert verifier.coups == coups
    assert logs.catalogue_bet.cache_info().currsize <= logs.BET_CACHE_SIZE
    assert verify._remembered_claim.cache_info().currsize <= verify.CLAIM_CACHE_SIZE
    assert verify._text_amount.cache_info().currsize <= verify.AMOUNT_CACHE_SIZE
    assert len(verify._CARD_CACHE) <= verify._CARD_CACHE_LIMIT
    assert 0 < len(verifier._settled) <= verify.SETTLE_CACHE_SIZE
    assert len(ignored) == verify.MAX_IGNORED


def _peak_rss_kb(*args: str) -> int:
    proc = run_process(*args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0
    return int(usage.ru_maxrss)  # kilobytes (Linux)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kilobytes is Linux's")
def test_verify_memory_stays_flat_on_a_log_of_distinct_bets(tmp_path):
    short = _peak_rss_kb("verify", str(_distinct_bets(tmp_path / "short.jsonl", 20_000)))
    long = _peak_rss_kb("verify", str(_distinct_bets(tmp_path / "long.jsonl", 120_000)))
    assert long - short < 8 * 1024, (short, long)  # six times the log, not eight more megabytes


# -- one behaviour for one thing ------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("analyze", "--decks", "８"), ("analyze", "--decks", "1_000"), ("analyze", "--decks", "٨"),
    ("analyze", "--digits", "４"), ("verify", "examples/hands.csv", "--max-report", "1_0"),
    ("eor", "--depth", "２"), ("eor", "--max-tag", "3_0"), ("bets", "--decks", "+8"),
])
def test_every_number_option_takes_ascii_digits_only(args, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = cli(*args)
    assert result.exit_code == 2
    assert "digits 0-9" in one_error_line(result)


def test_decks_and_shoe_read_numbers_alike():
    assert cli("analyze", "--table", "outcomes", "--decks", "1").output.count("52 cards") >= 1
    for bad in ("８", "1_0"):
        assert cli("analyze", "--shoe", f"A={bad}").exit_code == cli("analyze", "--decks", bad).exit_code == 2


@pytest.mark.parametrize("remove", [" ", ",", " , ", ""])
def test_removing_nothing_is_an_error(remove):
    for command in (("analyze",), ("conform", str(EXAMPLES / "observed.json"))):
        result = cli(*command, "--remove", remove)
        assert result.exit_code == 2
        assert "--remove" in one_error_line(result)


def test_a_bet_file_may_start_with_a_byte_order_mark(tmp_path):
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "bets.toml").read_bytes())
    plain = cli("bets", "--bet-file", str(EXAMPLES / "bets.toml"))
    result = cli("bets", "--bet-file", str(bom))
    assert result.exit_code == 0
    assert result.output.split("\n\n", 1)[1] == plain.output.split("\n\n", 1)[1]


def test_list_with_bets_is_a_usage_error():
    assert cli("bets", "--list").exit_code == 0
    for extra in (("--bet", "nosuch"), ("--bet", "banker"), ("--all",), ("--bet-file", "x.toml")):
        result = cli("bets", "--list", *extra)
        assert result.exit_code == 2
        assert "--list" in one_error_line(result)


def _many_bets(path: Path, count: int) -> Path:
    path.write_text("".join(f'[[bet]]\nname = "b{i}"\n[[bet.pay]]\nwhen = {{ winner = "tie" }}\npays = 8\n'
                            for i in range(count)))
    return path


def test_a_bet_file_holds_a_bounded_number_of_bets(tmp_path):
    with deadline(20):
        result = cli("bets", "--bet-file", str(_many_bets(tmp_path / "many.toml", 1001)))
    assert result.exit_code == 2
    assert "more than the limit of 1,000 bets" in one_error_line(result)
    three = _many_bets(tmp_path / "three.toml", 3)
    assert cli("bets", "--bet-file", str(three)).exit_code == 0
    for result in (cli("bets", "--bet-file", str(three), "--max-bets", "2"),
                   cli("bets", "--bet-file", str(three), env={"PUNTO_BANCO_MAX_BETS": "2"})):
        assert result.exit_code == 2 and "limit of 2 bets" in one_error_line(result)
    assert "PUNTO_BANCO_MAX_BETS" in cli("bets", "--help").output
