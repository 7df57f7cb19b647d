# SPDX-License-Identifier: MIT
# Network-namespace "hosts" for the tests: source this file, then
#   rx_net_up N     create N hosts joined by a bridge; sets RXN_HOSTS (h0,h1,...),
#                   RXN_H (array of namespace names) and RXN_IF (interface name)
#   rx_net_down     remove everything (also run by the EXIT trap rx_net_up sets)
# The bridge lives in a namespace of its own, so the machine's own network is
# never touched; addresses are 10.77.0.(i+1)/24 on that private bridge only.
# Exits 77 (CTest skip) when namespaces cannot be created here.

RXN_IF=rxeth0
RXN_PREFIX="rxn$$"
RXN_H=()

rx_net_down() {
    local ns
    for ns in "${RXN_H[@]}" "$RXN_PREFIX-sw"; do
        # processes left in a namespace would keep it alive: end them first
        for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
        ip netns del "$ns" 2>/dev/null
    done
    RXN_H=()
}

rx_net_up() {
    local n=$1 i
    command -v ip >/dev/null || { echo "SKIP: iproute2 (ip) not installed"; exit 77; }
    if ! ip netns add "$RXN_PREFIX-sw" 2>/tmp/rxn-err.$$; then
        echo "SKIP: cannot create network namespaces here: $(cat /tmp/rxn-err.$$)"
        rm -f /tmp/rxn-err.$$
        exit 77
    fi
    rm -f /tmp/rxn-err.$$
    trap rx_net_down EXIT
    trap 'exit 130' INT TERM
    ip -n "$RXN_PREFIX-sw" link add br0 type bridge || return 1
    ip -n "$RXN_PREFIX-sw" link set br0 up
    ip -n "$RXN_PREFIX-sw" link set lo up
    RXN_HOSTS=
    for ((i = 0; i < n; i++)); do
        local h="$RXN_PREFIX-h$i"
        ip netns add "$h" || return 1
        RXN_H+=("$h")
        ip link add "$RXN_IF" netns "$h" type veth peer name "p$i" netns "$RXN_PREFIX-sw" || return 1
        ip -n "$RXN_PREFIX-sw" link set "p$i" master br0 up
        ip -n "$h" addr add "10.77.0.$((i + 1))/24" dev "$RXN_IF"
        ip -n "$h" link set "$RXN_IF" up
        ip -n "$h" link set lo up
        RXN_HOSTS="${RXN_HOSTS:+$RXN_HOSTS,}$h"
    done
    # the bridge forwards once its ports are up; wait until host 0 sees the others
    for ((i = 0; i < 50; i++)); do
        [ "$(ip -n "$RXN_PREFIX-sw" -br link show master br0 | grep -c UP)" -ge "$n" ] && break
        sleep 0.1
    done
}
