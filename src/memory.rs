//! The process's memory between the phases of its largest computations (the routing
//! build, the import): freed pages given back to the system, the resident figure logged.

/// Returns the memory freed so far to the system. mimalloc keeps freed pages for reuse;
/// between the routing build's phases that kept 100–250 MB at 50,000 devices, which the
/// next phase's larger allocations did not reuse (docs/performance.md, "Memory of the
/// routing build"). Without mimalloc as the allocator (the tests) it does nothing.
pub(crate) fn release_freed() {
    // SAFETY: mi_collect takes no pointer and may be called at any time from any thread.
    unsafe { libmimalloc_sys::mi_collect(true) };
    // SQLite allocates with the C library's malloc, which keeps what it freed.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer and may be called at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// After `phase` of `work`: returns the memory it freed ([`release_freed`]) and logs the
/// process's resident and peak memory (Linux, at debug level).
pub(crate) fn phase(work: &str, phase: &str) {
    release_freed();
    if !tracing::enabled!(tracing::Level::DEBUG) {
        return;
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |k: &str| {
        status
            .lines()
            .find(|l| l.starts_with(k))
            .map(|l| l[k.len()..].trim().to_owned())
            .unwrap_or_default()
    };
    tracing::debug!(
        "{work}: {phase}: resident {}, peak {}",
        field("VmRSS:"),
        field("VmHWM:")
    );
}
