"""The organiser's desk: a tournament's page carries the button for the next step (start, seat,
publish, next round), its entries with drop buttons and a bulk entry form (guests typed or pasted
from a spreadsheet, players, bots), a result form per table with the running totals shown before
saving, printable A4 pages (tables by table and by name, result slips, standings) and the
standings with a chart. Drafted rounds can be edited on the round's page before publishing.

Every button calls the same service as the API, so the rules hold whichever door is used.
"""

from tournaments.admin import rounds, series, tables, tournaments

__all__ = ["rounds", "series", "tables", "tournaments"]
