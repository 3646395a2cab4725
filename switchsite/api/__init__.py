"""API plumbing every app shares: parsing, pagination, idempotency and schema helpers."""
