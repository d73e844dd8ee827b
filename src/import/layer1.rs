//! Batfish's layer-1 topology file (`batfish/layer1_topology.json`): the snapshot's
//! physical cabling, one edge per cable between two device interfaces.
//!
//! Format (Batfish's `Layer1Topology`):
//! `{"edges": [{"node1": {"hostname": "r1", "interfaceName": "Ethernet1"}, "node2": {…}}]}`.
//! Hostnames and interface names are resolved against the snapshot's devices by
//! [`Layer1::resolve`]: hostnames case-insensitively (Batfish lower-cases node names),
//! interface names as people write them (`E1`, `Gi0/2`), which is more than Batfish does
//! (exact or case-insensitive names only): a lab that abbreviates names is read as meant.

use serde::Deserialize;

/// Path of the file inside a snapshot.
pub const FILE_NAME: &str = "batfish/layer1_topology.json";

/// One end of a cable as the file writes it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Layer1Node {
    /// Device name.
    pub hostname: String,
    /// Interface name.
    #[serde(rename = "interfaceName")]
    pub interface_name: String,
}

/// One cable.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Layer1Edge {
    /// One end.
    pub node1: Layer1Node,
    /// The other end.
    pub node2: Layer1Node,
}

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Layer1 {
    /// Every cable, as written (Batfish reads them in both directions).
    #[serde(default)]
    pub edges: Vec<Layer1Edge>,
}

/// A cable end resolved to a device of the snapshot: (device index, interface index).
pub type Port = (usize, usize);

impl Layer1 {
    /// Reads the file's text.
    pub fn parse(text: &str) -> Result<Layer1, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Hostnames the file names (lower-cased): the devices whose cabling it describes.
    pub fn hostnames(&self) -> std::collections::HashSet<String> {
        self.edges
            .iter()
            .flat_map(|e| [&e.node1.hostname, &e.node2.hostname])
            .map(|h| h.to_ascii_lowercase())
            .collect()
    }

    /// The cables whose two ends are interfaces of `devices` (hostname, interface names),
    /// as (device index, interface index) pairs; ends naming an unknown device or
    /// interface are left out, as Batfish leaves them out.
    pub fn resolve<'a>(&self, devices: &[(&'a str, Vec<&'a str>)]) -> Vec<(Port, Port)> {
        let find = |n: &Layer1Node| -> Option<Port> {
            let d = devices
                .iter()
                .position(|(h, _)| h.eq_ignore_ascii_case(&n.hostname))?;
            let names = &devices[d].1;
            let i = names
                .iter()
                .position(|x| *x == n.interface_name)
                .or_else(|| {
                    names
                        .iter()
                        .position(|x| crate::ifname::same(&n.interface_name, x))
                })?;
            Some((d, i))
        };
        self.edges
            .iter()
            .filter_map(|e| Some((find(&e.node1)?, find(&e.node2)?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_batfish_edges_and_resolves_names_as_written() {
        let l1 = Layer1::parse(
            r#"{"edges": [
                {"node1": {"hostname": "np01", "interfaceName": "E2"},
                 "node2": {"hostname": "DLH15", "interfaceName": "Gi0/2"}},
                {"node1": {"hostname": "np01", "interfaceName": "Ethernet9"},
                 "node2": {"hostname": "gone", "interfaceName": "Ethernet1"}}
            ]}"#,
        )
        .expect("valid");
        let devices = vec![
            ("dlh15", vec!["GigabitEthernet0/1", "GigabitEthernet0/2"]),
            ("np01", vec!["Ethernet1", "Ethernet2"]),
        ];
        assert_eq!(l1.resolve(&devices), vec![((1, 1), (0, 1))]);
        assert!(l1.hostnames().contains("dlh15") && l1.hostnames().contains("gone"));
        assert!(Layer1::parse("{\"edges\": [{\"node1\": {}}]}").is_err());
    }
}
