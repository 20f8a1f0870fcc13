#!/usr/bin/env bash
# A local OpenSearch cluster of N nodes per checkout, beside the single node of
# opensearch-local.sh, from the same pinned distribution:
#
#   npm run opensearch -- cluster [N]           start N nodes (default 3); prints their URLs, comma-separated
#   npm run opensearch -- cluster status        prints the URLs and exits 0 when every node answers
#   npm run opensearch -- cluster stop-node I   stops node I (1-based) and keeps its data (fault tests)
#   npm run opensearch -- cluster start-node I  starts node I again with its ports and data; waits until it joined
#   npm run opensearch -- cluster stop          stops every node, keeps the data
#   npm run opensearch -- cluster destroy       stops every node and deletes the cluster's data
#
# Nodes listen on 127.0.0.1 on their own ports (free ones, recorded in .cache/opensearch/cluster so
# a node restarts where it was), with their own data and log folders under
# $OPENSEARCH_LOCAL_ROOT/<checkout hash>-cluster/node-I, find each other through
# discovery.seed_hosts, and form the cluster once through cluster.initial_cluster_manager_nodes.
# Heap per node: OPENSEARCH_CLUSTER_HEAP (default 512m).
set -euo pipefail
# shellcheck source=scripts/opensearch-local.sh
source "$(dirname "${BASH_SOURCE[0]}")/opensearch-local.sh"

cluster_home="$home-cluster"
cluster_state="$cache/cluster"
CLUSTER_HEAP="${OPENSEARCH_CLUSTER_HEAP:-512m}"

read_cluster() {
  N=0; HTTP_PORTS=""; TRANSPORT_PORTS=""
  # shellcheck disable=SC1090
  [[ -f "$cluster_state" ]] && source "$cluster_state"
  read -r -a http <<<"$HTTP_PORTS"
  read -r -a transport <<<"$TRANSPORT_PORTS"
}

urls() {
  local out="" p
  for p in "${http[@]}"; do out+="${out:+,}http://127.0.0.1:$p"; done
  echo "$out"
}

# The JVM of node I, found by its command line naming its data folder (as find_instance does).
node_pid() {
  local pattern
  pattern="-Epath\\.data=$(printf '%s' "$cluster_home/node-$1/data" | sed 's/[][\.*^$+?(){}|]/\\&/g')( |$)"
  pgrep -o -f -- "$pattern" 2>/dev/null || true
}

node_up() { curl -fsS --max-time 2 "http://127.0.0.1:${http[$(( $1 - 1 ))]}/" >/dev/null 2>&1; }

# The unpacked distribution (shared with the single node), readable by the user the JVMs run as.
prepare_dist() {
  ensure_user_if_root
  install_dist
  if (( EUID == 0 )) && [[ -z "${OPENSEARCH_DIST_DIR:-}" ]]; then
    chown -R "$RUN_USER" "$DIST/config" "$DIST/logs"
  fi
}

launch_node() {
  local i="$1" seeds="" names="" j
  for j in $(seq 1 "$N"); do
    seeds+="${seeds:+,}127.0.0.1:${transport[$(( j - 1 ))]}"
    names+="${names:+,}node-$j"
  done
  local dir="$cluster_home/node-$i"
  mkdir -p "$dir/data" "$dir/logs"
  # Its own config folder: nodes sharing one would race creating the keystore there.
  [[ -d "$dir/config" ]] || cp -r "$DIST/config" "$dir/config"
  local as_user=()
  if (( EUID == 0 )); then
    chown -R "$RUN_USER" "$dir"
    chmod 755 "$root_dir" "$cluster_home" 2>/dev/null || true
    as_user=(setpriv --reuid="$RUN_USER" --regid="$(id -g "$RUN_USER")" --init-groups --)
  fi
  log "starting cluster node-$i on 127.0.0.1:${http[$(( i - 1 ))]} (heap $CLUSTER_HEAP)"
  setsid "${as_user[@]}" env -i PATH=/usr/bin:/bin \
    OPENSEARCH_JAVA_HOME="$JAVA_HOME_FOR_OS" \
    OPENSEARCH_JAVA_OPTS="-Xms$CLUSTER_HEAP -Xmx$CLUSTER_HEAP" \
    OPENSEARCH_PATH_CONF="$dir/config" \
    "$DIST/bin/opensearch" \
      -Ecluster.name="opportunities-$key" -Enode.name="node-$i" -Enetwork.host=127.0.0.1 \
      -Ehttp.port="${http[$(( i - 1 ))]}" -Etransport.port="${transport[$(( i - 1 ))]}" \
      -Ediscovery.seed_hosts="$seeds" -Ecluster.initial_cluster_manager_nodes="$names" \
      -Epath.data="$dir/data" -Epath.logs="$dir/logs" \
      -Ecluster.routing.allocation.disk.threshold_enabled=false \
      -Eaction.auto_create_index=false >"$dir/logs/console.log" 2>&1 </dev/null 9>&- &
}

# Waits until the cluster answers from every living node with `want` nodes joined.
wait_cluster() {
  local want="$1" deadline=$(( SECONDS + START_TIMEOUT )) p
  while (( SECONDS < deadline )); do
    for p in "${http[@]}"; do
      if curl -fsS --max-time 2 "http://127.0.0.1:$p/_cluster/health" 2>/dev/null \
        | grep -q "\"number_of_nodes\":$want,"; then return 0; fi
    done
    sleep 2
  done
  log "the cluster did not reach $want nodes in $START_TIMEOUT s; see $cluster_home/node-*/logs"
  return 1
}

stop_node() {
  local pid; pid="$(node_pid "$1")"
  [[ -n "$pid" ]] || return 0
  local target="$pid"
  [[ "$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ')" == "$pid" ]] && target="-$pid"
  kill -TERM -- "$target" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && kill -KILL -- "$target" 2>/dev/null || true
  log "stopped cluster node-$1 (pid $pid)"
}

running_nodes() {
  local n=0 i
  for i in $(seq 1 "$N"); do [[ -n "$(node_pid "$i")" ]] && n=$(( n + 1 )); done
  echo "$n"
}

cluster_start() {
  local want="${1:-3}"
  [[ "$want" =~ ^[1-9][0-9]*$ ]] || { log "cluster size must be a positive number"; exit 2; }
  choose_runtime
  exec 9>"$cache/cluster.lock"
  flock 9
  read_cluster
  if (( N != 0 && N != want )); then
    log "a $N-node cluster exists here: 'cluster destroy' it first to change its size"; exit 1
  fi
  prepare_dist
  if (( N == 0 )); then
    N="$want"; http=(); transport=()
    local base=$(( 19600 + 0x${key:0:4} % 300 )) p=0 i
    for i in $(seq 1 "$N"); do
      p="$(free_port $(( p > 0 ? p + 1 : base )))"; http+=("$p")
    done
    p=$(( ${http[-1]} + 1000 ))
    for i in $(seq 1 "$N"); do p="$(free_port "$p")"; transport+=("$p"); p=$(( p + 1 )); done
    printf 'N=%s\nHTTP_PORTS="%s"\nTRANSPORT_PORTS="%s"\n' "$N" "${http[*]}" "${transport[*]}" >"$cluster_state"
  fi
  local i
  for i in $(seq 1 "$N"); do [[ -n "$(node_pid "$i")" ]] || launch_node "$i"; done
  wait_cluster "$N" || exit 1
  urls
}

cluster_status() {
  read_cluster
  (( N > 0 )) || exit 1
  local i
  for i in $(seq 1 "$N"); do node_up "$i" || { log "node-$i does not answer"; urls; exit 1; }; done
  urls
}

sub="${1:-3}"
case "$sub" in
  status) cluster_status ;;
  stop|destroy)
    read_cluster
    for i in $(seq 1 "$N"); do stop_node "$i"; done
    if [[ "$sub" == destroy ]]; then rm -rf "$cluster_home" "$cluster_state"; log "deleted $cluster_home"; fi ;;
  stop-node)
    read_cluster; stop_node "${2:?node number}" ;;
  start-node)
    choose_runtime; read_cluster; prepare_dist
    [[ -n "$(node_pid "${2:?node number}")" ]] || launch_node "$2"
    wait_cluster "$(( $(running_nodes) ))" ;;
  *) cluster_start "$sub" ;;
esac
