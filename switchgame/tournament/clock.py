"""The round clock: started for so many minutes, paused and resumed by the desk.

Pure: the time is handed in. A running clock is stored as the moment it ends (every screen counts
down to the same instant, whatever its own start); a paused one as what was left when it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from switchgame.words import N_, Sentence

MAX_MINUTES = 600  # ten hours: longer is a typing error, not a round


class ClockError(Exception):
    """The clock cannot do that now (pausing a clock that is not running, say)."""


@dataclass(frozen=True)
class RoundClock:
    ends_at: datetime | None = None
    paused_remaining: timedelta | None = None

    @property
    def running(self) -> bool:
        return self.ends_at is not None

    @property
    def paused(self) -> bool:
        return self.paused_remaining is not None

    def start(self, now: datetime, minutes: int) -> RoundClock:
        """Run for ``minutes`` from ``now`` (a restart replaces whatever was running or paused)."""
        if not 1 <= minutes <= MAX_MINUTES:
            raise ClockError(
                Sentence(
                    N_("A round lasts 1 to {most} minutes, not {minutes}."),
                    most=MAX_MINUTES,
                    minutes=minutes,
                )
            )
        return RoundClock(ends_at=now + timedelta(minutes=minutes))

    def pause(self, now: datetime) -> RoundClock:
        if self.ends_at is None:
            raise ClockError(Sentence(N_("The clock is not running: nothing to pause.")))
        return RoundClock(paused_remaining=max(self.ends_at - now, timedelta(0)))

    def resume(self, now: datetime) -> RoundClock:
        if self.paused_remaining is None:
            raise ClockError(Sentence(N_("The clock is not paused: nothing to resume.")))
        return RoundClock(ends_at=now + self.paused_remaining)

    def remaining(self, now: datetime) -> timedelta | None:
        """Time left (never below zero), or None for a clock never started."""
        if self.ends_at is not None:
            return max(self.ends_at - now, timedelta(0))
        return self.paused_remaining
