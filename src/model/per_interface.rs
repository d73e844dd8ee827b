//! Settings a routing protocol keeps per interface (OSPF, EIGRP, IS-IS), found by the
//! interface's name as configured, else by any spelling of it (`Gi0/1`).

/// A protocol's settings of one interface.
pub trait InterfaceSettings: Default {
    /// The interface's name as configured.
    fn interface(&self) -> &str;
    /// Empty settings of `name`.
    fn of(name: &str) -> Self;
}

/// The settings of interface `name` in `table`, created when missing.
pub fn setting_mut<'a, T: InterfaceSettings>(table: &'a mut Vec<T>, name: &str) -> &'a mut T {
    let i = match table.iter().position(|s| s.interface() == name) {
        Some(i) => i,
        None => {
            table.push(T::of(name));
            table.len() - 1
        }
    };
    &mut table[i]
}

/// The settings of interface `name` in `table`, when any is configured: the exact
/// spelling first (the usual case, without expanding names), then any spelling.
pub fn setting<'a, T: InterfaceSettings>(table: &'a [T], name: &str) -> Option<&'a T> {
    table.iter().find(|s| s.interface() == name).or_else(|| {
        table
            .iter()
            .find(|s| crate::ifname::same(s.interface(), name))
    })
}
