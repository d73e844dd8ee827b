//! The `olav` binary: everything lives in the library.

fn main() -> std::process::ExitCode {
    olav::cli::main()
}
