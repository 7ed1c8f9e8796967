"""Exit codes (analyzer/cli/common.py, analyzer/cli/process.py; signals are test_process.py's):
a finding is 1; bad input and output that cannot be written are exit code 2 with one line, never
70; an internal error is 70 in one line (the traceback with --debug), an interrupt 130; a pipe
closed by its reader is 141, quietly, however large the write; ``--help`` documents them.  Each
test here failed before its fix.
"""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import one_error_line, run_process

from analyzer.cli.process import write_all
from analyzer.core.tableau import STANDARD

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HUGE = "9" * 5000  # more digits than Python's int() converts from text (4,300)


def one_line(result) -> str:
    """As :func:`clirun.one_error_line`, and the line is not an internal error."""
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output[-2000:]
    assert "Traceback" not in result.output and "internal error" not in result.output
    return lines[0]


def command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from analyzer.cli import main; main()", *args]


# -- a pipe closed by its reader -----------------------------------------------------------------

#: A JSON document of about 780 kB (a pipe holds 64 kB): written in one call.
LARGE = ("analyze", "--decks", "1-40", "--table", "all", "--format", "json")


def _read_a_little_then_close(args: tuple[str, ...]) -> tuple[int, bytes, bytes]:
    proc = subprocess.Popen(command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    head = os.read(proc.stdout.fileno(), 10)  # as `| head -c 10`
    proc.stdout.close()
    err = proc.stderr.read()
    return proc.wait(timeout=120), head, err


@pytest.mark.parametrize("extra", [(), ("-o", "/dev/stdout")])
def test_a_large_write_into_a_pipe_the_reader_closed_is_exit_code_141(extra):
    code, head, err = _read_a_little_then_close((*LARGE, *extra))
    assert head.startswith(b"{") and (code, err) == (141, b"")


def test_a_fifo_named_by_o_whose_reader_left_is_exit_code_141(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(command(*LARGE, "-o", str(fifo)), stderr=subprocess.PIPE, cwd=ROOT)
    fd = os.open(fifo, os.O_RDONLY)  # waits for the writer
    head = os.read(fd, 10)
    os.close(fd)
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert head.startswith(b"{") and (proc.wait(timeout=120), err) == (141, b"")
    assert stat.S_ISFIFO(fifo.stat().st_mode)


class _ShortWrites(io.RawIOBase):
    """A pipe that takes at most ``chunk`` bytes a call, then goes away after ``room`` bytes."""

    def __init__(self, chunk: int, room: int) -> None:
        self.chunk, self.room, self.data = chunk, room, bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:  # type: ignore[override]
        if len(self.data) >= self.room:
            raise BrokenPipeError(32, "Broken pipe")
        taken = bytes(b[: min(self.chunk, self.room - len(self.data))])
        self.data += taken
        return len(taken)


class _TakesPart:
    """A binary buffer whose write takes only part of what it is given, as BufferedWriter does
    when the raw pipe takes part of a large write (and TextIOWrapper then drops the rest)."""

    def __init__(self, raw: _ShortWrites) -> None:
        self.raw = raw

    def write(self, b) -> int:
        return self.raw.write(b)

    def flush(self) -> None:
        return None


class _Stream:
    encoding, errors = "utf-8", "strict"

    def __init__(self, raw: _ShortWrites) -> None:
        self.buffer = _TakesPart(raw)

    def flush(self) -> None:
        return None


def test_write_all_writes_every_byte_of_a_short_write():
    raw = _ShortWrites(chunk=7, room=10_000)
    write_all(_Stream(raw), "é" * 1000)  # type: ignore[arg-type]
    assert raw.data.decode() == "é" * 1000


def test_write_all_raises_when_the_reader_goes_away_mid_write():
    raw = _ShortWrites(chunk=65_536, room=65_536)
    with pytest.raises(BrokenPipeError):
        write_all(_Stream(raw), "x" * 100_000)  # type: ignore[arg-type]
    assert len(raw.data) == 65_536


# -- standard output on a full disk ------------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize(
    "args",
    [("--help",), ("--version",),
     ("analyze", "--help"), ("rules",), ("analyze",), ("deal", "8", "9", "K", "Q")],
)
def test_standard_output_on_a_full_disk_is_exit_code_2(args):
    with open("/dev/full", "w") as full:
        done = subprocess.run(command(*args), stdout=full, stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err.splitlines() == ["Error: cannot write standard output: No space left on device"]


# -- numbers beyond any bound ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--max-line-length", "99999999999999999999999"), "not in the range 1<=x<=1000000000"),
        (("--max-line-length", "9" * 200), "(200 digits) is too large: give at most 1,000,000,000"),
        (("--max-line-length", "1000000001"), "not in the range"),
    ],
)
def test_a_limit_beyond_any_size_is_a_usage_error(cli, args, words):
    result = cli("verify", str(ROOT / "examples" / "hands.csv"), *args)
    assert result.exit_code == 2 and words in one_line(result)


@pytest.mark.parametrize(
    ("command_args", "variable"),
    [
        (("verify", "examples/hands.csv"), "PUNTO_BANCO_MAX_LINE_LENGTH"),
        (("conform", "examples/observed.json"), "PUNTO_BANCO_MAX_FILE_SIZE"),
    ],
)
def test_a_limit_beyond_any_size_from_the_environment_is_a_usage_error(cli, command_args, variable):
    args = (str(ROOT / command_args[1]),)
    result = cli(command_args[0], *args, env={variable: "99999999999999999999"})
    line = one_line(result)
    assert result.exit_code == 2 and variable in line and "not in the range" in line


def test_the_library_refuses_such_limits_too(tmp_path):
    from analyzer.checks.conform import read_observed
    from analyzer.checks.handlog import read_records
    from analyzer.errors import LogError, ObservedError

    with pytest.raises(LogError, match="from 1 to 1,000,000,000"):
        list(read_records(["cards\n"], "csv", max_line=10**20))
    with pytest.raises(ObservedError, match="from 1 to 1,000,000,000"):
        read_observed(ROOT / "examples" / "observed.json", max_bytes=10**20)


STUDY = ("study", "--bet", "tie", "--shoes", "2", "--table", "results")
COUNT = ("--strategy", "count", "--tags", "0,1,1,1,1,1,1,1,1,1")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((*COUNT, "--bet-when", "rc>=99999999999999999999999999"), "beyond the 64-bit integers"),
        ((*COUNT, "--bet-when", "tc>=1/99999999999999999999"), "beyond the 64-bit integers"),
        ((*COUNT, "--bet-when", "tc>=" + "9" * 90), "at most 80 characters"),
        ((*COUNT[:3], "0,1,1,1,1,1,1,1,1," + "9" * 26, "--bet-when", "rc>=1"), "beyond the 64"),
        ((*COUNT[:3], "0,1,1,1,1,1,1,1,1," + "9" * 100, "--bet-when", "rc>=1"), "at most 80 digits each"),
        ((*COUNT[:3], "0,1,1,1,1,1,1,1,1,\u0663", "--bet-when", "rc>=1"), "give whole numbers"),
        ((*COUNT, "--bet-when", "rc>=1", "--initial-count", "99999999999999999999"), "beyond the 64"),
        ((*COUNT, "--bet-when", "rc>=1", "--initial-count", "-99999999999999999999"), "beyond the 64"),
        ((*COUNT, "--bet-when", "rc>=1", "--initial-count", "1_0"), "not a whole number"),
        (("--min-edge", "1e400"), "exponent at most 30"),
        (("--min-edge", "1e-400"), "exponent at most 30"),
        (("--min-edge", "1/0"), "bad minimum edge"),
    ],
)
def test_the_study_s_count_and_edge_numbers_are_bounded(cli, args, words):
    result = cli(*STUDY, *args)
    assert result.exit_code == 2, result.output
    assert words in one_line(result)


def test_the_study_still_takes_a_negative_initial_count_and_a_percentage(cli):
    result = cli(*STUDY, *COUNT, "--bet-when", "tc>=7/2", "--initial-count", "-4", "--strategy", "perfect",
                 "--min-edge", "1%")
    assert result.exit_code == 0, result.output


def test_the_study_api_refuses_a_huge_tag_without_converting_it_to_text():
    from analyzer.errors import StudyError
    from analyzer.studies.study import make_spec

    with pytest.raises(StudyError, match="whole numbers"):
        make_spec(["tie"], strategies=["count"], tags=[10**5000, *[0] * 9], bet_when="rc>=1")


def _bet_file(tmp_path: Path, pays: str, when: str = '{ winner = "tie" }') -> Path:
    path = tmp_path / "big.toml"
    path.write_text(
        f'[[bet]]\nname = "big"\ntitle = "Big"\n[[bet.pay]]\nevent = "x"\nwhen = {when}\npays = {pays}\n'
    )
    return path


@pytest.mark.parametrize("number", [HUGE, "_".join(HUGE[i : i + 3] for i in range(0, 5000, 3))])
def test_a_bet_file_integer_of_more_than_4300_digits_is_bad_input(cli, tmp_path, number):
    path = _bet_file(tmp_path, number)
    result = cli("bets", "--bet-file", str(path))
    line = one_line(result)
    assert result.exit_code == 2
    assert line == (
        f"Error: {path}: line 7: a number of more than 4,300 digits; "
        "numbers in a bet file have at most 80 digits"
    )
    assert "set_int_max_str_digits" not in line


def test_a_rules_file_integer_of_more_than_4300_digits_is_bad_input(cli, tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text(STANDARD.to_toml().replace("naturals = [8, 9]", f"naturals = [8, {HUGE}]"))
    deal = ("deal", "--rules", str(path), "8", "9", "K", "K")
    for args in (("rules", str(path)), ("analyze", "--rules", str(path)), deal):
        result = cli(*args)
        line = one_line(result)
        assert result.exit_code == 2 and "a number of more than 4,300 digits" in line and "rules file" in line


# -- found by the attack of this round ---------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("analyze", "--decks", HUGE),
        ("analyze", "--shoe", f"8={HUGE}"),
        ("conform", str(ROOT / "examples" / "observed.json"), "--effect", HUGE),
        ("study", "--bet", "tie", "--seed", HUGE),
    ],
)
def test_an_error_line_quoting_a_huge_number_stays_short(cli, args):
    result = cli(*args)
    line = one_line(result)
    assert result.exit_code == 2 and len(line) < 400, len(line)
    assert "...9999" in line and "characters)" in line


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_a_report_streamed_into_a_full_disk_says_standard_output(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"cards": "2 K 3 3 9"}\n' * 3000)  # a discrepancy a line: more than a buffer
    with open("/dev/full", "w") as full:
        done = subprocess.run(command("verify", str(log)), stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert done.returncode == 2
    expected = "Error: cannot write standard output: No space left on device"
    assert done.stderr.decode().splitlines() == [expected]


@pytest.mark.parametrize("number", ["0x" + "f" * 5000, "0o" + "7" * 5000, "0b" + "1" * 20000])
def test_a_huge_hex_octal_or_binary_integer_is_bad_input_too(cli, tmp_path, number):
    # tomllib converts these without Python's digit limit; the error message then failed to
    # turn the number into text (ValueError, exit 70)
    path = _bet_file(tmp_path, "8", when=f'{{ winner = "tie", banker_total = {number} }}')
    result = cli("bets", "--bet-file", str(path))
    line = one_line(result)
    assert result.exit_code == 2
    assert "bet[1].pay[1].when.banker_total: a number of about" in line and "at most 80 digits" in line
    rules = tmp_path / "rules.toml"
    rules.write_text(STANDARD.to_toml().replace("naturals = [8, 9]", f"naturals = [8, {number}]"))
    result = cli("rules", str(rules))
    assert result.exit_code == 2 and "naturals[2]: a number of about" in one_line(result)


def test_a_bad_limit_is_a_usage_error(cli):
    for value in ("0", "-5", "lots", "１０"):
        result = cli("verify", str(EXAMPLES / "hands.csv"), "--max-line-length", value)
        assert result.exit_code == 2, value
        one_error_line(result)


def test_an_internal_error_is_one_line_and_exit_code_70(cli, monkeypatch):
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


def test_an_interrupt_is_exit_code_130(cli, monkeypatch):
    import analyzer.engine.pricing

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(analyzer.engine.pricing, "analyze", interrupted)
    result = cli("analyze")
    assert result.exit_code == 130 and one_error_line(result) == "interrupted"


#: ``python -m analyzer`` held inside the import of the command line (a finder that says
#: "loading" and waits for a signal), so that the test's SIGINT lands in an import, before the
#: command line handles signals itself.
_HELD_IN_AN_IMPORT = (
    "import importlib.abc, runpy, signal, sys\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "class Hold(importlib.abc.MetaPathFinder):\n"
    "    def find_spec(self, name, path, target=None):\n"
    "        if name == 'analyzer.cli':\n"
    "            sys.stdout.write('loading\\n')\n"
    "            sys.stdout.flush()\n"
    "            signal.pause()\n"
    "        return None\n"
    "sys.meta_path.insert(0, Hold())\n"
    "sys.argv[0] = 'punto-banco'\n"
    "runpy.run_module('analyzer', run_name='__main__', alter_sys=True)\n"
)


@pytest.mark.skipif(not hasattr(__import__("signal"), "pause"), reason="signal.pause is POSIX")
def test_an_interrupt_while_the_command_line_loads_is_one_line_and_130():
    import signal

    child = subprocess.Popen([sys.executable, "-c", _HELD_IN_AN_IMPORT, "analyze"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    assert child.stdout.readline() == b"loading\n"  # the child is inside the import
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, err) == (130, b"interrupted\n")
    assert out == b""


def test_the_entry_point_exit_code_is_the_command_lines():
    import analyzer.__main__
    from analyzer.cli.process import EXIT_INTERRUPTED

    assert analyzer.__main__.EXIT_INTERRUPTED == EXIT_INTERRUPTED


def test_findings_and_bad_input_keep_their_codes(cli):
    assert cli("verify", str(EXAMPLES / "hands.jsonl")).exit_code == 0
    assert cli("verify", str(EXAMPLES / "hands.csv")).exit_code == 1
    assert cli("verify", str(EXAMPLES / "broken-hands.csv")).exit_code == 2
    assert cli("analyze", "--decks", "0").exit_code == 2
    assert cli("no-such-command").exit_code == 2


def test_the_program_alone_prints_its_help_as_lines_and_exit_code_2():
    # before the fix: one "Error: Usage: ..." line with literal \\n between its parts
    done = subprocess.run(command(), capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0].startswith("Usage: ") and "\\n" not in done.stderr
    assert any(line.split()[:1] == ["analyze"] for line in lines)  # the commands, one a line
    assert "Error" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize("args", [("analyze",), ("verify", str(EXAMPLES / "hands.csv"))])
def test_o_dash_is_standard_output_not_a_file_called_dash(tmp_path, args):
    def run(*more: str) -> subprocess.CompletedProcess[str]:
        argv = command(*args, *more)
        return subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, timeout=120)

    done, alone = run("-o", "-"), run()
    assert done.returncode == alone.returncode
    assert done.stdout.split("\n")[2:] == alone.stdout.split("\n")[2:]  # all but the command line
    assert "Banker" in done.stdout or "discrepanc" in done.stdout
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("args", [("vectors", "-o"), ("tables", "--out"), ("tables", "--shipped")])
def test_a_folder_option_refuses_dash_with_one_line(cli, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    result = cli(*args, "-")
    assert result.exit_code == 2
    assert "standard output" in one_error_line(result)
    assert list(tmp_path.iterdir()) == []  # no folder called -, no tables written


@pytest.mark.parametrize("out, shipped", [("both", "./both"), ("x/sub", "x"), ("x", "x/sub/")])
def test_tables_refuses_one_folder_for_results_and_shipped_tables_before_building(
    cli, tmp_path, monkeypatch, out, shipped
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("analyzer.output.results.generate", lambda: pytest.fail("built before refusing"))
    result = cli("tables", "--out", out, "--shipped", shipped)
    assert result.exit_code == 2
    assert "one folder or one inside the other" in one_error_line(result)
    assert list(tmp_path.iterdir()) == []


def test_the_exit_codes_are_documented_in_help(cli):
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



# -- a standard stream the parent closed (``>&-``) -----------------------------------------------


def _with_closed(stream: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command run by a shell with standard output (``">&-"``) or error (``"2>&-"``) closed."""
    return subprocess.run(
        ["sh", "-c", f'exec "$@" {stream}', "sh", *command(*args)],
        cwd=cwd, capture_output=True, text=True, check=False,
    )


def test_a_closed_standard_output_is_a_closed_pipe_and_a_file_output_still_succeeds(tmp_path):
    # both were internal errors (70): Python sets a closed stream to None
    printed = _with_closed(">&-", "analyze", cwd=tmp_path)
    assert (printed.returncode, printed.stderr) == (141, "")
    written = _with_closed(">&-", "analyze", "-o", "out.txt", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert "Banker (5% commission)" in (tmp_path / "out.txt").read_text()


def test_a_closed_standard_error_keeps_the_exit_code_of_bad_input(tmp_path):
    done = _with_closed("2>&-", "bets", "--bet", "no-such-bet", cwd=tmp_path)
    assert done.returncode == 2  # was 1: writing the error line failed
