#!/usr/bin/env bash
# One local OpenSearch per checkout, without Docker (decisions 10).
#
#   scripts/opensearch-local.sh fetch    download the pinned distribution (Maven Central) into the cache
#   scripts/opensearch-local.sh start    start it unless it is already running; prints its URL
#   scripts/opensearch-local.sh status   prints the URL and exits 0 when healthy, 1 otherwise
#   scripts/opensearch-local.sh stop     stops it (by pid) and keeps its data
#   scripts/opensearch-local.sh destroy  stops it and deletes its data
#
# The zip is cached in the checkout (.cache/opensearch, ignored). OpenSearch refuses to run as root,
# and the checkout may sit under a folder only root can traverse, so the unpacked distribution, its
# config, data and logs live under $OPENSEARCH_LOCAL_ROOT (default /var/tmp/opportunity-api-opensearch)
# in a folder named after the checkout, owned by an unprivileged system user. The checkout's
# .cache/opensearch/state records where. A lock serialises concurrent starts: the first caller starts
# the JVM, the others wait for it and reuse it (the JVM must not inherit the lock's descriptor).
set -euo pipefail

VERSION_3="3.8.0"   # needs JDK 21+
VERSION_2="2.19.3"  # fallback for machines with only JDK 11-17
GROUP="org.opensearch.distribution.integ-test-zip"
HEAP="${OPENSEARCH_HEAP:-1g}"
RUN_USER="${OPENSEARCH_RUN_USER:-opensearch}"

checkout="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$checkout/.cache/opensearch"
state="$cache/state"
mkdir -p "$cache"
key="$(printf '%s' "$checkout" | sha256sum | cut -c1-12)"
root_dir="${OPENSEARCH_LOCAL_ROOT:-/var/tmp/opportunity-api-opensearch}"
home="$root_dir/$key"

log() { printf 'opensearch-local: %s\n' "$*" >&2; }

java_major() { "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1; }

# Picks the newest JDK under /usr/lib/jvm (or OPENSEARCH_JAVA_HOME) and the distribution it can run.
choose_runtime() {
  local best="" best_major=0 d m
  if [[ -n "${OPENSEARCH_JAVA_HOME:-}" ]]; then
    best="$OPENSEARCH_JAVA_HOME"; best_major="$(java_major "$best")"
  else
    for d in /usr/lib/jvm/*/; do
      d="${d%/}"
      [[ -x "$d/bin/java" && ! -L "$d" ]] || continue
      m="$(java_major "$d")"; [[ -n "$m" ]] || continue
      if (( m > best_major )); then best="$d"; best_major="$m"; fi
    done
  fi
  [[ -n "$best" ]] || { log "no JDK found under /usr/lib/jvm"; exit 1; }
  JAVA_HOME_FOR_OS="$best"
  if (( best_major >= 21 )); then VERSION="${OPENSEARCH_VERSION:-$VERSION_3}"; else VERSION="${OPENSEARCH_VERSION:-$VERSION_2}"; fi
}

fetch() {
  choose_runtime
  local zip="$cache/opensearch-$VERSION.zip"
  if [[ ! -s "$zip" ]]; then
    log "downloading $GROUP:opensearch:$VERSION from Maven Central"
    mvn -q -B dependency:copy -Dartifact="$GROUP:opensearch:$VERSION:zip" -DoutputDirectory="$cache" \
      -Dmdep.overWriteReleases=true >&2
  fi
  echo "$zip"
}

ensure_user() {
  id "$RUN_USER" >/dev/null 2>&1 && return
  log "creating system user $RUN_USER"
  useradd --system --no-create-home --shell /usr/sbin/nologin "$RUN_USER"
}

install_dist() {
  local zip; zip="$(fetch)"
  local dist="$home/opensearch-$VERSION"
  if [[ ! -x "$dist/bin/opensearch" ]]; then
    mkdir -p "$home"
    rm -rf "$home/unpack"
    unzip -q "$zip" -d "$home/unpack"
    mv "$home/unpack/opensearch-$VERSION" "$dist"
    rm -rf "$home/unpack"
  fi
  mkdir -p "$home/data" "$home/logs"
  DIST="$dist"
}

read_state() {
  URL=""; PID=""
  [[ -f "$state" ]] || return 0
  # shellcheck disable=SC1090
  source "$state"
}

healthy() {
  [[ -n "$URL" ]] && curl -fsS --max-time 2 "$URL/_cluster/health" 2>/dev/null | grep -q '"status":"\(green\|yellow\)"'
}

alive() { [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; }

free_port() {
  local port
  for port in $(seq "$1" $(( $1 + 200 ))); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  log "no free port near $1"; exit 1
}

wait_healthy() {
  local i
  for i in $(seq 1 180); do
    healthy && return 0
    alive || { log "OpenSearch exited during start; see $home/logs"; tail -n 30 "$home/logs/opensearch.log" >&2 || true; return 1; }
    sleep 1
  done
  log "OpenSearch did not become healthy in 180 s"; return 1
}

start_locked() {
  read_state
  if alive; then
    wait_healthy && { echo "$URL"; return 0; }
    log "running instance (pid $PID) is not healthy; restarting"; kill "$PID" 2>/dev/null || true; sleep 2
  elif [[ -n "$PID" ]]; then
    log "previous instance (pid $PID) is gone; restarting"
  fi
  ensure_user
  install_dist
  chown -R "$RUN_USER" "$DIST/config" "$DIST/logs" "$home/data" "$home/logs"
  chmod 755 "$root_dir" "$home" 2>/dev/null || true
  local base=$(( 19200 + 0x${key:0:4} % 400 ))
  local http_port; http_port="$(free_port "$base")"
  local transport_port; transport_port="$(free_port $(( http_port + 1000 )))"
  rm -f "$home/pid"
  touch "$home/pid"; chown "$RUN_USER" "$home/pid"
  log "starting OpenSearch $VERSION on 127.0.0.1:$http_port (heap $HEAP, JDK $JAVA_HOME_FOR_OS)"
  runuser -u "$RUN_USER" -- env -i PATH=/usr/bin:/bin \
    OPENSEARCH_JAVA_HOME="$JAVA_HOME_FOR_OS" \
    OPENSEARCH_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP" \
    "$DIST/bin/opensearch" -d -p "$home/pid" \
      -Ediscovery.type=single-node -Enetwork.host=127.0.0.1 \
      -Ehttp.port="$http_port" -Etransport.port="$transport_port" \
      -Epath.data="$home/data" -Epath.logs="$home/logs" \
      -Ecluster.routing.allocation.disk.threshold_enabled=false \
      -Eaction.auto_create_index=false >/dev/null 2>&1 </dev/null 9>&-
  for _ in $(seq 1 30); do [[ -s "$home/pid" ]] && break; sleep 0.2; done
  PID="$(cat "$home/pid" 2>/dev/null || true)"
  URL="http://127.0.0.1:$http_port"
  printf 'URL=%s\nPID=%s\nHOME_DIR=%s\nVERSION=%s\n' "$URL" "$PID" "$home" "$VERSION" > "$state"
  wait_healthy
  echo "$URL"
}

cmd="${1:-start}"
case "$cmd" in
  fetch) fetch >/dev/null; log "cached in $cache" ;;
  start)
    choose_runtime
    exec 9>"$cache/lock"
    flock 9
    start_locked
    ;;
  status)
    read_state
    if healthy; then echo "$URL"; else exit 1; fi
    ;;
  stop|destroy)
    exec 9>"$cache/lock"
    flock 9
    read_state
    if alive; then
      kill "$PID"
      for _ in $(seq 1 60); do alive || break; sleep 0.5; done
      alive && kill -9 "$PID"
      log "stopped pid $PID"
    fi
    rm -f "$state"
    if [[ "$cmd" == destroy ]]; then rm -rf "$home"; log "deleted $home"; fi
    ;;
  *) echo "usage: $0 fetch|start|status|stop|destroy" >&2; exit 2 ;;
esac
