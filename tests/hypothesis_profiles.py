"""How many examples the costly property tests try, by Hypothesis profile.

A costly property test names the number of examples it tries in a thorough run and asks
:func:`examples` for its share under the profile in force (``--hypothesis-profile``):

- ``thorough``: the count as written, for a deliberate deep run (after changing the engine:
  ``make test-sources HYPOTHESIS_PROFILE=thorough``);
- ``ci``: a third, what ``make test`` and ``make test-sources`` (and so CI) run. Each CI run starts from a fresh clone with
  no example database, so it draws examples no earlier run tried: over three runs the engine is
  explored as far as one thorough run explores it;
- ``dev``: a fifteenth, the default, for ``make test-fast`` and a test run by hand.
"""

from __future__ import annotations

from hypothesis import settings

SHARES = {"thorough": 1.0, "ci": 1 / 3, "dev": 1 / 15}

settings.register_profile("thorough")
# A failure in CI prints the blob that replays it (@reproduce_failure), since CI's examples are
# new on every run.
settings.register_profile("ci", print_blob=True)
settings.register_profile("dev")
settings.load_profile("dev")


def examples(thorough: int) -> int:
    """The examples a test that tries ``thorough`` in a thorough run tries under this profile."""
    share = SHARES.get(settings.get_current_profile_name(), 1.0)
    return max(1, round(thorough * share))
