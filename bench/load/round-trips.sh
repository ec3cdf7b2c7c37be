#!/usr/bin/env bash
# bench/load/round-trips.sh SERVER_URL SERVER_LOG [PORT]
#
# How many statements (each a round trip to PostgreSQL) one request of each kind in the load mix
# sends, counted from PostgreSQL's own statement log: SERVER_URL is a superuser URL of a cluster
# without the database `gatehouse_round_trips` (it is created, and dropped again), SERVER_LOG the
# file that cluster logs to. Every kind is sent once to warm its path, then once counted. The
# background workers (webhook delivery, monitoring) are off, so only the request is counted.
# Run from the repository; needs the list data for one small list (BIS_DPL).
set -euo pipefail
SERVER_URL=${1:?usage: round-trips.sh SERVER_URL SERVER_LOG [PORT]}
SERVER_LOG=${2:?usage: round-trips.sh SERVER_URL SERVER_LOG [PORT]}
PORT=${3:-18199}
LISTS=${LISTS_DATA_DIR:-../shared/data/lists}
DB=gatehouse_round_trips
export DATABASE_URL="${SERVER_URL%/*}/$DB"

psql -qtA "$SERVER_URL" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
node bin/gatehouse.js migrate >/dev/null
node bin/gatehouse.js lists import "$LISTS/bis_dpl_2023-11" >/dev/null 2>&1
json() { node -pe "JSON.parse(require('fs').readFileSync(0)).$1"; }
ORG=$(node bin/gatehouse.js orgs create --name 'Round trips' --tier enterprise | json id)
KEY=$(node bin/gatehouse.js keys create --org "$ORG" | json key)
psql -qtA "$SERVER_URL" -c "ALTER DATABASE $DB SET log_statement = 'all'"

PORT=$PORT LISTS_AUTO_UPDATE=false MONITORING_INTERVAL_SECONDS=0 WEBHOOK_WORKER=false LOG_LEVEL=warn \
  node bin/gatehouse.js serve >/dev/null 2>&1 &
SERVICE=$!
trap 'kill $SERVICE; wait $SERVICE 2>/dev/null; psql -qtA "$SERVER_URL" -c "DROP DATABASE IF EXISTS $DB"' EXIT
until curl -sf "localhost:$PORT/api/healthz" >/dev/null; do sleep 0.5; done

BASE="localhost:$PORT/api/v1"
call() { curl -sf -H "Authorization: Bearer $KEY" -H 'content-type: application/json' "$@"; }
statements() { grep -c 'LOG:  \(execute\|statement\)' "$SERVER_LOG" || true; }
count() {
  local kind=$1; shift
  sleep 0.3; local before; before=$(statements)
  call "$@" >/dev/null
  sleep 0.3; echo "| $kind | $(($(statements) - before)) |"
}

SCREENING=$(call -X POST "$BASE/prescreen" -d '{"subject":"John Smith","company":"Acme Widgets","country":"US"}' | json id)
SESSION=$(call -X POST "$BASE/checkin" -d '{"visitor":{"name":"Jane Doe"},"site":"HQ"}' | json id)
call "$BASE/screenings/$SCREENING" >/dev/null
call "$BASE/adjudication/queue" >/dev/null

echo '| request | statements |'
echo '|---|---|'
count 'POST /prescreen (clear)' -X POST "$BASE/prescreen" -d '{"subject":"John Smith","company":"Acme Widgets","country":"US"}'
count 'GET /screenings/{id}' "$BASE/screenings/$SCREENING"
count 'POST /checkin (clear)' -X POST "$BASE/checkin" -d '{"visitor":{"name":"Jane Roe"},"site":"HQ"}'
count 'GET /adjudication/queue' "$BASE/adjudication/queue"
count 'POST /sessions/{id}/update (check-out)' -X POST "$BASE/sessions/$SESSION/update" -d '{"status":"checked_out"}'
