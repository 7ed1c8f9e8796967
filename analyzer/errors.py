"""The exception tree: one root under ``ValueError``, one subclass per kind of bad input.

Every error message names the offending value and says what is allowed, so the CLI can print it
as one line (exit code 2) and library callers can catch :class:`AnalyzerError`.  Every library
exception class lives here; the modules that raise them re-export the ones callers import from
there (``analyzer.checks.verify.LogError`` is :class:`LogError`).

::

    AnalyzerError (ValueError)
    ├── CardError, ShoeError, CoupError, BetError
    │   └── CompileBudgetError (BetError)   a bet's table beyond the compile budget
    ├── InputError
    │   ├── LogError          hand logs (verify, conform's tally, the shared log reader)
    │   ├── ObservedError     observed counts (conform)
    │   └── ShoeFileError     files of shoes, one a row (batch)
    ├── OracleError           bad arguments to analyzer.testing
    │   └── OracleTypeError   (also a TypeError)
    ├── SymbolicError         bad arguments to the closed forms
    │   ├── SymbolicTypeError (also a TypeError)
    │   └── SymbolicArithmeticError (also an ArithmeticError)
    │       └── SymbolicZeroDivisionError (also a ZeroDivisionError)
    ├── PeekError             peek: what is seen, the classes, the bets
    ├── PlotUnavailableError  eor --plot
    ├── OutputError           output files and folders
    ├── FormatError           output formats and digits
    ├── WorkLimitError        a web request asking more work than the server's limits
    ├── MutantError           an unknown engine mutant, a bad mutant log request
    ├── ProbeError            a probe that cannot start its engine, or bad probe options
    ├── KernelError           PUNTO_BANCO_KERNEL set to a bad value, or to on without the kernel
    └── EngineFaultError           an engine that misbehaves under the probe (a finding)
"""

from __future__ import annotations


class AnalyzerError(ValueError):
    """Root of every error the analyser raises on bad input.

    Raised by: nothing directly; catch it to catch every error below.
    """


class CardError(AnalyzerError):
    """A card token that cannot be parsed (e.g. ``"1"``, ``"Z"``, ``"Kx"``).

    Raised by: :func:`analyzer.core.cards.parse_card` / ``parse_cards`` and everything that
    reads cards through them (``Shoe.parse``, ``Shoe.remove``, ``resolve``, the oracle).
    """


class ShoeError(AnalyzerError):
    """An impossible shoe: negative or non-integer counts, too few cards, removal of absent cards.

    Raised by: :class:`analyzer.core.shoe.Shoe` (its constructors, ``parse`` and ``remove``),
    :class:`analyzer.checks.verify.Verifier` (a shoe that is not a ``Shoe``) and
    :func:`analyzer.studies.eor.effects_of_removal` (a shoe too small for a removal).
    """


class CoupError(AnalyzerError):
    """A card sequence that cannot be resolved into a coup (e.g. too few cards for the tableau).

    Raised by: :func:`analyzer.core.coup.resolve` and :func:`analyzer.testing.assert_coup`.
    """


class BetError(AnalyzerError):
    """An unknown bet name, a bad bet parameter or a malformed bet definition.

    Raised by: :func:`analyzer.bets.catalogue.find_bet`, :func:`analyzer.bets.files.load_bets`
    (including a file with more bets than its limit), :mod:`analyzer.bets.choice` (a missing
    bet file, a ``FILE:NAME`` whose file holds no such bet, a file bet on a catalogue name, a
    bet chosen twice, ``FileBets.of``, ``lookup_bet``), :class:`analyzer.bets.model.Bet`, the
    pricing functions of :mod:`analyzer.engine.pricing`, and the reports built on them.
    """


class CompileBudgetError(BetError):
    """A bet whose compiled table would cost more than the compile budget allows: more records
    to settle than ``PUNTO_BANCO_MAX_RECORDS`` (the message names the bet and the budget).

    Raised by: :mod:`analyzer.engine.explore` (through :func:`analyzer.engine.lookup.bet_table`
    and everything that prices a bet).
    """


class InputError(AnalyzerError):
    """An input file that cannot be read as what it should be (root of the two below).

    Raised by: nothing directly; see :class:`LogError` and :class:`ObservedError`.
    """


class LogError(InputError):
    """A hand log that cannot be read: bad syntax, a bad card, a bad number, an unknown bet, a
    line longer than the reader's limit.

    The message starts with the line number (``line 12: ...``) when the error is in a record,
    and names the file and the limit when a bound is exceeded.

    Raised by: :mod:`analyzer.checks.verify` (``read_records``, ``Verifier``, ``verify_file``),
    :func:`analyzer.checks.conform.tally_log` and the shared reader
    :mod:`analyzer.checks.logs`.
    """


class LogMapError(LogError):
    """A map of a foreign hand log (``--map FILE.toml``) that cannot be used: not TOML, an
    unknown key, a column mapped to no field of the hand-log format, two columns mapped to one
    field, a spelling mapped to no value.  The message names the map file and the key.

    Raised by: :mod:`analyzer.checks.logmap` (``load_map``, ``parse_map``).
    """


class ObservedError(InputError):
    """Observed counts that cannot be read or do not fit the families (the message names the
    value), or a counts file larger than its limit.

    Raised by: :mod:`analyzer.checks.conform` (``read_observed``, ``read_counts_json``,
    ``read_counts_csv``, ``conform``, ``parse_alpha``); :mod:`analyzer.checks.power` (a bad
    level, power or effect size); :mod:`analyzer.checks.compare` (bad or repeated tableaux).
    """


class ShoeFileError(InputError):
    """A file of shoes that cannot be read: a row that is not 13 rank counts or 52 suited counts
    (or not the same number as the rows before it), a count that is not a whole number >= 0, a
    shoe under 4 cards, a header that does not name the columns, bad JSON, a line longer than
    the reader's limit.  The message names the row and the line it is on.

    Raised by: :mod:`analyzer.studies.batch_run` (``read_chunks``).
    """


class OracleError(AnalyzerError):
    """A bad argument to the oracle (not a broken rule: that is an ``AssertionError``).

    Raised by: :mod:`analyzer.testing` (``assert_coup``, ``assert_payout``, the strategies).
    """


class OracleTypeError(OracleError, TypeError):
    """An argument of the wrong type (also a ``TypeError``, for callers that catch that).

    Raised by: :mod:`analyzer.testing`, as :class:`OracleError`.
    """


class SymbolicError(AnalyzerError):
    """A bad argument to the symbolic API: a number too large or not exact, an empty list, an
    unknown table, quantity or format.

    Raised by: :mod:`analyzer.studies.symbolic`.
    """


class SymbolicTypeError(SymbolicError, TypeError):
    """An argument of the wrong type (also a ``TypeError``, for callers that catch that).

    Raised by: :mod:`analyzer.studies.symbolic`.
    """


class SymbolicArithmeticError(SymbolicError, ArithmeticError):
    """A value that does not exist: no finite limit, values that are not those of an integer
    polynomial (also an ``ArithmeticError``).

    Raised by: :class:`analyzer.studies.symbolic.RationalFunction` and ``interpolate``.
    """


class SymbolicZeroDivisionError(SymbolicArithmeticError, ZeroDivisionError):
    """A division by zero: a rational function evaluated at a pole, a zero denominator (also a
    ``ZeroDivisionError``).

    Raised by: :class:`analyzer.studies.symbolic.RationalFunction`.
    """


class PlotUnavailableError(AnalyzerError):
    """``--plot`` needs matplotlib (``pip install 'punto-banco-analyzer[plot]'``), or the file
    name does not end in .png or .svg.

    Raised by: :func:`analyzer.output.charts.eor_plot` and ``eor_image``.
    """


class OutputError(AnalyzerError):
    """An output path that cannot be written (empty, a folder, a missing parent folder, no
    permission, ...) or that is one of the command's inputs.

    Raised by: :mod:`analyzer.output.files` (``write_files``, ``open_atomic``,
    ``replace_folder``, ``refuse_inputs``).
    """


class FormatError(AnalyzerError):
    """An unknown output format or a bad number of decimals.

    Raised by: :func:`analyzer.output.render.render`.
    """


class RulesError(AnalyzerError):
    """A rule set that cannot be used: an unknown name, a malformed TOML rules file, or a
    tableau with totals outside 0-9.

    Raised by: :mod:`analyzer.core.tableau` (``find_tableau``, ``parse_tableau``,
    ``make_tableau``) and the pricing functions given something that is not a tableau.
    """


class UndeclaredReadError(BetError):
    """A bet read a part of the coup it did not declare it reads: pricing it from a table
    refined only as far as its declared reads would be wrong, so the read is refused instead
    of guessed.

    Raised by: the coup record and its cards (:mod:`analyzer.core.coup`) and the card
    vocabulary (:mod:`analyzer.core.hands`).
    """


class StudyError(AnalyzerError):
    """A shoe-walk study that cannot be run as asked: bad dealing settings, strategy, count tags
    or trigger, a bet the study cannot price that way, or an unreachable cluster.

    Raised by: :mod:`analyzer.studies.study` and :mod:`analyzer.studies.dealing`.
    """


class PeekError(AnalyzerError):
    """A partial-information analysis that cannot be run as asked: an unknown slot seen, bad
    classes, a shoe too small, classes by suit on a shoe without suits, or a bet that reads
    ranks or suits.

    Raised by: :mod:`analyzer.studies.peek`.
    """


class WorkLimitError(AnalyzerError):
    """A request to the web service that asks more work than the server allows: more bets than
    its limit.  (A bet file's table beyond the server's compile budget is a
    :class:`CompileBudgetError`, answered with the same 422.)

    Raised by: :mod:`analyzer.web.budget`.
    """


class MutantError(AnalyzerError):
    """An unknown engine mutant or a bad request to one (e.g. a negative number of coups).

    Raised by: :func:`analyzer.checks.mutants.find_mutant` and
    :func:`analyzer.checks.mutants.deal_log`.
    """


class ProbeError(AnalyzerError):
    """A probe that cannot run: bad options, or an engine command that cannot be started.

    Raised by: :mod:`analyzer.checks.probe`.  (An engine that starts and then misbehaves is a
    finding, not this error.)
    """


class KernelError(AnalyzerError):
    """``PUNTO_BANCO_KERNEL`` set to something other than ``auto``, ``on`` or ``off``, or set
    to ``on`` (the compiled kernel required) where the kernel was not built.

    Raised by: :mod:`analyzer.engine.native`, on the first evaluation that would use it.
    """


class EngineFaultError(AnalyzerError):
    """An engine under the probe misbehaved: an answer that is not a hand-log record, a wrong
    id, no answer within the timeout, an early exit.  A finding about the engine (the probe
    reports it and exits 1), not bad input.

    Raised by: :mod:`analyzer.checks.probe`.
    """


class GameError(AnalyzerError):
    """A chemin de fer game that cannot be set up: an unknown model, decks given to the
    with-replacement model, a bad deck count or commission, a bad room rules file.

    Raised by: :mod:`analyzer.games` (``model``, ``solve``, ``rooms``).
    """
