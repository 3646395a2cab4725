"""The shedding Switch rules engine: pure Python, no Django, randomness only from a DealRng.

``rulesets`` (options, presets, ``create_game``), ``shedding`` (the game state), ``scoring`` (the
French tally and placements), ``cards`` and ``rng`` (shared with Abbott's engine), ``protocol``.
``make`` compiles these modules with mypyc; ``build_guard`` makes sure that a compiled module is never
older than its source.
"""

from games.engine.build_guard import check_fresh

check_fresh()
