# rpscontest with helper functions, one of them of two parameters (not a Kaggle agent).
def beat(move):
    return {"R": "P", "P": "S", "S": "R"}[move]


def last(history, count):
    return history[-count:]


if input == "":
    history = ""
    output = "R"
else:
    history += input
    output = beat(last(history, 1))
