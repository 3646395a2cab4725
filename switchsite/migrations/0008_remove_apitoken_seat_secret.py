"""The plain seat-link secrets, emptied by 0007, go with their column."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("switchsite", "0007_seat_links_derived"),
    ]

    operations = [
        migrations.RemoveField(model_name="apitoken", name="seat_secret"),
    ]
