"""PostgreSQL only: inserting events notifies channel ``switch_events`` at commit
(switchsite.serving.notifier).

One statement-level trigger per event table, with the inserted rows as a transition table, so a
bulk insert notifies once: ``m:<match ids>`` for match events, ``f:<user ids>`` for feed events (the
feeds' owners, as waiters know them), or ``*`` instead of the ids if they would not fit in a
notification's 8000 bytes. ``NOTIFY`` is transactional: delivered when the transaction commits,
never if it rolls back. Other databases get nothing here; the services wake waiters in their own
process there.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION games_notify(kind text, ids text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF ids IS NOT NULL THEN
        PERFORM pg_notify(
            'switch_events', kind || ':' || CASE WHEN length(ids) > 7900 THEN '*' ELSE ids END
        );
    END IF;
END
$$;
CREATE FUNCTION games_matchevent_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM games_notify('m', (SELECT string_agg(DISTINCT match_id::text, ',') FROM new_rows));
    RETURN NULL;
END
$$;
CREATE FUNCTION games_feedevent_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM games_notify('f', (
        SELECT string_agg(DISTINCT player.user_id::text, ',')
        FROM new_rows JOIN games_player player ON player.id = new_rows.player_id
    ));
    RETURN NULL;
END
$$;
CREATE TRIGGER games_matchevent_notify AFTER INSERT ON games_matchevent
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION games_matchevent_notify();
CREATE TRIGGER games_feedevent_notify AFTER INSERT ON games_feedevent
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION games_feedevent_notify();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS games_feedevent_notify ON games_feedevent;
DROP TRIGGER IF EXISTS games_matchevent_notify ON games_matchevent;
DROP FUNCTION IF EXISTS games_feedevent_notify();
DROP FUNCTION IF EXISTS games_matchevent_notify();
DROP FUNCTION IF EXISTS games_notify(text, text);
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0005_lobby_and_challenges")]

    operations = [
        migrations.RunPython(on_postgresql(FORWARD), on_postgresql(BACKWARD), elidable=False),
    ]
