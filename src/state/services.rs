//! The services the network carries and where they live, as stored.

use super::{StateDb, StateError};

/// One endpoint of a service, with the service's own columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceEndpoint {
    /// The service's name.
    pub service: String,
    /// Its kind (`internet` for one reached through the borders).
    pub kind: Option<String>,
    /// Its criticality, `unrated` when the snapshot gives none.
    pub criticality: String,
    /// The device the endpoint is on.
    pub hostname: Option<String>,
    /// The prefix the endpoint lives in.
    pub prefix: Option<String>,
    /// The interface the endpoint is on.
    pub ifname: Option<String>,
}

impl StateDb {
    /// Every service endpoint, grouped by service name (services in name order; a service
    /// with no endpoint is left out).
    pub fn service_endpoints(&self) -> Result<Vec<ServiceEndpoint>, StateError> {
        let mut st = self
            .conn
            .prepare(
                "SELECT s.name, s.kind, COALESCE(s.criticality, 'unrated'), e.hostname, e.prefix, e.ifname
                 FROM service s JOIN service_endpoint e ON e.service = s.name ORDER BY s.name",
            )
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([], |r| {
                Ok(ServiceEndpoint {
                    service: r.get(0)?,
                    kind: r.get(1)?,
                    criticality: r.get(2)?,
                    hostname: r.get(3)?,
                    prefix: r.get(4)?,
                    ifname: r.get(5)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// The devices holding an endpoint of `service`, by name.
    pub fn service_devices(&self, service: &str) -> Result<Vec<String>, StateError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT DISTINCT hostname FROM service_endpoint WHERE service = ?1 AND hostname IS NOT NULL ORDER BY hostname")
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([service], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }
}
