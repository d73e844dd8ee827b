#!/usr/bin/env python3
"""The simple alternative olav's blast radius is measured against (docs/performance.md).

Reads olav's state DB with sqlite3, builds the network with networkx and answers
`olav blast-radius --device X` the plain way: devices are nodes, links that are up are
edges, external BGP peers hang off the devices whose sessions reach them; a device is
isolated when, with X removed, no path joins it to an anchor (a border, core, edge or
spine device, or an external peer); a service is down when all its endpoints are on
removed or isolated devices. Prints the removed and isolated devices and the services
down, sorted, so the answer can be compared with olav's.

    pip install networkx
    python3 benches/networkx_blast.py <state.db> <device>
"""

import sqlite3
import sys

import networkx as nx

ANCHOR_ROLES = {"border", "core", "edge", "spine"}


def main(db_path, device):
    db = sqlite3.connect(db_path)
    g = nx.Graph()
    anchors = set()
    for host, role in db.execute(
        "SELECT hostname, COALESCE(role, '') FROM device WHERE status NOT IN ('offline', 'decommissioned')"
    ):
        g.add_node(host)
        if role in ANCHOR_ROLES:
            anchors.add(host)
    for a, b in db.execute("SELECT hostname_a, hostname_b FROM link WHERE status = 'up'"):
        if a in g and b in g:
            g.add_edge(a, b)
    owned = {a for (a,) in db.execute("SELECT address FROM ip_address WHERE kind != 'virtual'")}
    for host, peer, asn in db.execute(
        "SELECT hostname, peer_address, peer_asn FROM bgp_session WHERE peer_address IS NOT NULL AND shutdown = 0"
    ):
        if peer not in owned and asn is not None and host in g:
            node = f"AS{asn}"
            g.add_edge(host, node)
            anchors.add(node)
    services = {}
    for name, host in db.execute("SELECT service, hostname FROM service_endpoint WHERE hostname IS NOT NULL"):
        services.setdefault(name, []).append(host)

    g.remove_node(device)
    reached = set()
    for comp in nx.connected_components(g):
        if comp & anchors:
            reached |= comp
    isolated = sorted(n for n in g.nodes if n not in reached and not n.startswith("AS"))
    gone = set(isolated) | {device}
    down = sorted(s for s, hosts in services.items() if all(h in gone for h in hosts))
    print("removed:", device)
    print("isolated:", " ".join(isolated) or "none")
    print("services down:", " ".join(down) or "none")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
