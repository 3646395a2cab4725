"""Games: the Django app of players, matches and their events, served over the API (the rules are switchgame)."""
