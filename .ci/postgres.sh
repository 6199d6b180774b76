# Sourced by .ci/run (bash): a throwaway PostgreSQL cluster for the SQL history tests.
#
# Installs the server from Debian's packages when no initdb is found, starts a cluster in a
# temp dir as a non-root user on 127.0.0.1 (free port, unix socket inside the temp dir),
# creates a role with a password and a database, and exports
#   CTXCHAT_TEST_POSTGRES_URL=postgresql+psycopg://...   CTXCHAT_REQUIRE_POSTGRES=1
# CTXCHAT_REQUIRE_POSTGRES is exported even when setup fails, so the PostgreSQL test cases
# fail instead of being skipped. The cluster is stopped and removed on EXIT (chained in
# front of any EXIT trap already set; a trap set after sourcing must call ctxchat_pg_stop).
#
# Safe under `set -euo pipefail`: every step that may fail is checked explicitly.

export CTXCHAT_REQUIRE_POSTGRES=1

ctxchat_pg_fail() {
    echo "postgres.sh: $*" >&2
    if [ -n "${CTXCHAT_PG_DIR:-}" ] && [ -f "$CTXCHAT_PG_DIR/server.log" ]; then
        tail -n 20 "$CTXCHAT_PG_DIR/server.log" >&2 || true
    fi
    return 1
}

ctxchat_pg_bindir() {
    # The newest installed version (sort -V: 9 before 15).
    { ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null || true; } | sort -V | tail -n 1 \
        | sed -e 's|/initdb$||'
}

# Runs a command as the cluster's owner (a non-root user; PostgreSQL refuses root).
ctxchat_pg_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u "$CTXCHAT_PG_OWNER" -- "$@"
    else
        "$@"
    fi
}

ctxchat_pg_stop() {
    if [ -n "${CTXCHAT_PG_DIR:-}" ] && [ -d "$CTXCHAT_PG_DIR" ]; then
        if [ -n "${CTXCHAT_PG_BIN:-}" ] && [ -f "$CTXCHAT_PG_DIR/data/postmaster.pid" ]; then
            ctxchat_pg_as_owner "$CTXCHAT_PG_BIN/pg_ctl" -D "$CTXCHAT_PG_DIR/data" \
                -m immediate -w stop >/dev/null 2>&1 || true
        fi
        rm -rf "$CTXCHAT_PG_DIR" || true
    fi
    CTXCHAT_PG_DIR=""
}

ctxchat_pg_start() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    CTXCHAT_PG_BIN="$(ctxchat_pg_bindir)"
    if [ -z "$CTXCHAT_PG_BIN" ]; then
        echo "postgres.sh: installing PostgreSQL from Debian's packages" >&2
        local log
        log="$(mktemp)"
        if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            $sudo apt-get install -y -qq --no-install-recommends postgresql; } >"$log" 2>&1; then
            tail -n 20 "$log" >&2 || true
            rm -f "$log"
            ctxchat_pg_fail "apt-get install postgresql failed"
            return 1
        fi
        rm -f "$log"
        CTXCHAT_PG_BIN="$(ctxchat_pg_bindir)"
        if [ -z "$CTXCHAT_PG_BIN" ]; then
            ctxchat_pg_fail "no /usr/lib/postgresql/*/bin/initdb after installing postgresql"
            return 1
        fi
    fi

    CTXCHAT_PG_OWNER="$(id -un)"
    if [ "$(id -u)" -eq 0 ]; then
        CTXCHAT_PG_OWNER="postgres"  # created by Debian's package
        if ! id "$CTXCHAT_PG_OWNER" >/dev/null 2>&1; then
            useradd --system --no-create-home --shell /usr/sbin/nologin "$CTXCHAT_PG_OWNER" \
                || { ctxchat_pg_fail "cannot create the user $CTXCHAT_PG_OWNER"; return 1; }
        fi
    fi

    local python="python3"
    if [ -x .venv/bin/python ]; then
        python=".venv/bin/python"
    fi
    local port password
    port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')" \
        || { ctxchat_pg_fail "cannot find a free port"; return 1; }
    password="$("$python" -c 'import secrets; print(secrets.token_hex(16))')" \
        || { ctxchat_pg_fail "cannot make a password"; return 1; }

    CTXCHAT_PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/ctxchat-pg.XXXXXX")" \
        || { ctxchat_pg_fail "cannot make a temp dir"; return 1; }
    mkdir -p "$CTXCHAT_PG_DIR/sock"
    printf '%s\n' "$password" >"$CTXCHAT_PG_DIR/pwfile"
    chmod 600 "$CTXCHAT_PG_DIR/pwfile"
    if [ "$(id -u)" -eq 0 ]; then
        chown -R "$CTXCHAT_PG_OWNER:" "$CTXCHAT_PG_DIR"
    fi

    # The superuser is named after the role the tests use; every login needs its password.
    ctxchat_pg_as_owner "$CTXCHAT_PG_BIN/initdb" -D "$CTXCHAT_PG_DIR/data" -U ctxchat \
        --pwfile="$CTXCHAT_PG_DIR/pwfile" --auth=scram-sha-256 -E UTF8 --no-locale \
        >"$CTXCHAT_PG_DIR/initdb.log" 2>&1 \
        || { cat "$CTXCHAT_PG_DIR/initdb.log" >&2; ctxchat_pg_fail "initdb failed"; return 1; }
    rm -f "$CTXCHAT_PG_DIR/pwfile"

    # fsync off: a throwaway cluster needs no durability, and the tests run faster.
    ctxchat_pg_as_owner "$CTXCHAT_PG_BIN/pg_ctl" -D "$CTXCHAT_PG_DIR/data" -w -t 60 \
        -l "$CTXCHAT_PG_DIR/server.log" \
        -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$CTXCHAT_PG_DIR/sock -c fsync=off -c max_connections=200" \
        start >/dev/null \
        || { ctxchat_pg_fail "the server did not start"; return 1; }

    PGPASSWORD="$password" "$CTXCHAT_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 \
        -h 127.0.0.1 -p "$port" -U ctxchat -d postgres \
        -c "CREATE DATABASE ctxchat_test OWNER ctxchat" >/dev/null \
        || { ctxchat_pg_fail "cannot create the test database"; return 1; }

    export CTXCHAT_TEST_POSTGRES_URL="postgresql+psycopg://ctxchat:${password}@127.0.0.1:${port}/ctxchat_test"
    echo "postgres.sh: PostgreSQL $("$CTXCHAT_PG_BIN/pg_ctl" --version | awk '{print $3}') on 127.0.0.1:$port (owner $CTXCHAT_PG_OWNER)" >&2
}

ctxchat_pg_previous_trap="$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")"
# shellcheck disable=SC2064  # expanded now on purpose: the previous trap's text
trap "ctxchat_pg_stop; ${ctxchat_pg_previous_trap}" EXIT
unset ctxchat_pg_previous_trap

if ! ctxchat_pg_start; then
    ctxchat_pg_stop
    unset CTXCHAT_TEST_POSTGRES_URL
    echo "postgres.sh: PostgreSQL is not available; its test cases will fail" >&2
fi
