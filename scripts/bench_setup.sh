#!/usr/bin/env bash
# What `make bench` needs beyond `make setup`: htop, the idle-CPU and start-up baseline.
# (Not part of `make test`.)
set -euo pipefail
if ! command -v htop >/dev/null 2>&1; then
  echo "bench: installing htop (the idle and start-up baseline)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq htop >/dev/null
fi
