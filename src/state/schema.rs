//! Versioned migrations of the state DB. The DB's `user_version` is the number of
//! migrations applied; each runs once, in its own transaction.
//!
//! Column names follow SuzieQ (snake_case: `hostname`, `ifname`, `admin_state`,
//! `peer_asn`) and NetBox (`status`, `role`, `site`) where they name the same thing.
//! Every state row carries provenance: `source_file`, `source_line`, `collected_at`.

/// The migrations, in order. Never edit a shipped one: append.
pub const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE import_run (
    state_version     INTEGER PRIMARY KEY AUTOINCREMENT,
    snapshot          TEXT NOT NULL,
    content_hash      TEXT NOT NULL,
    collected_at      TEXT,
    imported_at       TEXT NOT NULL,
    devices           INTEGER NOT NULL,
    files_skipped     INTEGER NOT NULL,
    warnings          INTEGER NOT NULL,
    lines_total       INTEGER NOT NULL,
    lines_unrecognised INTEGER NOT NULL
);

CREATE TABLE device (
    hostname          TEXT PRIMARY KEY,
    vendor            TEXT NOT NULL,
    os                TEXT NOT NULL,
    os_version        TEXT,
    model             TEXT,
    role              TEXT,
    role_inferred     INTEGER NOT NULL DEFAULT 0,
    site              TEXT,
    status            TEXT NOT NULL,
    asn               INTEGER,
    router_id         TEXT,
    management_address TEXT,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT
);

CREATE TABLE device_config (
    hostname          TEXT PRIMARY KEY REFERENCES device(hostname),
    source_file       TEXT NOT NULL,
    config_text       TEXT NOT NULL
);

CREATE TABLE interface (
    hostname          TEXT NOT NULL REFERENCES device(hostname),
    ifname            TEXT NOT NULL,
    description       TEXT,
    admin_state       TEXT NOT NULL,
    oper_state        TEXT,
    mtu               INTEGER,
    speed_mbps        INTEGER,
    vrf               TEXT NOT NULL DEFAULT 'default',
    switchport_mode   TEXT,
    access_vlan       INTEGER,
    trunk_vlans       TEXT,
    channel_group     TEXT,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT,
    PRIMARY KEY (hostname, ifname)
);

CREATE TABLE ip_address (
    hostname          TEXT NOT NULL,
    ifname            TEXT NOT NULL,
    vrf               TEXT NOT NULL DEFAULT 'default',
    address           TEXT NOT NULL,
    prefix            TEXT NOT NULL,
    kind              TEXT NOT NULL CHECK (kind IN ('primary', 'secondary', 'virtual')),
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT,
    FOREIGN KEY (hostname, ifname) REFERENCES interface(hostname, ifname)
);
CREATE INDEX ip_address_by_address ON ip_address(address);
CREATE INDEX ip_address_by_prefix ON ip_address(prefix);
CREATE INDEX ip_address_by_interface ON ip_address(hostname, ifname);

CREATE TABLE link (
    hostname_a        TEXT NOT NULL,
    ifname_a          TEXT NOT NULL,
    hostname_b        TEXT NOT NULL,
    ifname_b          TEXT NOT NULL,
    source            TEXT NOT NULL CHECK (source IN ('lldp', 'inferred', 'declared')),
    status            TEXT NOT NULL,
    subnet            TEXT,
    source_file       TEXT NOT NULL,
    collected_at      TEXT,
    PRIMARY KEY (hostname_a, ifname_a, hostname_b, ifname_b)
);
CREATE INDEX link_by_b ON link(hostname_b);

CREATE TABLE bgp_session (
    hostname          TEXT NOT NULL REFERENCES device(hostname),
    vrf               TEXT NOT NULL DEFAULT 'default',
    local_as          INTEGER,
    local_ip          TEXT,
    update_source     TEXT,
    peer_address      TEXT,
    listen_range      TEXT,
    peer_asn          INTEGER,
    peer_group        TEXT,
    description       TEXT,
    route_map_in      TEXT,
    route_map_out     TEXT,
    ebgp_multihop     INTEGER,
    shutdown          INTEGER NOT NULL DEFAULT 0,
    address_families  TEXT NOT NULL DEFAULT '',
    state             TEXT,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT,
    CHECK ((peer_address IS NULL) <> (listen_range IS NULL))
);
CREATE INDEX bgp_session_by_host ON bgp_session(hostname);
CREATE INDEX bgp_session_by_peer ON bgp_session(peer_address);

CREATE TABLE bgp_network (
    hostname          TEXT NOT NULL REFERENCES device(hostname),
    vrf               TEXT NOT NULL DEFAULT 'default',
    prefix            TEXT NOT NULL,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT
);

CREATE TABLE static_route (
    hostname          TEXT NOT NULL REFERENCES device(hostname),
    vrf               TEXT NOT NULL DEFAULT 'default',
    prefix            TEXT NOT NULL,
    next_hop          TEXT,
    next_hop_interface TEXT,
    distance          INTEGER,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT
);

CREATE TABLE ospf_network (
    hostname          TEXT NOT NULL REFERENCES device(hostname),
    process           TEXT NOT NULL,
    prefix            TEXT,
    ifname            TEXT,
    area              TEXT NOT NULL,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT
);

CREATE TABLE structure_def (
    hostname          TEXT NOT NULL REFERENCES device(hostname),
    kind              TEXT NOT NULL,
    name              TEXT NOT NULL,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT,
    PRIMARY KEY (hostname, kind, name)
);

CREATE TABLE structure_ref (
    hostname          TEXT NOT NULL REFERENCES device(hostname),
    kind              TEXT NOT NULL,
    name              TEXT NOT NULL,
    context           TEXT NOT NULL,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT
);
CREATE INDEX structure_ref_by_name ON structure_ref(hostname, kind, name);

CREATE TABLE service (
    name              TEXT PRIMARY KEY,
    kind              TEXT,
    criticality       TEXT,
    source_file       TEXT NOT NULL,
    collected_at      TEXT
);

CREATE TABLE service_endpoint (
    service           TEXT NOT NULL REFERENCES service(name),
    hostname          TEXT,
    ifname            TEXT,
    prefix            TEXT,
    CHECK ((hostname IS NOT NULL) OR (prefix IS NOT NULL))
);
CREATE INDEX service_endpoint_by_host ON service_endpoint(hostname);

CREATE TABLE import_warning (
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    severity          TEXT NOT NULL CHECK (severity IN ('warning', 'skipped')),
    message           TEXT NOT NULL
);
"#,
    r#"
CREATE TABLE run (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    orchestrator      TEXT NOT NULL,
    workflow          TEXT NOT NULL,
    request           TEXT NOT NULL,
    started           TEXT NOT NULL,
    finished          TEXT,
    status            TEXT NOT NULL CHECK (status IN ('running', 'ok', 'partial', 'failed', 'needs_input')),
    state_version     INTEGER,
    answer            TEXT
);

CREATE TABLE run_step (
    run_id            INTEGER NOT NULL REFERENCES run(id),
    seq               INTEGER NOT NULL,
    agent             TEXT NOT NULL,
    prompt            TEXT,
    reply             TEXT,
    artifact          TEXT,
    verdict           TEXT,
    duration_ms       INTEGER NOT NULL,
    attempts          INTEGER NOT NULL,
    skipped           INTEGER NOT NULL DEFAULT 0,
    error_class       TEXT CHECK (error_class IN ('parameter', 'environment', 'permission', 'timeout')),
    error             TEXT,
    PRIMARY KEY (run_id, seq)
);
"#,
    r#"
CREATE TABLE device_version (
    state_version     INTEGER NOT NULL,
    hostname          TEXT NOT NULL,
    config_hash       TEXT NOT NULL,
    PRIMARY KEY (state_version, hostname)
);
"#,
    r#"
CREATE TABLE plan (
    plan_id           TEXT PRIMARY KEY,
    path              TEXT NOT NULL,
    workflow          TEXT NOT NULL,
    intent            TEXT NOT NULL,
    title             TEXT NOT NULL,
    created           TEXT NOT NULL,
    state_version     INTEGER NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('draft', 'prechecked', 'verified', 'approved', 'done', 'stale', 'withdrawn')),
    status_reason     TEXT,
    updated           TEXT NOT NULL
);

CREATE TABLE precheck_run (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id           TEXT NOT NULL REFERENCES plan(plan_id),
    ran_at            TEXT NOT NULL,
    state_version     INTEGER NOT NULL,
    verdict           TEXT NOT NULL,
    errors            INTEGER NOT NULL,
    warnings          INTEGER NOT NULL,
    first_error       TEXT,
    report_path       TEXT,
    drift             TEXT,
    cycle_id          INTEGER
);
CREATE INDEX precheck_run_by_plan ON precheck_run(plan_id, id);

CREATE TABLE schedule_cycle (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    started           TEXT NOT NULL,
    finished          TEXT,
    status            TEXT NOT NULL,
    plans             INTEGER NOT NULL DEFAULT 0,
    failed            INTEGER NOT NULL DEFAULT 0,
    note              TEXT
);
"#,
    r#"
CREATE TABLE plan_claim (
    plan_id           TEXT NOT NULL REFERENCES plan(plan_id),
    kind              TEXT NOT NULL,
    hostname          TEXT NOT NULL,
    element           TEXT NOT NULL
);
CREATE INDEX plan_claim_by_element ON plan_claim(kind, hostname, element);
CREATE INDEX plan_claim_by_plan ON plan_claim(plan_id);
"#,
    // Whether a static route can be installed (model::RouteActivity): usable,
    // interface-down, unresolved, via-routing. NULL for rows written before it existed.
    r#"
ALTER TABLE static_route ADD COLUMN activity TEXT
    CHECK (activity IN ('usable', 'interface-down', 'unresolved', 'via-routing'));
"#,
    // Every file of the snapshot's batfish/ folder, byte for byte, to show and to send
    // to Batfish with the configs.
    r#"
CREATE TABLE batfish_file (
    path              TEXT PRIMARY KEY,
    content           BLOB NOT NULL,
    bytes             INTEGER NOT NULL,
    sha256            TEXT NOT NULL,
    collected_at      TEXT
);
"#,
    // BGP unnumbered sessions name an interface, not an address: the table is rebuilt
    // with `peer_interface` and a CHECK that exactly one of the three is set.
    r#"
CREATE TABLE bgp_session_v8 (
    hostname          TEXT NOT NULL REFERENCES device(hostname),
    vrf               TEXT NOT NULL DEFAULT 'default',
    local_as          INTEGER,
    local_ip          TEXT,
    update_source     TEXT,
    peer_address      TEXT,
    listen_range      TEXT,
    peer_interface    TEXT,
    peer_asn          INTEGER,
    peer_group        TEXT,
    description       TEXT,
    route_map_in      TEXT,
    route_map_out     TEXT,
    ebgp_multihop     INTEGER,
    shutdown          INTEGER NOT NULL DEFAULT 0,
    address_families  TEXT NOT NULL DEFAULT '',
    state             TEXT,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT,
    CHECK ((peer_address IS NOT NULL) + (listen_range IS NOT NULL) + (peer_interface IS NOT NULL) = 1)
);
INSERT INTO bgp_session_v8 (hostname, vrf, local_as, local_ip, update_source, peer_address, listen_range,
    peer_asn, peer_group, description, route_map_in, route_map_out, ebgp_multihop, shutdown,
    address_families, state, source_file, source_line, collected_at)
SELECT hostname, vrf, local_as, local_ip, update_source, peer_address, listen_range,
    peer_asn, peer_group, description, route_map_in, route_map_out, ebgp_multihop, shutdown,
    address_families, state, source_file, source_line, collected_at
FROM bgp_session;
DROP TABLE bgp_session;
ALTER TABLE bgp_session_v8 RENAME TO bgp_session;
CREATE INDEX bgp_session_by_host ON bgp_session(hostname);
CREATE INDEX bgp_session_by_peer ON bgp_session(peer_address);
"#,
    // A CHECK with an IN list builds a temporary index for every row inserted (a fifth of
    // an import's work): the three tables are rebuilt with the same checks written as
    // comparisons, columns in the same order.
    r#"
CREATE TABLE ip_address_v9 (
    hostname          TEXT NOT NULL,
    ifname            TEXT NOT NULL,
    vrf               TEXT NOT NULL DEFAULT 'default',
    address           TEXT NOT NULL,
    prefix            TEXT NOT NULL,
    kind              TEXT NOT NULL CHECK (kind = 'primary' OR kind = 'secondary' OR kind = 'virtual'),
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT,
    FOREIGN KEY (hostname, ifname) REFERENCES interface(hostname, ifname)
);
INSERT INTO ip_address_v9 SELECT * FROM ip_address ORDER BY rowid;
DROP TABLE ip_address;
ALTER TABLE ip_address_v9 RENAME TO ip_address;
CREATE INDEX ip_address_by_address ON ip_address(address);
CREATE INDEX ip_address_by_prefix ON ip_address(prefix);
CREATE INDEX ip_address_by_interface ON ip_address(hostname, ifname);

CREATE TABLE link_v9 (
    hostname_a        TEXT NOT NULL,
    ifname_a          TEXT NOT NULL,
    hostname_b        TEXT NOT NULL,
    ifname_b          TEXT NOT NULL,
    source            TEXT NOT NULL CHECK (source = 'lldp' OR source = 'inferred' OR source = 'declared'),
    status            TEXT NOT NULL,
    subnet            TEXT,
    source_file       TEXT NOT NULL,
    collected_at      TEXT,
    PRIMARY KEY (hostname_a, ifname_a, hostname_b, ifname_b)
);
INSERT INTO link_v9 SELECT * FROM link ORDER BY rowid;
DROP TABLE link;
ALTER TABLE link_v9 RENAME TO link;
CREATE INDEX link_by_b ON link(hostname_b);

CREATE TABLE static_route_v9 (
    hostname          TEXT NOT NULL REFERENCES device(hostname),
    vrf               TEXT NOT NULL DEFAULT 'default',
    prefix            TEXT NOT NULL,
    next_hop          TEXT,
    next_hop_interface TEXT,
    distance          INTEGER,
    source_file       TEXT NOT NULL,
    source_line       INTEGER,
    collected_at      TEXT,
    activity          TEXT
        CHECK (activity = 'usable' OR activity = 'interface-down' OR activity = 'unresolved' OR activity = 'via-routing')
);
INSERT INTO static_route_v9 SELECT * FROM static_route ORDER BY rowid;
DROP TABLE static_route;
ALTER TABLE static_route_v9 RENAME TO static_route;
"#,
    // The network model of the current state version (crate::network), built once from
    // the tables above and every configuration parsed once, stored as compact binary parts.
    r#"
CREATE TABLE network_model (
    state_version     INTEGER NOT NULL,
    part              TEXT NOT NULL,
    format            INTEGER NOT NULL,
    bytes             BLOB NOT NULL,
    PRIMARY KEY (state_version, part)
);
"#,
    r#"
CREATE TABLE verify_run (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id           TEXT NOT NULL REFERENCES plan(plan_id),
    ran_at            TEXT NOT NULL,
    state_version     INTEGER NOT NULL,
    verdict           TEXT NOT NULL,
    formal            INTEGER NOT NULL,
    engine            TEXT NOT NULL,
    problems          INTEGER NOT NULL,
    first_problem     TEXT,
    report_path       TEXT
);
CREATE INDEX verify_run_by_plan ON verify_run(plan_id, id);
"#,
    r#"
ALTER TABLE precheck_run ADD COLUMN plan_digest TEXT;
"#,
    r#"
ALTER TABLE verify_run ADD COLUMN plan_digest TEXT;
"#,
    // A run or cycle killed mid-way stayed `running` for ever: each records its process
    // (`owner`, see state::owner) and the next olav marks it `interrupted`. The run
    // table is rebuilt for the new status in its CHECK, under run_step's references:
    // its rows are parked, the table is created again under its own name and refilled
    // (re-inserting the parents settles the references the drop left deferred), so no
    // rename is needed and run_step never refers to a table that is gone. Every run's
    // start looks for `running` rows: a partial index keeps that off a table scan.
    r#"
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE run_parked AS SELECT * FROM run;
DROP TABLE run;
CREATE TABLE run (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    orchestrator      TEXT NOT NULL,
    workflow          TEXT NOT NULL,
    request           TEXT NOT NULL,
    started           TEXT NOT NULL,
    finished          TEXT,
    status            TEXT NOT NULL CHECK (status = 'running' OR status = 'ok' OR status = 'partial' OR status = 'failed' OR status = 'needs_input' OR status = 'interrupted'),
    state_version     INTEGER,
    answer            TEXT,
    owner             TEXT
);
INSERT INTO run (id, orchestrator, workflow, request, started, finished, status, state_version, answer)
    SELECT id, orchestrator, workflow, request, started, finished, status, state_version, answer FROM run_parked;
DROP TABLE run_parked;
ALTER TABLE schedule_cycle ADD COLUMN owner TEXT;
CREATE INDEX run_running ON run(id) WHERE status = 'running';
CREATE INDEX schedule_cycle_running ON schedule_cycle(id) WHERE status = 'running';
"#,
    // Each plan's claims as one canonical text (state::claims::claim_set), so that a
    // pre-check finds the plans drafting the same change by index, not by reading every
    // open plan's claims; and why a pre-check's HTML report is missing, when it is.
    r#"
ALTER TABLE plan ADD COLUMN claim_set TEXT;
UPDATE plan SET claim_set = (
    SELECT group_concat(x, char(30) ORDER BY x) FROM (
        SELECT DISTINCT c.kind || char(31) || c.hostname || char(31) || c.element AS x
        FROM plan_claim c WHERE c.plan_id = plan.plan_id));
CREATE INDEX plan_by_claim_set ON plan(claim_set);
ALTER TABLE precheck_run ADD COLUMN html_missing TEXT;
"#,
];

/// Tables that hold the network's state (rewritten by every import), in delete order.
pub const STATE_TABLES: &[&str] = &[
    "network_model",
    "batfish_file",
    "import_warning",
    "service_endpoint",
    "service",
    "structure_ref",
    "structure_def",
    "ospf_network",
    "static_route",
    "bgp_network",
    "bgp_session",
    "link",
    "ip_address",
    "interface",
    "device_config",
    "device",
];
