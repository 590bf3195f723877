"""A person against an opponent in the terminal (``main.py --play``, ``python -m roshambo play``).

The opponent is any arena player, built by :func:`session_opponent` from its registry name
("ai", a ``roshambo.opponents`` name, or "classic:NAME"). Computing and printing are apart:
:class:`Session` plays rounds and keeps the score as frozen :class:`Round` and :class:`Score`
values; :func:`run_session` reads moves from a text stream, prints each round and a summary
at the end, and ends cleanly on ``q``/``quit``, end of input or Ctrl-C. Any other input gets
a one-line explanation and nothing is counted.
"""

from __future__ import annotations

import random
import sys
import textwrap
from dataclasses import dataclass
from typing import Final, Literal, Protocol, TextIO, runtime_checkable

from ..arena.filebots import DEFAULT_MOVE_TIMEOUT, BotFailure
from ..arena.tournaments import make_player
from ..engine.agent import Belief
from ..engine.moves import NAMES, Move, outcome
from .explanation import explain
from .report import rate

QUIT: Final = "quit"
PROMPT: Final = "Your move ([r]ock, [p]aper, [s]cissors, [q]uit): "
_WORDS: dict[str, Move] = {
    word: move for move, name in enumerate(NAMES) for word in (name, name[0])
}
_QUIT_WORDS = frozenset({"q", "quit"})
# How many rounds a classic open_spiel bot is built for: far more than anyone types.
SESSION_THROWS: Final = 100_000
BELIEF_WIDTH: Final = 88  # --explain wraps its sentences to this many columns


class Opponent(Protocol):
    """Anything that picks a move from the person's previous one (None on the first)."""

    name: str

    def move(self, their_last: Move | None) -> Move: ...


@runtime_checkable
class Explaining(Protocol):
    """An opponent that can say what it currently believes (our :class:`~roshambo.engine.agent.Agent`)."""

    def belief(self) -> Belief: ...


def session_opponent(
    name: str,
    rng: random.Random | None = None,
    *,
    move_timeout: float = DEFAULT_MOVE_TIMEOUT,
    shims: tuple[str, ...] = (),
) -> Opponent:
    """A fresh opponent for a session, by arena player spec (``arena.make_player``).

    Unknown names raise ``ValueError`` listing the known ones; "classic:NAME" needs open_spiel;
    a bot file (``PATH.py``, ``rpscontest:PATH``, ``kaggle:PATH``) plays with ``move_timeout``.
    """
    return make_player(name, rng, throws=SESSION_THROWS, move_timeout=move_timeout, shims=shims)


@dataclass(frozen=True)
class Score:
    """The person's record so far; the win rate counts decisive rounds only, as fCC does."""

    wins: int = 0
    losses: int = 0
    ties: int = 0

    @property
    def rounds(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def win_rate(self) -> float:
        """Wins as a percentage of decisive rounds; 0.0 before any decisive round."""
        decisive = self.wins + self.losses
        return self.wins / decisive * 100 if decisive else 0.0

    def after(self, result: int) -> Score:
        """The score after one more round with ``result`` (+1 win, 0 tie, -1 loss)."""
        return Score(
            self.wins + (result > 0), self.losses + (result < 0), self.ties + (result == 0)
        )


@dataclass(frozen=True)
class Round:
    """One round: both moves, the result for the person, the score after it."""

    number: int
    human: Move
    machine: Move
    result: int
    score: Score
    belief: Belief | None = None


def parse_command(text: str) -> Move | Literal["quit"]:
    """r/p/s or rock/paper/scissors in any case (whitespace stripped) -> a move; q/quit -> QUIT.

    Anything else raises ``ValueError`` with a one-line explanation.
    """
    word = text.strip().lower()
    if word in _QUIT_WORDS:
        return QUIT
    if word in _WORDS:
        return _WORDS[word]
    raise ValueError(
        f"{text.strip()!r} is not a move: type r, p or s (or rock, paper, scissors), or q to quit."
    )


class Session:
    """A person against ``opponent``: the computing half of the terminal game."""

    def __init__(self, opponent: Opponent, explain: bool = False) -> None:
        self.opponent = opponent
        self.explain = explain
        self.reset()

    def reset(self) -> None:
        """Start over: no rounds, no score, no previous move."""
        self.score = Score()
        self.rounds: list[Round] = []
        self._last_human: Move | None = None

    def play(self, human: Move) -> Round:
        """Play one round; the opponent sees only the person's previous move."""
        machine = self.opponent.move(self._last_human)
        result = outcome(human, machine)
        self.score = self.score.after(result)
        belief = None
        if self.explain and isinstance(self.opponent, Explaining):
            belief = self.opponent.belief()
        played = Round(len(self.rounds) + 1, human, machine, result, self.score, belief)
        self.rounds.append(played)
        self._last_human = human
        return played


def format_score(score: Score, opponent: str) -> str:
    """'you 2, quincy 1, ties 0; your win rate 66.7%'."""
    return (
        f"you {score.wins}, {opponent} {score.losses}, ties {score.ties}; "
        f"your win rate {rate(score.wins, score.wins + score.losses)}"
    )


def format_round(played: Round, opponent: str) -> str:
    """One line: both moves, the result and the running score."""
    verdict = {1: "you win", 0: "tie", -1: f"{opponent} wins"}[played.result]
    return (
        f"Round {played.number}: you {NAMES[played.human]}, {opponent} {NAMES[played.machine]}"
        f" -> {verdict}. Score: {format_score(played.score, opponent)}"
    )


def format_belief(belief: Belief, width: int = BELIEF_WIDTH) -> str:
    """What the engine believes, in the browser page's words (``explanation.explain``):
    what it follows and why, then over which stretch, how sure, and whether it hedges."""
    words = explain(belief)
    said = [
        f"{words.lead}{belief.family}. {words.idea}",
        f"Window: {words.window}. Record: {words.record}. Mode: {words.mode_text}.",
    ]
    return "\n".join(
        textwrap.fill(text, width, initial_indent="  ", subsequent_indent="    ") for text in said
    )


def format_summary(score: Score, opponent: str, reason: str) -> str:
    """The closing line."""
    rounds = "round" if score.rounds == 1 else "rounds"
    return f"Game over ({reason}) after {score.rounds} {rounds}: {format_score(score, opponent)}."


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def run_session(
    opponent: Opponent,
    explain: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> Score:
    """Play against ``opponent`` reading moves from ``stdin`` until q, end of input or Ctrl-C."""
    inp = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    session = Session(opponent, explain)
    name = opponent.name
    echo = not _is_terminal(inp)  # piped input: echo it so the transcript reads like a terminal
    reason = "quit"
    try:
        out.write(f"Rock, paper, scissors against {name}. Type q to quit.\n")
        while True:
            out.write(PROMPT)
            out.flush()
            line = inp.readline()
            if not line:
                out.write("\n")
                reason = "end of input"
                break
            if echo:
                out.write(line if line.endswith("\n") else line + "\n")
            try:
                command = parse_command(line)
            except ValueError as err:
                out.write(f"{err}\n")
                continue
            if command == QUIT:
                break
            try:
                played = session.play(command)
            except BotFailure as failure:  # a bot from a file raised, cheated or timed out
                reason = f"{name} forfeits: {failure}"
                break
            out.write(format_round(played, name) + "\n")
            if played.belief is not None:
                out.write(format_belief(played.belief) + "\n")
    except KeyboardInterrupt:
        out.write("\n")
        reason = "interrupted"
    out.write(format_summary(session.score, name, reason) + "\n")
    out.flush()
    close = getattr(opponent, "close", None)
    if callable(close):
        close()
    return session.score
