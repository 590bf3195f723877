"""The freeCodeCamp "Rock Paper Scissors" game module, written from its specification.

Behaviour matches the official module move for move, with two deliberate deviations:
``play`` rejects any move that is not exactly "R", "P" or "S" with a ``ValueError`` that
names the player, the game number and the value (the official module miscounts it), and
a ``num_games`` that is not an int of at least 1 before any game, naming it (the official
module reports a 0% win rate for 0 or -1, and a TypeError about str for '10').
"""
import random

BEATS = {"P": "R", "R": "S", "S": "P"}  # key beats value
COUNTERS = {"R": "P", "P": "S", "S": "R"}  # value beats key


def _check(move, who, game):
    if not isinstance(move, str) or move not in BEATS:
        raise ValueError(
            f"{who} returned {move!r} in game {game}: a move must be exactly 'R', 'P' or 'S'"
        )
    return move


def play(player1, player2, num_games, verbose=False):
    if isinstance(num_games, bool) or not isinstance(num_games, int):
        raise TypeError(
            f"num_games must be an int, got {num_games!r} of type {type(num_games).__name__}"
        )
    if num_games < 1:
        raise ValueError(f"num_games must be at least 1, got {num_games!r}")
    p1_prev = ""
    p2_prev = ""
    results = {"p1": 0, "p2": 0, "tie": 0}

    for game in range(1, num_games + 1):
        p1_play = _check(player1(p2_prev), "player 1", game)
        p2_play = _check(player2(p1_prev), "player 2", game)

        if p1_play == p2_play:
            results["tie"] += 1
            winner = "Tie."
        elif BEATS[p1_play] == p2_play:
            results["p1"] += 1
            winner = "Player 1 wins."
        else:
            results["p2"] += 1
            winner = "Player 2 wins."

        if verbose:
            print("Player 1:", p1_play, "| Player 2:", p2_play)
            print(winner)
            print()

        p1_prev = p1_play
        p2_prev = p2_play

    games_won = results["p2"] + results["p1"]
    win_rate = results["p1"] / games_won * 100 if games_won > 0 else 0

    print("Final results:", results)
    print(f"Player 1 win rate: {win_rate}%")

    return win_rate


def quincy(prev_play, counter=[0]):
    counter[0] += 1
    choices = ["R", "R", "P", "P", "S"]
    return choices[counter[0] % len(choices)]


def mrugesh(prev_opponent_play, opponent_history=[]):
    opponent_history.append(prev_opponent_play)
    last_ten = opponent_history[-10:]
    most_frequent = max(set(last_ten), key=last_ten.count)

    if most_frequent == "":
        most_frequent = "S"

    return COUNTERS[most_frequent]


def kris(prev_opponent_play):
    if prev_opponent_play == "":
        prev_opponent_play = "R"
    return COUNTERS[prev_opponent_play]


def abbey(prev_opponent_play,
          opponent_history=[],
          play_order=[{
              "RR": 0, "RP": 0, "RS": 0,
              "PR": 0, "PP": 0, "PS": 0,
              "SR": 0, "SP": 0, "SS": 0,
          }]):
    if not prev_opponent_play:
        prev_opponent_play = "R"
    opponent_history.append(prev_opponent_play)

    last_two = "".join(opponent_history[-2:])
    if len(last_two) == 2:
        play_order[0][last_two] += 1

    potential_plays = [prev_opponent_play + "R", prev_opponent_play + "P", prev_opponent_play + "S"]
    sub_order = {k: play_order[0][k] for k in potential_plays if k in play_order[0]}
    prediction = max(sub_order, key=sub_order.get)[-1:]

    return COUNTERS[prediction]


def human(prev_opponent_play):
    play = ""
    while play not in ["R", "P", "S"]:
        play = input("[R]ock, [P]aper, [S]cissors? ")
        print(play)
    return play


def random_player(prev_opponent_play):
    return random.choice(["R", "P", "S"])
