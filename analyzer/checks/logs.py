"""Reading hand logs and count files: the one reader shared by verify, conform and the oracle.

The bets a log names are looked up by :func:`analyzer.bets.choice.lookup_bet`, given the bets
from files explicitly (:class:`analyzer.bets.choice.FileBets`).

Everything the checking modules read from outside goes through here, so each thing is read one
way everywhere:

* :func:`show`: a value as an error message quotes it (:func:`analyzer.text.show`).
* :func:`json_loads`: JSON with exact numbers (``Decimal``, bounded integers) and unique keys.
* :data:`WINNER_ALIASES` / :func:`winner_of`: the names of the winner (``b``, ``banco``, ...).
* :func:`whole_number`: whole numbers from text, ASCII digits only (also ``--decks``).
* :func:`exact_amount`: an exact, bounded amount (stakes, settled amounts).
* :func:`open_log`, :func:`text_lines`: the lines of a UTF-8 text file, streamed, each at most
  :data:`MAX_LINE_CHARS` characters, the byte order mark dropped, bad bytes named by line.
* :func:`csv_rows`, :func:`jsonl_objects`: records with the line each starts on.
* :func:`read_bounded`: a whole small file (observed counts), at most :data:`MAX_FILE_BYTES`.

Bounds keep memory flat whatever the input: ``/dev/zero``, a link to it or a file of one
multi-gigabyte line stops with one error naming the file and the limit, never a MemoryError.
Every error is raised as the caller's class (:class:`~analyzer.errors.LogError` for hand logs,
:class:`~analyzer.errors.ObservedError` for counts), so messages keep the caller's vocabulary.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from fractions import Fraction
from os import PathLike
from typing import TextIO

from analyzer.core.coup import Winner
from analyzer.core.exact import MAX_NUMBER_CHARS, parse_exact, whole_number
from analyzer.errors import AnalyzerError
from analyzer.limits import MAX_FILE_BYTES, MAX_FILE_ENV, MAX_LINE_CHARS, MAX_LINE_ENV
from analyzer.text import show

ErrorClass = type[AnalyzerError]


# -- JSON ---------------------------------------------------------------------------------------------


def json_int(text: str) -> int | Decimal:
    """A JSON integer: ``int`` when short, else ``Decimal`` (no 4300-digit conversion error; the
    field's own check then rejects it, naming the field)."""
    return int(text) if len(text) <= MAX_NUMBER_CHARS else Decimal(text)


def _too_deep_line(text: str, limit: int = 200) -> int:
    """The line on which JSON ``text`` first nests deeper than ``limit`` (1 if never)."""
    depth = 0
    line = 1
    in_string = escaped = False
    for ch in text:
        if ch == "\n":
            line += 1
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line
        elif ch in "]}":
            depth -= 1
    return 1


def json_loads(text: str, error: ErrorClass, line: int | None = None, shape: str = "") -> object:
    """``json.loads`` with exact numbers (``Decimal`` for decimals, :func:`json_int` for
    integers) and unique keys: a key given twice in one object is an error (``json`` would keep
    the last one silently).

    ``line`` is the line ``text`` is on (one JSON Lines record), or ``None`` for a whole
    document (errors then name the line inside it); ``shape`` says what the JSON should look
    like, for the message on deep nesting.

    Raises:
        error: not JSON, a repeated key, or nested too deeply; the message starts with the line.
    """
    where = f"line {line}: " if line is not None else ""

    def unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
        out: dict[str, object] = {}
        for key, value in pairs:
            if key in out:
                raise error(
                    f"{where}the key {show(key)} is given twice in one JSON object: give each key once"
                )
            out[key] = value
        return out

    try:
        return json.loads(text, parse_float=Decimal, parse_int=json_int, object_pairs_hook=unique)
    except AnalyzerError:
        raise
    except json.JSONDecodeError as exc:
        if line is not None:
            raise error(f"line {line}: not JSON: {exc.msg} (column {exc.colno})") from None
        raise error(f"line {exc.lineno}: not JSON: {exc.msg}") from None
    except RecursionError:
        at = line if line is not None else _too_deep_line(text)
        raise error(f"line {at}: JSON nested too deeply" + (f": {shape}" if shape else "")) from None
    except ValueError as exc:  # e.g. a number Decimal cannot read
        raise error(f"{where}not JSON: {exc}") from None


# -- names and numbers --------------------------------------------------------------------------------

#: Every name of the winner a log or a count may use (case-insensitive, spaces trimmed).
WINNER_ALIASES: dict[str, Winner] = {
    "player": Winner.PLAYER,
    "p": Winner.PLAYER,
    "punto": Winner.PLAYER,
    "banker": Winner.BANKER,
    "b": Winner.BANKER,
    "banco": Winner.BANKER,
    "tie": Winner.TIE,
    "t": Winner.TIE,
    "egalite": Winner.TIE,
    "égalité": Winner.TIE,
    "standoff": Winner.TIE,
}


def winner_of(value: object) -> Winner | None:
    """The :class:`~analyzer.core.coup.Winner` named by ``value`` (a ``Winner``, or one of
    :data:`WINNER_ALIASES`), or ``None`` when it names none.

    >>> winner_of(" Banco "), winner_of("x")
    (<Winner.BANKER: 'banker'>, None)
    """
    if isinstance(value, Winner):
        return value
    return WINNER_ALIASES.get(value.strip().lower()) if isinstance(value, str) else None


def exact_amount(value: object, what: str, error: ErrorClass = AnalyzerError, where: str = "") -> Fraction:
    """An exact amount from an int, a ``Fraction``, a JSON ``Decimal`` or decimal text
    (``"9.5"``, ``"19/2"``), bounded as :func:`~analyzer.core.exact.parse_exact` bounds text
    (at most 80 digits).  ``where`` prefixes the message (e.g. ``"line 12: "``).

    Raises:
        error: not such a number (a float, a bool, infinity, text that is not a number, too
            many digits); the message names ``what``.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int | Fraction | Decimal | str)
        or (isinstance(value, Decimal) and not value.is_finite())
    ):
        raise error(f"{where}bad {what} {show(value)}: use a number such as 10, 9.5 or 19/2")
    if (
        isinstance(value, int | Fraction)
        and max(abs(value.numerator), value.denominator).bit_length() > 4 * MAX_NUMBER_CHARS
    ):
        raise error(f"{where}bad {what} {show(value)}: at most {MAX_NUMBER_CHARS} digits")
    try:
        return parse_exact(value, what)
    except AnalyzerError as exc:
        raise error(f"{where}{exc}") from None


# -- lines and records ------------------------------------------------------------------------------


def open_log(path: str | PathLike[str]) -> TextIO:
    """Open a hand log (or counts file) for reading: UTF-8, a byte order mark dropped, newlines
    as the csv module wants.  Bytes that are not UTF-8 are kept as lone surrogates
    (``surrogateescape``), so that :func:`text_lines` can name the line they are on.

    Raises:
        OSError: the file cannot be opened.
    """
    return open(path, encoding="utf-8-sig", errors="surrogateescape", newline="")


def stream_name(stream: object) -> str:
    """How messages name a stream: its file name, ``standard input``, else ``the log``."""
    name = getattr(stream, "name", None)
    if name in (0, "<stdin>"):
        return "standard input"
    return str(name) if isinstance(name, str) and name else "the log"


def text_lines(
    stream: Iterable[str],
    error: ErrorClass,
    *,
    name: str | None = None,
    max_line: int = MAX_LINE_CHARS,
    progress: Callable[[int], None] | None = None,
) -> Iterator[str]:
    """The lines of ``stream`` (a text file, or any iterable of text lines), streamed and
    checked: at most ``max_line`` characters each (line ending not counted; a file object is
    read at most ``max_line + 2`` characters at a time, so one endless line costs no more), a
    UTF-8 byte order mark dropped from the first, text only, UTF-8 only.

    ``progress``, if given, is called now and then with the characters read since its last
    call.  ``name`` (default: the stream's file name) is how errors name the file.

    Raises:
        error: a line longer than ``max_line`` (the message names the file and the limit), a
            line that is not text or not UTF-8 (naming the line and column).
    """
    label = name if name is not None else stream_name(stream)
    readline = getattr(stream, "readline", None)
    source: Iterator[str] = iter(lambda: readline(max_line + 2), "") if callable(readline) else iter(stream)
    pending = 0
    number = 0
    while True:
        try:
            line = next(source)
        except StopIteration:
            break
        except UnicodeDecodeError as exc:
            raise error(
                f"line {number + 1}: not UTF-8 text ({exc.reason}): a hand log is a UTF-8 "
                "CSV or JSON Lines file"
            ) from None
        number += 1
        if not isinstance(line, str):
            raise error(
                f"line {number}: got {type(line).__name__}, not text: open the log in text "
                "mode (analyzer.checks.logs.open_log) or give lines of text"
            )
        if len(line) > max_line and len(line.rstrip("\r\n")) > max_line:
            raise error(
                f"{label}: line {number} is longer than the limit of {max_line:,} characters "
                f"(--max-line-length or {MAX_LINE_ENV} raise it)"
            )
        if number == 1 and line.startswith("\ufeff"):  # a UTF-8 byte order mark (Excel's "CSV UTF-8")
            line = line[1:]
        if not line.isascii():
            try:
                line.encode("utf-8")
            except UnicodeEncodeError as exc:  # a byte open_log could not decode (surrogateescape)
                code = ord(line[exc.start])
                what = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else "a character"
                raise error(
                    f"line {number}: not UTF-8 text ({what} at column {exc.start + 1}): a hand "
                    "log is a UTF-8 CSV or JSON Lines file"
                ) from None
        if progress is not None:
            pending += len(line)
            if number % 4096 == 0:
                progress(pending)
                pending = 0
        yield line
    if progress is not None:
        progress(pending)


def csv_rows(lines: Iterable[str], error: ErrorClass) -> Iterator[tuple[int, list[str]]]:
    """CSV rows as ``(line, fields)``, ``line`` being the line the row starts on (a quoted
    field may span lines); blank lines come as empty rows, for the caller to skip.

    Raises:
        error: malformed CSV (e.g. a field over the csv module's size limit), naming the line.
    """
    reader = csv.reader(lines)
    last = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise error(f"line {last + 1}: {exc}") from None
        yield last + 1, row
        last = reader.line_num


def jsonl_objects(lines: Iterable[str], error: ErrorClass) -> Iterator[tuple[int, dict[str, object]]]:
    """JSON Lines records as ``(line, object)``, blank lines skipped (:func:`json_loads`).

    Raises:
        error: a line that is not JSON or not a JSON object, naming the line.
    """
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        obj = json_loads(text, error, number, "a record is a flat JSON object")
        if not isinstance(obj, dict):
            raise error(f"line {number}: each line must be a JSON object, got {type(obj).__name__}")
        yield number, obj


def read_bounded(path: str | PathLike[str], error: ErrorClass, *, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The whole of a small UTF-8 text file (a byte order mark dropped), at most ``max_bytes``
    bytes: ``/dev/zero`` or a huge file stops at the limit instead of filling memory.

    Raises:
        error: the file is larger than ``max_bytes`` (naming the file and the limit) or is not
            UTF-8; OSError: it cannot be read.
    """
    with open(path, "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise error(
            f"{path}: larger than the limit of {max_bytes:,} bytes "
            f"(--max-file-size or {MAX_FILE_ENV} raise it)"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start})") from None


__all__ = [
    "MAX_FILE_BYTES",
    "MAX_FILE_ENV",
    "MAX_LINE_CHARS",
    "MAX_LINE_ENV",
    "WINNER_ALIASES",
    "csv_rows",
    "exact_amount",
    "json_int",
    "json_loads",
    "jsonl_objects",
    "open_log",
    "read_bounded",
    "show",
    "stream_name",
    "text_lines",
    "whole_number",
    "winner_of",
]
