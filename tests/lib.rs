//! Helpers shared by the workspace tests: locating the repository and
//! rendering diagnostics the way snapshots expect (fixed theme and width, no
//! colour, so snapshots do not depend on the terminal).

pub mod compiled;
pub mod fuzzing;
pub mod reference;
pub mod scenario;

use std::path::{Path, PathBuf};

use ruleset::{Checked, Report};

/// The repository root (the folder holding `rulesets/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ sits in the repository").to_path_buf()
}

/// Render every diagnostic of a check as plain text, 80 columns wide.
pub fn render(name: &str, source: &str, checked: &Checked) -> String {
    let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .with_links(false);
    let mut out = String::new();
    for d in &checked.diagnostics {
        let report = Report::new(d.clone(), name, source);
        handler.render_report(&mut out, &report).expect("rendering to a String cannot fail");
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("(no diagnostics)\n");
    }
    out
}

/// Render every diagnostic of a multi-file check (an edition and its bases).
pub fn render_all(checked: &Checked) -> String {
    let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .with_links(false);
    let mut out = String::new();
    for d in &checked.diagnostics {
        let report = Report::with_sources(d, &checked.sources);
        handler.render_report(&mut out, &report).expect("rendering to a String cannot fail");
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("(no diagnostics)\n");
    }
    out
}

/// A ruleset file of the repository with its first `from` (which must be
/// there) replaced by `to`, checked: a ruleset broken or changed one way.
pub fn checked_variant(path: &str, from: &str, to: &str) -> Checked {
    let text = std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(text.contains(from), "{path} has no `{from}`");
    ruleset::check_source(&text.replacen(from, to, 1))
}

/// Each diagnostic as its code and message, for exact assertions.
pub fn codes_and_messages(checked: &Checked) -> Vec<(ruleset::Code, String)> {
    checked.diagnostics.iter().map(|d| (d.code, d.message.clone())).collect()
}

/// Every `.ruleset` file under `dir`, sorted.
pub fn ruleset_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ruleset") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
