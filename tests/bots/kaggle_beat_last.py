"""A Kaggle rps agent: beat the opponent's last sign, random on the first step.

Kaggle calls the file's last top-level callable as agent(observation, configuration).
`rounds_seen` is module state, which must not leak from one match into the next.
"""

import random

rounds_seen = []


def agent(observation, configuration):
    rounds_seen.append(observation.step)
    if len(rounds_seen) != observation.step + 1:
        raise RuntimeError(
            f"module state leaked: {len(rounds_seen)} calls by step {observation.step}"
        )
    if observation.step == 0:
        return random.randrange(configuration.signs)
    return (observation["lastOpponentAction"] + 1) % configuration.signs
