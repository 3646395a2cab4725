from django.db import migrations, models
from django.db.models import F


def old_rounds_above_their_bound_are_unproven(apps, schema_editor):
    """Rounds seated before: their lower bound was not the true fewest, so a round above it may
    or may not be."""
    Round = apps.get_model("tournaments", "Round")
    Round.objects.filter(repeats__gt=F("repeat_lower_bound")).update(repeat_verdict="unproven")


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0010_tournament_language'),
    ]

    operations = [
        migrations.AddField(
            model_name='round',
            name='repeat_verdict',
            field=models.CharField(choices=[('fewest', 'Fewest'), ('spread', 'Spread'), ('improvable', 'Improvable'), ('unproven', 'Unproven')], default='fewest', max_length=10),
        ),
        migrations.RunPython(old_rounds_above_their_bound_are_unproven, migrations.RunPython.noop),
    ]
