//! Two pieces of work that do not read each other's results, on the machine's two cores;
//! and what a step no longer reads, freed beside the next one.

/// Runs `a` on a thread of its own and `b` on this one, and gives both answers. A panic in
/// `a` goes on here, as if it had happened on this thread.
pub fn both<A: Send, B>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
    std::thread::scope(|s| {
        let a = s.spawn(a);
        let b = b();
        let a = a
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (a, b)
    })
}

/// Drops `x` on a thread of its own while this one goes on: what a step no longer reads
/// (a 50,000-device network's graph, the thousands of devices the checks decoded) takes
/// tens of milliseconds to free, which the next step need not wait for. The process may
/// end first; the system then frees what is left. Where no thread can be made, `x` is
/// dropped here.
pub fn drop_aside<T: Send + 'static>(x: T) {
    let _ = std::thread::Builder::new()
        .name("olav-drop".into())
        .spawn(move || drop(x));
}
