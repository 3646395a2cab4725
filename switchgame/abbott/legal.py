"""What the seat to move may do now in Abbott's Switch (docs/rules.md §4.4–§4.8), and the move a turn
clock makes for a player who lets it run out."""

from __future__ import annotations

from switchgame.abbott.poker import VALUE_OF, Key, evaluate
from switchgame.abbott.state import EMPTY, PLAY, AbbottState
from switchgame.protocol import Action, IllegalMove
from switchgame.words import N_


def legal_actions(state: AbbottState) -> list[Action]:
    if state.phase != PLAY:
        return []
    if state.asked is not None:
        return [{"action": "propose_end"}, {"action": "decline_end"}]
    targets = state.targets(state.turn)
    actions: list[Action] = [{"action": "move", "to": state.coordinates(t)} for t in targets]
    if not targets:
        actions.append({"action": "pass"})
    if can_ally(state):
        chooser = state.turn
        actions.extend(
            {"action": "ally", "partner": p} for p in range(state.players) if p != chooser
        )
    if not state.proposed[state._controls[state.turn]]:
        actions.append({"action": "propose_end"})
    return actions


def default_action(state: AbbottState) -> Action:
    """The move that most improves the hand of the piece's owner (ties: the highest card
    taken, then the first such square); ``pass`` when blocked; ``decline_end`` for a seat asked
    to agree to end the hand (a clock never agrees for a player)."""
    if state.phase != PLAY:
        raise IllegalMove(N_("nobody is to move"))
    if state.asked is not None:
        return {"action": "decline_end"}
    seat = state.turn
    current = state._best[seat][0]
    cards = state.captured[seat]
    best_target = -1
    best_score: tuple[Key, int] | None = None
    for t in state.targets(seat):
        taken = state.grid[t]
        score = (current, 0) if taken == EMPTY else (evaluate([*cards, taken])[0], VALUE_OF[taken])
        if best_score is None or score > best_score:
            best_target, best_score = t, score
    if best_target < 0:
        return {"action": "pass"}
    return {"action": "move", "to": state.coordinates(best_target)}


def can_ally(state: AbbottState) -> bool:
    """An alliance may be formed: four players, none formed yet this hand."""
    return state.players == 4 and state.alliance is None
