# Either reading is possible: a Kaggle agent and rpscontest code that uses input and output.
def agent(observation, configuration):
    return 1


if input == "":
    output = "R"
else:
    output = "P"
