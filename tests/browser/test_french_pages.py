"""Every kind of page in French, in Chromium (issue 37, item 3): the sign-in, the lobby, a table of
each game, its end, its replay, watching, a player's page, a seat link, the public pages, the
projector, a series, the desk's pages and the admin. On each, no sentence of the English catalogue
and no English word shows — names, card codes, addresses and what is marked as English (the
switcher's "English") aside — and the Content-Security-Policy refuses nothing (the
``policy_violations`` fixture).

One server and one Chromium for all of it (CI's budget): the pages are visited in one test. A
second, on the same Chromium, runs a director's evening in French by clicks, from the new
tournament to the spreadsheet export (issue 37's last paragraph).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import polib
import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games import selectors as game_selectors
from games import services as games
from games.models import Match
from games.services.presence import presence_write
from matchmaking import services as ladders
from matchmaking.models import Ladder
from tests.browser.conftest import ARTIFACTS, LAPTOP, PolicyViolations, screenshot
from tests.browser.play import PASSWORD, account, finished_match, online_tournament
from tests.browser.test_tournament_pages import GUESTS, club_night
from tournaments import selectors
from tournaments import services as tournaments
from tournaments.models import Tournament
from tournaments.powers import directors

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

CATALOGUES = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES"
# What a page may show that is no sentence: card codes as the API writes them, addresses.
CARD_CODE = re.compile(r"\b(?:[2-9]|10|T|[JQKA])[SHDC]\b")
ADDRESS = re.compile(r"\b(?:https?://|/)\S+")
# Words that are English and never French: one of them on a French page is a string left out of
# the catalogue (the catalogue's own sentences are checked apart, below).
ENGLISH_WORDS = re.compile(
    r"\b(?:the|and|is|are|you|your|with|of|this|that|to|for|from|by|has|was|were|will|not|it|"
    r"its|in|round|deal|deals|hand|player|players|seat|seats|bye|draw|match|matches|won|wins|"
    r"yes|please|standings|table's|waiting|playing|finished|abandoned|sign|back|next|games|"
    r"tournaments|entries|results|rounds)\b",
    re.IGNORECASE,
)
# Every text a person reads on the page as it is now: the visible text of elements that are not
# marked as another language, and the names and values of controls and images.
READ_TEXT = """() => {
  const french = (el) => (el.closest("[lang]")?.getAttribute("lang") ?? "fr").startsWith("fr");
  const shown = (el) => el.checkVisibility({visibilityProperty: true});
  const said = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("script, style, code, noscript, time")) continue;
    if (french(el) && shown(el)) said.push(node.textContent);
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder], [alt], input[type=submit], input[type=button]")) {
    if (!french(el) || !shown(el)) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      if (el.hasAttribute(name)) said.push(el.getAttribute(name));
    }
    if (el.matches("input[type=submit], input[type=button]")) said.push(el.value);
  }
  said.push(document.title);
  return said.join("\\n");
}"""


@cache
def english_sentences() -> tuple[str, ...]:
    """The pieces of the English catalogue a page could show by mistake: each message's text
    between its placeholders, of two words or more, where the French says something else."""
    pieces = set()
    for domain in ("django", "djangojs"):
        for entry in polib.pofile(str(CATALOGUES / f"{domain}.po")):
            if entry.obsolete or entry.msgstr == entry.msgid:
                continue
            for message in filter(None, (entry.msgid, entry.msgid_plural)):
                for piece in re.split(r"%\(\w+\)[sdr]|%[sd]|\{\w*\}", message):
                    piece = " ".join(piece.split()).strip(" .,:;·—-()“”\"'")
                    if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2:
                        pieces.add(piece)
    return tuple(sorted(pieces, key=len, reverse=True))


def english_on(page: Page) -> list[str]:
    """What is English on the page: sentences of the catalogue, then English words."""
    text = " ".join(page.evaluate(READ_TEXT).split())
    for name in NAMES:
        text = text.replace(name, " ")
    text = CARD_CODE.sub(" ", ADDRESS.sub(" ", text))
    found = [piece for piece in english_sentences() if piece in text]
    found += sorted({word.lower() for word in ENGLISH_WORDS.findall(text)})
    return found


class Pages:
    """The pages visited, and what each shows in English (all of them are reported at once)."""

    def __init__(self) -> None:
        self.english: dict[str, list[str]] = {}

    def read(self, page: Page, name: str) -> None:
        """The page is in French and says nothing in English (its screenshot and text are kept
        for CI's artefacts)."""
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        page.wait_for_timeout(300)  # the scripts' last redraw
        screenshot(page, f"french-{name}", full_page=True)
        (ARTIFACTS / f"french-{name}.txt").write_text(page.evaluate(READ_TEXT))
        found = english_on(page)
        if found:
            self.english[name] = found


# Every name the pages may show: the guests, the accounts, the tournaments and the series.
NAMES = [
    *GUESTS,  # the club night's
    "Gisèle",
    "amelie",
    "bruno",
    "chloe",
    "directrice",
    "Soirée du jeudi",
    "Hugo",
    "Tournoi en ligne",
    "Les jeudis d'automne",
    "zorro",
]


def ladder_of_one_bot(keeper: Any) -> int:
    """A ladder whose one bot, zorro, has been seated against a server bot; its id."""
    keeper.user_permissions.add(Permission.objects.get(codename="add_ladder"))
    keeper = type(keeper).objects.get(pk=keeper.pk)  # its permissions read afresh
    ladder = ladders.ladder_create(
        user=keeper, ruleset="french", seats=2, interval_seconds=300, turn_seconds=30
    )
    zorro = games.player_register(username="zorro", password=PASSWORD, bot=True)[0]
    ladders.ladder_join(ladder_id=ladder.pk, user=zorro)
    presence_write(seen={zorro.pk: timezone.now()})
    Ladder.objects.filter(pk=ladder.pk).update(next_round_at=timezone.now())
    ladders.ladder_round_seat(ladder_id=ladder.pk)
    return ladder.pk


@pytest.fixture
def french(
    browser: Browser, asgi_server: str, policy_violations: PolicyViolations
) -> Iterator[BrowserContext]:
    """A French browser (Accept-Language and navigator.language) on the in-process server;
    watched for Content-Security-Policy violations, as every kind of page is visited here."""
    context = policy_violations.watch(
        browser.new_context(viewport=LAPTOP, base_url=asgi_server, locale="fr-FR")
    )
    context.set_default_timeout(15_000)
    yield context
    context.close()


def club_evening() -> Tournament:
    """A French club's offline, public evening of six guests at tables of three, its first round
    played and recorded, the second seated and its clock running; in a series."""
    tournament = club_night(name="Soirée du jeudi", planned_rounds=3, language="fr")
    director = tournament.created_by
    for table in tournament.rounds.get(number=1).tables.all():
        names = [seat.entry.name for seat in table.seats.select_related("entry").order_by("seat")]
        tournaments.table_result_enter(
            tournament_id=tournament.pk,
            round_number=1,
            table_number=table.number,
            user=director,
            result={"deals": [{"winner": names[0], "points_left": {names[1]: 17, names[2]: 30}}]},
        )
    tournaments.round_next(tournament_id=tournament.pk, user=director)
    tournaments.round_clock(tournament_id=tournament.pk, round_number=2, user=director, minutes=40)
    tournaments.series_create(
        user=director, name="Les jeudis d'automne", tournament_ids=[tournament.pk], public=True
    )
    return tournament


def online_evening(director) -> tuple[Tournament, str]:
    """An online tournament of a guest and a bot, its table being played: it and the guest's
    seat link."""
    entrants = [tournaments.Entrant(guest="Gisèle"), tournaments.Entrant(bot="random")]
    tournament = online_tournament(director, entrants, name="Tournoi en ligne", language="fr")
    detail = selectors.tournament_detail(tournament=tournament, seat_links=True)
    (link,) = [entry["play_url"] for entry in detail["entries"] if entry["play_url"]]
    return tournament, link


def test_every_kind_of_page_is_french_with_no_english_left(
    browser: Browser, asgi_server: str, french: BrowserContext, policy_violations: PolicyViolations
):
    amelie, bruno = account("amelie"), account("bruno")
    director = account("directrice", is_staff=True)
    director.groups.add(directors())
    ended = finished_match("chloe", "french", 3)
    shedding = games.match_create(
        creator=amelie,
        ruleset="french",
        seats=3,
        bots_wanted=[{"seat": 1, "strategy": "random"}, {"seat": 2, "strategy": "heuristic"}],
    )
    games.match_start(match_id=shedding.pk, user=amelie)
    abbott = games.match_create(
        creator=amelie, ruleset="abbott-2", seats=2, bots_wanted=[{"seat": 1, "strategy": "random"}]
    )
    games.match_start(match_id=abbott.pk, user=amelie)
    watched = games.match_create(
        creator=bruno, ruleset="switch", seats=2, bots_wanted=[{"seat": 1, "strategy": "random"}]
    )
    games.match_start(match_id=watched.pk, user=bruno)
    evening = club_evening()
    online, seat_link = online_evening(director)
    page = french.new_page()
    pages = Pages()

    # Signing in, and the player's pages.
    page.goto("/play/")
    expect(page.get_by_role("button", name="Se connecter")).to_be_visible()
    pages.read(page, "sign-in")
    page.get_by_label("Nom d'utilisateur").fill("amelie")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    expect(page.get_by_role("heading", name="Vos parties")).to_be_visible()
    pages.read(page, "lobby")
    for name, path in [
        ("table-shedding", f"/play/matches/{shedding.pk}/"),
        ("table-abbott", f"/play/matches/{abbott.pk}/"),
        ("watching", f"/play/matches/{watched.pk}/"),
        ("end", f"/play/matches/{ended}/"),
    ]:
        page.goto(path)
        expect(page.locator("#table[data-status]")).to_be_visible()
        pages.read(page, name)
    page.goto(f"/play/matches/{ended}/replay/")
    expect(page.locator("#replay[data-step]")).to_be_visible()
    pages.read(page, "replay")
    page.goto("/play/players/chloe/")
    expect(page.get_by_role("heading", name="chloe", exact=True)).to_be_visible()
    pages.read(page, "player")
    ladder = ladder_of_one_bot(director)
    page.goto("/play/ladders/")
    expect(page.locator("#ladders tbody tr")).to_have_count(3)  # zorro and two server bots
    pages.read(page, "ladders")
    page.goto(f"/ladders/{ladder}/")
    expect(page.locator("tbody tr")).to_have_count(3)
    pages.read(page, "ladder-public")

    # A guest's seat link, in a browser of its own.
    guest = policy_violations.watch(
        browser.new_context(viewport=LAPTOP, base_url=asgi_server, locale="fr-FR")
    )
    guest.set_default_timeout(15_000)
    guest_page = guest.new_page()
    guest_page.goto(seat_link)
    expect(guest_page.locator("section.table-root[data-status]")).to_be_visible()
    pages.read(guest_page, "seat-link")
    guest.close()

    # The public pages, the projector and the series, on the club's French.
    for name, path in [
        ("tournaments", "/tournaments/"),
        ("public-page", f"/tournaments/{evening.pk}/"),
        ("projector", f"/tournaments/{evening.pk}/screen/"),
        ("series", f"/tournaments/series/{evening.series.get().pk}/"),
    ]:
        page.goto(path)
        pages.read(page, name)

    # The desk: the admin's sign-in, the tournament's page and every page behind its buttons.
    page.goto("/admin/login/")
    pages.read(page, "admin-sign-in")
    page.fill("#id_username", "directrice")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")
    desk = f"/admin/tournaments/tournament/{evening.pk}"
    entry = evening.entries.order_by("name").first()
    assert entry is not None
    for name, path in [
        ("admin-index", "/admin/"),
        ("desk-list", "/admin/tournaments/tournament/"),
        ("desk-new", "/admin/tournaments/tournament/add/"),
        ("desk", f"{desk}/change/"),
        ("desk-register", f"{desk}/register/"),
        ("desk-result", f"{desk}/rounds/2/tables/1/result/"),
        ("desk-correct", f"{desk}/rounds/1/tables/1/result/"),
        ("desk-standings", f"{desk}/standings/"),
        ("desk-withdraw", f"{desk}/entries/{entry.pk}/withdraw/"),
        ("desk-round-withdraw", f"{desk}/rounds/2/withdraw/"),
        ("desk-cancel", f"{desk}/cancel/"),
        ("desk-seating", f"/admin/tournaments/round/{evening.rounds.get(number=2).pk}/seating/"),
        ("print-pairings", f"{desk}/print/pairings/"),
        ("print-slips", f"{desk}/print/slips/"),
        ("print-standings", f"{desk}/print/standings/"),
        ("print-seat-cards", f"/admin/tournaments/tournament/{online.pk}/print/seat_links/"),
        ("desk-online", f"/admin/tournaments/tournament/{online.pk}/change/"),
        ("desk-match", f"/admin/games/match/{shedding.pk}/change/"),
    ]:
        page.goto(path)
        pages.read(page, name)
    assert pages.english == {}


def guest_turn_comes(tournament: Tournament, name: str) -> bool:
    """Whether the guest's turn comes without another person moving: it is theirs now, or only
    bots sit with them (a person at the table may be to move, and nobody plays them here)."""
    guest = tournament.entries.get(name=name).guest_user
    assert guest is not None  # a guest of an online tournament has a user of its own
    match = Match.objects.get(seats__player=guest)
    view = game_selectors.match_view_for(match_id=match.pk, user=guest)
    others = match.seats.exclude(player=guest)
    return view["to_move"] == view["you"]["seat"] or all(seat.bot_strategy for seat in others)


def test_a_directors_evening_in_french(
    browser: Browser, asgi_server: str, french: BrowserContext, policy_violations: PolicyViolations
):
    """Issue 37's evening, by clicks on the French desk: create an online tournament, register
    guests, members and bots in one step, seat round 1, print the guests' seat cards, a guest
    plays from a card's link, the desk enters each table's result and corrects one, then the
    standings, the projector and the French spreadsheet export."""
    account("amelie"), account("bruno")
    director = account("directrice", is_staff=True)
    director.groups.add(directors())
    page = french.new_page()
    pages = Pages()
    page.goto("/admin/login/")
    page.fill("#id_username", "directrice")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")

    # Create: a French evening online, tables of two, one deal a round.
    page.goto("/admin/tournaments/tournament/")
    page.get_by_role("link", name="Ajouter tournoi").click()
    page.fill("#id_name", "Soirée du jeudi")
    page.select_option("#id_ruleset", "french")
    page.select_option("#id_scoring", "french")
    page.select_option("#id_play", "online")
    page.check("#id_public")
    page.select_option("#id_language", "fr")
    page.fill("#id_planned_rounds", "1")
    page.fill("#id_table_size", "2")
    page.fill("#id_deals_per_round", "1")
    page.get_by_role("button", name="Créer").or_(page.locator("input[value=Créer]")).click()
    expect(page.locator(".messagelist")).to_contain_text(
        "Les inscriptions à Soirée du jeudi sont ouvertes."
    )
    tournament = Tournament.objects.get(name="Soirée du jeudi")

    # Register guests, members and bots in one step.
    page.get_by_role("link", name="Inscrire des joueurs").first.click()
    page.fill("#id_guests", "Gisèle\nHugo")
    page.fill("#id_players", "amelie, bruno")
    page.select_option("#id_bot", "random")
    page.fill("#id_bot_count", "2")
    pages.read(page, "evening-register")
    page.locator("input[value=Inscrire]").click()
    expect(page.locator(".messagelist")).to_contain_text(
        "6 inscrits (jouent à partir de la ronde 1)."
    )

    # Seat round 1, print the guests' seat cards.
    page.get_by_role("button", name="Placer et publier la ronde 1").click()
    expect(page.locator(".messagelist")).to_contain_text("La ronde 1 est placée et publiée.")
    expect(page.locator("#desk-tables tbody tr")).to_have_count(3)
    pages.read(page, "evening-desk")
    page.get_by_role("link", name="Imprimer les liens de place des invités").click()
    cards = page.locator(".seat-link")
    expect(cards).to_have_count(2)
    expect(cards.first).to_contain_text("Scannez pour jouer")
    pages.read(page, "evening-seat-cards")
    link = cards.filter(has_text="Gisèle").locator(".seat-url").inner_text()

    # Gisèle plays from her card's link, in a browser of her own.
    guest = policy_violations.watch(browser.new_context(viewport=LAPTOP, locale="fr-FR"))
    guest.set_default_timeout(15_000)
    table = guest.new_page()
    table.goto(link)
    root = table.locator("section.table-root[data-status]")
    expect(root).to_be_visible()
    pages.read(table, "evening-guest-table")
    if guest_turn_comes(tournament, "Gisèle"):
        move = root.locator("button[data-move]:enabled").first
        move.wait_for()
        version = root.get_attribute("data-version") or ""
        move.click()
        expect(root).not_to_have_attribute("data-version", version)
    guest.close()

    # The desk enters each table's result (a table still playing is adjudicated), then
    # corrects the first one, with a reason; both versions stay on record.
    desk = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    for number in (1, 2, 3):
        page.goto(desk)
        row = page.locator("#desk-tables tbody tr").nth(number - 1)
        entered = row.get_by_role("link", name=re.compile("^(arbitrer|saisir le résultat)$"))
        if not entered.count():
            continue  # two bots played it to the end already
        entered.click()
        page.check("#id_d0-out-0")
        page.fill("#id_d0-tally-1", "12")
        page.get_by_role("button", name="Enregistrer le résultat").or_(
            page.locator("input[name=_save]")
        ).click()
        expect(page.locator(".messagelist")).to_contain_text(
            f"Le résultat de la table {number} est enregistré."
        )
    page.goto(desk)
    page.locator("#desk-tables tbody tr").first.get_by_role("link", name="corriger").click()
    page.fill("#id_d0-tally-1", "14")
    page.fill("#id_reason", "erreur de compte")
    page.locator("input[name=_save]").click()
    expect(page.locator(".messagelist")).to_contain_text(
        "Le résultat de la table 1 est enregistré."
    )
    page.goto(f"/admin/tournaments/tournament/{tournament.pk}/rounds/1/tables/1/result/")
    expect(page.locator("h2", has_text="Consigné").locator("+ ul li")).to_have_count(
        tournament.rounds.get().tables.get(number=1).result_entries.count()
    )
    expect(page.get_by_text("« erreur de compte »")).to_be_visible()
    pages.read(page, "evening-correction")

    # The standings, the projector and the export a French spreadsheet opens.
    page.goto(desk)
    page.get_by_role("link", name="Classement", exact=True).click()
    expect(page.locator("#standings tbody tr")).to_have_count(6)
    pages.read(page, "evening-standings")
    page.goto(f"/tournaments/{tournament.pk}/screen/")
    expect(page.locator("#screen-standings tbody tr")).to_have_count(6)
    pages.read(page, "evening-projector")
    page.goto(desk)
    with page.expect_download() as download:
        page.get_by_role("link", name="Classement en CSV").click()
    exported = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert len(exported) == 7  # the header, then one line per entry
    assert exported[0].count(";") >= 5
    assert "," not in exported[0]
    assert {"oui", "non"} & set(";".join(exported[1:]).split(";"))
    assert pages.english == {}
