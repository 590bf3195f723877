# rpscontest code kept as a string and run with exec inside a Kaggle wrapper.
code = """
if input == "":
    output = "R"
else:
    output = {"R": "P", "P": "S", "S": "R"}[input]
"""

compiled = compile(code, "<rpscontest>", "exec")
namespace = {}


def run(observation, configuration):
    namespace["input"] = "" if observation.step == 0 else "RPS"[observation.lastOpponentAction]
    exec(compiled, namespace)
    return "RPS".index(namespace["output"])
