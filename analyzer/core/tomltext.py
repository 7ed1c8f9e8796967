"""TOML text to a document for the files the analyser reads (rules files, bet files): every way
the text can be bad is one error of the caller's kind, naming the file.

``tomllib`` converts each decimal integer with ``int()``, which refuses more than 4,300 digits
(Python's guard against quadratic conversion) with a ``ValueError`` that is not a
``TOMLDecodeError``, and whose message speaks of ``sys.set_int_max_str_digits()``.  Such a
number is bad input like any other: :func:`load_toml` names its line and the analyser's own
bound on numbers (:data:`~analyzer.core.exact.MAX_NUMBER_CHARS` digits), which the readers
check on every number they take from the document.

This module imports only the standard library and :mod:`analyzer.core.exact`.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from analyzer.core.exact import MAX_NUMBER_CHARS
from analyzer.errors import AnalyzerError

#: Python's limit on the digits of a decimal integer converted from text (``int()``).
INT_DIGITS_LIMIT = 4300
#: A run of more decimal digits (TOML allows one ``_`` between digits) than ``int()`` converts,
#: anchored at the start of the run so the search stays linear.
_LONG_NUMBER = re.compile(r"(?<![0-9_])[0-9](?:_?[0-9]){" + str(INT_DIGITS_LIMIT) + ",}")


def load_toml(text: str, where: str, error: type[AnalyzerError], kind: str) -> dict[str, Any]:
    """The document of TOML ``text`` (a leading byte order mark dropped).  ``where`` names the
    file in messages; ``kind`` says what it should be (``"rules file"``, ``"bet file"``).

    Raises:
        error: not TOML (tomllib's message, with line and column), nested too deeply, or an
            integer of more than 4,300 digits (naming its line).

    >>> load_toml('naturals = [8, 9]', "rules.toml", AnalyzerError, "rules file")
    {'naturals': [8, 9]}
    """
    try:
        doc = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise error(f"{where}: nested too deeply to be a {kind}") from None
    except ValueError:  # int() refused a decimal integer of more than 4,300 digits
        found = _LONG_NUMBER.search(text)
        line = f"line {text.count(chr(10), 0, found.start()) + 1}: " if found else ""
        raise error(
            f"{where}: {line}a number of more than {INT_DIGITS_LIMIT:,} digits; numbers in a "
            f"{kind} have at most {MAX_NUMBER_CHARS} digits"
        ) from None
    huge = _huge_integer(doc, "")
    if huge is not None:  # 0x, 0o and 0b integers have no conversion limit: bounded here
        key, bits = huge
        raise error(
            f"{where}: {key}: a number of about {bits * 3 // 10:,} digits; numbers in a {kind} "
            f"have at most {MAX_NUMBER_CHARS} digits"
        )
    return doc


def _huge_integer(value: object, key: str) -> tuple[str, int] | None:
    """The first integer in ``value`` beyond the analyser's bound on numbers (as
    :func:`~analyzer.core.exact.whole_number` reads them: more than ``4 x`` :data:`MAX_NUMBER_CHARS`
    bits), as (its key, its size in bits); else ``None``.  No huge integer is ever turned into
    text (``str()`` of one refuses more than 4,300 digits too)."""
    if isinstance(value, int) and not isinstance(value, bool):
        bits = value.bit_length()
        return (key or "a value", bits) if bits > 4 * MAX_NUMBER_CHARS else None
    if isinstance(value, dict):
        items: list[tuple[str, object]] = [(f"{key}.{k}" if key else str(k), v) for k, v in value.items()]
    elif isinstance(value, list):
        items = [(f"{key}[{i}]", v) for i, v in enumerate(value, 1)]
    else:
        return None
    for sub_key, sub in items:
        found = _huge_integer(sub, sub_key)
        if found is not None:
            return found
    return None


__all__ = ["INT_DIGITS_LIMIT", "load_toml"]
