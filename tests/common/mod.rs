//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

/// The bundled demo snapshot.
#[allow(dead_code)]
pub fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo")
}

/// Copies a folder tree (snapshot variants are made from copies of the demo).
#[allow(dead_code)]
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
