#!/usr/bin/env bash
# `npm run typecheck`: tsc in build mode (`-b`), which first compares the project's files with its
# last check and ends there, in about 1 s of CPU, when none is newer. Plain `tsc --incremental`
# re-read and re-bound all 2,200 files and declarations every time before finding nothing to
# check: 11-12 s of CPU in every `npm test` on the Intel guest of 2026-12-01 (docs/testing.md).
#
# Build mode's comparison sees the project's own .ts files and its tsconfig, not the declarations
# in node_modules nor the JSON files the code imports. The last check is therefore kept only for
# the same installed tree (npm's node_modules/.package-lock.json) and the same JSON files: when
# either changes, it is thrown away and everything is checked again.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.cache/tsc/typecheck
inputs=$(
  {
    sha1sum node_modules/.package-lock.json
    find src test scripts clients -name '*.json' -not -path '*/node_modules/*' | sort | xargs -r sha1sum
  } | sha1sum | cut -c1-40
)
if [[ "$(cat "$dir/inputs" 2>/dev/null || true)" != "$inputs" ]]; then
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "$inputs" >"$dir/inputs"
fi
exec node_modules/.bin/tsc -b tsconfig.typecheck.json
