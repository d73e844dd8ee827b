//! Import speed on generated networks: parsing alone, parse + write to the state DB of a
//! snapshot held in memory, and the streamed import of a snapshot folder as `olav state
//! import` runs it. Throughput is in config lines. Run: `cargo bench --bench import`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use olav::import::{parse_snapshot, stream, SnapshotDir};
use olav::state::StateDb;

fn import(c: &mut Criterion) {
    for devices in [1_000usize, 5_000] {
        let generated = olav::synth::generate(devices, 1);
        let snap = generated.to_snapshot();
        let lines = generated.summary.config_lines as u64;
        let Ok(folder) = tempfile::tempdir() else {
            return;
        };
        if olav::synth::write(folder.path(), devices, 1).is_err() {
            return;
        }
        let mut g = c.benchmark_group(format!("import_{devices}_devices"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(lines));
        g.bench_function("parse", |b| {
            b.iter(|| parse_snapshot(&snap).map(|p| p.devices.len()))
        });
        g.bench_function("parse_and_write", |b| {
            b.iter_batched(
                || tempfile::tempdir().map(|d| (d.path().join("state.db"), d)),
                |dir| {
                    let (path, _keep) = dir.map_err(|e| e.to_string())?;
                    let parsed = parse_snapshot(&snap).map_err(|e| e.to_string())?;
                    let mut db = StateDb::open(&path).map_err(|e| e.to_string())?;
                    db.import(&parsed).map_err(|e| e.to_string())
                },
                criterion::BatchSize::PerIteration,
            )
        });
        g.bench_function("folder_streamed", |b| {
            b.iter_batched(
                || tempfile::tempdir().map(|d| (d.path().join("state.db"), d)),
                |dir| {
                    let (path, _keep) = dir.map_err(|e| e.to_string())?;
                    let listed = SnapshotDir::open(folder.path()).map_err(|e| e.to_string())?;
                    let streamed = stream(&listed).map_err(|e| e.to_string())?;
                    let mut db = StateDb::open(&path).map_err(|e| e.to_string())?;
                    db.import_streamed(&streamed).map_err(|e| e.to_string())
                },
                criterion::BatchSize::PerIteration,
            )
        });
        g.finish();
    }
}

criterion_group!(benches, import);
criterion_main!(benches);
