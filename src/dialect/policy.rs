//! A new provider session's routing policy, decided the same way in every dialect
//! (`docs/pipeline.md`, "Safe drafts"): per direction, the policy copied with the
//! existing uplink; else the filter of another provider session on the same device,
//! reused (its attribute-setting parts left out); else one olav builds — inbound, the
//! default route, the bogons and anything longer than /24 rejected; outbound, exactly the
//! public prefixes the device originates into BGP. When no outbound policy can be had,
//! the session is drafted shut, and the plan says so.

use ipnet::IpNet;

/// IPv4 space no provider should send us or be sent (RFC 6890 special-purpose blocks:
/// "this network", RFC 1918, shared address space, loopback, link-local, IETF protocol
/// assignments, documentation, benchmarking, multicast, reserved).
pub const BOGONS: &[&str] = &[
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/4",
    "240.0.0.0/4",
];

/// The longest prefix a built inbound filter accepts (longer ones are not routed on the
/// internet and only fill the table).
pub const LONGEST_ACCEPTED: u8 = 24;

/// The bogon blocks, parsed.
pub fn bogons() -> Vec<IpNet> {
    BOGONS.iter().filter_map(|b| b.parse().ok()).collect()
}

/// Whether `p` lies in bogon space (or is IPv6, which the built filters do not cover).
pub fn is_bogon(p: &IpNet) -> bool {
    !p.addr().is_ipv4() || bogons().iter().any(|b| b.contains(p))
}

/// The public IPv4 prefixes among `originated` (what a device originates into BGP), each
/// once, in order: what a built outbound filter permits.
pub fn own_prefixes(originated: impl IntoIterator<Item = IpNet>) -> Vec<IpNet> {
    let mut out: Vec<IpNet> = Vec::new();
    for p in originated {
        let p = p.trunc();
        if !is_bogon(&p) && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The name of a new policy for `provider` (`COGENT-IN`, `HURRICANE-ELECTRIC-OUT`): the
/// provider's name upper-cased, one that `taken` does not already use (`-2`, `-3`, …).
pub fn name_for(provider: &str, suffix: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut base: String = provider
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '-'
            }
        })
        .collect();
    base = base.trim_matches('-').to_owned();
    if base.is_empty() {
        base = "PROVIDER".to_owned();
    }
    let first = format!("{base}-{suffix}");
    if !taken(&first) {
        return first;
    }
    (2..)
        .map(|n| format!("{first}-{n}"))
        .find(|n| !taken(n))
        .unwrap_or(first)
}

/// What a drafted session's policy is, in words for the plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decided {
    /// One line per direction (and per part left out), saying where it came from.
    pub notes: Vec<String>,
    /// The session is drafted shut (no outbound policy could be had).
    pub shut: bool,
}

/// The note when no outbound policy could be had: the session is drafted shut.
pub fn shut_note(how: &str, enable: &str) -> String {
    format!(
        "outbound: no policy to reuse (no other provider session on this device filters what it announces) and no public prefix this device originates into BGP, so olav cannot tell what the site's own prefixes are — the session is drafted shut ({how}). Define the outbound policy (only the site's own prefixes), then enable it ({enable})"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_prefixes_leave_out_bogons_and_duplicates() {
        let p = |s: &str| s.parse::<IpNet>().unwrap();
        let own = own_prefixes([
            p("10.10.0.0/16"),
            p("198.51.100.0/24"),
            p("185.7.0.0/22"),
            p("185.7.0.1/22"),
            p("100.64.8.0/24"),
        ]);
        assert_eq!(own, vec![p("185.7.0.0/22")]);
    }

    #[test]
    fn names_are_the_provider_upper_cased_and_free() {
        assert_eq!(name_for("Cogent", "IN", |_| false), "COGENT-IN");
        assert_eq!(
            name_for("Hurricane Electric", "OUT", |n| n
                == "HURRICANE-ELECTRIC-OUT"),
            "HURRICANE-ELECTRIC-OUT-2"
        );
    }
}
