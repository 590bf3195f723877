"""The strategy board agrees with its plain twin: random rounds (predictions with many
silent halves, so that silent bests give way or not) played into both, over line-ups with
idle halves, one-half predictors and a predictor that is never selectable."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from roshambo.engine.lineup import LineUp
from roshambo.engine.moves import Move
from roshambo.engine.predictors import PREDICTORS
from roshambo.engine.scoring import StrategyBoard
from roshambo.engine.scoring_plain import PlainStrategyBoard

NAMES = sorted(PREDICTORS)
SAID = st.one_of(st.none(), st.integers(min_value=0, max_value=2))


@st.composite
def lineups(draw: st.DrawFn) -> LineUp:
    chosen = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=6, unique=True))
    if chosen == ["random"]:
        chosen.append(NAMES[0])
    return LineUp({name: PREDICTORS[name] for name in chosen})


def said(draw: st.DrawFn, halves: int, quiet: bool) -> list[Move | None]:
    """What ``halves`` working halves say: mostly silent in a quiet round."""
    if quiet:
        return [draw(st.sampled_from((None, None, None, 0))) for _ in range(halves)]
    return [draw(SAID) for _ in range(halves)]


@settings(max_examples=150, deadline=None)
@given(
    st.data(),
    lineups(),
    st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=4, unique=True),
    st.integers(min_value=0, max_value=5),
)
def test_the_board_agrees_with_its_plain_twin(
    data: st.DataObject, lineup: LineUp, windows: list[int], naive_prior: int
) -> None:
    board = StrategyBoard(lineup, tuple(windows), naive_prior)
    plain = PlainStrategyBoard(lineup, tuple(windows), naive_prior)
    opening = data.draw(st.integers(min_value=0, max_value=10))
    for round_ in range(data.draw(st.integers(min_value=1, max_value=30))):
        quiet = data.draw(st.booleans())
        direct = said(data.draw, len(lineup.working[0]), quiet)
        mirrored = said(data.draw, len(lineup.working[1]), quiet)
        lineup.direct, lineup.mirrored = direct, mirrored
        assert board.bests(direct, mirrored) == plain.bests(direct, mirrored)
        for move in range(3):
            assert board.best_accuracy(move, direct, mirrored) == plain.best_accuracy(
                move, direct, mirrored
            )
        theirs = data.draw(st.integers(min_value=0, max_value=2))
        board.record(theirs, direct, mirrored, accuracy=round_ < opening)
        plain.record(theirs, direct, mirrored, accuracy=round_ < opening)
        assert [board.streak(s) for s in range(board.strategies)] == [
            plain.streak(s) for s in range(plain.strategies)
        ]


def test_the_idle_halves_take_one_half_of_the_board() -> None:
    """Every idle half is silent for good: one stands for them all on the board."""
    lineup = LineUp(dict(PREDICTORS))
    assert lineup.idle > 1
    board = StrategyBoard(lineup, (10, 100), 4)
    working = len(lineup.working[0]) + len(lineup.working[1])
    assert board._fields.count == 3 * (working + 1)
