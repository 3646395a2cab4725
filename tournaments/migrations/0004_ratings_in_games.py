# Ratings move to the games app: every table's rating updates become rated results, pending, so
# the games' rating replay rates the whole history again (players and entries alike).

from django.db import migrations


def rated_games_to_rated_results(apps, schema_editor):
    from switchgame import catalog

    RatedGame = apps.get_model("tournaments", "RatedGame")
    RatedResult = apps.get_model("games", "RatedResult")
    Entry = apps.get_model("tournaments", "Entry")
    players = dict(Entry.objects.values_list("pk", "player_id"))

    def holder(entry_id):
        player = players.get(entry_id)
        return f"user:{player}" if player else f"entry:{entry_id}"

    RatedResult.objects.bulk_create(
        RatedResult(
            game=catalog.find_ruleset(rated.table.round.tournament.ruleset).game,
            source=f"table:{rated.table_id}:{rated.hand}",
            teams=[[holder(entry) for entry in team] for team in rated.teams],
            ranks=rated.ranks,
            played_at=rated.played_at,
        )
        for rated in RatedGame.objects.select_related("table__round__tournament").order_by(
            "played_at", "table_id", "hand"
        )
    )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0003_club_nights'),
        ('games', '0009_ratings_apart'),
    ]

    operations = [
        migrations.RunPython(rated_games_to_rated_results, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='entry',
            name='rating_mu',
        ),
        migrations.RemoveField(
            model_name='entry',
            name='rating_sigma',
        ),
        migrations.DeleteModel(
            name='RatedGame',
        ),
    ]
