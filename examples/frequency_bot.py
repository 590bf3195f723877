# An rpscontest script: the runner sets `input` ("" on the first round, then the opponent's
# last move, "R", "P" or "S") and reads `output`; the namespace lasts the whole match.
# It plays what beats the opponent's most frequent move of their last 20.
#
#     python -m roshambo match examples/frequency_bot.py rockbot
import random

if input == "":
    recent = []
else:
    recent = (recent + [input])[-20:]

if recent:
    favourite = max("RPS", key=recent.count)
    output = {"R": "P", "P": "S", "S": "R"}[favourite]
else:
    output = random.choice("RPS")
