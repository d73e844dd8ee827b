//! A small hand-made network for the checks' unit tests, imported into a state DB in a
//! temporary folder, and plans written against it.
//!
//! `triangle()`: three IOS routers in AS 65001 — r1 (border) with an eBGP uplink to
//! ISP-A (AS 64500, 203.0.113.2) filtered both ways and announcing 10.1.0.0/24, r2
//! (core) holding that LAN, r3 (access) — linked r1–r2, r1–r3, r2–r3 by /30s; r1
//! Gi0/3 free; the service `lan` lives in 10.1.0.0/24.

use super::{Check, Context, Outcome};
use crate::import::{parse_snapshot, Snapshot, SourceFile};
use crate::plan::{ConfigBlock, Header, Plan, Target};
use crate::precheck::{Options, Severity};
use crate::state::StateDb;

/// A state DB that lives as long as its folder.
pub struct Net {
    /// The DB.
    pub db: StateDb,
    _dir: tempfile::TempDir,
}

/// The triangle's border: iBGP to r2, eBGP to ISP-A (AS64500).
pub const R1: &str = "hostname r1
!
interface Loopback0
 ip address 10.255.0.1 255.255.255.255
!
interface GigabitEthernet0/0
 description to r2
 ip address 10.0.12.1 255.255.255.252
!
interface GigabitEthernet0/1
 description to r3
 ip address 10.0.13.1 255.255.255.252
!
interface GigabitEthernet0/2
 description ISP-A
 ip address 203.0.113.1 255.255.255.252
!
interface GigabitEthernet0/3
 no ip address
 shutdown
!
router bgp 65001
 neighbor 10.0.12.2 remote-as 65001
 neighbor 203.0.113.2 remote-as 64500
 neighbor 203.0.113.2 description ISP-A uplink
 neighbor 203.0.113.2 route-map ISP-IN in
 neighbor 203.0.113.2 route-map ISP-OUT out
 network 10.1.0.0 mask 255.255.255.0
!
ip route 10.1.0.0 255.255.255.0 10.0.12.2
!
ip prefix-list OURS seq 5 permit 10.1.0.0/24
!
route-map ISP-OUT permit 10
 match ip address prefix-list OURS
!
route-map ISP-IN permit 10
!
end
";

/// The triangle's core: iBGP to r1.
pub const R2: &str = "hostname r2
!
interface GigabitEthernet0/0
 ip address 10.0.12.2 255.255.255.252
!
interface GigabitEthernet0/1
 ip address 10.0.23.1 255.255.255.252
!
interface GigabitEthernet0/2
 description LAN
 ip address 10.1.0.1 255.255.255.0
!
router bgp 65001
 neighbor 10.0.12.1 remote-as 65001
!
end
";

const R3: &str = "hostname r3
!
interface GigabitEthernet0/0
 ip address 10.0.13.2 255.255.255.252
!
interface GigabitEthernet0/1
 ip address 10.0.23.2 255.255.255.252
!
end
";

/// The triangle's `state.yaml`.
pub const STATE: &str = r#"collected_at: "2026-11-28T06:00:00Z"
devices:
  - {hostname: r1, role: border, site: a, status: active}
  - {hostname: r2, role: core, site: a, status: active}
  - {hostname: r3, role: access, site: a, status: active}
bgp_sessions:
  - {hostname: r1, peer: 203.0.113.2, state: Established}
  - {hostname: r1, peer: 10.0.12.2, state: Established}
services:
  - name: lan
    kind: data
    criticality: high
    endpoints:
      - prefix: 10.1.0.0/24
"#;

/// The triangle network.
pub fn triangle() -> Net {
    triangle_with(STATE)
}

/// The triangle's configs with another `state.yaml`.
pub fn triangle_with(state: &str) -> Net {
    network(&[("r1", R1), ("r2", R2), ("r3", R3)], state)
}

/// The triangle with r1 read from `fixtures/filters/r1-edge-acl.cfg` (an inbound ACL on
/// its provider link) and the `state.yaml` given.
pub fn triangle_edge_acl(state: &str) -> Net {
    let p =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/filters/r1-edge-acl.cfg");
    let r1 = std::fs::read_to_string(p).expect("fixtures/filters");
    network(&[("r1", &r1), ("r2", R2), ("r3", R3)], state)
}

/// A network of IOS configs `(hostname, text)` and a `state.yaml`.
pub fn network(configs: &[(&str, &str)], state: &str) -> Net {
    let file = |path: String, name_hint: &str, text: &str| SourceFile {
        path,
        name_hint: name_hint.to_owned(),
        bytes: text.as_bytes().to_vec(),
        modified: None,
    };
    let snap = Snapshot {
        label: "unit test".into(),
        configs: configs
            .iter()
            .map(|(h, t)| file(format!("configs/{h}.cfg"), h, t))
            .collect(),
        state_file: Some(file("state.yaml".into(), "", state)),
        batfish_files: Vec::new(),
        unreadable: Vec::new(),
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let mut db = StateDb::open(&dir.path().join("state.db")).expect("open");
    db.import(&parse_snapshot(&snap).expect("parse"))
        .expect("import");
    Net { db, _dir: dir }
}

/// A plan drafted against state version 1: `blocks` and `rollback` are `(device, lines)`
/// on IOS.
pub fn plan(
    intent: &str,
    targets: Vec<Target>,
    blocks: &[(&str, &str)],
    rollback: &[(&str, &str)],
) -> Plan {
    let ios = |v: &[(&str, &str)]| -> Vec<ConfigBlock> {
        v.iter()
            .map(|(d, t)| ConfigBlock {
                device: (*d).to_owned(),
                os: "ios".into(),
                text: (*t).to_owned(),
            })
            .collect()
    };
    Plan {
        header: Header {
            olav_plan: 1,
            plan_id: "test-plan".into(),
            workflow: "test".into(),
            intent: intent.into(),
            targets,
            state_version: 1,
            created: "2026-11-28T07:00:00Z".into(),
            request: "a unit test".into(),
            understood: String::new(),
            what_if: false,
            drafted: String::new(),
            removes: Vec::new(),
        },
        title: "A test plan".into(),
        summary: String::new(),
        scope: String::new(),
        implementation_notes: String::new(),
        implementation: ios(blocks),
        rollback: ios(rollback),
        verification: String::new(),
        blast_radius: String::new(),
        claimed_blast_radius: Some(0),
        risks: String::new(),
        pre_change: String::new(),
    }
}

/// A device target.
pub fn device(d: &str) -> Target {
    Target::Device { device: d.into() }
}

/// An interface target.
pub fn interface(d: &str, i: &str) -> Target {
    Target::Interface {
        device: d.into(),
        interface: i.into(),
    }
}

/// Runs one check on a plan, with default options.
pub fn run(check: &Check, net: &Net, plan: &Plan) -> Outcome {
    run_with(check, net, plan, &Options::default())
}

/// Runs one check on a plan.
pub fn run_with(check: &Check, net: &Net, plan: &Plan, opts: &Options) -> Outcome {
    (check.run)(&context(net, plan, opts)).expect("check runs")
}

/// The context of a plan at `plan.md`, for a test that sets parts of it by hand.
pub fn context<'a>(net: &'a Net, plan: &'a Plan, opts: &'a Options) -> Context<'a> {
    Context::build(&net.db, "plan.md", plan, opts).expect("context")
}

/// Whether the outcome has a finding of that severity whose message holds `needle`.
pub fn has(o: &Outcome, severity: Severity, needle: &str) -> bool {
    o.findings
        .iter()
        .any(|f| f.severity == severity && f.message.contains(needle))
}

/// A redundant uplink on r1 (GigabitEthernet0/3 to AS64500), with `extra` lines after it
/// (a hand edit) and `extra_rollback` in the rollback.
pub fn uplink_with(extra: &str, extra_rollback: &str) -> Plan {
    plan(
        "add_uplink",
        vec![
            interface("r1", "GigabitEthernet0/3"),
            Target::Peer {
                device: "r1".into(),
                peer: "203.0.113.6".into(),
                asn: Some(64500),
                name: None,
            },
        ],
        &[(
            "r1",
            &format!(
                "interface GigabitEthernet0/3\n ip address 203.0.113.5 255.255.255.252\n no shutdown\n!\nrouter bgp 65001\n neighbor 203.0.113.6 remote-as 64500\n neighbor 203.0.113.6 route-map ISP-IN in\n neighbor 203.0.113.6 route-map ISP-OUT out\n!\n{extra}"
            ),
        )],
        &[(
            "r1",
            &format!(
                "interface GigabitEthernet0/3\n no ip address\n shutdown\n!\nrouter bgp 65001\n no neighbor 203.0.113.6\n!\n{extra_rollback}"
            ),
        )],
    )
}

/// A description change on r3, which touches nothing a check looks at.
pub fn description_only() -> Plan {
    plan(
        "set_description",
        vec![interface("r3", "GigabitEthernet0/0")],
        &[(
            "r3",
            "interface GigabitEthernet0/0\n description uplink to r1",
        )],
        &[("r3", "interface GigabitEthernet0/0\n no description")],
    )
}

/// j1 (Junos) xe-0/1/0, port `mtu 9214`, unit 0 10.0.3.0/31 — e1 (EOS) Ethernet12,
/// `mtu 9214`, 10.0.3.1/31: the demo's gamma-border-1 – alpha-core-1 link as its fixture once
/// had it, 14 bytes apart in IP MTU.
const J1: &str = "set system host-name j1
set interfaces xe-0/1/0 mtu 9214
set interfaces xe-0/1/0 unit 0 family inet address 10.0.3.0/31
set interfaces lo0 unit 0 family inet address 10.255.3.1/32
";

const E1: &str = "! device: e1 (vEOS, EOS-4.23)
hostname e1
!
interface Ethernet12
   mtu 9214
   no switchport
   ip address 10.0.3.1/31
!
end
";

const JUNOS_EOS_STATE: &str = r#"collected_at: "2026-11-28T06:00:00Z"
devices:
  - {hostname: j1, role: border, site: a, status: active}
  - {hostname: e1, role: core, site: a, status: active}
"#;

/// A Junos router linked to an EOS switch (see `J1`, `E1`).
pub fn junos_eos() -> Net {
    network(&[("j1", J1), ("e1", E1)], JUNOS_EOS_STATE)
}

/// A Junos `set` line for a path written as words (`interfaces xe-0/1/0 mtu 1500`).
pub fn junos_set(words: &str) -> String {
    let w: Vec<&str> = words.split_whitespace().collect();
    crate::dialect::junos::set(&crate::dialect::junos::path(&w))
}

/// A Junos `delete` line for a path written as words.
pub fn junos_delete(words: &str) -> String {
    let w: Vec<&str> = words.split_whitespace().collect();
    crate::dialect::junos::delete(&crate::dialect::junos::path(&w))
}

/// A plan on j1 in Junos set form.
pub fn junos_plan(intent: &str, targets: Vec<Target>, lines: &str, rollback: &str) -> Plan {
    let mut p = plan(intent, targets, &[("j1", lines)], &[("j1", rollback)]);
    for b in p.implementation.iter_mut().chain(p.rollback.iter_mut()) {
        b.os = "junos".into();
    }
    p
}

/// The square of `fixtures/forwarding`: r1 reaches r4 over two equal-cost OSPF paths
/// (via r2 and r3), r1 and r4 peer iBGP between loopbacks, and the `office` service
/// joins their LANs.
pub fn square() -> Net {
    square_with(|state| state)
}

/// The square with r3 and r4 in a second site, `b`: the sites are joined by r1–r3 and
/// r2–r4.
pub fn square_two_sites() -> Net {
    square_with(|state| {
        state
            .replace("r3, role: core, site: a", "r3, role: core, site: b")
            .replace("r4, role: access, site: a", "r4, role: access, site: b")
    })
}

/// The square where r1 also has a provider uplink with a static default route, which it
/// originates into OSPF (`fixtures/forwarding/r1-internet.cfg`): every router reaches the
/// internet through r1; and r3 is managed in band on its loopback.
pub fn square_internet() -> Net {
    square_from("r1-internet.cfg", |state| {
        state.replace(
            "{hostname: r3, role: core, site: a, status: active}",
            "{hostname: r3, role: core, site: a, status: active, management_address: 10.255.0.3}",
        )
    })
}

/// The square with its `state.yaml` changed by `edit`.
fn square_with(edit: impl Fn(String) -> String) -> Net {
    square_from("configs/r1.cfg", edit)
}

/// The square with r1's configuration read from `r1` and `state.yaml` changed by `edit`.
fn square_from(r1: &str, edit: impl Fn(String) -> String) -> Net {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/forwarding");
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).expect("fixtures/forwarding");
    let configs: Vec<(&str, String)> = ["r1", "r2", "r3", "r4"]
        .iter()
        .map(|h| {
            let path = if *h == "r1" {
                r1.to_owned()
            } else {
                format!("configs/{h}.cfg")
            };
            (*h, read(&path))
        })
        .collect();
    let refs: Vec<(&str, &str)> = configs.iter().map(|(h, t)| (*h, t.as_str())).collect();
    network(&refs, &edit(read("state.yaml")))
}

/// A plan of the square: `intent` on `device`, its lines and rollback read from
/// `fixtures/forwarding/blocks/<block>.txt` and `<rollback>.txt`.
pub fn square_plan(
    intent: &str,
    targets: Vec<Target>,
    device: &str,
    block: &str,
    rollback: &str,
) -> Plan {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/forwarding/blocks");
    let read = |p: &str| std::fs::read_to_string(dir.join(format!("{p}.txt"))).expect("block");
    let (lines, back) = (read(block), read(rollback));
    plan(intent, targets, &[(device, &lines)], &[(device, &back)])
}

/// A description change on r2's link to r4: nothing moves.
pub fn square_description() -> Plan {
    square_plan(
        "modify_interface",
        vec![interface("r2", "GigabitEthernet0/1")],
        "r2",
        "description",
        "description",
    )
}

/// r2's link to r4 shut: one of r1's two paths to r4 goes.
pub fn square_shut() -> Plan {
    square_plan(
        "modify_interface",
        vec![interface("r2", "GigabitEthernet0/1")],
        "r2",
        "shut",
        "no_shut",
    )
}

/// Both of r4's links shut: r4 and its LAN are cut off — as a change to one of the links,
/// or (`removal`) as the decommissioning of both.
pub fn square_isolate(removal: bool) -> Plan {
    let intent = if removal {
        "decommission_interface"
    } else {
        "modify_interface"
    };
    let mut p = square_plan(
        intent,
        vec![interface("r4", "GigabitEthernet0/0")],
        "r4",
        "isolate",
        "no_shut",
    );
    if removal {
        p.header.targets.push(interface("r4", "GigabitEthernet0/1"));
    }
    p
}
