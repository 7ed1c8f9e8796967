"""The live-shoe page in a real browser: headless Chromium (Debian's package, /usr/bin/chromium)
driven by Playwright on that binary (``playwright install`` is never needed).

The test types a shoe's first coups from the keyboard alone, and checks that the EV shown for
each bet (6 decimals, the exact fraction in its ``title``) is what ``punto-banco bets`` gives on
the same unseen cards; that the counts follow the tags; that a reload restores everything from
the URL; and that the page fits a 1280 px screen and a phone.  The table-side tests run at
1280 px and at 390 px each: the newest coup seen stays in sight, a bet that cannot be priced says
why on its own row, a bad shared address is said, the EVs and the best bet are on a phone's first
screen, the chart has ticks and a legend, and no message speaks the command line.  Screenshots are kept in the
test's temporary folder (and copied to ``$WEB_SCREENSHOTS`` when that is set).
"""

import itertools
import json
import os
import shutil
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import invoke
from webserver import LIMITED_REASON, ROOT, Server, address_space_limited

CHROMIUM = Path("/usr/bin/chromium")
#: Flags for a machine without network: no background connections, no sandbox (root in CI).
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is in the test extra")
pytestmark = [
    pytest.mark.extra("web"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="apt-get install chromium (see .ci/run)"),
    pytest.mark.skipif(address_space_limited(), reason=LIMITED_REASON),
]

BETS = ["dragon-7", "panda-8", "tie", "player-pair", "dragon-bonus-player"]
DRAGON_TAGS = [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]  # A 2 ... 9 T (Jacobson's Dragon 7 count)
#: What the dealer's cards are typed as: coups, a card burned face down, cards without suits.
TYPED = ["5h Kd 9s 2c", "/", "7h", "8d", "x", "Ah 3c 6d", "/", "Qs"]
SEEN = ["5h", "Kd", "9s", "2c", "/", "7h", "8d", "x", "Ah", "3c", "6d", "/"]  # after the undo
BET_FILE = ROOT / "examples" / "bets.toml"  # light bets: over values and the first two cards


@pytest.fixture(scope="module")
def server():
    with Server("--workers", "1") as running:
        yield running


@pytest.fixture
def browser(tmp_path):
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"),  # a fresh profile
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()


def keep(page, path: Path, *, full_page: bool = True) -> None:
    """A screenshot of ``page`` (the whole page, or what the screen shows) in ``path``."""
    page.screenshot(path=str(path), full_page=full_page)
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


def cli_rows(monkeypatch, cards: list[str]) -> dict[str, dict]:
    args = ["bets", "--decks", "8", "--remove", " ".join(cards), *(w for b in BETS for w in ("--bet", b))]
    args += ["--digits", "6", "--format", "json"]
    monkeypatch.setattr(sys, "argv", ["punto-banco", *args])
    out = invoke(*args).stdout
    rows = json.loads(out, parse_float=Decimal)["tables"][0]["rows"]
    return {r["bet_name"]: r for r in rows}


def shown(page) -> dict[str, tuple[str, str]]:
    cells = page.locator("td[data-bet]")
    return {
        cells.nth(i).get_attribute("data-bet"): (
            cells.nth(i).inner_text(),
            cells.nth(i).get_attribute("title"),
        )
        for i in range(cells.count())
    }


def priced(page, seen: list[str]) -> None:
    page.wait_for_selector(f'body[data-priced-seen="{",".join(seen)}"]', state="attached")


def test_the_page_prices_every_card_as_punto_banco_bets(server, browser, monkeypatch, tmp_path):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tags = ",".join(map(str, DRAGON_TAGS))
    page.goto(f"{server.url}#decks=8&bets={','.join(BETS)}&tags={tags}")
    priced(page, [])

    # keyboard only: the card box has the focus; Enter adds; Tab reaches the buttons
    for typed in TYPED:
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # the Add button
    page.keyboard.press("Tab")  # Undo
    page.keyboard.press("Enter")  # takes back the Qs
    priced(page, SEEN)

    cards = [c for c in SEEN if c not in ("/", "x")]
    expected = cli_rows(monkeypatch, cards)
    got = shown(page)
    assert set(got) == set(BETS)
    for name, (text, title) in got.items():
        assert text == f"{expected[name]['ev_decimal']:f}", name  # 6 decimals, rounded exactly
        assert title == expected[name]["ev"], name  # the exact fraction
    best = max(BETS, key=lambda b: Fraction(expected[b]["ev"]))
    assert page.locator("tr.best-row th").inner_text().strip().startswith(expected[best]["bet"])

    running = sum(DRAGON_TAGS[_tag_index(c)] for c in cards)
    assert page.locator("#running").inner_text() == str(running)
    unseen = 416 - len(cards)
    assert (
        page.locator("#true-count")
        .get_attribute("title")
        .endswith(f"= {running} / ({unseen} unseen cards / 52)")
    )
    assert Fraction(page.locator("#true-count").get_attribute("title").split(" ")[0]) == Fraction(
        running * 52, unseen
    )
    assert page.locator("#depth").inner_text() == str(len(cards) + 1)  # the burned card is dealt
    assert page.locator("#chart svg polyline").count() == len(BETS)
    assert page.url.endswith("&seen=" + ",".join(SEEN))
    keep(page, tmp_path / "page-1280.png")

    # a bad card changes nothing and says why
    page.keyboard.type("Zz")
    page.keyboard.press("Enter")
    assert "'Zz' is not a card" in page.locator("#message").inner_text()
    assert page.url.endswith("&seen=" + ",".join(SEEN))

    # the URL holds the shoe: a reload (or a restarted server) loses nothing
    page.reload()
    priced(page, SEEN)
    assert shown(page) == got

    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    assert page.locator("#card").is_visible() and page.locator("#prices").is_visible()
    keep(page, tmp_path / "page-390.png")
    assert errors == []


def _tag_index(card: str) -> int:
    """Where a card's tag is in the order A 2 ... 9 T."""
    rank = card.rstrip("shdc")
    return 0 if rank == "A" else int(rank) - 1 if rank in "23456789" else 9


def test_the_setup_form_sets_the_shoe_the_bets_and_a_bet_file(server, browser, monkeypatch):
    page = browser.new_page()
    page.goto(server.url)
    priced(page, [])
    page.fill("#decks", "6")
    page.fill("#bets", "tie panda-8")
    page.fill("#bet-file", BET_FILE.read_text(encoding="utf-8"))
    page.focus("#setup-form button[type=submit]")
    page.keyboard.press("Enter")  # Apply
    page.focus("#card")
    page.keyboard.type("9h 9d")
    page.keyboard.press("Enter")
    priced(page, ["9h", "9d"])
    args = ["bets", "--decks", "6", "--remove", "9h 9d", "--bet", "tie", "--bet", "panda-8"]
    args += ["--bet-file", str(BET_FILE), "--digits", "6", "--format", "json"]
    monkeypatch.setattr(sys, "argv", ["punto-banco", *args])
    out = invoke(*args).stdout
    rows = json.loads(out, parse_float=Decimal)["tables"][0]["rows"]
    assert shown(page) == {r["bet_name"]: (f"{r['ev_decimal']:f}", r["ev"]) for r in rows}
    assert "decks=6&" in page.url and "&bet_file=" in page.url  # the bet file is in the address too


# -- the page at the table: at 1280 px and on a 390 px phone --------------------------------------

#: (width, height) of the screens every table-side test runs at: a laptop and a phone.
SCREENS = {"1280": (1280, 900), "390": (390, 844)}
#: Words of the command line that no message of the page may use.
COMMAND_WORDS = ("--", "punto-banco", "rules_toml", "bet_file", "shoe.decks", "shoe.counts")
COUP = "5h Kd 9s 2c"


@pytest.fixture(params=sorted(SCREENS), ids=lambda w: f"{w}px")
def screen(request) -> tuple[int, int]:
    return SCREENS[request.param]


def open_page(browser, server, screen: tuple[int, int], fragment: str, errors: list[str] | None = None):
    """A page of ``screen`` size at ``#fragment``, once priced."""
    page = browser.new_page()
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_viewport_size({"width": screen[0], "height": screen[1]})
    page.goto(f"{server.url}#{fragment}")
    page.wait_for_selector("body[data-priced-seen]", state="attached")
    return page


def type_cards(page, *entries: str) -> None:
    """Each entry typed into the card box (which has the focus) and entered."""
    page.focus("#card")
    for entry in entries:
        page.keyboard.type(entry)
        page.keyboard.press("Enter")


def inside(inner: dict, outer: dict) -> bool:
    """Whether box ``inner`` lies within box ``outer`` (Playwright bounding boxes, CSS px)."""
    return (
        inner["y"] >= outer["y"] - 0.5 and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


def test_the_seen_list_shows_the_newest_entry(server, browser, screen, tmp_path):
    # a shared shoe of twelve coups opens scrolled to its end, and every card typed after stays in sight
    seen = ",".join(["5h,Kd,9s,2c,/"] * 12)
    page = open_page(browser, server, screen, f"decks=8&bets=tie&seen={seen}")
    items = page.locator("#coups li")
    assert items.count() == 12
    assert inside(items.last.bounding_box(), page.locator("#coups").bounding_box())
    assert items.last.inner_text().startswith("coup 12:")
    tokens = seen.split(",")
    for entry in ["7h", "8d", "/", "Ah", "3c"]:
        type_cards(page, entry)
        tokens.append(entry)
        priced(page, tokens)
        newest = page.locator("#coups li").last
        assert inside(newest.bounding_box(), page.locator("#coups").bounding_box()), entry
    assert page.locator("#coups li").last.inner_text() == "now: Ah 3c"
    assert page.locator("#coups li").nth(-2).inner_text() == "coup 13: 7h 8d"
    keep(page, tmp_path / f"seen-{screen[0]}.png")


def test_a_bet_that_cannot_be_priced_says_why_on_its_own_row(server, browser, screen, monkeypatch, tmp_path):
    errors: list[str] = []
    bets = ["dragon-7", "all-red", "panda-8"]  # all-red reads the suits of the cards
    page = open_page(browser, server, screen, f"decks=8&bets={','.join(bets)}", errors)
    type_cards(page, "5h Kd", "9")  # the 9 without its suit
    priced(page, ["5h", "Kd", "9"])
    got = shown(page)
    assert set(got) == {"dragon-7", "panda-8"}  # the others stay priced, exactly as the command prices them
    args = ["bets", "--decks", "8", "--remove", "5h Kd 9", "--bet", "dragon-7", "--bet", "panda-8"]
    monkeypatch.setattr(sys, "argv", ["punto-banco", *args])
    args += ["--digits", "6", "--format", "json"]
    out = invoke(*args).stdout
    rows = json.loads(out, parse_float=Decimal)["tables"][0]["rows"]
    assert got == {r["bet_name"]: (f"{r['ev_decimal']:f}", r["ev"]) for r in rows}
    type_cards(page, "7h")  # a card more: the bet stays unpriced, the others priced on it too
    priced(page, ["5h", "Kd", "9", "7h"])
    args[args.index("5h Kd 9")] = "5h Kd 9 7h"
    rows = json.loads(invoke(*args).stdout, parse_float=Decimal)["tables"][0]["rows"]
    got = shown(page)
    assert got == {r["bet_name"]: (f"{r['ev_decimal']:f}", r["ev"]) for r in rows}
    why = page.locator('#prices td[data-unpriced="all-red"]')
    text = why.inner_text()
    assert "suit" in text and "9" in text and "Undo" in text  # the card, and the page's own button
    assert not any(w in text for w in COMMAND_WORDS), text
    assert page.locator("#prices tbody tr").count() == 3  # one row per bet, in the order chosen
    assert page.locator("#prices tbody tr").nth(1).get_attribute("data-bet") == "all-red"
    best = page.locator("tr.best-row").get_attribute("data-bet")
    assert best == max(rows, key=lambda r: Fraction(r["ev"]))["bet_name"]
    assert page.locator("#message").inner_text() == ""  # nothing blanks the table
    chart = page.inner_html("#chart")
    assert "NaN" not in chart and "Infinity" not in chart
    assert page.locator("#legend li").count() == 3
    assert "not priced" in page.locator('#legend li[data-bet="all-red"]').inner_text()
    keep(page, tmp_path / f"unpriced-{screen[0]}.png")
    type_cards(page, "u", "u", "9c")  # the card again, with its suit: every bet priced
    priced(page, ["5h", "Kd", "9c"])
    assert set(shown(page)) == set(bets)
    assert page.locator("#prices td[data-unpriced]").count() == 0
    # a shoe given per rank only: the shoe field is named, not the cards
    page = open_page(browser, server, screen, "shoe=8%3D20%2CK%3D30&bets=all-red,tie&seen=8")
    priced(page, ["8"])
    assert set(shown(page)) == {"tie"}
    text = page.locator('#prices td[data-unpriced="all-red"]').inner_text()
    assert "shoe field" in text and "Decks" in text and not any(w in text for w in COMMAND_WORDS), text
    refused = "the server responded with a status of 400"  # the page asked, and was told why: no fault
    assert [e for e in errors if refused not in e] == []


def test_a_bad_card_in_a_shared_address_is_an_error(server, browser, screen, tmp_path):
    page = open_page(browser, server, screen, "decks=8&bets=dragon-7&seen=5h,Zz,Kd")
    priced(page, ["5h", "Kd"])
    message = page.locator("#message")
    assert "error" in (message.get_attribute("class") or "")
    text = message.inner_text()
    assert "'Zz' is not a card" in text and "address" in text, text  # as when typed, and where it was
    assert not any(w in text for w in COMMAND_WORDS), text
    keep(page, tmp_path / f"address-{screen[0]}.png")
    type_cards(page, "7h")  # the next card entered clears it, as after a typed mistake
    priced(page, ["5h", "Kd", "7h"])
    assert message.inner_text() == ""
    # the other fields of an address are checked too
    page = open_page(browser, server, screen, "decks=eight&bets=tie&tags=1,2&seen=")
    text = page.locator("#message").inner_text()
    assert "Decks 'eight'" in text and "Count tags '1,2'" in text, text


def test_on_a_phone_the_evs_and_the_best_bet_are_above_the_fold(server, browser, screen, tmp_path):
    tags = ",".join(map(str, DRAGON_TAGS))
    page = open_page(browser, server, screen, f"decks=8&bets={','.join(BETS)}&tags={tags}")
    type_cards(page, COUP, "/", "7h 8d")
    priced(page, ["5h", "Kd", "9s", "2c", "/", "7h", "8d"])
    assert page.evaluate("() => window.scrollY") == 0
    height = screen[1]
    for cell in [*(page.locator("td[data-bet]").nth(i) for i in range(len(BETS))), page.locator("#best")]:
        box = cell.bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, cell
    assert page.evaluate("() => document.activeElement.id") == "card"  # typing goes on
    assert page.evaluate("() => document.documentElement.scrollWidth") <= screen[0]
    # "EV > 0" is said in plain words on the page, next to the column it names
    header = page.locator("#prices thead th").nth(3)
    help_id = header.get_attribute("aria-describedby")
    assert help_id
    explained = page.locator(f"#{help_id}")
    assert explained.is_visible()
    words = explained.inner_text()
    assert "coups" in words and "positive" in words and "player" in words, words
    keep(page, tmp_path / f"fold-{screen[0]}.png", full_page=False)  # the screen as the player sees it


def _numbers(texts: list[str]) -> list[Decimal]:
    return [Decimal(t.replace("\u2212", "-")) for t in texts]


def test_the_chart_has_ticks_and_a_legend(server, browser, screen, tmp_path):
    bets = ["dragon-7", "panda-8", "tie"]
    page = open_page(browser, server, screen, f"decks=8&bets={','.join(bets)}")
    type_cards(page, COUP, "/", "7h 8d 3c", "/", "Ah Qs", "/")
    priced(page, ["5h", "Kd", "9s", "2c", "/", "7h", "8d", "3c", "/", "Ah", "Qs", "/"])
    page.wait_for_function("() => document.querySelectorAll('#chart circle').length === 12")
    for axis in ("x", "y"):
        ticks = _numbers(page.locator(f"#chart .tick-{axis}").all_text_contents())
        assert len(ticks) > 2, axis
        steps = {b - a for a, b in itertools.pairwise(ticks)}
        assert len(steps) == 1 and steps.pop() != 0, (axis, ticks)  # evenly spaced, in order
    assert page.locator("#chart .axis-title").count() == 2
    legend = page.locator("#legend li")
    assert legend.count() == len(bets)
    strokes = [page.locator("#chart polyline").nth(i).get_attribute("stroke") for i in range(len(bets))]
    swatches = page.locator("#legend li .swatch")
    for i in range(len(bets)):  # each legend entry in its line's colour
        assert swatches.nth(i).evaluate("e => getComputedStyle(e).borderTopColor") == _rgb(strokes[i])
    font = page.locator("#chart .tick-y").first.evaluate("e => e.getBoundingClientRect().height")
    assert font >= 10  # the chart is drawn at the screen's size, never shrunk to unreadable text
    chart = page.inner_html("#chart")
    assert "NaN" not in chart
    keep(page, tmp_path / f"chart-{screen[0]}.png")


def _rgb(colour: str) -> str:
    """``#1b6ca8`` as CSS computes it: ``rgb(27, 108, 168)``."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


#: Setup fields that the service refuses, each with the field it is typed in.
BAD_SETUPS = [
    ("#bets", "dragn-7 tie"),
    ("#bets", "tie tie"),
    ("#bets", "mine.toml"),
    ("#bets", "tie:abc"),
    ("#bets", " ".join(f"tie:{n}" for n in range(1, 102))),
    ("#rules-toml", "x = ["),
    ("#rules-toml", "x = 1"),
    ("#bet-file", "x = ["),
    ("#shoe-counts", "8h=2,K=3"),
    ("#shoe-counts", "8=2,Z=3"),
    ("#shoe-counts", "8=3"),
    ("#decks", "20000"),
]


def test_every_message_uses_the_pages_own_words(server, browser, screen, tmp_path):
    page = open_page(browser, server, screen, "decks=8&bets=dragon-7")
    for field, value in BAD_SETUPS:
        page.goto(f"{server.url}#decks=8&bets=dragon-7")
        page.reload()
        page.wait_for_selector("body[data-priced-seen]", state="attached")
        page.fill(field, value)
        page.click("#setup-form button[type=submit]")
        page.wait_for_function(
            "() => document.querySelector('#message').textContent"
            " || document.querySelector('td[data-unpriced]')"
        )
        rows = page.locator("td[data-unpriced]").all_inner_texts()
        text = page.locator("#message").inner_text() + " ".join(rows)
        assert text.strip(), (field, value)
        assert not any(w in text for w in COMMAND_WORDS), (field, value, text)
    # the shoe run out: the cards typed are more than the shoe holds
    page.goto(f"{server.url}#shoe=8%3D2%2CK%3D3&bets=tie")
    page.reload()
    page.wait_for_selector("body[data-priced-seen]", state="attached")
    type_cards(page, "8 8 8")
    page.wait_for_function("() => document.querySelector('#message').textContent")
    text = page.locator("#message").inner_text()
    assert "8" in text and "Undo" in text and not any(w in text for w in COMMAND_WORDS), text
    assert page.locator("#shoe-line").inner_text() == ""  # nothing left of the shoe before
    keep(page, tmp_path / f"messages-{screen[0]}.png")
