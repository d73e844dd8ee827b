//! Two pieces of work that do not read each other's results, on the machine's two cores.

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
