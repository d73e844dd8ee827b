//! The `olav` binary: everything lives in the library.

/// mimalloc: a request decodes and drops millions of small strings and rows; glibc's
/// allocator kept that memory from one step to the next and spent a fifth of the time
/// in malloc and free (docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // Rust ignores SIGPIPE, so a closed pipe (`olav runs list | head -1`) would make
    // every print fail; the default action ends the process quietly instead.
    #[cfg(unix)]
    // SAFETY: called first thing, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // No transparent huge pages: mimalloc asks for them, and on a host whose memory is
    // fragmented each fault of a fresh 2 MiB page can stall for compaction — a
    // 50,000-device request took 3.0–8.2 s instead of 2.3–2.8 s (docs/performance.md).
    #[cfg(target_os = "linux")]
    // SAFETY: a plain prctl on this process; failure only leaves the default.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    olav::cli::main()
}
