"""The service as ``make serve`` runs it, but writing a match's advance with the writer of any
database — the ORM, a statement per table — on PostgreSQL too, instead of the one statement
``games.services.writer`` sends there. ``python -m benchmarks.move_load --writers`` serves it beside
the shipped service to measure what the one statement is worth.

    uvicorn benchmarks.orm_writer:application
"""

from switchsite.asgi import application  # first: it sets Django up

# isort: split
from games.services import writer

writer._advance_in_one_statement = writer._advance_by_orm

__all__ = ["application"]
