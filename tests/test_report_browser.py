"""The game-math report as pages: the HTML report in headless Chromium (Selenium through
/usr/bin/chromedriver: Debian's ``chromium`` and ``chromium-driver``, which .ci/run installs) at
1280 and 390 px wide, and the PDF that Chromium prints, each page rendered to PNG and read back
as text with poppler's ``pdftoppm`` and ``pdftotext`` (Debian's ``poppler-utils``, which .ci/run
installs).  A number never wraps inside its cell: a wide table scrolls on screen, and on paper
(A4 landscape, smaller type) every number of the page is found whole in the PDF's text; the
provenance (version, date, rules fingerprint, bet file's SHA-256, page number) is on every page.

Without the browser or the PDF tools a test is skipped on a developer's machine and fails under
CI."""

from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from analyzer import STANDARD, __version__, find_bet
from analyzer.output import report as rep
from analyzer.output.report import render_html
from analyzer.studies.report_data import game_math_report

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WIDTH = 1280
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _missing(what: list[str]) -> None:
    if what:
        if os.environ.get("CI"):
            needs = ", ".join(what)
            pytest.fail(f"CI needs {needs} (apt-get install chromium chromium-driver poppler-utils)")
        pytest.skip(f"no {', '.join(what)}")


def _driver(profile: Path, width: int = WIDTH):
    missing = [p for p in (CHROMIUM, DRIVER) if not shutil.which(p)]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("the selenium package")
    _missing(missing)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={profile}", f"--window-size={width},900"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


#: The cells of numbers that wrap onto a second line (each text node's client rects: one per line).
WRAPPED = """
return Array.from(document.querySelectorAll('.num')).filter(e => {
  const r = document.createRange(); r.selectNodeContents(e);
  const tops = new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top)));
  return tops.size > 1;
}).map(e => e.textContent);
"""
#: Elements that run past the page's right edge, outside a table's scrolling box.
OVER = """
return Array.from(document.querySelectorAll('p, li, h1, h2, h3, pre, .table-wrap'))
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map(e => e.tagName + ': ' + e.textContent.slice(0, 60));
"""


#: A bet file whose title, source and event are long unbroken words (the reader allows 200
#: characters; a source 1000).
LONG_WORDS = f"""
[[bet]]
name = "long-words"
title = "{'T' * 200}"
source = "{'S' * 1000}"
[[bet.pay]]
event = "{'E' * 200}"
when = {{ winner = "tie" }}
pays = 8
"""


@pytest.mark.parametrize("width", [WIDTH, 390])
def test_the_html_report_keeps_numbers_whole_and_fits_the_width(tmp_path, width):
    from analyzer.bets.files import parse_bets
    from analyzer.studies.report_data import bet_file_entries

    long_bet = parse_bets(LONG_WORDS, "long.toml")[0]
    report = game_math_report(
        [find_bet("dragon-bonus-player"), find_bet("tie"), long_bet],
        range(1, 9),
        definitions=dict(bet_file_entries(LONG_WORDS)),
    )
    page = tmp_path / "report.html"
    page.write_text(render_html(report, charts=False), encoding="utf-8")
    assert "5889024543008/619306544887" in page.read_text(encoding="utf-8")  # a long exact fair pay
    driver = _driver(tmp_path / "profile", width)
    try:
        driver.set_window_size(width, 900)
        driver.get(page.as_uri())
        scroll, client = driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        wrapped = driver.execute_script(WRAPPED)
        over = driver.execute_script(OVER)
        numbers = driver.execute_script("return document.querySelectorAll('td.num').length")
        scrolling = driver.execute_script(
            "return Array.from(document.querySelectorAll('.table-wrap'))"
            ".filter(w => w.scrollWidth > w.clientWidth + 1).length")
        driver.save_screenshot(str(tmp_path / f"report-{width}.png"))
    finally:
        driver.quit()
    assert numbers > 500 and wrapped == [], wrapped[:5]
    assert scroll <= client + 1 and over == [], over[:5]
    if width < 600:
        assert scrolling > 0  # a wide table scrolls in its box, its numbers whole


def _pdf_tools() -> None:
    missing = [p for p in ("pdftoppm", "pdftotext") if not shutil.which(p)]
    if rep.chromium_program() is None:
        missing.append("chromium")
    _missing(missing)


def _page_text(pdf: Path, page: int) -> str:
    done = subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True, check=True, timeout=60)
    return done.stdout


def test_the_pdf_report_page_by_page(cli, tmp_path, monkeypatch):
    _pdf_tools()
    from PIL import Image

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764892800")  # 2025-12-05
    bets = EXAMPLES / "bets.toml"
    args = ["report", "--bet", "tie", "--bet", f"{bets}:natural-tie", "--decks", "1-8",
            "--target-edge", "2.5", "--count-shoes", "20"]  # fmt: skip
    pdf, page = tmp_path / "lab.pdf", tmp_path / "lab.html"
    for out in (pdf, page):
        result = cli(*args, "-o", str(out))
        assert result.exit_code == 0, result.output
    assert pdf.read_bytes().startswith(b"%PDF")
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf), str(tmp_path / "page")],
                   check=True, timeout=120)  # fmt: skip
    pngs = sorted(tmp_path.glob("page-*.png"))
    assert len(pngs) > 5
    digest = hashlib.sha256(bets.read_bytes()).hexdigest()
    texts = []
    for i, png in enumerate(pngs, 1):
        text = _page_text(pdf, i)
        texts.append(text)
        flat = re.sub(r"\s+", "", text)
        for shown in (__version__, "2025-12-05", STANDARD.fingerprint, digest, f"page{i}of{len(pngs)}"):
            assert shown in flat, (i, shown)
        with Image.open(png) as im:
            gray = im.convert("L")
            w, h = gray.size
            assert gray.getextrema()[0] < 128  # ink on the page
            margin = gray.crop((w - w * 6 // 297, 0, w, h))  # the last 6 mm of the 10 mm right margin
            assert margin.getextrema()[0] > 200, f"page {i}: something runs off the right edge"
    # every number of every table is whole in the PDF (none split over two lines)
    shown = page.read_text(encoding="utf-8")
    cells = [html.unescape(c) for c in re.findall(r'<td class="num">([^<]*)</td>', shown)]
    whole = "\n".join(texts)
    split = [c for c in set(cells) if c not in whole]
    assert len(cells) > 500 and split == [], split[:5]
    assert "5889024543008/619306544887" in cells  # the Tie's fair pay on 8 decks: a long one
