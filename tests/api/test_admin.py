"""The admin's match pages for staff: list with filters, and the table without hidden cards."""

import pytest
from django.contrib.auth import get_user_model

from tests.api.test_matches import LAYOUT, started_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.invalid", "pw")
    client.force_login(user)
    return client


def test_match_list_filters_by_status_and_ruleset(admin_client, staff, bob):
    started_match(staff, bob, layout=LAYOUT)

    response = admin_client.get("/admin/games/match/?status__exact=active&ruleset=switch")

    assert response.status_code == 200
    assert b"switch" in response.content
    assert (
        admin_client.get("/admin/games/match/?status__exact=finished").context["cl"].result_count
        == 0
    )


def test_match_page_shows_the_table_and_log_but_no_hidden_cards(admin_client, staff, bob):
    match_id = started_match(staff, bob, layout=LAYOUT)

    page = admin_client.get(f"/admin/games/match/{match_id}/change/").content.decode()

    assert "top card <b>9H</b>" in page
    assert "shuffle_commitment" in page
    for hidden in LAYOUT["hands"][0] + LAYOUT["hands"][1] + LAYOUT["stock"]:
        assert f"'{hidden}'" not in page


def test_challenge_pages_show_who_was_invited_and_the_answers(admin_client, alice, bob):
    sent = alice.post(
        "/api/v1/challenges/", {"to": ["bob"], "ruleset": "switch", "seats": 2}
    ).json()
    bob.post(f"/api/v1/challenges/{sent['id']}/decline/")

    listing = admin_client.get("/admin/games/challenge/?status__exact=declined")
    page = admin_client.get(f"/admin/games/challenge/{sent['id']}/change/").content.decode()

    assert listing.context["cl"].result_count == 1
    assert "bob" in page
    assert "Declined" in page


def test_an_account_made_in_the_admin_gets_the_same_password_checks(admin_client):
    form = {"username": "dora-the-explorer", "usable_password": "true"}
    form |= {"password1": "dora-the-explorer", "password2": "dora-the-explorer"}

    refused = admin_client.post("/admin/auth/user/add/", form)

    assert refused.status_code == 200  # the form again, with its errors
    assert "The password is too similar to the username." in refused.content.decode()
    assert not get_user_model().objects.filter(username="dora-the-explorer").exists()
