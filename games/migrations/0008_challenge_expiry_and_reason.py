from datetime import timedelta

from django.db import migrations, models
from django.db.models import F


def expire_a_day_after_creation(apps, schema_editor):
    """Challenges made before expiry existed expire as a new one does by default: after a day."""
    Challenge = apps.get_model("games", "Challenge")
    Challenge.objects.update(expires_at=F("created_at") + timedelta(days=1))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_lz4_for_big_json"),
    ]

    operations = [
        migrations.AddField(
            model_name="challenge",
            name="expires_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(expire_a_day_after_creation, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="challenge",
            name="expires_at",
            field=models.DateTimeField(),
        ),
        migrations.AddField(
            model_name="challenge",
            name="reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("generic", "Generic"),
                    ("later", "Later"),
                    ("ruleset", "Ruleset"),
                    ("seats", "Seats"),
                    ("clock", "Clock"),
                    ("rated", "Rated"),
                    ("casual", "Casual"),
                    ("no_bots", "No Bots"),
                    ("only_bots", "Only Bots"),
                ],
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="challenge",
            name="status",
            field=models.CharField(
                choices=[
                    ("pending", "Pending"),
                    ("accepted", "Accepted"),
                    ("declined", "Declined"),
                    ("cancelled", "Cancelled"),
                    ("expired", "Expired"),
                ],
                default="pending",
                max_length=10,
            ),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(
                condition=models.Q(("status", "pending")),
                fields=["expires_at"],
                name="challenge_pending_expiry",
            ),
        ),
    ]
