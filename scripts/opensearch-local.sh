#!/usr/bin/env bash
# One local OpenSearch per checkout, without Docker (contract §22.3).
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
#
# Start-up: the JVM runs in the foreground of its own session (setsid), so its pid is
# known from launch, not from its pid file. The running instance is found by its command line
# naming this checkout's data folder, so a lost state file never leads to a second JVM. The wait
# for health lasts up to OPENSEARCH_START_TIMEOUT seconds (default 300); a JVM that dies or misses
# the deadline is stopped, never left behind. OPENSEARCH_DIST_DIR runs a prepared, unpacked
# distribution instead of the pinned one (tests use a fake one).
#
# OPENSEARCH_JIT=c1 launches the JVM with only its quick compiler (-XX:TieredStopAtLevel=1) instead
# of the default full tiered compilation (tiered). The test suite asks for it when it is the one to
# start the engine: over one run of the suite, a fresh JVM's optimising compiler (C2) spent 36 s of
# CPU compiling, far more than its faster code saved (docs/testing.md, Suite time). Anything
# measured (npm run bench) wants the default and refuses an engine without it. An engine already
# running is reused as it was launched.
set -euo pipefail

VERSION_3="3.8.0"   # needs JDK 21+
VERSION_2="2.19.3"  # fallback for machines with only JDK 11-17
GROUP="org.opensearch.distribution.integ-test-zip"
HEAP="${OPENSEARCH_HEAP:-1g}"
JIT="${OPENSEARCH_JIT:-tiered}"
START_TIMEOUT="${OPENSEARCH_START_TIMEOUT:-300}"
RUN_USER="${OPENSEARCH_RUN_USER:-opensearch}"

checkout="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$checkout/.cache/opensearch"
state="$cache/state"
mkdir -p "$cache"
key="$(printf '%s' "$checkout" | sha256sum | cut -c1-12)"
root_dir="${OPENSEARCH_LOCAL_ROOT:-/var/tmp/opportunity-api-opensearch}"
home="$root_dir/$key"

log() { printf 'opensearch-local: %s\n' "$*" >&2; }

case "$JIT" in
  tiered) JIT_OPTS="" ;;
  c1) JIT_OPTS=" -XX:TieredStopAtLevel=1" ;;
  *) log "OPENSEARCH_JIT must be tiered or c1, not '$JIT'"; exit 2 ;;
esac

java_major() { "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1; }

# Picks the newest JDK under /usr/lib/jvm (or OPENSEARCH_JAVA_HOME) and the distribution it can run.
choose_runtime() {
  local best="" best_major=0 d m
  if [[ -n "${OPENSEARCH_DIST_DIR:-}" ]]; then
    # A prepared distribution brings its own version; it runs with OPENSEARCH_JAVA_HOME if set.
    JAVA_HOME_FOR_OS="${OPENSEARCH_JAVA_HOME:-}"; VERSION="custom"; return 0
  fi
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

ensure_user_if_root() {
  (( EUID == 0 )) || return 0
  id "$RUN_USER" >/dev/null 2>&1 && return
  log "creating system user $RUN_USER"
  useradd --system --no-create-home --shell /usr/sbin/nologin "$RUN_USER"
}

install_dist() {
  mkdir -p "$home/data" "$home/logs"
  if [[ -n "${OPENSEARCH_DIST_DIR:-}" ]]; then DIST="$OPENSEARCH_DIST_DIR"; return; fi
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

write_state() {
  printf 'URL=%s\nPID=%s\nHOME_DIR=%s\nVERSION=%s\n' "$URL" "$PID" "$home" "$VERSION" > "$state"
}

healthy() {
  [[ -n "$URL" ]] && curl -fsS --max-time 2 "$URL/_cluster/health" 2>/dev/null | grep -q '"status":"\(green\|yellow\)"'
}

# A zombie (our own child that died and is not yet reaped) still answers kill -0: not alive.
alive() {
  [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null || return 1
  local st; st="$(ps -o stat= -p "$PID" 2>/dev/null || true)"
  [[ -n "$st" && "$st" != Z* ]]
}

# The instance of this checkout, found by its command line naming this checkout's data folder:
# works when the state file is lost, its PID empty, or the JVM was started by an older
# version of this script. Prints the oldest such process (the JVM, not a launcher's subshell).
find_instance() {
  local pattern
  pattern="-Epath\\.data=$(printf '%s' "$home/data" | sed 's/[][\.*^$+?(){}|]/\\&/g')( |$)"
  pgrep -o -f -- "$pattern" 2>/dev/null || true
}

# The HTTP port an instance was started with, from its command line.
instance_url() {
  local port
  port="$(tr '\0' '\n' < "/proc/$1/cmdline" 2>/dev/null | sed -n 's/^-Ehttp\.port=\([0-9]*\)$/\1/p' | head -n1)"
  [[ -n "$port" ]] && echo "http://127.0.0.1:$port"
}

# Stops PID: its whole process group when it leads one (we start it under setsid), else the process
# alone (an instance started otherwise shares its group with unrelated processes).
stop_instance() {
  alive || return 0
  local target="$PID"
  [[ "$(ps -o pgid= -p "$PID" 2>/dev/null | tr -d ' ')" == "$PID" ]] && target="-$PID"
  kill -TERM -- "$target" 2>/dev/null || true
  for _ in $(seq 1 60); do alive || break; sleep 0.5; done
  if alive; then kill -KILL -- "$target" 2>/dev/null || true; sleep 0.5; fi
  log "stopped pid $PID"
}

free_port() {
  local port
  for port in $(seq "$1" $(( $1 + 200 ))); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  log "no free port near $1"; exit 1
}

# Waits until healthy, the process is gone, or the deadline (OPENSEARCH_START_TIMEOUT seconds: a
# cold JVM on two busy cores needs well over a minute).
wait_healthy() {
  local deadline=$(( SECONDS + START_TIMEOUT ))
  while (( SECONDS < deadline )); do
    healthy && return 0
    alive || { log "OpenSearch (pid $PID) exited during start; see $home/logs"; tail_logs; return 1; }
    sleep 1
  done
  healthy && return 0
  log "OpenSearch (pid $PID) did not become healthy in $START_TIMEOUT s (OPENSEARCH_START_TIMEOUT)"
  return 1
}

tail_logs() {
  local f
  for f in "$home/logs/opensearch.log" "$home/logs/console.log"; do
    [[ -s "$f" ]] && { log "last lines of $f:"; tail -n 30 "$f" >&2; }
  done
  return 0
}

# Starts the JVM in the foreground of its own session, in the background of this script, so its
# pid is known at once ($!), whatever its pid file does. As root it runs as $RUN_USER through
# setpriv, which execs without forking: $! is the launcher that execs the JVM.
launch() {
  ensure_user_if_root
  install_dist
  if (( EUID == 0 )); then
    chown -R "$RUN_USER" "$home/data" "$home/logs"
    [[ -n "${OPENSEARCH_DIST_DIR:-}" ]] || chown -R "$RUN_USER" "$DIST/config" "$DIST/logs"
    chmod 755 "$root_dir" "$home" 2>/dev/null || true
  fi
  local base=$(( 19200 + 0x${key:0:4} % 400 ))
  local http_port; http_port="$(free_port "$base")"
  local transport_port; transport_port="$(free_port $(( http_port + 1000 )))"
  rm -f "$home/pid"
  touch "$home/pid"
  local as_user=()
  (( EUID == 0 )) && chown "$RUN_USER" "$home/pid"
  (( EUID == 0 )) && as_user=(setpriv --reuid="$RUN_USER" --regid="$(id -g "$RUN_USER")" --init-groups --)
  log "starting OpenSearch $VERSION on 127.0.0.1:$http_port (heap $HEAP, JIT $JIT, JDK ${JAVA_HOME_FOR_OS:-none}, up to $START_TIMEOUT s)"
  setsid "${as_user[@]}" env -i PATH=/usr/bin:/bin \
    OPENSEARCH_JAVA_HOME="$JAVA_HOME_FOR_OS" \
    OPENSEARCH_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP$JIT_OPTS" \
    "$DIST/bin/opensearch" -p "$home/pid" \
      -Ediscovery.type=single-node -Enetwork.host=127.0.0.1 \
      -Ehttp.port="$http_port" -Etransport.port="$transport_port" \
      -Epath.data="$home/data" -Epath.logs="$home/logs" \
      -Ecluster.routing.allocation.disk.threshold_enabled=false \
      -Eaction.auto_create_index=false >"$home/logs/console.log" 2>&1 </dev/null 9>&- &
  PID=$!
  URL="http://127.0.0.1:$http_port"
  write_state
}

start_locked() {
  read_state
  # The process on this checkout's data folder is the truth; the state file only caches it.
  local found; found="$(find_instance)"
  if [[ -n "$found" ]]; then
    [[ "$found" == "$PID" ]] || log "found the running instance (pid $found) by its data folder"
    PID="$found"; URL="$(instance_url "$found")"
    write_state
    wait_healthy && { echo "$URL"; return 0; }
    log "instance pid $PID is not healthy; restarting it"
    stop_instance
  elif [[ -n "$PID" ]]; then
    log "previous instance (pid $PID) is gone; starting a new one"
  fi
  launch
  if ! wait_healthy; then
    # Never leave an orphan JVM behind: what we started and gave up on is stopped.
    stop_instance
    rm -f "$state"
    return 1
  fi
  echo "$URL"
}

cmd_start() {
  choose_runtime
  exec 9>"$cache/lock"
  flock 9
  start_locked
}

cmd_status() {
  read_state
  healthy && { echo "$URL"; return 0; }
  local found; found="$(find_instance)"
  [[ -n "$found" ]] || return 1
  URL="$(instance_url "$found")"
  healthy && echo "$URL"
}

cmd_stop() {
  exec 9>"$cache/lock"
  flock 9
  read_state
  local found; found="$(find_instance)"
  [[ -n "$found" ]] && PID="$found"
  stop_instance
  rm -f "$state"
  if [[ "$1" == destroy ]]; then rm -rf "$home"; log "deleted $home"; fi
}

# Sourced by opensearch-cluster.sh for the helpers above: run nothing then.
[[ "${BASH_SOURCE[0]}" == "$0" ]] || return 0

cmd="${1:-start}"
case "$cmd" in
  fetch) fetch >/dev/null; log "cached in $cache" ;;
  start) cmd_start ;;
  status) cmd_status ;;
  stop|destroy) cmd_stop "$cmd" ;;
  cluster) shift; exec bash "$checkout/scripts/opensearch-cluster.sh" "$@" ;;
  *) echo "usage: $0 fetch|start|status|stop|destroy|cluster [N|status|stop|destroy|stop-node I|start-node I]" >&2; exit 2 ;;
esac
