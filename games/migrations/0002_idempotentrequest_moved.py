"""IdempotentRequest moved to the switchsite app (the API plumbing every app shares); its table
stays where it is, so this only changes Django's idea of which app owns it."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        ("switchsite", "0001_idempotentrequest_moved"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="IdempotentRequest")],
        ),
    ]
