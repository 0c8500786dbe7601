#!/usr/bin/env bash
# Installs the Debian 12 packages needed to build and test Eddy, skipping those already installed.
#
# Usage: deploy/install-deps.sh [--with-test-tools] [--dry-run]
#   --with-test-tools  also install what only the tests use: docker-compose (the deploy tests
#                      validate deploy/docker-compose.yml with it), clang-format (the format
#                      check), chromium (the dashboard test loads the page in it headless),
#                      and the Python client's runtime and test packages (grpcio, protobuf,
#                      pandas, pytest, venv); `make test` passes this flag
#                      (--with-compose is the older name).
#                      EDDY_WITH_COMPOSE=1 does the same.
#   --dry-run        print what would be installed and exit.
# Runs apt-get update only when something is missing. Needs root, or sudo.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  librocksdb-dev libspdlog-dev libabsl-dev zlib1g-dev libre2-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev libreadline-dev libsqlite3-dev librdkafka-dev
  iproute2 tzdata
)

with_compose="${EDDY_WITH_COMPOSE:-0}"
dry_run=0
for arg in "$@"; do
  case "$arg" in
    --with-test-tools|--with-compose) with_compose=1 ;;
    --dry-run) dry_run=1 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done
if [[ "$with_compose" == 1 ]]; then
  PACKAGES+=(docker-compose clang-format chromium)
  # The Python client (client/python) and its tests (tests/python).
  PACKAGES+=(python3-grpcio python3-protobuf python3-pandas python3-pytest python3-venv)
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: dpkg-query/apt-get not found; this script supports Debian 12 (bookworm) only" >&2
  exit 1
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)"
  if [[ "$status" != "installed" ]]; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
if [[ "$dry_run" == 1 ]]; then
  exit 0
fi

if [[ "$(id -u)" -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: need root to install ${missing[*]}; run as root or install sudo" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-deps: done"
