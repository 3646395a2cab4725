"""The deal's random number generator: deterministic from a seed, and re-creatable in any language.

Shuffles must be fair (the service draws the seed from a cryptographic source and publishes its
SHA-256 as a commitment) and checkable afterwards (the seed is revealed when the deal ends, and anyone
can re-create the deal). So the generator is deliberately simple to re-implement:

* draw number ``k`` (0, 1, 2, …) is the first 8 bytes, big-endian, of
  ``SHA-256(seed || k as 8 bytes big-endian)``;
* ``randbelow(n)`` takes draws until one is below the largest multiple of ``n`` that fits in 64 bits
  (rejection sampling, so there is no modulo bias) and returns it modulo ``n``;
* ``shuffle`` is Fisher–Yates from the end: for ``i`` from ``len - 1`` down to ``1``, swap item ``i``
  with item ``randbelow(i + 1)``.

The state is just ``(seed, counter)``, so copying and persisting it is cheap.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any, Self

_SPACE = 1 << 64
_COUNTER = struct.Struct(">Q")  # a draw's number as 8 bytes, big-endian; a digest's first 8 bytes


class DealRng:
    __slots__ = ("_seeded", "counter", "seed")

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        if not isinstance(seed, bytes) or not seed:
            raise ValueError("the seed must be non-empty bytes")
        self.seed = seed
        self.counter = counter
        # The hash state after the seed: each draw copies it rather than hashing the seed again.
        self._seeded = hashlib.sha256(seed)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``: draws until one is below a multiple of ``n``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _SPACE - _SPACE % n
        while True:
            hasher = self._seeded.copy()
            hasher.update(_COUNTER.pack(self.counter))
            self.counter += 1
            value: int = _COUNTER.unpack_from(hasher.digest())[0]
            if value < limit:
                return value % n

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates, as documented above)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> Self:
        return type(self)(self.seed, self.counter)

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed.hex(), "counter": self.counter}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(bytes.fromhex(data["seed"]), data["counter"])


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a deal's secret seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()
