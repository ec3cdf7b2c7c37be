#!/usr/bin/env bash
# bench/load/round-trips.sh SERVER_URL SERVER_LOG [PORT] [--worker WORKER_URL WORKER_LOG]…
#
# How many statements (each a round trip to PostgreSQL) one request of each kind in the load mix
# sends, counted from PostgreSQL's own statement log: SERVER_URL is a superuser URL of a cluster
# without the database `gatehouse_round_trips` (it is created, and dropped again), SERVER_LOG the
# file that cluster logs to. Every kind is sent once to warm its path, then once counted. The
# background workers (webhook delivery, monitoring) are off, so only the request is counted.
#
# On Citus, SERVER_URL is the coordinator's, and each --worker names a worker (a superuser URL)
# and its log: the database is made on every node with the extension and the workers added, the
# workers log every statement, and the table also says what the coordinator sent the workers for
# each request, to how many workers and to how many shard groups of distributed tables (a shard
# group is one hash range, the shards of every colocated table for it: a tenant's statements routed
# to its one shard group show 1; reference tables are on every node and not counted). Statements
# the coordinator runs on itself (Citus's local execution: its own copy of a reference table,
# intermediate results) are in its log too: they name a shard or an intermediate result, which the
# service never does, and are counted apart from the service's.
# Run from the repository; needs the list data for one small list (BIS_DPL).
set -euo pipefail
USAGE='usage: round-trips.sh SERVER_URL SERVER_LOG [PORT] [--worker WORKER_URL WORKER_LOG]…'
SERVER_URL=${1:?$USAGE}
SERVER_LOG=${2:?$USAGE}
shift 2
PORT=18199
if [[ $# -gt 0 && $1 != --worker ]]; then PORT=$1; shift; fi
WORKER_URLS=() WORKER_LOGS=()
while [[ $# -gt 0 ]]; do
  [[ $1 == --worker && $# -ge 3 ]] || { echo "$USAGE" >&2; exit 2; }
  WORKER_URLS+=("$2") WORKER_LOGS+=("$3")
  shift 3
done
LISTS=${LISTS_DATA_DIR:-../shared/data/lists}
DB=gatehouse_round_trips
export DATABASE_URL="${SERVER_URL%/*}/$DB"
at() { echo "${1%/*}/$2"; }
drop() { for url in "$SERVER_URL" "${WORKER_URLS[@]}"; do psql -qtA "$url" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)"; done; }

drop
for url in "$SERVER_URL" "${WORKER_URLS[@]}"; do psql -qtA "$url" -c "CREATE DATABASE $DB"; done
if [[ ${#WORKER_URLS[@]} -gt 0 ]]; then
  # 'host', port of a URL postgres://user@host:port/db, as citus_add_node takes them.
  hostport() { local hp=${1#*@}; hp=${hp%%/*}; echo "'${hp%:*}', ${hp##*:}"; }
  for url in "${WORKER_URLS[@]}"; do psql -qtA "$(at "$url" $DB)" -c 'CREATE EXTENSION citus'; done
  psql -qtA "$DATABASE_URL" -c 'CREATE EXTENSION citus' -c "SELECT citus_set_coordinator_host($(hostport "$SERVER_URL"))" >/dev/null
  for url in "${WORKER_URLS[@]}"; do psql -qtA "$DATABASE_URL" -c "SELECT citus_add_node($(hostport "$url"))" >/dev/null; done
fi
node bin/gatehouse.js migrate >/dev/null
node bin/gatehouse.js lists import "$LISTS/bis_dpl_2023-11" >/dev/null 2>&1
json() { node -pe "JSON.parse(require('fs').readFileSync(0)).$1"; }
ORG=$(node bin/gatehouse.js orgs create --name 'Round trips' --tier enterprise | json id)
KEY=$(node bin/gatehouse.js keys create --org "$ORG" | json key)
for url in "$SERVER_URL" "${WORKER_URLS[@]}"; do psql -qtA "$url" -c "ALTER DATABASE $DB SET log_statement = 'all'"; done
# The shards of distributed tables (hash) as "id range": what a routed statement names on a worker, and its shard group.
SHARDS=$(psql -qtA -F ' ' "$DATABASE_URL" -c "SELECT shardid, shardminvalue FROM pg_dist_shard JOIN pg_dist_partition USING (logicalrelid) WHERE partmethod = 'h'" 2>/dev/null || true)

PORT=$PORT LISTS_AUTO_UPDATE=false MONITORING_INTERVAL_SECONDS=0 WEBHOOK_WORKER=false LOG_LEVEL=warn \
  node bin/gatehouse.js serve >/dev/null 2>&1 &
SERVICE=$!
WORKER_TEXT=$(mktemp)
trap 'kill $SERVICE; wait $SERVICE 2>/dev/null; rm -f "$WORKER_TEXT"; drop' EXIT
until curl -sf "localhost:$PORT/api/healthz" >/dev/null; do sleep 0.5; done

BASE="localhost:$PORT/api/v1"
call() { curl -sf -H "Authorization: Bearer $KEY" -H 'content-type: application/json' "$@"; }
STATEMENT='LOG:  \(execute\|statement\)'
LOCAL='public\.[a-z_]*_[0-9]\{6,\}\b\|read_intermediate_result'
statements() { grep "$STATEMENT" "$SERVER_LOG" | grep -vc "$LOCAL" || true; }
locally() { grep "$STATEMENT" "$SERVER_LOG" | grep -c "$LOCAL" || true; }
lines() { wc -l <"$1"; }
count() {
  local kind=$1; shift
  sleep 0.3
  local before local_before; before=$(statements) local_before=$(locally)
  local -a at=()
  for log in "${WORKER_LOGS[@]}"; do at+=("$(lines "$log")"); done
  call "$@" >/dev/null
  sleep 0.3
  local row="| $kind | $(($(statements) - before)) |"
  if [[ ${#WORKER_LOGS[@]} -gt 0 ]]; then
    local sent=0 workers=0 n since
    for i in "${!WORKER_LOGS[@]}"; do
      since=$(tail -n +$((at[i] + 1)) "${WORKER_LOGS[i]}")
      n=$(grep -c "$STATEMENT" <<<"$since" || true)
      sent=$((sent + n)); [[ $n -gt 0 ]] && workers=$((workers + 1))
      printf '%s\n' "$since" >>"$WORKER_TEXT"
    done
    # Shard tables are named <table>_<shard id>; only distributed tables' shards count, by their hash range.
    local groups; groups=$(grep -o '_[0-9]\{6,\}\b' "$WORKER_TEXT" | tr -d _ | sort -u |
      awk 'NR == FNR { range[$1] = $2; next } $1 in range { print range[$1] }' <(printf '%s\n' "$SHARDS") - | sort -u | wc -l || true)
    : >"$WORKER_TEXT"
    row="$row $(($(locally) - local_before)) | $sent | $workers | $groups |"
  fi
  echo "$row"
}

SCREENING=$(call -X POST "$BASE/prescreen" -d '{"subject":"John Smith","company":"Acme Widgets","country":"US"}' | json id)
SESSION=$(call -X POST "$BASE/checkin" -d '{"visitor":{"name":"Jane Doe"},"site":"HQ"}' | json id)
call "$BASE/screenings/$SCREENING" >/dev/null
call "$BASE/adjudication/queue" >/dev/null

if [[ ${#WORKER_LOGS[@]} -gt 0 ]]; then
  echo '| request | statements from the service | run on the coordinator itself | sent to workers | workers | shard groups |'
  echo '|---|---|---|---|---|---|'
else
  echo '| request | statements |'
  echo '|---|---|'
fi
count 'POST /prescreen (clear)' -X POST "$BASE/prescreen" -d '{"subject":"John Smith","company":"Acme Widgets","country":"US"}'
count 'GET /screenings/{id}' "$BASE/screenings/$SCREENING"
count 'POST /checkin (clear)' -X POST "$BASE/checkin" -d '{"visitor":{"name":"Jane Roe"},"site":"HQ"}'
count 'GET /adjudication/queue' "$BASE/adjudication/queue"
count 'POST /sessions/{id}/update (check-out)' -X POST "$BASE/sessions/$SESSION/update" -d '{"status":"checked_out"}'
