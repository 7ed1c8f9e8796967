"""The live-shoe page in a real browser: headless Chromium (Debian's package, /usr/bin/chromium)
driven by Playwright on that binary (``playwright install`` is never needed).

The test types a shoe's first coups from the keyboard alone, and checks that the EV shown for
each bet (6 decimals, the exact fraction in its ``title``) is what ``punto-banco bets`` gives on
the same unseen cards; that the counts follow the tags; that a reload restores everything from
the URL; and that the page fits a 1280 px screen and a phone.  Screenshots are kept in the
test's temporary folder (and copied to ``$WEB_SCREENSHOTS`` when that is set).
"""

import json
import os
import shutil
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from webserver import LIMITED_REASON, ROOT, Server, address_space_limited

from analyzer.cli import main

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


def keep(page, path: Path) -> None:
    page.screenshot(path=str(path), full_page=True)
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


def cli_rows(monkeypatch, cards: list[str]) -> dict[str, dict]:
    args = ["bets", "--decks", "8", "--remove", " ".join(cards), *(w for b in BETS for w in ("--bet", b))]
    args += ["--digits", "6", "--format", "json"]
    monkeypatch.setattr(sys, "argv", ["punto-banco", *args])
    out = CliRunner().invoke(main, args, catch_exceptions=False).stdout
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
    out = CliRunner().invoke(main, args, catch_exceptions=False).stdout
    rows = json.loads(out, parse_float=Decimal)["tables"][0]["rows"]
    assert shown(page) == {r["bet_name"]: (f"{r['ev_decimal']:f}", r["ev"]) for r in rows}
    assert "decks=6&" in page.url and "&bet_file=" in page.url  # the bet file is in the address too
