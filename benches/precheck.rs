//! The pre-check's blast radius on generated networks: building the graph from the
//! network model (once per state version), and one query (a distribution switch removed)
//! on the loaded graph.
//! Run: `cargo bench --bench precheck`; `OLAV_BENCH_50K=1` adds the 50,000-device network.

use criterion::{criterion_group, criterion_main, Criterion};
use olav::precheck::blast::{Graph, Spec};
use olav::state::StateDb;

fn blast(c: &mut Criterion) {
    let mut sizes = vec![1_000usize, 10_000];
    if std::env::var_os("OLAV_BENCH_50K").is_some() {
        sizes.push(50_000);
    }
    for devices in sizes {
        let Ok(dir) = tempfile::tempdir() else { return };
        let path = dir.path().join("state.db");
        let generated = olav::synth::generate(devices, 1);
        let Ok(parsed) = olav::import::parse_snapshot(&generated.to_snapshot()) else {
            return;
        };
        let Ok(mut db) = StateDb::open(&path) else {
            return;
        };
        if db.import(&parsed).is_err() {
            return;
        }
        let Ok(graph) = Graph::load(&db) else { return };
        eprintln!(
            "{devices} devices: {} in the graph, {} links",
            graph.device_count(),
            graph.link_count()
        );
        let spec = Spec {
            devices: vec!["s001-dist-01a".into()],
            ..Spec::default()
        };
        let mut g = c.benchmark_group(format!("blast_{devices}_devices"));
        g.sample_size(20);
        let Ok(model) = olav::network::NetworkModel::shared(&db) else {
            return;
        };
        g.bench_function("build_graph", |b| {
            b.iter(|| Graph::from_model(&model).device_count())
        });
        g.bench_function("query_remove_dist_switch", |b| {
            b.iter(|| graph.blast(&spec).number())
        });
        g.finish();
    }
}

criterion_group!(benches, blast);
criterion_main!(benches);
