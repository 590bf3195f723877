"""The engine's belief in plain words, one text for the terminal and the browser alike.

:func:`explain` turns a :class:`~roshambo.engine.agent.Belief` into sentences: what the engine
follows and what that idea expects, over which stretch of the match, how sure it is (the
record), and whether it hedges. ``python -m roshambo play --explain`` prints them; the web
API sends them with every round (``belief.words``) and the page shows them as they come.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.agent import Belief

# What each predictor family does, finishing "The NAME idea ..."
FAMILY_IDEAS: dict[str, str] = {
    "history": "finds the last time the recent rounds looked like now, and expects what was played next",
    "markov": "counts what was played after each short run of moves (a Markov chain)",
    "novelty": "expects the move least often played after this run of moves",
    "frequency": "expects your most frequent move",
    "rarity": "expects your least frequent move",
    "calibrated": "models a player who counts moves, and learns how it breaks ties",
    "windows": "models a player beating the most (or least) frequent of the other side's last N moves, any N up to 200",
    "lags": "models a player answering the other side's move of 1 to 50 rounds back the same way each time",
    "period": "expects a cycle of up to 40 moves to go on, read through its noise",
    "decayed": "models a player counting, with a fading memory, what followed the other side's last 1 to 32 moves",
    "carried": "runs a model kept from earlier matches, for a player who remembers them",
    "roll": "expects you to turn your move the way you usually do",
    "outcome": "expects you to turn your move the way you did after the same result",
    "sharpest": "counts your moves after the last round, seen four ways, and trusts the sharpest view",
    "blend": "blends the counts of every context length",
    "meta": "models a player who plays the best-scoring of many simple predictors of the other side",
}


@dataclass(frozen=True)
class Explanation:
    """A belief in words. ``lead`` + the family name + "." is the headline; ``mode`` is one
    of "hedging", "cautious", "exact", "confident", and ``mode_text`` says what it means."""

    lead: str
    idea: str
    window: str
    rotation: str
    record: str
    mode: str
    mode_text: str


def _steps(k: int) -> str:
    return f"{k} step{'s' if k > 1 else ''}"


def explain(belief: Belief) -> Explanation:
    """The sentences the terminal and the browser show for ``belief``."""
    strategy = belief.strategy
    turn = int(strategy.rsplit(".", 1)[1]) if "." in strategy else 0
    known = FAMILY_IDEAS.get(belief.family)
    whose = (
        "It pictures you predicting the AI: this idea, run from your side, says what you "
        "expect it to play"
        if "'" in strategy
        else "This idea predicts your move"
    )
    then = (
        ", and the AI plays what beats it."
        if turn == 0
        else f", and the AI second-guesses it by {_steps(turn)}."
    )
    idea = (f"The {belief.family} idea {known}. " if known else "") + whose + then
    window = (
        "none: a rule you have kept move after move needs no record"
        if belief.exact
        else f"the strategy with the best record over the last {belief.window} rounds"
    )
    rotation = (
        "0 (follows the strategy as it is)"
        if belief.rotation == 0
        else f"{belief.rotation} (second-guesses: shifts the move {_steps(belief.rotation)})"
    )
    sign = "+" if belief.score > 0 else ""
    record = (
        f"{sign}{belief.score:.2f} (wins minus losses of following it; each older round "
        f"counts 1% less)"
    )
    if belief.hedging:
        mode, mode_text = "hedging", "hedging: it trusts no strategy and plays at random"
    elif belief.cautious:
        mode, mode_text = "cautious", "cautious: it played for a tie or a win"
    elif belief.exact:
        mode, mode_text = (
            "exact",
            (
                "exact: you have kept one rule move after move (a cycle "
                "from your first move, or beating a count of its recent "
                "moves), and it beats it"
            ),
        )
    else:
        mode, mode_text = "confident", "confident: it follows the strategy"
    lead = "It is hedging; its best idea is " if belief.hedging else "It follows "
    return Explanation(lead, idea, window, rotation, record, mode, mode_text)
