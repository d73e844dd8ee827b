//! Nokia SR OS policy chains on a BGP path. The parser turns SR OS policy-statements into
//! the same terms Junos has (an `entry` is a term, `default-action` the last, unconditional
//! term, a prefix-list's `exact`/`longer`/`through`/`range` entries route filters), so the
//! terms are evaluated as Junos evaluates them ([`super::junos::evaluate`]). What differs is
//! the default when no term decides: a session the device configured in the model-driven
//! interface rejects, on eBGP, every route no policy accepts (`ebgp-default-reject-policy`,
//! RFC 8212, on by default there); iBGP takes BGP's default (import accepts, export sends
//! active BGP routes only). SR OS sends no MED of its own (`med-out` is unset by default),
//! and `next-hop-self` sets the own address on every route sent, reflected ones included.

use super::junos::{self, Context, Verdict};
use super::policy::Unknown;
use super::Path;
use crate::model::{BgpNeighborRouting, DeviceConfig, Vendor};
use crate::routing::route::Protocol;

/// Applies the chain `names` to `path` on a session of `vendor` (Junos or SR OS): Some(the
/// path as changed) when accepted.
pub fn chain(
    vendor: Vendor,
    config: &DeviceConfig,
    routing: &BgpNeighborRouting,
    names: &[String],
    path: Path,
    ctx: &Context<'_>,
    ebgp: bool,
) -> Result<Option<Path>, Unknown> {
    if vendor != Vendor::NokiaSros {
        return junos::chain(config, names, path, ctx);
    }
    let mut path = path;
    if ctx.export {
        // SR OS sends no MED of its own (`med-out` unset): a route of another protocol
        // goes out without its metric unless a policy sets one.
        if !matches!(ctx.protocol, Protocol::Bgp | Protocol::Ibgp) {
            path.med = 0;
        }
        // `next-hop-self` always sets the session's own address, reflected iBGP routes
        // included (IOS keeps a reflected route's next hop).
        if routing.next_hop_self {
            path.next_hop = ctx.local_ip;
        }
    }
    Ok(match junos::evaluate(config, names, path, ctx)? {
        Verdict::Accept(p) => Some(p),
        Verdict::Reject => None,
        Verdict::Undecided(p) => {
            let (import, export) = routing.ebgp_default_reject;
            let reject = ebgp && if ctx.export { export } else { import };
            (!reject && junos::default_accepts(ctx)).then_some(p)
        }
    })
}
