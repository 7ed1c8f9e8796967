"""Text that is safe to show: the one place that escapes what the tool echoes.

* :func:`printable`: control characters (ANSI escapes, CR, newlines, bidirectional overrides)
  and lone surrogates escaped as ``\\x1b``, ``\\r``, ``\\n``, ``\\u202e``, ``\\ud800``: a hand log's
  id can neither recolour the terminal nor forge a report line.
* :func:`csv_cell`: the spreadsheet-injection rule for CSV cells (a text cell starting with
  ``=``, ``+``, ``-`` or ``@`` gets a leading single quote; numbers are data, never changed).
* :data:`ASCII_FALLBACK`: a codec error handler, registered on import, that writes a symbol a
  stream cannot encode in ASCII (``∞`` as ``inf``, ``é`` as ``e``, ``²`` as ``^2``) and a lone
  surrogate as its escape, instead of raising ``UnicodeEncodeError``.  The command line sets it
  on standard output and error, and files are encoded with it.
* :func:`json_text`: a JSON document with lone surrogates written as ``\\udXXXX`` escapes (valid
  JSON, and encodable as UTF-8).

This module imports only the standard library.
"""

from __future__ import annotations

import codecs
import re
import unicodedata

#: Bidirectional formatting characters (Trojan Source): shown escaped, never obeyed.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch in "\n\r\t":
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """``text`` with control characters, line and paragraph separators, bidirectional
    formatting characters and lone surrogates escaped (``\\x1b``, ``\\n``, ``\\u2028``, ...);
    everything else, accents and symbols included, unchanged.  A backslash itself is kept, so
    escaping is for display, not a reversible encoding.

    >>> printable("c1\\x1b[31m\\r\\nrecord 2: forged")
    'c1\\\\x1b[31m\\\\r\\\\nrecord 2: forged'
    >>> printable("Égalité ∞")
    'Égalité ∞'
    """
    if text.isprintable():
        return text
    return "".join(
        _escape(ch) if ch in _BIDI or unicodedata.category(ch) in _ESCAPED_CATEGORIES else ch for ch in text
    )


#: A cell that reads as a number: an optional sign, digits with an optional decimal part and
#: exponent, an optional percent sign; or a ratio ``p/q``.  Spreadsheets read these as numbers.
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?%?|[+-]?\d+/\d+")
#: First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """A CSV text cell safe to open in a spreadsheet: one that starts with ``=``, ``+``, ``-``,
    ``@`` (or a tab or carriage return) gets a leading single quote, unless it is a number
    (``-0.0105``, ``-19/20``, ``+5%``), which is data and is never changed, or the lone ``-``
    that marks a missing value.

    >>> csv_cell("=HYPERLINK(\\"http://x\\")"), csv_cell("-0.0105790578"), csv_cell("-10 net")
    ('\\'=HYPERLINK("http://x")', '-0.0105790578', "'-10 net")
    """
    if text.startswith(FORMULA_STARTS) and text != "-" and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


#: Named ASCII spellings of the symbols the tool prints (others: decomposed, else escaped).
_SPELLINGS = {
    "∞": "inf",
    "−": "-",
    "–": "-",
    "—": "-",
    "×": "x",
    "·": ".",
    "…": "...",
    "≤": "<=",
    "≥": ">=",
    "≈": "~",
    "≠": "!=",
    "→": "->",
    "←": "<-",
    "√": "sqrt",
    "Σ": "sum",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "♠": "s",
    "♥": "h",
    "♦": "d",
    "♣": "c",
    "\u00a0": " ",
}


def ascii_spelling(ch: str) -> str:
    """An ASCII spelling of one character: a named one (``∞`` -> ``inf``), a superscript as
    ``^2``, the letter under an accent (``é`` -> ``e``), else its escape (``\\u2603``).

    >>> ascii_spelling("∞"), ascii_spelling("²"), ascii_spelling("É"), ascii_spelling("\\ud800")
    ('inf', '^2', 'E', '\\\\ud800')
    """
    if ch.isascii():
        return ch
    if ch in _SPELLINGS:
        return _SPELLINGS[ch]
    decomposition = unicodedata.decomposition(ch)
    if decomposition.startswith("<super>"):
        return "^" + "".join(ascii_spelling(chr(int(h, 16))) for h in decomposition.split()[1:])
    if unicodedata.category(ch) != "Cs":
        stripped = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        if stripped and stripped.isascii() and stripped.isprintable():
            return stripped
    return _escape(ch)


#: The name of the codec error handler (``stream.reconfigure(errors=ASCII_FALLBACK)``).
ASCII_FALLBACK = "punto_banco_ascii"


def _fallback(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "".join(ascii_spelling(ch) for ch in exc.object[exc.start : exc.end]), exc.end


codecs.register_error(ASCII_FALLBACK, _fallback)

_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with each lone surrogate written
    as its ``\\udXXXX`` escape, as ``json.dumps`` with ``ensure_ascii=True`` would: still the
    same JSON value, and now encodable as UTF-8.

    >>> json_text('{"id": "\\ud800"}')
    '{"id": "\\\\ud800"}'
    """
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


__all__ = ["ASCII_FALLBACK", "FORMULA_STARTS", "ascii_spelling", "csv_cell", "json_text", "printable"]
