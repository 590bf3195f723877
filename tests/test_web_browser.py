"""The browser app in a real browser (issue 20): headless Chromium driven by selenium.

Plays 20 rounds by clicking and 5 by keys, then checks the round, the scores, the belief
panel and the chart against the game the server holds. Skips, saying why, only where no
Chromium (or selenium) is installed; CI installs both (``.ci/run``).
"""

from __future__ import annotations

import json
import random
import urllib.request

import pytest

from conftest import load_benchmark
from roshambo.apps.web import BackgroundServer, WebApp
from roshambo.engine.moves import LETTERS, outcome


def load_browser_helpers():  # type: ignore[no-untyped-def]
    return load_benchmark("web_screenshot.py", "web_screenshot")


browser = load_browser_helpers()
FOUND = browser.find_chromium()
pytestmark = pytest.mark.skipif(isinstance(FOUND, str), reason=f"no browser to drive: {FOUND}")

CLICKS = "RRPSPPRSSRPRRSPSPRSR"
KEYS = "rPsRp"


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def chart_points(driver) -> list[tuple[float, float]]:  # type: ignore[no-untyped-def]
    text = browser.by_testid(driver, "chart-line").get_attribute("points") or ""
    return [tuple(float(v) for v in pair.split(",")) for pair in text.split()]  # type: ignore[misc]


def test_play_by_clicks_and_keys() -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select, WebDriverWait

    with (
        BackgroundServer(WebApp(rng=random.Random(20))) as server,
        browser.start_chromium() as driver,
    ):
        driver.get(server.url)
        browser.wait_for_game(driver)
        text = lambda testid: browser.by_testid(driver, testid).text  # noqa: E731
        assert (text("round"), text("score-you"), text("score-ai")) == ("0", "0", "0")
        for number, letter in enumerate(CLICKS, start=1):
            browser.click_move(driver, letter, number)
        for number, key in enumerate(KEYS, start=len(CLICKS) + 1):
            ActionChains(driver).send_keys(key).perform()
            browser.wait_for_round(driver, number)

        game_url = browser.by_testid(driver, "download").get_attribute("href")
        state = get_json(game_url.rsplit("/csv", 1)[0])
        played = CLICKS + KEYS.upper()
        assert state["round"] == 25 and "".join(m["you"] for m in state["moves"]) == played
        score = state["score"]
        assert text("round") == "25"
        assert (text("score-you"), text("score-ai"), text("score-ties")) == (
            str(score["you"]),
            str(score["ai"]),
            str(score["ties"]),
        )
        assert score["you"] + score["ai"] + score["ties"] == 25
        assert text("win-rate") == f"{round(score['win_rate'])}%"

        # the chart: one point per round from the first decisive one, ending at the win rate
        results = [outcome(LETTERS.index(m["you"]), LETTERS.index(m["ai"])) for m in state["moves"]]
        first_decisive = next(i for i, r in enumerate(results) if r != 0)
        points = chart_points(driver)
        assert len(points) == 25 - first_decisive
        assert [x for x, _ in points] == sorted(x for x, _ in points)
        assert points[-1][1] == pytest.approx(200 - 188 * score["win_rate"] / 100, abs=0.2)

        # the belief panel shows what the server says the engine believes
        belief = state["belief"]
        assert (
            text("belief-family") == belief["family"]
            and text("belief-strategy") == belief["strategy"]
        )
        assert (
            text("belief-window").startswith("none")
            if belief["exact"]
            else str(belief["window"]) in text("belief-window")
        )
        assert text("belief-mode").split(":")[0] in ("hedging", "cautious", "exact", "confident")
        rows = browser.by_testid(driver, "history").find_elements("css selector", "tbody tr")
        assert len(rows) == 8 and rows[0].text.split()[0] == "25"

        # New game starts over, against the opponent chosen
        Select(browser.by_testid(driver, "opponent")).select_by_value("rockbot")
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element("id", "ai-label").text == "rockbot"
        )
        assert (text("round"), text("score-you"), text("score-ai")) == ("0", "0", "0")
        assert chart_points(driver) == []
        browser.click_move(driver, "P", 1)
        assert (
            text("score-you") == "1"
            and "rockbot" in text("belief")
            and "no beliefs" in text("belief")
        )
        browser.by_testid(driver, "new-game").click()
        browser.wait_for_round(driver, 0)
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element("id", "ai-label").text == "rockbot"
        )
        assert browser.by_testid(driver, "download").get_attribute("href") != game_url
        assert text("status") == ""
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert errors == []
