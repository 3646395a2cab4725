"""Errors speak the API, not Python: no ``detail`` or ``errors`` message of a problem document
carries a Python repr. Every answer of the API tests is checked so (tests/openapi.py, with
tests/reprs.py), and every answer schemathesis draws (tests/clients/schemathesis/hooks.py); these
are the cases that once did."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.api.conftest import assert_problem
from tests.reprs import python_in_problem


def test_a_token_without_the_scope_is_told_which_in_the_api_s_words(alice) -> None:
    token = alice.post("/api/v1/auth/tokens/", {"name": "watch", "scopes": ["read"]}).json()
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Token {token['token']}")

    problem = assert_problem(
        reader.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}, format="json"),
        403,
        "insufficient_scope",
    )

    assert problem["detail"] == 'This token\'s scopes do not include "play".'


def test_an_item_of_a_list_is_named_by_its_place(alice) -> None:
    problem = assert_problem(
        alice.post("/api/v1/auth/tokens/", {"name": "x", "scopes": ["read", "play", "fly"]}),
        400,
        "invalid",
    )

    assert list(problem["errors"]) == ["scopes[2]"]
    assert python_in_problem(problem) == []


def test_a_choice_that_is_not_one_does_not_repeat_the_value_as_python(alice) -> None:
    body = {"ruleset": "switch", "seats": 2, "on_resign": [None, True]}
    problem = assert_problem(alice.post("/api/v1/matches/", body), 400, "invalid")

    assert problem["errors"] == {"on_resign": ["Not one of the values this field takes."]}


def test_values_sent_are_quoted_as_json(alice) -> None:
    body = {"ruleset": "switch", "seats": 2, "options": {"jokers": None}}
    problem = assert_problem(alice.post("/api/v1/matches/", body), 400, "invalid_options")
    unknown = assert_problem(
        alice.post("/api/v1/matches/", {"ruleset": "chess", "seats": 2}), 400, "invalid_ruleset"
    )

    assert problem["detail"] == "jokers: must be a whole number, not null"
    assert unknown["detail"].startswith('unknown ruleset "chess"; ')


def test_the_check_catches_what_python_says() -> None:
    for leak in (
        "This token's scopes do not include ApiToken.Scope.PLAY.",
        "{2: [ErrorDetail(string='\"fly\" is not a valid choice.', code='invalid_choice')]}",
        "must be a whole number, not None",
        "No player is called 'a\\x00b'.",
    ):
        assert python_in_problem({"detail": leak}) == [leak]
    assert python_in_problem({"detail": "It is seat 0's turn, not yours.", "errors": {}}) == []
