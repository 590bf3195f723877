# An rpscontest script (rpscontest.com's runner convention): the runner sets the global
# `input` ("" on the first round, then the opponent's last move) and reads `output`.
# This one cycles rock, paper, scissors, with a random start: its namespace persists
# across the rounds of one match.
import random

if input == "":
    position = random.randrange(3)
else:
    position = (position + 1) % 3
output = "RPS"[position]
