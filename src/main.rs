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
    olav::cli::main()
}
