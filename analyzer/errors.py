"""The exception hierarchy: one root under ``ValueError``, one subclass per kind of bad input.

Every error message names the offending value and says what is allowed, so the CLI can print it
as a one-line message (exit code 2) and library callers can catch ``AnalyzerError``.
"""

from __future__ import annotations


class AnalyzerError(ValueError):
    """Root of every error the analyser raises on bad input."""


class CardError(AnalyzerError):
    """A card token that cannot be parsed (e.g. ``"1"``, ``"Z"``, ``"Kx"``)."""


class ShoeError(AnalyzerError):
    """An impossible shoe: negative or non-integer counts, too few cards, removal of absent cards."""


class CoupError(AnalyzerError):
    """A card sequence that cannot be resolved into a coup (e.g. too few cards for the tableau)."""


class BetError(AnalyzerError):
    """An unknown bet name, a bad bet parameter or a malformed bet definition."""


class RulesError(AnalyzerError):
    """A rule set that cannot be used: an unknown name, a malformed TOML rules file, or a
    tableau with totals outside 0-9 (raised in :mod:`analyzer.core.tableau`)."""


class UndeclaredReadError(BetError):
    """A bet read a part of the coup it did not declare it reads (raised by the coup record,
    :mod:`analyzer.core.coup`): pricing it from a table refined only as far as its declared
    reads would be wrong, so the read is refused instead of guessed."""


class StudyError(AnalyzerError):
    """A shoe-walk study that cannot be run as asked: bad dealing settings, strategy, count tags
    or trigger, a bet the study cannot price that way, or an unreachable cluster (raised in
    :mod:`analyzer.studies.study` and :mod:`analyzer.studies.dealing`)."""
