//! The bundled demo network (`fixtures/demo`), compiled into the binary so that olav
//! does its job on a fresh machine, from any working directory.

use crate::import::{self, opstate, ImportError, ParsedSnapshot, Snapshot, SourceFile};
use include_dir::{include_dir, Dir};

static DEMO: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/fixtures/demo");

/// Name shown as the demo snapshot's origin.
pub const LABEL: &str = "bundled demo network (fixtures/demo)";

/// The demo snapshot, read from the binary.
pub fn snapshot() -> Snapshot {
    let mut configs = Vec::new();
    collect(&DEMO, &mut configs);
    configs.sort_by(|a, b| a.path.cmp(&b.path));
    let state_file = DEMO.get_file(opstate::FILE_NAME).map(|f| SourceFile {
        path: opstate::FILE_NAME.to_owned(),
        name_hint: String::new(),
        bytes: f.contents().to_vec(),
        modified: None,
    });
    Snapshot {
        label: LABEL.to_owned(),
        configs,
        state_file,
        batfish_files: Vec::new(),
        unreadable: Vec::new(),
    }
}

fn collect(dir: &Dir<'_>, out: &mut Vec<SourceFile>) {
    for f in dir.files() {
        let path = f.path().to_string_lossy().replace('\\', "/");
        if !path.starts_with("configs/") {
            continue;
        }
        let name_hint = f
            .path()
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push(SourceFile {
            path,
            name_hint,
            bytes: f.contents().to_vec(),
            modified: None,
        });
    }
    for d in dir.dirs() {
        collect(d, out);
    }
}

/// The demo network, parsed.
pub fn parsed() -> Result<ParsedSnapshot, ImportError> {
    import::parse_snapshot(&snapshot())
}
