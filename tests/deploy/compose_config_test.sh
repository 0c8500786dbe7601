#!/usr/bin/env bash
# Checks that deploy/docker-compose.yml is a valid compose file defining the coordinator and worker
# services. Usage: compose_config_test.sh [REPO_ROOT]. Exits 77 (CTest: skipped) when no compose
# tool is installed; `make test` installs docker-compose first.
set -euo pipefail

root="${1:-$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../..}"
file="$root/deploy/docker-compose.yml"

if command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
elif command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
else
  echo "SKIP: neither docker-compose nor 'docker compose' is installed" >&2
  exit 77
fi

if [[ ! -f "$file" ]]; then
  echo "FAIL: $file not found" >&2
  exit 1
fi

if ! "${compose[@]}" -f "$file" config -q; then
  echo "FAIL: '${compose[*]} -f $file config -q' rejected the file" >&2
  exit 1
fi

services="$("${compose[@]}" -f "$file" config --services)"
for want in coordinator worker; do
  if ! grep -qx "$want" <<<"$services"; then
    echo "FAIL: service '$want' missing; config --services printed:" >&2
    echo "$services" >&2
    exit 1
  fi
done

# The optional Prometheus service, and the scrape config it mounts.
with_prometheus="$("${compose[@]}" -f "$file" --profile prometheus config --services)"
if ! grep -qx prometheus <<<"$with_prometheus"; then
  echo "FAIL: --profile prometheus defines no service 'prometheus'" >&2
  exit 1
fi
for want in "coordinator:8082" "port: 9249"; do
  if ! grep -q "$want" "$root/deploy/prometheus.yml"; then
    echo "FAIL: deploy/prometheus.yml does not scrape '$want'" >&2
    exit 1
  fi
done
config="$("${compose[@]}" -f "$file" config)"
for want in "8082" "9249"; do
  if ! grep -q "$want" <<<"$config"; then
    echo "FAIL: the compose file does not mention port $want" >&2
    exit 1
  fi
done

echo "PASS: $file is valid and defines: $(tr '\n' ' ' <<<"$services")"
