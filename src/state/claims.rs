//! What open plans claim, looked up by element: a pre-check asks only for the claims
//! that can meet its own, so checking every open plan grows with the plans, not with
//! their square (`precheck --all` over 1,001 plans took 57 s when each plan read every
//! other plan's claims).

use super::plans::open_sql;
use super::{StateDb, StateError};
use crate::plan::claims::Claim;
use crate::plan::Plan;
use rusqlite::params;

/// A plan's claims as one canonical text (distinct claims, sorted bytewise, fields
/// joined by U+001F and claims by U+001E), None when it claims nothing: two plans with
/// the same text draft the same change. The schema's backfill writes the same text.
pub fn claim_set(plan: &Plan) -> Option<String> {
    of_claims(&crate::plan::claims::claims(plan))
}

/// [`claim_set`] of claims already listed.
pub fn of_claims(claims: &[Claim]) -> Option<String> {
    let mut all: Vec<String> = claims
        .iter()
        .map(|c| format!("{}\u{1f}{}\u{1f}{}", c.kind, c.device, c.element))
        .collect();
    all.sort();
    all.dedup();
    (!all.is_empty()).then(|| all.join("\u{1e}"))
}

/// Open plans found for one question, at most a few named.
#[derive(Debug, Clone, Default)]
pub struct Matches {
    /// Up to [`NAMED`] of them, by plan id: (plan id, registered path).
    pub named: Vec<(String, String)>,
    /// How many there are in all.
    pub total: usize,
}

/// How many plans a finding names; the rest are counted.
pub const NAMED: usize = 3;

impl StateDb {
    /// The open plans other than `plan_id` whose claims are exactly `claim_set` (the same
    /// change drafted again); none for a plan that claims nothing.
    pub fn open_duplicates(
        &self,
        plan_id: &str,
        claim_set: Option<&str>,
    ) -> Result<Matches, StateError> {
        let Some(set) = claim_set else {
            return Ok(Matches::default());
        };
        self.matches(
            &format!(
                "FROM plan p WHERE p.claim_set = ?1 AND p.plan_id != ?2 AND p.status IN {}",
                open_sql()
            ),
            params![set, plan_id],
        )
    }

    /// The other open plans holding the claim (kind, device, element), leaving out those
    /// whose claims equal `claim_set`.
    pub fn open_claimants(
        &self,
        plan_id: &str,
        claim_set: Option<&str>,
        (kind, device, element): (&str, &str, &str),
    ) -> Result<Matches, StateError> {
        self.matches(
            &format!(
                "FROM plan_claim c JOIN plan p ON p.plan_id = c.plan_id
                 WHERE c.kind = ?1 AND c.hostname = ?2 AND c.element = ?3 AND c.plan_id != ?4
                   AND p.status IN {} AND p.claim_set IS NOT ?5",
                open_sql()
            ),
            params![kind, device, element, plan_id, claim_set],
        )
    }

    fn matches(
        &self,
        from: &str,
        args: impl rusqlite::Params + Clone,
    ) -> Result<Matches, StateError> {
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "SELECT DISTINCT p.plan_id, p.path {from} ORDER BY p.plan_id LIMIT {NAMED}"
            ))
            .map_err(|e| self.err(e))?;
        let named = st
            .query_map(args.clone(), |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<(String, String)>, _>>()
            .map_err(|e| self.err(e))?;
        let total = if named.len() < NAMED {
            named.len()
        } else {
            self.conn
                .prepare_cached(&format!("SELECT COUNT(DISTINCT p.plan_id) {from}"))
                .and_then(|mut st| st.query_row(args, |r| r.get::<_, i64>(0)))
                .map_err(|e| self.err(e))? as usize
        };
        Ok(Matches { named, total })
    }
}
