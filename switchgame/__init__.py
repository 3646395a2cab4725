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

It is a library of its own (``pip install ./switchgame`` installs it without the service): three
heuristic bots play a match of the ``switch`` preset to its end, every deal from its seed:

>>> from switchgame import bots, catalog
>>> game = catalog.new_game("switch", 3)
>>> facts = [bots.MatchFacts("switch", 3, seat) for seat in range(3)]
>>> turns = 0
>>> while not game.is_over:
...     if game.needs_deal:
...         events = game.deal(bytes(32))
...     else:
...         seat = game.to_move
...         view = game.view(seat)  # what the seat may know, all a bot reads
...         seed = str(turns)  # makes the bot's choice reproducible
...         action = bots.choose_action(
...             "heuristic", game="shedding", view=view, facts=facts[seat], seed=seed
...         )
...         events = game.apply(action)
...         turns += 1
>>> turns, game.outcome().ranking
(81, (2, 1, 0))
"""

from switchgame.build_guard import choose_build

choose_build()
