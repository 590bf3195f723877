"""freeCodeCamp entry point: ``player(prev_play)`` returns "R", "P" or "S".

State lives in the mutable default argument, as the fCC boilerplate expects: it holds one
engine (:class:`roshambo.engine.agent.Agent`), which starts a new match whenever ``prev_play == ""``
(the start of every match in ``RPS_game.play``): every score starts afresh, while the models
of an opponent that keeps its state between matches, as the fCC bots do, carry over (see
``Agent.new_match``). A first call that already carries a move starts a match too, since
that move answers none of ours. The input is validated before anything changes, so a bad
call raises and leaves the match exactly as it was.
"""

from roshambo.engine.agent import Agent
from roshambo.engine.moves import parse_letter, to_letter


def player(prev_play, opponent_history=[]):
    their_last = parse_letter(prev_play)  # raises on bad input, before any state changes
    if not isinstance(opponent_history, list):
        raise TypeError(
            f"opponent_history is the list that keeps this player's state, not "
            f"{opponent_history!r}: call player(prev_play) and let the default argument keep it"
        )
    if not opponent_history:
        opponent_history.append(Agent())
    engine = opponent_history[0]
    if not isinstance(engine, Agent):
        raise TypeError(
            f"opponent_history holds this player's engine, not {engine!r}: call "
            "player(prev_play) and let the default argument keep the state"
        )
    if their_last is None or not engine.started:
        engine.new_match()
        their_last = None
    return to_letter(engine.move(their_last))
