"""The deal RNG (switchgame/shuffle.py): deterministic, documented, copyable."""

from __future__ import annotations

import hashlib

from switchgame.shuffle import DealRng, seed_commitment


def test_draws_follow_the_documented_recipe() -> None:
    rng = DealRng(b"seed")
    digest = hashlib.sha256(b"seed" + (0).to_bytes(8, "big")).digest()
    expected = int.from_bytes(digest[:8], "big") % 52
    assert rng.randbelow(52) == expected


def test_same_seed_same_shuffle_and_copy_continues_alike() -> None:
    a, b = DealRng(b"s"), DealRng(b"s")
    deck_a, deck_b = list(range(52)), list(range(52))
    a.shuffle(deck_a)
    b.shuffle(deck_b)
    assert deck_a == deck_b
    assert deck_a != list(range(52))
    twin = DealRng.from_dict(a.to_dict())
    assert [a.randbelow(10) for _ in range(20)] == [twin.randbelow(10) for _ in range(20)]
    copy = a.copy()
    assert a.randbelow(1000) == copy.randbelow(1000)


def test_commitment_is_sha256() -> None:
    assert seed_commitment(b"x") == hashlib.sha256(b"x").hexdigest()
