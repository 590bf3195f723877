# rpscontest, no functions: rock first, then beat the opponent's last move.
if input == "":
    output = "R"
else:
    output = {"R": "P", "P": "S", "S": "R"}[input]
