//! The scoped candidate (the devices [`super::scope::recomputed`] names, computed over
//! them alone as [`crate::routing::Lazy`] makes them, every other device's RIB as it is) is the whole recomputation
//! ([`crate::routing::network`]) on every device, for random plans on generated networks:
//! islands of routers (some joined by iBGP, some running OSPF alone), and `olav synth`.

use super::scope::{affected, changed, recomputed, Sides};
use crate::dialect::{render, Change, IfChange};
use crate::import::parse::parser_for;
use crate::import::parse_snapshot;
use crate::model::{DeviceConfig, Vendor};
use crate::routing::{network, DeviceInput, DeviceRib, Lazy};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Islands of `routers` IOS routers in a chain (OSPF area 0, a LAN each, a static route
/// recursive through OSPF); islands 0 and 1 also run iBGP between their loopbacks.
fn islands(count: u8, routers: u8) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for i in 0..count {
        for j in 0..routers {
            let mut t = format!(
                "hostname i{i}r{j}\n!\ninterface Loopback0\n ip address 10.{i}.255.{} 255.255.255.255\n!\n",
                j + 1
            );
            if j + 1 < routers {
                t += &format!(
                    "interface GigabitEthernet0/1\n ip address 10.{i}.{j}.0 255.255.255.254\n!\n"
                );
            }
            if j > 0 {
                t += &format!(
                    "interface GigabitEthernet0/2\n ip address 10.{i}.{}.1 255.255.255.254\n!\n",
                    j - 1
                );
            }
            t += &format!(
                "interface GigabitEthernet0/3\n ip address 172.{}.{j}.1 255.255.255.0\n!\n",
                16 + i
            );
            t += &format!(
                "router ospf 1\n network 10.{i}.0.0 0.0.255.255 area 0\n network 172.{}.0.0 0.0.255.255 area 0\n!\n",
                16 + i
            );
            if i < 2 {
                let mut neighbors = String::new();
                for k in (0..routers).filter(|k| *k != j) {
                    let peer = format!("10.{i}.255.{}", k + 1);
                    neighbors += &format!(
                        " neighbor {peer} remote-as 6500{i}\n neighbor {peer} update-source Loopback0\n"
                    );
                }
                t += &format!(
                    "!\nrouter bgp 6500{i}\n{neighbors} network 172.{}.{j}.0 mask 255.255.255.0\n!\n",
                    16 + i
                );
            }
            let far = (j + 1) % routers + 1;
            t += &format!("!\nip route 192.168.{i}.0 255.255.255.0 10.{i}.255.{far}\n!\nend\n");
            out.push((format!("i{i}r{j}"), t));
        }
    }
    out
}

/// One change a plan makes to one device.
#[derive(Debug, Clone)]
enum Edit {
    /// Shut its `k`th interface.
    Shut(usize),
    /// Set its `k`th interface's OSPF cost.
    Cost(usize, u16),
    /// Remove its `k`th BGP neighbor.
    NoNeighbor(usize),
    /// Add a static route through an address of the network.
    Static(u8, u8),
    /// Re-describe its `k`th interface.
    Describe(usize),
    /// Shut its `k`th interface and bring it up again (plan then rollback).
    RoundTrip(usize),
    /// Remove the device.
    Remove,
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0..8usize).prop_map(Edit::Shut),
        (0..8usize, 1..200u16).prop_map(|(k, c)| Edit::Cost(k, c)),
        (0..8usize).prop_map(Edit::NoNeighbor),
        (0..4u8, 1..5u8).prop_map(|(i, j)| Edit::Static(i, j)),
        (0..8usize).prop_map(Edit::Describe),
        (0..8usize).prop_map(Edit::RoundTrip),
        Just(Edit::Remove),
    ]
}

/// The plan's lines for `edit` on a device (None: it removes the device, or the edit
/// does not apply to it).
fn lines(vendor: Vendor, hostname: &str, text: &str, c: &DeviceConfig, e: &Edit) -> Option<String> {
    let iface = |k: usize| c.interfaces.get(k % c.interfaces.len().max(1));
    let change = |ch: Change<'_>| render(vendor, hostname, text, &ch).ok();
    let b = c.bgp.as_ref();
    let l = match e {
        Edit::Shut(k) => change(Change::Interface {
            name: &iface(*k)?.name,
            changes: &[IfChange::Shutdown],
            switchport: None,
            replaced: None,
        })?,
        Edit::Describe(k) => change(Change::Interface {
            name: &iface(*k)?.name,
            changes: &[IfChange::Description("moved".into())],
            switchport: None,
            replaced: None,
        })?,
        Edit::RoundTrip(k) => {
            let l = change(Change::Interface {
                name: &iface(*k)?.name,
                changes: &[IfChange::Shutdown],
                switchport: None,
                replaced: None,
            })?;
            return Some(format!("{}\n{}", l.apply.join("\n"), l.rollback.join("\n")));
        }
        Edit::Cost(k, cost) => {
            return Some(format!(
                "interface {}\n ip ospf cost {cost}",
                iface(*k)?.name
            ));
        }
        Edit::NoNeighbor(k) => {
            let b = b?;
            let n = b.neighbors.get(k % b.neighbors.len().max(1))?;
            let peer = n.peer.to_string();
            change(Change::RemoveNeighbor {
                peer: &peer,
                vrf: "default",
                local_as: b.local_as?,
            })?
        }
        Edit::Static(i, j) => change(Change::AddStaticRoute {
            prefix: "203.0.113.0/24".parse().ok()?,
            next_hop: format!("10.{i}.255.{j}").parse().ok()?,
        })?,
        Edit::Remove => return None,
    };
    Some(l.apply.join("\n"))
}

/// Applies `edits` (device number, edit) to `devices` and asserts that the scoped
/// candidate is the whole recomputation, device by device; how many devices were
/// recomputed.
fn same_as_whole(devices: &[Dev], edits: &[(usize, Edit)]) -> usize {
    let mut plan: BTreeMap<usize, Option<String>> = BTreeMap::new();
    for (k, e) in edits {
        let k = k % devices.len();
        let d = &devices[k];
        match lines(d.vendor, &d.hostname, &d.text, &d.config, e) {
            Some(l) => {
                let entry = plan.entry(k).or_insert_with(|| Some(String::new()));
                if let Some(text) = entry {
                    text.push_str(&l);
                    text.push('\n');
                }
            }
            None if matches!(e, Edit::Remove) => {
                plan.insert(k, None);
            }
            None => {}
        }
    }
    let after: BTreeMap<usize, Option<(DeviceConfig, String)>> = plan
        .into_iter()
        .map(|(k, l)| {
            let d = &devices[k];
            let parsed = l.map(|l| {
                let text = crate::dialect::candidate_text(d.vendor, &d.text, &l);
                (parser_for(d.vendor).parse(&text), text)
            });
            (k, parsed)
        })
        .collect();
    let sides: Vec<Sides<'_>> = devices
        .iter()
        .enumerate()
        .map(|(k, d)| {
            let now = DeviceInput {
                hostname: &d.hostname,
                vendor: d.vendor,
                config: &d.config,
                text: &d.text,
            };
            let after = match after.get(&k) {
                None => Some(now),
                Some(None) => None,
                Some(Some((config, text))) => Some(DeviceInput {
                    config,
                    text,
                    ..now
                }),
            };
            Sides { now, after }
        })
        .collect();
    let before: HashMap<String, Arc<DeviceRib>> =
        network(&sides.iter().map(|s| s.now).collect::<Vec<_>>())
            .into_iter()
            .map(|r| (r.hostname.clone(), Arc::new(r)))
            .collect();
    let whole = network(&sides.iter().filter_map(|s| s.after).collect::<Vec<_>>());
    let hit = recomputed(&sides, &[], &changed(&sides), &|h| before.contains_key(h));
    let reached: Vec<DeviceInput<'_>> = sides
        .iter()
        .zip(&hit)
        .filter(|(_, h)| **h)
        .filter_map(|(s, _)| s.after)
        .collect();
    let lazy = Lazy::new(reached, |d| *d).expect("computes");
    let scoped: Vec<Arc<DeviceRib>> = sides
        .iter()
        .zip(&hit)
        .filter(|(s, _)| s.after.is_some())
        .filter_map(|(s, h)| {
            if *h {
                lazy.rib(s.now.hostname, |d| *d).map(Arc::new)
            } else {
                before.get(s.now.hostname).cloned()
            }
        })
        .collect();
    let scoped: Vec<&DeviceRib> = scoped.iter().map(Arc::as_ref).collect();
    let whole: Vec<&DeviceRib> = whole.iter().collect();
    assert_eq!(scoped, whole, "edits {edits:?}");
    affected(&sides, &[], &changed(&sides))
        .iter()
        .filter(|a| **a)
        .count()
}

/// One device of a test network.
struct Dev {
    hostname: String,
    vendor: Vendor,
    config: DeviceConfig,
    text: String,
}

fn parsed(configs: Vec<(String, String)>) -> Vec<Dev> {
    configs
        .into_iter()
        .map(|(hostname, text)| Dev {
            config: parser_for(Vendor::CiscoIos).parse(&text),
            hostname,
            vendor: Vendor::CiscoIos,
            text,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_scoped_candidate_is_the_whole_one_on_islands(
        edits in proptest::collection::vec((0..16usize, edit()), 1..4)
    ) {
        same_as_whole(&parsed(islands(4, 4)), &edits);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn the_scoped_candidate_is_the_whole_one_on_a_generated_network(
        edits in proptest::collection::vec((0..40usize, edit()), 1..3)
    ) {
        let g = crate::synth::generate(40, 3);
        let p = parse_snapshot(&g.to_snapshot()).expect("parses");
        let devices: Vec<Dev> = p
            .devices
            .into_iter()
            .map(|d| Dev {
                hostname: d.hostname,
                vendor: d.vendor,
                config: *d.config,
                text: d.text,
            })
            .collect();
        same_as_whole(&devices, &edits);
    }
}

#[test]
fn a_plan_recomputes_the_islands_it_reaches_and_no_more() {
    let devices = parsed(islands(4, 4));
    // i2r1 (OSPF alone): its island.
    assert_eq!(same_as_whole(&devices, &[(9, Edit::Cost(0, 50))]), 4);
    // i0r1 (iBGP): both BGP islands.
    assert_eq!(same_as_whole(&devices, &[(1, Edit::Shut(1))]), 8);
    // A removal: its island, the device included.
    assert_eq!(same_as_whole(&devices, &[(13, Edit::Remove)]), 4);
    // Plan then rollback, a description: nothing.
    assert_eq!(same_as_whole(&devices, &[(5, Edit::RoundTrip(1))]), 0);
    assert_eq!(same_as_whole(&devices, &[(5, Edit::Describe(1))]), 0);
}

#[test]
fn a_plan_changes_the_routing_of_the_devices_whose_routing_configuration_it_changes() {
    use crate::precheck::checks::testkit::plan;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut db = crate::state::StateDb::open(&dir.path().join("state.db")).expect("open");
    db.import(&parse_snapshot(&crate::demo::snapshot()).expect("parses"))
        .expect("import");
    let changes = |lines: &str| {
        let p = plan("custom", Vec::new(), &[("alpha-acc-1", lines)], &[]);
        super::changes_routing(&db, &p).expect("reads")
    };
    // A description: nothing the routing reads.
    assert!(changes("interface TenGigabitEthernet1/1/1\n description moved\n").is_empty());
    // A shutdown and an OSPF cost: the device's routing.
    assert_eq!(
        changes("interface TenGigabitEthernet1/1/1\n shutdown\n"),
        ["alpha-acc-1"]
    );
    assert_eq!(
        changes("interface TenGigabitEthernet1/1/1\n ip ospf cost 77\n"),
        ["alpha-acc-1"]
    );
}
