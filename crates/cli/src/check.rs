//! `chronoscope check`: report every problem of each file at once.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::{plural, render, Format};

pub fn run(files: &[PathBuf], format: Format) -> ExitCode {
    let mut failed = false;
    let mut json = Vec::new();
    for path in files {
        let loaded = render::load(path);
        failed |= loaded.checked.has_errors();
        match format {
            Format::Human => {
                let report = render::report(&loaded.checked.sources, &loaded.checked.diagnostics, true);
                err!("{report}");
                let errors = loaded.checked.diagnostics.iter().filter(|d| d.is_error()).count();
                let warnings = loaded.checked.diagnostics.len() - errors;
                if errors == 0 {
                    let w = if warnings > 0 {
                        format!(" ({warnings} warning{})", plural(warnings))
                    } else {
                        String::new()
                    };
                    errln!("{}: ok{w}", loaded.name);
                } else {
                    errln!(
                        "{}: {errors} error{}, {warnings} warning{}",
                        loaded.name,
                        plural(errors),
                        plural(warnings)
                    );
                }
            }
            Format::Json => json.push({
                let indexes: Vec<model::span::LineIndex> =
                    loaded.checked.sources.iter().map(|(_, t)| model::span::LineIndex::new(t)).collect();
                serde_json::json!({
                "file": loaded.name,
                "ok": !loaded.checked.has_errors(),
                "diagnostics": loaded.checked.diagnostics.iter()
                    .map(|d| d.to_json_indexed(&loaded.checked.sources, &indexes)).collect::<Vec<_>>(),
                })
            }),
        }
    }
    if format == Format::Json {
        let out = serde_json::json!({ "files": json });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
