"""the API guide "Rulesets": every preset of both games, with its options."""

import pytest

pytestmark = pytest.mark.django_db

EXPECTED = {
    "switch": "shedding",
    "jack-change-it": "shedding",
    "french": "shedding",
    "black-jack": "shedding",
    "irish-switch": "shedding",
    "jacks-twos-eights": "shedding",
    "take-two": "shedding",
    "abbott": "abbott",
    "abbott-2": "abbott",
}


def test_every_ruleset_is_listed_with_its_game_and_fields(alice):
    response = alice.get("/api/v1/rulesets/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == len(EXPECTED)
    by_name = {r["name"]: r for r in body["results"]}
    assert {name: r["game"] for name, r in by_name.items()} == EXPECTED
    for ruleset in body["results"]:
        assert set(ruleset) >= {"name", "game", "title", "players", "options", "description"}
        low, high = ruleset["players"]
        assert 2 <= low <= high
    assert by_name["abbott"]["players"] == [4, 4]
    assert by_name["abbott-2"]["players"] == [2, 2]


def test_every_ruleset_names_the_bots_a_match_of_it_may_seat(alice):
    """A client offers the strategies the service has (docs/api.md, "Rulesets")."""
    by_name = {r["name"]: r for r in alice.get("/api/v1/rulesets/").json()["results"]}

    assert set(by_name["switch"]["bots"]) >= {"random", "heuristic"}
    assert by_name["abbott"]["bots"] == by_name["abbott-2"]["bots"]
    assert "search" in by_name["abbott"]["bots"]
    assert "search" not in by_name["switch"]["bots"]
    for name, ruleset in by_name.items():
        strategy = ruleset["bots"][-1]
        seats = ruleset["players"][0]
        created = alice.post(
            "/api/v1/matches/",
            {"ruleset": name, "seats": seats, "bots": [{"seat": 1, "strategy": strategy}]},
        )
        assert created.status_code == 201, (name, strategy, created.json())
