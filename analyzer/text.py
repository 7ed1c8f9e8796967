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
* :func:`json_text`: JSON text (also a TOML basic string) that strict parsers accept and a
  terminal shows as it is: a lone surrogate becomes the *text* of its escape (``\\udcff``), as
  :func:`printable` writes it, and a bidirectional override, line separator or DEL its
  ``\\uXXXX`` escape (the same value).
* :func:`show`: a value as an error message quotes it (``repr`` cut short; never a huge number
  converted to text).
* :func:`markdown_text` and :func:`html_text`: the one escaping of text that goes into a
  Markdown page (no HTML, link or emphasis from a bet's title can take effect) or an HTML page.

One escaping path per output kind: plain text (the terminal) :func:`printable`; Markdown
:func:`markdown_text`; HTML :func:`html_text`; JSON and TOML :func:`json_text`; CSV
:func:`csv_cell`.

This module imports only the standard library.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from decimal import Decimal
from fractions import Fraction

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


#: Longest word an error line shows whole (a path is rarely longer).
LONG_WORD = 200
_LONG_WORD = re.compile(r"\S{" + str(LONG_WORD + 1) + ",}")


def shortened(text: str) -> str:
    """``text`` with each word (a run of non-space characters) longer than
    :data:`LONG_WORD` characters shown as its start, ``...``, its end and its length: an error
    line that quotes a 5,000-digit number stays a line a person can read.

    >>> shortened("bad count '" + "9" * 500 + "': too large")
    "bad count '999999999999999999999999999999999999999...99999999': (503 characters) too large"
    """

    def cut(m: re.Match[str]) -> str:
        word = m.group()
        return f"{word[:40]}...{word[-10:]} ({len(word):,} characters)"

    return _LONG_WORD.sub(cut, text)


def show(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters, as error messages quote a value: never
    a whole megabyte, never a huge number converted to text (a JSON number as written).

    >>> show("banker"), show(10**200), show(Decimal("9.5"))
    ("'banker'", '<a whole number of about 201 digits>', '9.5')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"<a whole number of about {int(value.bit_length() * 0.30103) + 1} digits>"
    if isinstance(value, Fraction) and max(abs(value.numerator), value.denominator).bit_length() > 4 * limit:
        return f"<a fraction with terms of more than {limit} digits>"
    if isinstance(value, Decimal):  # a JSON number: shown as written, not as Decimal('...')
        digits = len(value.as_tuple().digits)
        text = str(value) if digits <= limit else f"<a number of {digits} digits>"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


def _json_escape(match: re.Match[str]) -> str:
    ch = match.group()
    if unicodedata.category(ch) == "Cs":  # no JSON or TOML value may hold it: its escape as text
        return f"\\\\u{ord(ch):04x}"
    return f"\\u{ord(ch):04x}"


#: What :func:`printable` escapes and ``json.dumps(ensure_ascii=False)`` leaves as it is.
_UNSAFE_IN_JSON = re.compile("[\u007f-\u009f\u2028\u2029\ud800-\udfff" + "".join(sorted(_BIDI)) + "]")


def json_text(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``; also a TOML basic string from
    it) with each lone surrogate written as the text of its escape, ``\\udcff`` (as
    :func:`printable` shows it: strict parsers reject a lone surrogate, even as an escape), and
    each DEL or C1 control, line or paragraph separator and bidirectional formatting character
    as its ``\\uXXXX`` escape (the same value, shown as it is on a terminal).

    >>> print(json_text('{"id": "\\ud800", "t": "\\u202eab"}'))
    {"id": "\\\\ud800", "t": "\\u202eab"}
    """
    return _UNSAFE_IN_JSON.sub(_json_escape, text)


#: What Markdown (CommonMark, GitHub) reads as markup in running text or a table: code spans,
#: emphasis, links and images, HTML, cell ends; an underscore that is not inside a word (inside
#: one it never is emphasis: ``player_pair``, a URL); a backslash before ASCII punctuation (it
#: would read as an escape; before anything else it is shown as it is: ``Player \\ Banker``).
_MARKDOWN_ACTIVE = re.compile(r"[`*\[\]<>|]|(?<![^\W_])_|_(?![^\W_])|\\(?=[!-/:-@\[-`{-~])")


def markdown_text(text: str) -> str:
    """Text for a Markdown page, shown as it is: :func:`printable`, then what Markdown reads as
    markup (a backtick, ``*``, ``[``, ``]``, ``<``, ``>``, ``|``, an underscore outside a word, a
    backslash before punctuation, a ``#`` that starts the text) backslash-escaped, so a bet's
    title can neither open an HTML tag (``<script>``, ``<img onerror>``), a link or an image,
    nor end a table cell.

    >>> print(markdown_text("<img src=x onerror=alert(1)> a|b [x](y) player_pair _x_ #1"))
    \\<img src=x onerror=alert(1)\\> a\\|b \\[x\\](y) player_pair \\_x\\_ #1
    """
    out = _MARKDOWN_ACTIVE.sub(lambda m: "\\" + m.group(), printable(text))
    start = len(out) - len(out.lstrip())
    return out[:start] + "\\" + out[start:] if out[start:].startswith("#") else out


def html_text(text: str) -> str:
    """Text for an HTML page, shown as it is: :func:`printable`, then ``& < > " '`` as entities.

    >>> print(html_text("<b>\\u202e</b>"))
    &lt;b&gt;\\u202e&lt;/b&gt;
    """
    import html  # lazy: pages only, not every command's start

    return html.escape(printable(text))


__all__ = [
    "ASCII_FALLBACK",
    "FORMULA_STARTS",
    "ascii_spelling",
    "csv_cell",
    "html_text",
    "json_text",
    "markdown_text",
    "printable",
    "shortened",
    "show",
]
