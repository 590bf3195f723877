# Neither reading: no function of (observation, configuration), no output.
BEATS = {"R": "P", "P": "S", "S": "R"}


def beat(move):
    return BEATS[move]
