#!/usr/bin/env bash
# Drives a test double served by `docsbase serve --test-double --fixture examples/curl/fixture.json`
# with curl and POSIX tools only: the way a test written in any language uses it.
#   DOCSBASE_URL=http://127.0.0.1:8787 DOCSBASE_ADMIN_TOKEN=... bash examples/curl/test-double.sh
set -euo pipefail
: "${DOCSBASE_URL:?set DOCSBASE_URL to the server, e.g. http://127.0.0.1:8787}"
: "${DOCSBASE_ADMIN_TOKEN:?set DOCSBASE_ADMIN_TOKEN to the operator token of the server}"
ADA="tok-ada-0123456789abcdef" # the token the fixture gives Ada

# call METHOD PATH TOKEN [JSON]: prints the answer's body, then its status on a line of its own.
call() {
  local args=(-sS -X "$1" -H "Authorization: Bearer $3" -w '\n%{http_code}')
  if [ -n "${4:-}" ]; then args+=(-H "Content-Type: application/json" --data "$4"); fi
  curl "${args[@]}" "$DOCSBASE_URL$2"
}
admin() { call "$1" "/_docsbase/$2" "$DOCSBASE_ADMIN_TOKEN" "${3:-}"; }
status() { tail -n 1 <<<"$1"; }
# field NAME ANSWER: the first string field NAME in the answer's JSON.
field() { grep -o "\"$1\":\"[^\"]*\"" <<<"$2" | head -n 1 | sed 's/^.*":"//; s/"$//'; }
check() {
  if [ "$1" != "$2" ]; then
    echo "FAIL: $3: expected $2, got $1" >&2
    exit 1
  fi
  echo "ok: $3"
}

answer=$(admin POST seed '{"spaces":[{"id":"space-guide","organization":"org-acme","title":"Guide"}]}')
check "$(status "$answer")" 204 "seed a space"

answer=$(admin POST snapshots)
check "$(status "$answer")" 201 "take a snapshot"
snapshot=$(field id "$answer")

answer=$(call PATCH /v1/spaces/space-handbook "$ADA" '{"title":"Renamed"}')
check "$(status "$answer")" 200 "rename the space through /v1"

answer=$(admin GET "calls?operationId=updateSpaceById")
check "$(field title "$answer")" Renamed "the journal holds the call with its body"
check "$(grep -o '"status":[0-9]*' <<<"$answer")" '"status":200' "the journal holds its status"

answer=$(admin POST faults '{"operationId":"getSpaceById","status":503,"times":1}')
check "$(status "$answer")" 201 "add a fault"
fault=$(field id "$answer")
check "$(status "$(call GET /v1/spaces/space-handbook "$ADA")")" 503 "the faulted call answers 503"
check "$(status "$(admin DELETE "faults/$fault")")" 204 "remove the fault"

check "$(status "$(admin POST "snapshots/$snapshot/restore")")" 204 "restore the snapshot"
check "$(field title "$(call GET /v1/spaces/space-handbook "$ADA")")" Handbook "the old title is back"

answer=$(admin POST clock/advance '{"by":"7d"}')
check "$(status "$answer")" 200 "advance the clock"
echo "now: $(field now "$answer")"

check "$(status "$(admin POST reset)")" 204 "reset"
check "$(status "$(call GET /v1/spaces/space-guide "$ADA")")" 404 "the seeded space is gone after reset"
echo "all checks passed"
