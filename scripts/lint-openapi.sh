#!/usr/bin/env bash
# Lints the OpenAPI document the service serves, as integrators' tools read it: starts
# `gatehouse serve` on a fresh embedded database, fetches /api/v1/openapi.json, and runs Spectral
# (the `spectral:oas` ruleset) and Redocly (`recommended`) on it. Exits non-zero on any error
# from either; warnings are printed but pass. The linters are fetched by npx, not installed in
# the project: they check the product, the product does not need them.
#   scripts/lint-openapi.sh [DOCUMENT.json]   lint that file instead of a served one
set -euo pipefail
cd "$(dirname "$0")/.."

WORK="$(mktemp -d /tmp/gatehouse-openapi-lint.XXXXXX)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

DOC="${1:-}"
if [ -z "$DOC" ]; then
  DOC="$WORK/openapi.json"
  # PORT=0: the kernel picks a free port, which the "listening" log line names.
  env -u DATABASE_URL DATA_DIR="$WORK/data" PORT=0 HOST=127.0.0.1 LISTS_AUTO_UPDATE=false SANDBOX_BOOTSTRAP=false \
    node bin/gatehouse.js serve >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  address=""
  for _ in $(seq 1 600); do
    line="$(grep -m1 'gatehouse is listening' "$WORK/server.log" 2>/dev/null || true)"
    [ -n "$line" ] && address="$(node -e 'process.stdout.write(JSON.parse(process.argv[1]).address)' "$line")"
    [ -n "$address" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; echo "the server exited before listening" >&2; exit 1; }
    sleep 0.5
  done
  [ -n "$address" ] || { cat "$WORK/server.log" >&2; echo "the server did not start listening" >&2; exit 1; }
  node -e 'fetch(process.argv[1]).then(async (r) => { if (!r.ok) throw new Error(`HTTP ${r.status}`); require("fs").writeFileSync(process.argv[2], await r.text()); })' \
    "$address/api/v1/openapi.json" "$DOC"
fi

printf 'extends: ["spectral:oas"]\n' >"$WORK/.spectral.yaml"
printf 'extends:\n  - recommended\n' >"$WORK/redocly.yaml"

status=0
echo "== Spectral (spectral:oas)" >&2
npx --yes @stoplight/spectral-cli@6 lint "$DOC" --ruleset "$WORK/.spectral.yaml" --fail-severity error || status=1
echo "== Redocly (recommended)" >&2
npx --yes @redocly/cli@2 lint "$DOC" --config "$WORK/redocly.yaml" || status=1
exit "$status"
