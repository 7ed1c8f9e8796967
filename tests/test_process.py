"""How a ``punto-banco`` process ends (``analyzer.cli.process``): a signal during a write leaves
no partial file, a second signal lets the cleanup finish and a third ends it, a signal the parent
ignores stays ignored, and a stream that cannot encode a symbol gets an ASCII spelling (exit
codes themselves: test_cli_exit_codes.py)."""

from __future__ import annotations

import signal
import subprocess

import pytest
from clirun import one_error_line, run_process
from deadline import deadline

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


@pytest.mark.parametrize(("encoding", "args", "spelling"), [
    ("latin-1", ("symbolic", "--table", "none", "--quantity", "house-edge"), "f(inf)"),
    ("ascii", ("bets", "--bet", "egalite:5"), "Egalite 5"),
])
def test_a_stream_that_cannot_encode_a_symbol_gets_an_ascii_spelling(encoding, args, spelling):
    proc = run_process(*args, env={"PYTHONIOENCODING": encoding})
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, b"")
    assert spelling in out.decode(encoding)


@pytest.mark.parametrize(("signum", "code", "line"), [(signal.SIGINT, 130, "interrupted"),
                                                     (signal.SIGTERM, 143, "ended by SIGTERM")])
def test_a_signal_a_library_masks_as_its_own_error_keeps_its_exit_code(cli, monkeypatch, default_signals,
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
