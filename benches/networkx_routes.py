#!/usr/bin/env python3
"""The simple alternative `olav routes --device X` is measured against (docs/performance.md).

Reads olav's state DB with sqlite3, builds the network with networkx and computes one
device's routing table the plain way: devices are nodes, links that are up are edges
(every hop costs 1: the state DB holds no OSPF costs), shortest paths from X by
networkx, and every subnet of another device's addresses (default VRF, management
interfaces left out) routed towards its nearest holder, one row per first link (equal
paths all kept). No areas, no summaries, no administrative distances: a lower bound of
the work, not the same answer. Prints the number of rows and prefixes.

    pip install networkx
    python3 benches/networkx_routes.py <state.db> <device>
"""

import ipaddress
import sqlite3
import sys

import networkx as nx


def main(db_path, device):
    db = sqlite3.connect(db_path)
    g = nx.Graph()
    ports = {}
    for a, ia, b, ib in db.execute(
        "SELECT hostname_a, ifname_a, hostname_b, ifname_b FROM link WHERE status = 'up'"
    ):
        g.add_edge(a, b)
        ports.setdefault((a, b), []).append(ia)
        ports.setdefault((b, a), []).append(ib)
    if device not in g:
        sys.exit(f"no device {device} with links in {db_path}")
    # Shortest paths from the device; every predecessor on a shortest path is kept.
    pred, dist = nx.predecessor(g, device, return_seen=True)
    first = {device: set()}
    for v in sorted(dist, key=dist.get):
        if v == device:
            continue
        hops = set()
        for u in pred[v]:
            hops |= {(p, v) for p in ports[(device, v)]} if u == device else first[u]
        first[v] = hops
    best = {}
    for host, ifname, prefix in db.execute(
        "SELECT hostname, ifname, prefix FROM ip_address WHERE vrf = 'default' AND kind != 'virtual'"
    ):
        if host == device or host not in dist or ifname.lower().startswith(("mgmt", "management")):
            continue
        net = ipaddress.ip_network(prefix, strict=False)
        d = dist[host]
        cur = best.get(net)
        if cur is None or d < cur[0]:
            best[net] = (d, set(first[host]))
        elif d == cur[0]:
            cur[1].update(first[host])
    rows = sum(len(h) for _, h in best.values())
    print(f"{rows} rows, {len(best)} prefixes from {device}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
