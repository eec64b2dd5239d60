#!/usr/bin/env bash
# Runs the README's test command (`npm ci && npm test`) as a new contributor would: in a fresh
# clone of this repository's HEAD, with an empty embedding cache (EVIDENT_CACHE_DIR), an empty
# XDG cache and a new node_modules (so an empty Vite / Vitest cache), and prints the wall time.
#
#   scripts/fresh-test.sh          # npm ci && npm test
#   scripts/fresh-test.sh --ci     # .ci/run (npm ci && npm test, test:quality, checks, eval --check)
#   scripts/fresh-test.sh --keep   # keep the temporary folder (printed) afterwards
#
# The clone sits in a new temporary folder beside a symlink named `shared` to this checkout's
# ../shared, so the tests find `../shared` as they do here (src/node/shared-data.ts). The shared-data
# and browser suites are required (REQUIRE_SHARED=1, REQUIRE_BROWSER=1): a missing mount fails
# instead of making the run fast. Only committed work is tested. npm's own package cache is kept
# (set npm_config_cache to an empty folder to time downloads too).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
mode=test
keep=0
for arg in "$@"; do
  case "$arg" in
    --ci) mode=ci ;;
    --keep) keep=1 ;;
    *) echo "usage: scripts/fresh-test.sh [--ci] [--keep]" >&2; exit 2 ;;
  esac
done

shared="$(cd "$repo/.." && pwd)/shared"
if [ ! -d "$shared/datasets" ]; then
  echo "fresh-test: $shared/datasets is missing; the shared-data suites need it beside the checkout" >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/evident-fresh-XXXXXX")"
cleanup() { if [ "$keep" = 1 ]; then echo "fresh-test: kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT

ln -s "$shared" "$work/shared"
git clone --quiet --no-hardlinks "$repo" "$work/main"
mkdir -p "$work/cache/embeddings" "$work/xdg-cache"
export EVIDENT_CACHE_DIR="$work/cache/embeddings"
export XDG_CACHE_HOME="$work/xdg-cache"
export REQUIRE_SHARED=1 REQUIRE_BROWSER=1
unset EVIDENT_SHARED

cd "$work/main"
echo "fresh-test: $(git log -1 --format='%h %s' | cut -c1-100)"
echo "fresh-test: clone $work/main, embedding cache $EVIDENT_CACHE_DIR (empty), $(nproc) cores, load: $(uptime | sed 's/.*load average: //')"
start=$SECONDS
status=0
if [ "$mode" = ci ]; then
  .ci/run || status=$?
  what='.ci/run'
else
  (npm ci && npm test) || status=$?
  what='npm ci && npm test'
fi
elapsed=$((SECONDS - start))
echo "fresh-test: $what exited $status after ${elapsed} s ($((elapsed / 60)) min $((elapsed % 60)) s); load at the end: $(uptime | sed 's/.*load average: //')"
exit "$status"
