"""The HTML game-math report in a real browser: headless Chromium at 1280 px wide, driven by
Selenium through /usr/bin/chromedriver (Debian's ``chromium`` and ``chromium-driver``, which
.ci/run installs).  Long exact fractions (a fair pay over 1 to 8 decks, the closed forms) wrap
inside their cells instead of running off the page.

Without the browser the test is skipped on a developer's machine and fails under CI."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from analyzer import find_bet
from analyzer.output.report import render_html
from analyzer.studies.report_data import game_math_report

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WIDTH = 1280


def _driver(profile: Path):
    missing = [p for p in (CHROMIUM, DRIVER) if not shutil.which(p)]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("the selenium package")
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs {', '.join(missing)} (apt-get install chromium chromium-driver)")
        pytest.skip(f"no {', '.join(missing)}")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={profile}", f"--window-size={WIDTH},900"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def test_the_html_report_fits_1280_pixels(tmp_path):
    report = game_math_report([find_bet("dragon-bonus-player"), find_bet("tie")], range(1, 9))
    page = tmp_path / "report.html"
    page.write_text(render_html(report, charts=False), encoding="utf-8")
    assert "5889024543008/619306544887" in page.read_text(encoding="utf-8")  # a long exact fair pay
    driver = _driver(tmp_path / "profile")
    try:
        driver.set_window_size(WIDTH, 900)
        driver.get(page.as_uri())
        width, client = driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        over = driver.execute_script(
            "return Array.from(document.querySelectorAll('table, td, code, p, li'))"
            ".filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
            ".map(e => e.tagName + ': ' + e.textContent.slice(0, 60))")
    finally:
        driver.quit()
    assert width <= WIDTH and width <= client + 1, over[:5]
    assert over == []
