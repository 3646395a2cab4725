"""The tournaments' pure core: seating, who met whom, scoring, desk results and the chart.
Standard library only (and the games' pure rules and rating math): no Django, no I/O, no
randomness that was not handed in, so every rule here is tested and reasoned about as plain
functions."""
