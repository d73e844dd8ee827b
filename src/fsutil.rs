//! Files in and out: reads that refuse what is not a regular file and stop at a size
//! limit (a FIFO would hang, `/dev/zero` would never end), and writes that never leave a
//! half-written file (a temp file in the same folder, then a rename).

use std::io::{Read, Write};
use std::path::Path;

/// Reads a regular file of at most `limit` bytes. A FIFO, device, socket or folder (also
/// behind a link) is refused before it is opened; a file that grows past the limit while
/// being read is refused too — the reported size is not trusted.
pub fn read_regular(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    read_regular_known(path, &std::fs::metadata(path)?, limit)
}

/// [`read_regular`] of a file whose metadata (`std::fs::metadata`) the caller holds.
pub fn read_regular_known(
    path: &Path,
    meta: &std::fs::Metadata,
    limit: u64,
) -> std::io::Result<Vec<u8>> {
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, device, socket or folder)",
        ));
    }
    if meta.len() > limit {
        return Err(too_large(limit));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).map_or(0, |n| n + 1));
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

fn too_large(limit: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("larger than the {} MiB limit", limit >> 20),
    )
}

/// Reads a regular UTF-8 text file of at most `limit` bytes (see [`read_regular`]).
pub fn read_text(path: &Path, limit: u64) -> std::io::Result<String> {
    String::from_utf8(read_regular(path, limit)?)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Plans, workflow files and `state.yaml` are small: 16 MiB is far beyond any real one.
pub const TEXT_LIMIT: u64 = 16 * 1024 * 1024;

/// Writes `bytes` to `path` atomically, creating the parent folder if needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut tmp = temp_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A temporary file in `dir`, to be renamed over its final name: created readable as the
/// umask allows (tempfile's own default is 0600), since plans and reports are meant for
/// change tickets and colleagues.
pub fn temp_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir)
}
