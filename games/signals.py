"""Signals the games app sends, so other apps react without games knowing them."""

from django.dispatch import Signal

# Sent after the commit that ends a match (finished or abandoned), with ``match_id``.
match_finished = Signal()
