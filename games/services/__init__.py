"""Every write of the match service, one module per part (HackSoft's services):

- :mod:`~games.services.players` — registration, tokens, game profiles, a player's own feed;
- :mod:`~games.services.tokens` — named tokens with scopes, and seat links' tokens;
- :mod:`~games.services.matches` — creating, joining and starting matches, moves, bots, turn
  clocks, resigning and abandoning;
- :mod:`~games.services.challenges` — invitations that become matches;
- :mod:`~games.services.ratings` — rated results and their replay in date order;
- :mod:`~games.services.records` — the deals of a game record, kept once the match is over;
- :mod:`~games.services.pipeline` — the one pipeline every change of a match ends in (an optimistic
  write, retried by one policy), and :mod:`~switchgame.decision`, the pure step that decides
  what an advance does (status, clock, seeds, the next deal, who hears what, bots to wake);
- :mod:`~games.services.writer` — the rows of that write (the match, its events, the players' feed
  entries) in as few statements as the database allows.

The public functions are re-exported here: callers write ``services.match_create(...)``.
"""

from games.services.challenges import (
    MatchSettings,
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_decline,
    challenges_expire,
)
from games.services.matches import (
    REPLACEMENT_BOT,
    RESIGN_POLICIES,
    STRIKES_BEFORE_TAKEOVER,
    ActionResult,
    action_apply,
    bot_turns_play,
    match_abandon,
    match_create,
    match_join,
    match_resign,
    match_start,
    stalled_matches,
    turn_timeout_apply,
)
from games.services.players import (
    name_key,
    player_notify,
    player_profile,
    player_register,
    token_obtain,
    tokens_revoke,
)
from games.services.ratings import (
    games_to_replay,
    rated_results_write,
    ratings_replay_step,
)
from games.services.records import record_deals_keep
from games.services.retention import old_events_purge
from games.services.tokens import (
    account_token,
    seat_links_renew,
    seat_token_create,
    seat_tokens_revoke,
    token_create,
    token_revoke,
)

__all__ = [
    "REPLACEMENT_BOT",
    "RESIGN_POLICIES",
    "STRIKES_BEFORE_TAKEOVER",
    "ActionResult",
    "MatchSettings",
    "account_token",
    "action_apply",
    "bot_turns_play",
    "challenge_accept",
    "challenge_cancel",
    "challenge_create",
    "challenge_decline",
    "challenges_expire",
    "games_to_replay",
    "match_abandon",
    "match_create",
    "match_join",
    "match_resign",
    "match_start",
    "name_key",
    "old_events_purge",
    "player_notify",
    "player_profile",
    "player_register",
    "rated_results_write",
    "ratings_replay_step",
    "record_deals_keep",
    "seat_links_renew",
    "seat_token_create",
    "seat_tokens_revoke",
    "stalled_matches",
    "token_create",
    "token_obtain",
    "token_revoke",
    "tokens_revoke",
    "turn_timeout_apply",
]
