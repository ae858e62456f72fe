//! Reading ruleset files and rendering diagnostics.

use std::io::Read;
use std::path::Path;

use ruleset::{check_bytes, Checked, Code, Diagnostic, Report, Span};

/// A ruleset file read from disk and checked.
pub struct Loaded {
    pub name: String,
    pub source: String,
    pub checked: Checked,
}

/// Read and check a file. A missing or unreadable file, or one too large,
/// becomes a diagnostic like any other.
pub fn load(path: &Path) -> Loaded {
    let name = path.display().to_string();
    let unreadable = |message: String| Loaded {
        name: name.clone(),
        source: String::new(),
        checked: Checked {
            ruleset: None,
            diagnostics: vec![Diagnostic::error(Code::Io, Span::new(0, 0), message)
                .label("cannot read")
                .help("check the path and the file's permissions")],
        },
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return unreadable(format!("cannot open `{name}`: {}", io_reason(&e))),
    };
    // Read at most one byte past the limit, so a huge file costs nothing.
    let limit = ruleset::parser::MAX_FILE_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    if let Err(e) = file.take(limit).read_to_end(&mut bytes) {
        return unreadable(format!("cannot read `{name}`: {}", io_reason(&e)));
    }
    if bytes.len() as u64 >= limit {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(limit);
        let d = Diagnostic::error(
            Code::TooLarge,
            Span::new(0, 0),
            format!(
                "file is {size} bytes, more than the {} MiB a ruleset may have",
                ruleset::parser::MAX_FILE_BYTES / (1024 * 1024)
            ),
        )
        .label("file starts here")
        .help("split the game into a base ruleset and smaller files that extend it");
        return Loaded {
            name,
            source: String::new(),
            checked: Checked { ruleset: None, diagnostics: vec![d] },
        };
    }
    let (source, checked) = check_bytes(&bytes);
    Loaded { name, source, checked }
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

/// Render diagnostics with miette's graphical handler.
pub fn report(name: &str, source: &str, diagnostics: &[Diagnostic], color: bool) -> String {
    use std::io::IsTerminal;
    let theme = if color && std::io::stderr().is_terminal() {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    for d in diagnostics {
        let report = Report::new(d.clone(), name, source);
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", d.code.as_str(), d.message));
        }
        out.push('\n');
    }
    out
}
