# A Kaggle agent as a callable class instance, with its state on the instance.
class BeatLast:
    def __init__(self):
        self.rounds = 0

    def __call__(self, obs, conf):
        self.rounds += 1
        if obs.step == 0:
            return 0
        return (obs.lastOpponentAction + 1) % conf.signs


agent = BeatLast()
