//! SONiC: a device is a folder holding `config_db.json` (ports, addresses, port channels,
//! hostname) and `frr.conf` (routing), Batfish's `sonic_configs/<host>/` layout. The
//! snapshot reader joins the two files into one text ([`join`]) so that a SONiC device
//! is one config file like any other; [`parse`] splits it again.

use super::{merge_interfaces, parse_frr_conf};
use crate::model::{DeviceConfig, Interface};
use serde_json::{Map, Value};

/// The first line of a joined SONiC device: `config_db.json` follows.
pub const CONFIG_DB_MARKER: &str = "# sonic config_db.json --";
/// The line after which the joined text holds `frr.conf`.
pub const FRR_CONF_MARKER: &str = "# sonic frr.conf --";

/// The two files of a SONiC device as one text.
pub fn join(config_db: &[u8], frr_conf: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(config_db.len() + frr_conf.len() + 64);
    out.extend_from_slice(CONFIG_DB_MARKER.as_bytes());
    out.push(b'\n');
    out.extend_from_slice(config_db);
    if !config_db.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.extend_from_slice(FRR_CONF_MARKER.as_bytes());
    out.push(b'\n');
    out.extend_from_slice(frr_conf);
    out
}

/// The two files of a joined SONiC device (`config_db.json`, `frr.conf`), for a
/// snapshot written back in Batfish's layout; None when `text` is not one.
pub fn split(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix(CONFIG_DB_MARKER)?.strip_prefix('\n')?;
    let marker = format!("\n{FRR_CONF_MARKER}\n");
    let at = rest.find(&marker)?;
    Some((&rest[..=at], &rest[at + marker.len()..]))
}

/// Reads a joined SONiC device.
pub(super) fn parse(text: &str) -> DeviceConfig {
    let lines: Vec<&str> = text.lines().collect();
    let marker = lines.iter().position(|l| *l == FRR_CONF_MARKER);
    let frr_from = marker.map_or(lines.len(), |i| i + 1);
    let mut dev = parse_frr_conf(text, frr_from);
    let json_end = marker.unwrap_or(lines.len());
    let json: String = lines[1.min(json_end)..json_end].join("\n");
    let host = match serde_json::from_str::<Value>(&json) {
        Ok(Value::Object(db)) => read_db(&mut dev, &db, &lines),
        Ok(_) => {
            dev.warn(2, "config_db.json: not a JSON object");
            Vec::new()
        }
        Err(e) => {
            dev.warn(
                e.line() as u32 + 1,
                format!("config_db.json: not JSON: {e}"),
            );
            Vec::new()
        }
    };
    merge_interfaces(&mut dev, host, true);
    dev.lines_total = lines.len() as u32;
    dev
}

/// The line of the joined text where `key` first appears (its JSON key), else 1.
fn line_of(lines: &[&str], key: &str) -> u32 {
    let quoted = format!("\"{key}\"");
    lines
        .iter()
        .position(|l| l.contains(&quoted))
        .map_or(1, |i| i as u32 + 1)
}

/// The interfaces, hostname and platform `config_db.json` gives.
fn read_db(dev: &mut DeviceConfig, db: &Map<String, Value>, lines: &[&str]) -> Vec<Interface> {
    let table = |name: &str| db.get(name).and_then(Value::as_object);
    if let Some(meta) = table("DEVICE_METADATA").and_then(|m| m.get("localhost")) {
        if let Some(h) = meta.get("hostname").and_then(Value::as_str) {
            dev.hostname = Some(h.to_owned());
        }
        dev.model = Some(match meta.get("hwsku").and_then(Value::as_str) {
            Some(sku) => format!("SONiC {sku}"),
            None => "SONiC".to_owned(),
        });
    }
    let mut host = DeviceConfig::default();
    let index = |host: &mut DeviceConfig, name: &str| -> usize {
        match host.interfaces.iter().position(|i| i.name == name) {
            Some(i) => i,
            None => {
                host.interfaces
                    .push(Interface::new(name.to_owned(), line_of(lines, name)));
                host.interfaces.len() - 1
            }
        }
    };
    for (name, attrs) in table("PORT").into_iter().flatten() {
        let idx = index(&mut host, name);
        let i = &mut host.interfaces[idx];
        let s = |k: &str| attrs.get(k).and_then(Value::as_str);
        i.admin_up = s("admin_status") == Some("up");
        i.mtu = s("mtu").and_then(|m| m.parse().ok());
        i.speed_mbps = s("speed").and_then(|m| m.parse().ok());
        i.description = s("description")
            .filter(|d| !d.is_empty())
            .map(str::to_owned);
    }
    for (name, attrs) in table("PORTCHANNEL").into_iter().flatten() {
        let idx = index(&mut host, name);
        let i = &mut host.interfaces[idx];
        i.admin_up = attrs.get("admin_status").and_then(Value::as_str) != Some("down");
        i.mtu = attrs
            .get("mtu")
            .and_then(Value::as_str)
            .and_then(|m| m.parse().ok());
        for m in attrs
            .get("members")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            let mi = index(&mut host, m);
            host.interfaces[mi].channel_group = Some(name.clone());
        }
    }
    // `Name` keys carry the VRF; `Name|A/L` keys the addresses.
    for t in [
        "INTERFACE",
        "LOOPBACK_INTERFACE",
        "VLAN_INTERFACE",
        "PORTCHANNEL_INTERFACE",
        "MGMT_INTERFACE",
    ] {
        for (key, attrs) in table(t).into_iter().flatten() {
            let (name, addr) = match key.split_once('|') {
                Some((n, a)) => (n, Some(a)),
                None => (key.as_str(), None),
            };
            let idx = index(&mut host, name);
            if let Some(v) = attrs.get("vrf_name").and_then(Value::as_str) {
                host.interfaces[idx].vrf = Some(v.to_owned());
            }
            if let Some(a) = addr {
                let no = line_of(lines, key);
                crate::import::parse::common::frr_address(&mut host, idx, a, no);
            }
        }
    }
    dev.warnings.append(&mut host.warnings);
    host.interfaces
}
