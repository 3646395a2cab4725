"""Sentences people read, marked for translation without translating them here.

The rules library is pure (no Django): it writes its sentences in English and marks them with
:func:`N_`, which returns its argument unchanged. The service's catalogue gathers every marked
sentence (``make messages`` passes ``N_`` to xgettext as a keyword), and the service translates it
where it shows it: ruleset titles and descriptions, and the reasons an action is refused
(:class:`switchgame.protocol.IllegalMove`, a template with its values apart).
"""


def N_(message: str) -> str:
    """``message`` itself: marked for the catalogue, translated where it is shown."""
    return message
