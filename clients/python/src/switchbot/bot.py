"""What a bot author writes: a ``Bot`` whose ``choose`` picks a move from a view. The kit does the
rest (``switchbot.runner``)."""

from __future__ import annotations

from switchbot.schema import Action, ActionRequest, Challenge, View


class Bot:
    """A player of Switch. Override ``choose``; ``accepts`` if it should turn challenges down.

    ``choose`` is called with the view of a match in which it is the bot's seat to act — a new
    turn, acting again within one (playing on, covering a queen), or a question put to it — and
    returns one of ``view["legal_moves"]``, as it is (the kit adds ``expected_version``). It may be
    called for several matches, one call at a time."""

    def choose(self, view: View) -> Action | ActionRequest:
        raise NotImplementedError(f"{type(self).__name__} must define choose(view)")

    def accepts(self, challenge: Challenge) -> bool:
        """Whether to accept a challenge (its ruleset, seats, options, rated…): yes, by default."""
        return True
