# A merge: the ratings (0004_ratings_in_games) and the round clock (0004_room_clock_and_revision) landed side by side.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_ratings_in_games"),
        ("tournaments", "0004_room_clock_and_revision"),
    ]

    operations = []
