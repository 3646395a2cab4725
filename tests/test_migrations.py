"""The migrations describe the models (a model change without its migration fails here), and the
PostgreSQL-only ones did what they say."""

import pytest
from django.core.management import call_command
from django.db import connection


@pytest.mark.django_db
def test_no_model_change_is_missing_its_migration():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL column setting")
def test_the_json_written_on_every_move_is_compressed_with_lz4_where_the_server_has_it():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        method = "l" if cursor.fetchone() == (True,) else ""  # "": the server's default
        cursor.execute(
            "SELECT attrelid::regclass::text, attname, attcompression FROM pg_attribute"
            " WHERE (attrelid, attname) IN (('games_match'::regclass, 'state'),"
            " ('games_feedevent'::regclass, 'data')) ORDER BY 1"
        )
        assert cursor.fetchall() == [
            ("games_feedevent", "data", method),
            ("games_match", "state", method),
        ]
