#!/usr/bin/env bash
# Make sure what the test suite talks to is there: PostgreSQL and Redis on
# this machine (for the PostgreSQL/Redis paths) and Debian's Chromium (for the
# browser tests). Starts or installs what is missing, or says what to do.
set -u
sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "PostgreSQL is not answering on 127.0.0.1:5432; starting it"
  if command -v pg_ctlcluster >/dev/null 2>&1; then
    sudo_if_needed pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  pg_isready -q -h 127.0.0.1 -p 5432 || {
    echo "PostgreSQL is needed on 127.0.0.1:5432 (trust auth, database 'test'); start it and retry" >&2
    exit 1
  }
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "Redis is not answering on 127.0.0.1:6379; starting it"
  if command -v redis-server >/dev/null 2>&1; then
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    sudo_if_needed redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
      --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  fi
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
  redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || {
    echo "Redis is needed on 127.0.0.1:6379; start it and retry" >&2
    exit 1
  }
fi

if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's Chromium for the browser tests"
  export DEBIAN_FRONTEND=noninteractive
  sudo_if_needed apt-get update -qq && sudo_if_needed apt-get install -y -qq chromium >/dev/null || {
    echo "The browser tests need /usr/bin/chromium: apt-get install chromium" >&2
    exit 1
  }
fi
exit 0
