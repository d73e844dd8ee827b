//! Vendor dialects: the only place olav writes configuration syntax. One module per
//! vendor family — [`cisco`] (IOS / IOS-XE, EOS, NX-OS, their differences inside) and
//! [`junos`] — each rendering vendor-neutral changes into config lines, the exact
//! rollback from the stored configuration, the verification `show` commands, and the
//! candidate configuration: a stored config with a plan's lines applied, as the device
//! would hold it. The intents (`agents::analyzer::draft`) say *what* changes; a dialect
//! says how the device is told. Nothing here reads the state DB or the analyzer.

pub mod junos;
pub mod running;

use ipnet::IpNet;

/// A change to an interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IfChange {
    /// New description.
    Description(String),
    /// New primary address.
    Address(IpNet),
    /// Shut it.
    Shutdown,
    /// Bring it up.
    NoShutdown,
    /// New MTU.
    Mtu(u32),
    /// Remove the description.
    NoDescription,
}

impl std::fmt::Display for IfChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IfChange::Description(d) => write!(f, "description → \"{d}\""),
            IfChange::Address(a) => write!(f, "address → {a}"),
            IfChange::Shutdown => f.write_str("shutdown"),
            IfChange::NoShutdown => f.write_str("no shutdown"),
            IfChange::Mtu(m) => write!(f, "MTU → {m}"),
            IfChange::NoDescription => f.write_str("remove the description"),
        }
    }
}
