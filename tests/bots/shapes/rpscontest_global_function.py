# rpscontest whose top level calls a function that sets the global output.
def play():
    global output
    output = "R" if input == "" else {"R": "P", "P": "S", "S": "R"}[input]


play()
