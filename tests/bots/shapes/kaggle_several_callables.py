# A Kaggle agent after helpers of its own: Kaggle calls the last top-level callable.
from collections import Counter

seen = Counter()


def beat(sign, signs):
    return (sign + 1) % signs


def count(sign):
    seen[sign] += 1


def agent(observation, configuration):
    if observation.step == 0:
        return 0
    count(observation.lastOpponentAction)
    return beat(observation.lastOpponentAction, configuration.signs)
