"""The coup record as JSON data and back: the table cache's codec for bet records.

Only a bet record built by :func:`analyzer.core.coup.build_record` can be stored: its cards
are stored by their canonical codes (:mod:`analyzer.core.canonical`), its base fields as JSON
values (``"?"`` for a field it does not carry).
"""

from __future__ import annotations

from analyzer.core.canonical import make_dealt
from analyzer.core.coup import UNKNOWN, Coup, Winner
from analyzer.core.dealt import DealtCard
from analyzer.core.reads import BASE_FIELDS
from analyzer.errors import CoupError

_FIELD_CODES = {"player": Winner.PLAYER, "banker": Winner.BANKER, "tie": Winner.TIE}


def record_to_json(record: Coup) -> list[object]:
    """A bet record (from :func:`analyzer.core.coup.build_record`) as JSON data, for the table cache."""
    fields = ["?" if v is UNKNOWN else (v.value if isinstance(v, Winner) else v) for v in record._fields]
    blocks = []
    for members, cards, flag in record._blocks:
        codes = []
        for card in cards:
            if card._code is None:
                raise CoupError("internal: only bet records built by build_record can be stored")
            codes.append(list(card._code))
        blocks.append([sorted(members), codes, list(flag) if flag is not None else None])
    return [fields, blocks]


def record_from_json(data: object) -> Coup:
    """The inverse of :func:`record_to_json`.

    Raises:
        ValueError: the data is not a stored record (the cache treats that as a miss).
    """
    if not isinstance(data, list) or len(data) != 2:
        raise ValueError("bad record")
    fields, blocks = data
    if not isinstance(fields, list) or len(fields) != len(BASE_FIELDS):
        raise ValueError("bad record fields")
    values: list[object] = []
    for name, v in zip(BASE_FIELDS, fields, strict=True):
        if v == "?":
            values.append(UNKNOWN)
        elif name == "winner":
            if v not in _FIELD_CODES:
                raise ValueError("bad winner")
            values.append(_FIELD_CODES[v])
        elif name.endswith("natural"):
            if type(v) is not bool:
                raise ValueError("bad natural")
            values.append(v)
        elif v is None and name.endswith("third"):
            values.append(None)
        elif (type(v) is int and 0 <= v <= 9) or (name.endswith("cards") and v in (2, 3)):
            values.append(v)
        else:
            raise ValueError(f"bad {name}")
    out = []
    if not isinstance(blocks, list):
        raise ValueError("bad record blocks")
    for block in blocks:
        members, codes, flag = block
        if flag is not None and not (
            isinstance(flag, list)
            and len(flag) == 3
            and flag[0] in ("suit", "colour")
            and flag[1] in ("one", "mixed")
            and type(flag[2]) is int
            and -1 <= flag[2] < 4
        ):
            raise ValueError("bad flag")
        if not isinstance(members, list) or not all(type(m) is int and 0 <= m < 6 for m in members):
            raise ValueError("bad positions")
        cards = []
        for code in codes:
            if not isinstance(code, list) or not all(type(x) is int and -1 <= x <= 52 for x in code):
                raise ValueError("bad card")
            cards.append(_dealt_checked(tuple(code)))
        out.append((frozenset(members), tuple(cards), tuple(flag) if flag is not None else None))
    return Coup(values, None, out)


def _dealt_checked(code: tuple[int, ...]) -> DealtCard:
    if not code or not 0 <= code[0] <= 9:
        raise ValueError("bad card value")
    at = 1
    for part in range(3):
        if at >= len(code) or code[at] not in (0, 2):
            raise ValueError("bad card part")
        # a label: named, class or same-card (0, 1, 2) and an index; a picture (3, 0) is a
        # rank part only (analyzer.core.canonical)
        picture = part == 0 and code[at + 1 : at + 3] == (3, 0)
        if code[at] == 2 and (code[at + 1] not in (0, 1, 2) or not 0 <= code[at + 2] < 13) and not picture:
            raise ValueError("bad card label")
        at += 1 + code[at]
    if at != len(code):
        raise ValueError("bad card length")
    return make_dealt(code)
