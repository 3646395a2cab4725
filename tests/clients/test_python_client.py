"""A Python client generated from the committed schema by ``openapi-python-client`` imports and
plays a match against a live server: registration, Token auth, a match against a bot, moves taken
from ``legal_moves`` and posted back through the typed request models, every answer parsed into
the typed models (a field the schema gets wrong fails here, in the client's own parsing); and
makes, uses (with Bearer) and revokes a named read token; replays a practice deal and reads the
records, player pages and leaderboard."""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.clients.conftest import COMMITTED_SCHEMA, run

PACKAGE = "switch_client"
MAX_MOVES = 200


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    directory = tmp_path_factory.mktemp("generated")
    config = directory / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatter runs over the generated code
    generate = Path(sys.executable).with_name("openapi-python-client")
    run(
        [
            *(str(generate), "generate", "--path", str(COMMITTED_SCHEMA), "--meta", "none"),
            *("--output-path", str(directory / PACKAGE), "--config", str(config)),
        ],
        cwd=directory,
    )
    sys.path.insert(0, str(directory))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(directory))
        for name in [name for name in sys.modules if name.partition(".")[0] == PACKAGE]:
            del sys.modules[name]


def test_every_module_of_the_generated_client_imports(client_package):
    import pkgutil

    modules = list(pkgutil.walk_packages(client_package.__path__, f"{PACKAGE}."))

    for module in modules:
        importlib.import_module(module.name)
    assert len(modules) > 50


@pytest.mark.parametrize(("ruleset", "bot"), [("switch", "random"), ("abbott-2", "heuristic")])
def test_the_generated_client_plays_a_match(client_package, service_url, ruleset, bot):
    api = importlib.import_module(f"{PACKAGE}.api")
    models = importlib.import_module(f"{PACKAGE}.models")
    client_module = importlib.import_module(f"{PACKAGE}.client")
    register = importlib.import_module(f"{PACKAGE}.api.players.players_create")
    create = importlib.import_module(f"{PACKAGE}.api.matches.matches_create")
    start = importlib.import_module(f"{PACKAGE}.api.matches.matches_start_create")
    detail = importlib.import_module(f"{PACKAGE}.api.matches.matches_retrieve")
    moves = importlib.import_module(f"{PACKAGE}.api.matches.matches_moves_create")
    events = importlib.import_module(f"{PACKAGE}.api.matches.matches_events_retrieve")
    assert api

    anonymous = client_module.Client(base_url=service_url, raise_on_unexpected_status=True)
    registered = register.sync(
        client=anonymous,
        body=models.RegistrationRequest(username=f"gen-{ruleset}", password="correct-horse-9"),
    )
    assert isinstance(registered, models.Registered), registered
    client = client_module.AuthenticatedClient(
        base_url=service_url, token=registered.token, prefix="Token"
    )
    created = create.sync(
        client=client,
        body=models.MatchCreateRequest(
            ruleset=models.RulesetEnum(ruleset),
            seats=2,
            bots=[models.BotSeatRequest(seat=1, strategy=models.StrategyEnum(bot))],
        ),
    )
    view_classes = (models.SheddingView, models.AbbottView)
    assert isinstance(created, view_classes), created
    assert isinstance(start.sync(created.id, client=client), view_classes)

    made, deadline = 0, time.monotonic() + 120
    view = detail.sync(created.id, client=client)
    while view.status == models.MatchStatusEnum.ACTIVE and made < MAX_MOVES:
        assert time.monotonic() < deadline, f"{made} moves, then the bot did not answer"
        if not view.legal_moves:  # the bot's turn: it plays just after the commit
            time.sleep(0.05)
            view = detail.sync(created.id, client=client)
            continue
        # Any object of legal_moves can be posted back as it is: as its request model.
        move = view.legal_moves[made % len(view.legal_moves)]
        request_model = getattr(models, type(move).__name__ + "Request")
        body = request_model.from_dict({**move.to_dict(), "expected_version": view.version})
        answer = moves.sync(created.id, client=client, body=body)
        assert isinstance(answer, models.MoveResult), answer
        made += 1
        view = answer.view
    assert made > 0
    assert view.status in (models.MatchStatusEnum.ACTIVE, models.MatchStatusEnum.FINISHED)
    if view.status == models.MatchStatusEnum.FINISHED:
        assert isinstance(view.result, models.Outcome)
    page = events.sync(created.id, client=client)
    assert isinstance(page, models.EventPage)
    assert page.results
    assert all(type(e).__name__.endswith("Event") for e in page.results)


def test_the_generated_client_makes_uses_and_revokes_a_read_token(client_package, service_url):
    models = importlib.import_module(f"{PACKAGE}.models")
    client_module = importlib.import_module(f"{PACKAGE}.client")
    register = importlib.import_module(f"{PACKAGE}.api.players.players_create")
    make = importlib.import_module(f"{PACKAGE}.api.auth.auth_tokens_create")
    listed = importlib.import_module(f"{PACKAGE}.api.auth.auth_tokens_list")
    revoke = importlib.import_module(f"{PACKAGE}.api.auth.auth_tokens_destroy")
    me = importlib.import_module(f"{PACKAGE}.api.players.players_me_retrieve")
    create = importlib.import_module(f"{PACKAGE}.api.matches.matches_create")

    anonymous = client_module.Client(base_url=service_url, raise_on_unexpected_status=True)
    registered = register.sync(
        client=anonymous,
        body=models.RegistrationRequest(username="gen-tokens", password="correct-horse-9"),
    )
    account = client_module.AuthenticatedClient(
        base_url=service_url, token=registered.token, prefix="Token"
    )
    made = make.sync(
        client=account,
        body=models.TokenCreateRequest(name="dashboard", scopes=[models.ScopesEnum.READ]),
    )
    assert isinstance(made, models.NewApiToken), made
    reader = client_module.AuthenticatedClient(base_url=service_url, token=made.token)  # Bearer

    answer = me.sync_detailed(client=reader)
    assert isinstance(answer.parsed, models.Player), answer
    assert int(answer.headers["RateLimit-Remaining"]) < int(answer.headers["RateLimit-Limit"])
    refused = create.sync(
        client=reader,
        body=models.MatchCreateRequest(ruleset=models.RulesetEnum.SWITCH, seats=2, bots=[]),
    )
    assert isinstance(refused, models.Problem)
    assert refused.code == "insufficient_scope"
    page = listed.sync(client=account)
    assert [token.name for token in page.results] == ["dashboard"]
    assert revoke.sync_detailed(made.id, client=account).status_code == 204
    assert isinstance(me.sync(client=reader), models.Problem)


def test_the_generated_client_replays_a_practice_deal_and_reads_records_and_players(
    client_package, service_url
):
    """The additions for bot authors through the typed client: two practice matches from one seed
    deal the same cards; a finished match's record, the player's page and match list, and the
    leaderboard parse into their models."""
    models = importlib.import_module(f"{PACKAGE}.models")
    client_module = importlib.import_module(f"{PACKAGE}.client")
    register = importlib.import_module(f"{PACKAGE}.api.players.players_create")
    create = importlib.import_module(f"{PACKAGE}.api.matches.matches_create")
    start = importlib.import_module(f"{PACKAGE}.api.matches.matches_start_create")
    resign = importlib.import_module(f"{PACKAGE}.api.matches.matches_resign_create")
    record = importlib.import_module(f"{PACKAGE}.api.matches.matches_record_retrieve")
    player = importlib.import_module(f"{PACKAGE}.api.players.players_retrieve")
    their_matches = importlib.import_module(f"{PACKAGE}.api.players.players_matches_retrieve")
    leaderboard = importlib.import_module(f"{PACKAGE}.api.leaderboard.leaderboard_retrieve")

    anonymous = client_module.Client(base_url=service_url, raise_on_unexpected_status=True)
    registered = register.sync(
        client=anonymous,
        body=models.RegistrationRequest(username="gen-practice", password="correct-horse-9"),
    )
    client = client_module.AuthenticatedClient(
        base_url=service_url, token=registered.token, prefix="Token"
    )
    records = []
    for _ in range(2):
        created = create.sync(
            client=client,
            body=models.MatchCreateRequest(
                ruleset=models.RulesetEnum.SWITCH,
                seats=2,
                bots=[models.BotSeatRequest(seat=1, strategy=models.StrategyEnum.HEURISTIC)],
                practice_seed="5e" * 32,
            ),
        )
        assert isinstance(created, models.SheddingView), created
        assert created.practice
        started = start.sync(created.id, client=client)
        assert isinstance(started, models.SheddingView), started
        assert isinstance(resign.sync(created.id, client=client), models.SheddingView)
        records.append(record.sync(created.id, client=client))

    first, second = records
    assert isinstance(first, models.GameRecord), first
    assert isinstance(second, models.GameRecord), second
    assert first.match.practice
    assert [deal.seed for deal in first.deals] == [deal.seed for deal in second.deals]
    assert first.deals[0].shuffle_commitment == second.deals[0].shuffle_commitment

    page = player.sync("gen-practice", client=client)
    assert isinstance(page, models.PlayerPage), page
    assert not page.bot
    listed = their_matches.sync("gen-practice", client=client)
    assert isinstance(listed, models.MatchPage), listed
    assert {summary.id for summary in listed.results} == {first.match.id, second.match.id}
    board = leaderboard.sync(client=client, game=models.LeaderboardRetrieveGame.SHEDDING)
    assert isinstance(board, models.LeaderboardPage), board
