"""A screenshot of the browser app after a game, for the README (``docs/web.png``).

Starts the app on a free loopback port, opens it in headless Chromium (Debian's ``chromium``
and ``chromium-driver``, driven by selenium), plays a game by clicking the move buttons and
saves the page. The game is a person who starts at random and then falls into a habit
(rock, rock, paper, scissors, repeated), so the chart shows the engine finding the habit out.

    python benchmarks/web_screenshot.py [--out docs/web.png] [--rounds 60] [--seed 7]

The browser helpers here (``find_chromium``, ``start_chromium``, ``click_move``) are also what
``tests/test_web_browser.py`` drives the page with.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from roshambo.apps import options  # noqa: E402
from roshambo.apps.web import BackgroundServer, WebApp  # noqa: E402

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
TESTIDS = {"R": "move-rock", "P": "move-paper", "S": "move-scissors"}
HABIT = "RRPS"


def find_chromium() -> tuple[str, str] | str:
    """(chromium, chromedriver) paths, or the reason the browser cannot be driven."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (python -m pip install selenium)"
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        return (
            "no Chromium found (need chromium and chromedriver on PATH: "
            "apt-get install chromium chromium-driver)"
        )
    return browser, driver


@contextmanager
def start_chromium(width: int = 1280, height: int = 1000) -> Iterator[Any]:
    """A headless Chromium under selenium, with a fresh profile removed afterwards."""
    found = find_chromium()
    if isinstance(found, str):
        raise RuntimeError(found)
    browser, driver_path = found
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="roshambo-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={width},{height}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # console errors, for tests
        driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
        try:
            yield driver
        finally:
            driver.quit()


def by_testid(driver: Any, testid: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def wait_for_round(driver: Any, number: int, timeout: float = 20) -> None:
    """Wait until the page shows round ``number``."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(lambda d: by_testid(d, "round").text == str(number))


def wait_for_game(driver: Any, timeout: float = 20) -> None:
    """Wait until the page has created its game (the Download link points at it)."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(
        lambda d: "/api/games/" in (by_testid(d, "download").get_attribute("href") or "")
    )


def click_move(driver: Any, letter: str, number: int) -> None:
    """Click the button for ``letter`` and wait for round ``number`` to be shown."""
    by_testid(driver, TESTIDS[letter]).click()
    wait_for_round(driver, number)


def save_page(driver: Any, path: Path, width: int = 1280) -> None:
    """A PNG of the whole page (not just the window) at ``width`` CSS pixels."""
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))


def game_moves(rounds: int, rng: random.Random) -> str:
    """A third of the game at random, then the habit."""
    opening = rounds // 3
    return "".join(rng.choice("RPS") for _ in range(opening)) + (HABIT * rounds)[: rounds - opening]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=options.output_file, default=ROOT / "docs" / "web.png")
    parser.add_argument("--rounds", type=options.positive_int, default=60)
    parser.add_argument(
        "--seed", type=options.seed, default=7, help="seeds the engine and the moves played"
    )
    args = parser.parse_args(argv)
    found = find_chromium()
    if isinstance(found, str):
        print(f"error: {found}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    moves = game_moves(args.rounds, rng)
    with (
        BackgroundServer(WebApp(rng=random.Random(rng.getrandbits(64)))) as server,
        start_chromium() as driver,
    ):
        driver.get(server.url)
        wait_for_game(driver)
        for number, letter in enumerate(moves, start=1):
            click_move(driver, letter, number)
        save_page(driver, args.out)
    print(f"played {len(moves)} rounds; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
