"""A Kaggle ``rps`` agent: kaggle-environments calls ``agent(observation, configuration)``
every step and takes 0 (rock), 1 (paper) or 2 (scissors).

It counts which move the opponent played after each of their moves (a first-order Markov
chain) and plays what beats the likeliest next one.

    python -m roshambo match examples/markov_agent.py quincy
"""

import random

counts = [[0, 0, 0] for _ in range(3)]  # counts[previous][next], their moves
previous = None


def agent(observation, configuration):
    global previous
    if observation.step == 0:
        return random.randrange(configuration.signs)
    last = observation.lastOpponentAction
    if previous is not None:
        counts[previous][last] += 1
    previous = last
    row = counts[last]
    if max(row) == 0:
        return random.randrange(configuration.signs)
    likeliest = row.index(max(row))
    return (likeliest + 1) % configuration.signs
