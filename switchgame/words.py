"""Sentences people read, marked for translation without translating them here.

The rules library is pure (no Django): it writes its sentences in English and marks them with
:func:`N_`, which returns its argument unchanged. The service's catalogue gathers every marked
sentence (``make messages`` passes ``N_`` to xgettext as a keyword), and the service translates it
where it shows it: ruleset titles and descriptions, and the reasons an action is refused
(:class:`switchgame.protocol.IllegalMove`, a template with its values apart), and the problems of
a table's result (:class:`Sentence`).
"""

from __future__ import annotations

import json


def N_(message: str) -> str:
    """``message`` itself: marked for the catalogue, translated where it is shown."""
    return message


class Sentence(str):
    """A sentence made from a marked ``template`` (``{name}`` placeholders) and its ``values``: the
    English sentence itself, which carries both apart so that the service can say it in the
    reader's language, ``gettext(template).format(**values)``."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Sentence:
        made = super().__new__(cls, template.format(**values))
        made.template = template
        made.values = values
        return made


def quoted(value: object) -> str:
    """``value`` as JSON writes it, for a sentence about what a client sent: the API speaks JSON
    (``"7Z"``, ``null``, ``true``, ``[1, 2]``), not Python (``'7Z'``, ``None``, ``True``)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON: said as text
        return json.dumps(str(value), ensure_ascii=False)
