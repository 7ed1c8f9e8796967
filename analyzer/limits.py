"""The adjustable limits on what the analyser reads: documented, one place, no imports.

Each has an environment variable and a command-line option (docs/output.md, "Exit codes, limits
and safe output"); an input over a limit is refused with one line naming the file and the limit.
"""

#: Longest line (in characters) read from a hand log (verify, conform): one coup is a few
#: hundred characters; an endless line (e.g. /dev/zero) is refused, not read into memory.
MAX_LINE_CHARS = 1_000_000
#: Largest counts file (in bytes) that ``conform`` reads whole; counts are a few kilobytes.
MAX_FILE_BYTES = 1_000_000
#: Most bets read from one bet file (each is priced in turn: a file of thousands would take
#: minutes); ``load_bets(max_bets=...)``, ``bets --max-bets`` or the variable raise it.
MAX_BETS_PER_FILE = 1_000

#: The largest value the line-length and file-size limits may be given: they exist to bound
#: memory, so a value past what a machine holds (``--max-line-length 99999999999999999999``) is
#: refused, not taken as "no limit".
LIMIT_CEILING = 1_000_000_000

MAX_LINE_ENV = "PUNTO_BANCO_MAX_LINE_LENGTH"
MAX_FILE_ENV = "PUNTO_BANCO_MAX_FILE_SIZE"
MAX_BETS_ENV = "PUNTO_BANCO_MAX_BETS"
