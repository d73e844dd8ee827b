//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The bundled demo snapshot.
pub fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo")
}

/// Copies a folder tree (snapshot variants are made from copies of the demo).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// The olav binary run in `dir`, with no DB from the environment and Batfish pointed at
/// a port where nothing answers (the static fallback), bounded in time.
pub fn olav(dir: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("olav").expect("binary builds");
    c.env_remove("OLAV_DB")
        .env("OLAV_BATFISH_HOST", "127.0.0.1")
        .env("OLAV_BATFISH_HTTP_PORT", "9")
        .current_dir(dir)
        .timeout(Duration::from_secs(120));
    c
}
