"""The marker table whose OID tells one incarnation of the database from another
(switchsite.incarnation): a table of no columns and no rows, created on PostgreSQL only."""

from django.db import migrations


def create_marker(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE TABLE switchsite_incarnation ()")


def drop_marker(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP TABLE IF EXISTS switchsite_incarnation")


class Migration(migrations.Migration):
    dependencies = [("switchsite", "0004_idempotency_created_index")]

    operations = [migrations.RunPython(create_marker, drop_marker)]
