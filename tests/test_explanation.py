"""The belief in words: one text for the terminal's --explain and the browser page."""

from __future__ import annotations

import random

import pytest

from roshambo.apps.explanation import FAMILY_IDEAS, explain
from roshambo.apps.terminal import format_belief
from roshambo.apps.web import belief_data
from roshambo.engine.agent import Agent, Belief, family_of
from roshambo.engine.predictors import PREDICTORS


def belief(strategy: str = "frequency@10-ties'.0", **changes: object) -> Belief:
    fields: dict[str, object] = dict(
        strategy=strategy,
        family=family_of(strategy),
        window=1000,
        rotation=0,
        score=-1.0,
        hedging=False,
    )
    fields.update(changes)
    return Belief(**fields)  # type: ignore[arg-type]


def test_every_family_of_the_line_up_has_words_and_no_other() -> None:
    families = {family_of(f"{name}.0") for name in PREDICTORS}
    assert families == set(FAMILY_IDEAS), (
        families - set(FAMILY_IDEAS),
        set(FAMILY_IDEAS) - families,
    )


def test_the_issues_example_reads_in_words() -> None:
    words = explain(belief())
    assert words.lead == "It follows "
    assert words.idea.startswith("The frequency idea expects your most frequent move.")
    assert "run from your side" in words.idea  # the ' strategy: it predicts the AI
    assert words.window == "the strategy with the best record over the last 1000 rounds"
    assert words.record.startswith("-1.00 (wins minus losses")
    assert (words.mode, words.mode_text) == ("confident", "confident: it follows the strategy")


@pytest.mark.parametrize(
    "changes, mode",
    [
        ({"hedging": True}, "hedging"),
        ({"cautious": True}, "cautious"),
        ({"exact": True}, "exact"),
        ({}, "confident"),
        ({"hedging": True, "cautious": True}, "hedging"),
    ],
)
def test_the_mode_says_whether_it_hedges(changes: dict[str, object], mode: str) -> None:
    words = explain(belief(**changes))
    assert words.mode == mode and words.mode_text.startswith(mode + ":")
    assert words.lead == (
        "It is hedging; its best idea is " if mode == "hedging" else "It follows "
    )


def test_second_guessing_and_rotations_are_counted_in_steps() -> None:
    words = explain(belief("markov.2", rotation=1, score=2.5))
    assert words.idea.endswith("second-guesses it by 2 steps.")
    assert words.rotation == "1 (second-guesses: shifts the move 1 step)"
    assert words.record.startswith("+2.50")
    assert "needs no record" in explain(belief(exact=True)).window


def test_the_terminal_and_the_browser_say_the_same_words() -> None:
    shown = belief("history-both.1", window=50, rotation=2, score=3.0)
    words = belief_data(shown)["words"]  # type: ignore[index]
    printed = " ".join(format_belief(shown).split())
    for text in (words["idea"], words["window"], words["record"], words["mode_text"]):
        assert " ".join(text.split()) in printed
    assert printed.startswith("It follows history.")
    assert all(len(line) <= 88 for line in format_belief(shown).splitlines())


def test_a_real_engine_belief_is_explained_every_round() -> None:
    agent = Agent(random.Random(5))
    last = None
    for move in [0, 1, 2] * 20:
        agent.move(last)
        last = move
        text = format_belief(agent.belief())
        assert text.startswith("  It ") and "Mode: " in " ".join(text.split())
