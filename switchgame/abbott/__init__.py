"""Abbott's Switch (Robert Abbott, 1963): the grid game with alliances, poker hands and totals to 20.

Pure Python, no Django: ``rulesets.create_game`` makes an ``AbbottGame`` (``game.py``), which
implements ``switchgame.protocol.GameState``; ``poker.best_hand`` ranks any number of cards.
"""
