"""The tournament director's powers as named permissions, and the "Tournament director" group that
holds them with the admin's model permissions a director needs (tournaments.powers)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from tournaments.powers import director_group

POWERS = (
    ("register_entries", "Can register, check in and withdraw others' entries"),
    ("seat_rounds", "Can seat, publish and withdraw rounds"),
    ("enter_results", "Can enter and correct table results"),
    ("run_clock", "Can run the round clock"),
    ("cancel_tournament", "Can cancel a tournament"),
    ("print_seat_links", "Can see and print the guests' seat links"),
)


def make_director_group(apps, schema_editor):
    # Permissions are made after the last migration (post_migrate): make the ones needed now.
    for app_label in ("tournaments", "games"):
        config = apps.get_app_config(app_label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    director_group(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def remove_director_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Tournament director").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_repeat_verdict"),
        ("games", "0014_record_failures"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="tournament",
            options={"ordering": ("-created_at", "-pk"), "permissions": POWERS},
        ),
        migrations.RunPython(make_director_group, remove_director_group),
    ]
