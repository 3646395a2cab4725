"""Account tokens hashed at rest, like named ones: each of DRF's ``authtoken_token`` rows (the key
in plain text) becomes an account ``ApiToken`` holding only the key's SHA-256, so the secret a client
holds keeps working; then that table is dropped (``rest_framework.authtoken`` is no longer
installed). Such a token has no nonce, so it cannot be given again: it works until it is rotated
or its password changes, and ``POST /auth/token/`` answers a new, derived one beside it
(switchsite.api.authentication)."""

import hashlib

from django.db import migrations, models

LEGACY_TABLE = "authtoken_token"


def hash_account_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if LEGACY_TABLE not in connection.introspection.table_names():
        return
    api_token = apps.get_model("switchsite", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id FROM {LEGACY_TABLE}")
        legacy = cursor.fetchall()
    api_token.objects.bulk_create(
        api_token(
            user_id=user_id,
            name="account",
            scopes=["read", "play"],
            key_hash=hashlib.sha256(key.encode()).hexdigest(),
            account=True,
        )
        for key, user_id in legacy
    )
    schema_editor.execute(f"DROP TABLE {LEGACY_TABLE}")


class Migration(migrations.Migration):
    dependencies = [
        ("switchsite", "0005_incarnation_marker"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="account",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="nonce",
            field=models.CharField(blank=True, max_length=32),
        ),
        # One way: the plain keys are gone once hashed.
        migrations.RunPython(hash_account_tokens, migrations.RunPython.noop),
    ]
