"""PostgreSQL only: the event tables' notifications name the ``seq`` range each statement wrote.

``m:<match id>@<first>-<last>`` and ``f:<user id>@<first>-<last>``, comma-separated (still ``*``
when they would not fit in one notification): the connection tier's publisher
(``games.publisher``) reads exactly those events, and the waiters of the web processes, which
read after their own cursors, ignore the ranges (switchsite.serving.notifier).
"""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION games_matchevent_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM games_notify('m', (
        SELECT string_agg(match_id::text || '@' || first || '-' || last, ',')
        FROM (SELECT match_id, min(seq) AS first, max(seq) AS last FROM new_rows GROUP BY match_id)
            AS written
    ));
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION games_feedevent_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM games_notify('f', (
        SELECT string_agg(user_id::text || '@' || first || '-' || last, ',')
        FROM (
            SELECT player.user_id, min(new_rows.seq) AS first, max(new_rows.seq) AS last
            FROM new_rows JOIN games_player player ON player.id = new_rows.player_id
            GROUP BY player.user_id
        ) AS written
    ));
    RETURN NULL;
END
$$;
"""

BACKWARD = """
CREATE OR REPLACE FUNCTION games_matchevent_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM games_notify('m', (SELECT string_agg(DISTINCT match_id::text, ',') FROM new_rows));
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION games_feedevent_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM games_notify('f', (
        SELECT string_agg(DISTINCT player.user_id::text, ',')
        FROM new_rows JOIN games_player player ON player.id = new_rows.player_id
    ));
    RETURN NULL;
END
$$;
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0018_match_strikes_allowed")]

    operations = [
        migrations.RunPython(on_postgresql(FORWARD), on_postgresql(BACKWARD), elidable=False),
    ]
