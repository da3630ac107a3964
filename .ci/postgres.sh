#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server from Debian's package on 127.0.0.1 for the SLA store's tests, installing the
# package when missing, and prints the JDBC URL the tests read from SLAGATE_TEST_POSTGRES. The server's data lives
# in a temporary directory; stop it with: pg_ctl -D "$dir" stop (the directory is printed to stderr).
set -euo pipefail
port="${1:-55432}"
# the first port from there that nothing listens on (another server, a run before this one)
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q postgresql >&2
  bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
fi
run_as=()
if [ "$(id -u)" -eq 0 ]; then run_as=(runuser -u postgres --); fi # the server refuses to run as root
dir="$(mktemp -d /tmp/slagate-pg.XXXXXX)"
chmod 700 "$dir"
if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir"; fi
password="$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
printf '%s\n' "$password" > "$dir.pw"
if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir.pw"; fi
"${run_as[@]}" "$bin/initdb" -D "$dir" -U slagate --pwfile="$dir.pw" -A scram-sha-256 >/dev/null
rm -f "$dir.pw"
"${run_as[@]}" "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir" start >/dev/null
PGPASSWORD="$password" "$bin/psql" -h 127.0.0.1 -p "$port" -U slagate -d postgres -q -c "CREATE DATABASE slagate_test" >/dev/null
echo "PostgreSQL for the tests: $dir (port $port)" >&2
echo "jdbc:postgresql://127.0.0.1:$port/slagate_test?user=slagate&password=$password"
