"""Seat-link secrets no longer kept in plain text: each seat token that kept its secret
(``seat_secret``, for the desk to print again) keeps only the hash it already had, so the card a
guest holds keeps working; and its guest gets a new seat link beside it whose secret is derived
from a random nonce and ``SECRET_KEY`` (switchsite.api.authentication.seat_link_secret), the one
the desk prints from now on. One way: the plain secrets are gone. (The column goes in 0008: in one
transaction, PostgreSQL would refuse to alter a table with the new rows' foreign-key checks still
pending.)"""

import base64
import hashlib
import secrets

from django.db import migrations
from django.utils.crypto import salted_hmac

# switchsite.api.authentication as of this migration (a migration keeps its own copy).
NAMED_TOKEN_PREFIX = "swt_"
SEAT_LINK_SALT = "switchsite.seat-link"


def derived_seat_links(apps, schema_editor):
    api_token = apps.get_model("switchsite", "ApiToken")
    printed = api_token.objects.exclude(seat_secret="")
    renewed = []
    for token in printed:
        nonce = secrets.token_hex(16)
        digest = salted_hmac(SEAT_LINK_SALT, nonce, algorithm="sha256").digest()
        secret = NAMED_TOKEN_PREFIX + base64.urlsafe_b64encode(digest).decode().rstrip("=")
        renewed.append(
            api_token(
                user_id=token.user_id,
                name=token.name,
                scopes=token.scopes,
                key_hash=hashlib.sha256(secret.encode()).hexdigest(),
                nonce=nonce,
            )
        )
    printed.update(seat_secret="")
    api_token.objects.bulk_create(renewed)


class Migration(migrations.Migration):
    dependencies = [
        ("switchsite", "0006_account_tokens_hashed"),
    ]

    operations = [
        migrations.RunPython(derived_seat_links, migrations.RunPython.noop),
    ]
