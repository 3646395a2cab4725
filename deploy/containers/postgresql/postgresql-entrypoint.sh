#!/bin/sh
# PostgreSQL for compose.yaml: at the first start (an empty volume) a cluster with the role and
# database `switch` (the password: POSTGRES_PASSWORD) that accepts password logins from the
# compose network; then the server, in the foreground.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "Invalid setting POSTGRES_PASSWORD: it is empty; give the password of the role switch" >&2
        exit 1
    fi
    initdb --pgdata="$PGDATA" --username=postgres --auth-local=peer --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    quoted=$(printf '%s' "$POSTGRES_PASSWORD" | sed "s/'/''/g")
    printf "CREATE ROLE switch LOGIN PASSWORD '%s';\nCREATE DATABASE switch OWNER switch;\n" "$quoted" \
        | postgres --single -D "$PGDATA" postgres >/dev/null
    echo "made the database switch and its role in $PGDATA"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
