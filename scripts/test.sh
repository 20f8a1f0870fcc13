#!/usr/bin/env bash
# `npm test`: the checks (lint and typecheck: `npm run checks`) run beside jest instead of before
# it. Jest's integration suites spend much of their time waiting on the services and on child
# processes, and the checks fill those waits (docs/testing.md, Suite time). The checks' output is
# printed after jest's; either failing fails the run. Arguments go to jest.
set -u
cd "$(dirname "$0")/.."
# Every node of the run (jest, its workers, the suites' child processes, the checks) with a young
# generation of 32 MB per semi-space instead of V8's default 16: the workers load the app's modules
# afresh for each test file, and their scavenges were a tenth of the run's CPU (docs/testing.md,
# Suite time).
export NODE_OPTIONS="--max-semi-space-size=32${NODE_OPTIONS:+ $NODE_OPTIONS}"
mkdir -p .cache
log=$(mktemp .cache/checks.XXXXXX)
npm run --silent checks >"$log" 2>&1 &
checks=$!
npm run --silent test:jest -- "$@"
jest=$?
wait "$checks"
lint=$?
cat "$log"
rm -f "$log"
if [[ $lint -ne 0 ]]; then echo "npm test: lint or typecheck failed (above)" >&2; fi
exit $((jest != 0 ? jest : lint))
