"""The fCC scenario benchmark: what it counts (losses and their timing) and how it reports."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_scenarios():
    spec = importlib.util.spec_from_file_location("fcc_scenarios", ROOT / "benchmarks" / "fcc_scenarios.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def test_a_match_reports_its_rate_and_the_games_lost() -> None:
    scenarios = load_scenarios()
    (rate, losses, late), = scenarios.play_process(0, ["kris"], engine_seed=5)
    assert 0 <= late <= losses <= 1000 and rate >= 99.0
    # the rate is wins / (wins + losses): the losses must give a whole number of wins
    wins = rate * losses / (100.0 - rate) if rate < 100.0 else None
    assert wins is None or (abs(wins - round(wins)) < 1e-6 and round(wins) + losses <= 1000)


def test_the_table_splits_losses_by_time() -> None:
    scenarios = load_scenarios()
    Match = scenarios.Match
    matches = [Match(scenario, 0, bot, rate, losses, late)
               for bot in scenarios.BOTS
               for scenario, rate, losses, late in (("fresh", 99.5, 5, 0), ("main.py order", 98.9, 11, 4))]
    text = scenarios.table(matches)
    row = next(line for line in text.splitlines() if line.startswith("quincy") and " all " in line)
    # two matches: one at 99% or more, 8.0 games lost on average, 11 at most, 4 of 16 late
    assert "1/2" in row and "8.00" in row and " 11 " in row and row.endswith("25%")
    assert text.splitlines()[-1] == "all matches at 99% or more: 4 of 8"
