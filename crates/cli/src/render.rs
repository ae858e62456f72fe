//! Reading ruleset files and rendering diagnostics.

use std::io::Read;
use std::path::Path;

use ruleset::{Checked, Diagnostic, Report};

/// A ruleset file read from disk (with every file it extends) and checked.
pub struct Loaded {
    pub name: String,
    pub checked: Checked,
}

/// Read and check a file and its bases. A missing or unreadable file, or
/// one too large, becomes a diagnostic like any other.
pub fn load(path: &Path) -> Loaded {
    let name = path.display().to_string();
    let checked = ruleset::check_file(&name, &mut read_file);
    Loaded { name, checked }
}

/// Read a file, refusing one larger than a ruleset may be without reading it.
pub(crate) fn read_file(path: &str) -> Result<Vec<u8>, String> {
    // Looked at before opening: opening a named pipe would wait for a
    // writer for ever, and a device reads without end (`/dev/zero`).
    let meta = std::fs::metadata(path).map_err(|e| io_reason(&e))?;
    if meta.is_dir() {
        return Err("it is a directory".into());
    }
    if !meta.is_file() {
        return Err("it is not a regular file (a device, a pipe or a socket)".into());
    }
    let file = std::fs::File::open(path).map_err(|e| io_reason(&e))?;
    let limit = ruleset::parser::MAX_FILE_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes).map_err(|e| io_reason(&e))?;
    if bytes.len() as u64 >= limit {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(limit);
        return Err(format!(
            "it is {size} bytes, more than the {} MiB a ruleset may have",
            ruleset::parser::MAX_FILE_BYTES / (1024 * 1024)
        ));
    }
    Ok(bytes)
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            if e.raw_os_error() == Some(21) {
                "it is a directory".into()
            } else {
                e.to_string()
            }
        }
    }
}

/// How many diagnostics are drawn in full; the rest are counted. Nobody
/// reads thousands of reports, and each costs a scan of its file.
pub const MAX_REPORTS: usize = 100;

/// Render diagnostics with miette's graphical handler: the first
/// `MAX_REPORTS` in full, then how many more there are.
pub fn report(sources: &[(String, String)], diagnostics: &[Diagnostic], color: bool) -> String {
    use std::io::IsTerminal;
    let theme = if color && std::io::stderr().is_terminal() {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    for d in diagnostics.iter().take(MAX_REPORTS) {
        let report = Report::with_sources(d, sources);
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", d.code.as_str(), d.message));
        }
        out.push('\n');
    }
    if diagnostics.len() > MAX_REPORTS {
        let rest = &diagnostics[MAX_REPORTS..];
        let errors = rest.iter().filter(|d| d.is_error()).count();
        out.push_str(&format!(
            "... and {} more ({errors} error{}, {} warning{}) not shown; `check --format json` lists them all\n\n",
            rest.len(),
            crate::plural(errors),
            rest.len() - errors,
            crate::plural(rest.len() - errors),
        ));
    }
    out
}
