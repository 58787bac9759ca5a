#!/usr/bin/env bash
# The PostgreSQL suites also run through PgBouncer in transaction pooling mode: Debian's package.
set -euo pipefail
if [ -x /usr/sbin/pgbouncer ] || command -v pgbouncer >/dev/null 2>&1; then exit 0; fi
echo "Installing Debian's pgbouncer for the suites that run through it…"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq pgbouncer >/dev/null
/usr/sbin/pgbouncer --version | head -n1
