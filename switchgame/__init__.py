"""Switch, the game itself, pure Python: no Django, no I/O, randomness only from the seed handed in.

The rules of both games at the top; around them ``bots`` (the strategies), ``records`` (a match's
replay, record and notation), ``decision`` (what follows a match's advance, the pipeline's pure
step), ``ratings`` (the rating math) and ``tournament`` (seating and scoring).

``protocol`` is what both games promise the service, the bots and the tournaments (a state with
``legal_actions()``, ``apply(action)``, ``view(seat)``, events out, an outcome); ``cards`` and
``shuffle`` (the published, seeded shuffle) are shared; ``shedding`` is shedding Switch with its
rulesets, ``abbott`` Abbott's Switch; ``catalog`` finds either game's rulesets by name. ``make``
compiles the shedding engine with mypyc; ``build_guard`` makes sure that a compiled module never
runs older than its source.
"""

from switchgame.build_guard import choose_build

choose_build()
