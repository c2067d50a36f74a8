#!/usr/bin/env bash
# Installs PostgreSQL 15 with pgvector from Debian's packages and starts a throwaway cluster on a
# loopback port, for the integration suite's real-server transport.
#   .ci/postgres.sh install   PostgreSQL 15 + pgvector (built from Debian's source package) when missing
#   .ci/postgres.sh start     a fresh cluster in $PG_TEST_DIR (default /tmp/mhq-pg) on $PG_TEST_PORT (54329)
# Prints the admin URL to use as TEST_DATABASE_URL.
set -euo pipefail
PG_BIN=/usr/lib/postgresql/15/bin
PORT="${PG_TEST_PORT:-54329}"
DIR="${PG_TEST_DIR:-/tmp/mhq-pg}"

install() {
  # the server's headers too: pg_config alone can be there without them (building pgvector needs both)
  if [ ! -x "$PG_BIN/postgres" ] || [ ! -x "$PG_BIN/pg_config" ] || [ ! -f /usr/include/postgresql/15/server/postgres.h ] \
    || ! command -v make >/dev/null || ! command -v dpkg-source >/dev/null; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      postgresql-15 postgresql-server-dev-15 build-essential dpkg-dev
  fi
  if [ -f /usr/share/postgresql/15/extension/vector.control ]; then return; fi
  # pgvector is packaged in a newer Debian release: fetch its source package through a private apt
  # configuration that holds one deb-src line for that release, and build it against PostgreSQL 15.
  local apt_dir work
  apt_dir=$(mktemp -d) work=$(mktemp -d)
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
  echo "deb-src http://deb.debian.org/debian trixie main" > "$apt_dir/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=-"
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives"
    -o "APT::Get::AllowUnauthenticated=false")
  apt-get "${opts[@]}" update
  (cd "$work" && apt-get "${opts[@]}" source --download-only pgvector && dpkg-source -x --no-check ./*.dsc src)
  make -C "$work/src" PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config OPTFLAGS="" -j2
  make -C "$work/src" PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config install
  rm -rf "$apt_dir" "$work"
}

start() {
  id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql postgres
  if [ -f "$DIR/postmaster.pid" ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DIR" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$DIR"
  mkdir -p "$DIR"
  chown postgres "$DIR"
  runuser -u postgres -- "$PG_BIN/initdb" -D "$DIR" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  cat >> "$DIR/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$DIR'
max_connections = 300
shared_buffers = 256MB
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w start >/dev/null
  echo "postgres://postgres@127.0.0.1:$PORT/postgres"
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  *) echo "usage: $0 install|start" >&2; exit 2 ;;
esac
