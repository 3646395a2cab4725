"""A complete bot for the Switch game service, written with the bot kit (``clients/python``): it
plays both games, every ruleset. The kit does the rest — the feed, resuming it, retries,
challenges, ladders (docs/api.md, "The bot kit").

    pip install ./clients/python
    export SWITCH_PASSWORD='a long secret phrase'
    switch-bot run examples/bot.py --username robo --create jacks-twos-eights --seats 4 --matches 1
    switch-bot run examples/bot.py --username robo --create abbott --seats 4 --matches 1
    switch-bot run examples/bot.py --username robo                    # waits to be challenged
    switch-bot run examples/bot.py --username robo --ladder switch-4  # plays a ladder

Its play is simple on purpose: it plays a card (in Abbott's Switch, takes one) when it can,
agrees when asked to end an Abbott hand, and otherwise does any thing it is allowed to.
"""

from __future__ import annotations

import random

from switchbot import Bot
from switchbot.schema import Action, View


class SimpleBot(Bot):
    def __init__(self) -> None:
        # Seeded: the same practice match (--practice-seed) is played the same way every time.
        self.rng = random.Random(1)

    def choose(self, view: View) -> Action:
        """Any object of ``legal_moves`` is posted back as it is."""
        moves = view["legal_moves"]
        if view["game"] == "abbott":
            if {"action": "decline_end"} in moves:  # asked to agree to end the hand: agree
                return {"action": "propose_end"}
            grid = view.get("grid") or []
            takes = [m for m in moves if m["action"] == "move" and grid[m["to"][0]][m["to"][1]]]
            steps = [m for m in moves if m["action"] in ("move", "pass")]
            return self.rng.choice(takes or steps or moves)
        plays = [m for m in moves if m["action"] == "play"]
        return self.rng.choice(plays or moves)
