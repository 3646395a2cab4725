"""Club tournaments: registration, seating, rounds, scoring and standings."""
