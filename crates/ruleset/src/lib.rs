//! The chronoscope ruleset language: text to a checked [`Ruleset`].
//!
//! Pipeline: [`parser::parse`] (text to [`ast::File`], syntax diagnostics)
//! then [`check::check`] (names resolved, types and shapes checked, lowered
//! to [`model::Ruleset`]). Both phases collect every diagnostic they can
//! instead of stopping at the first. No IO happens here: the caller reads the
//! file and renders the diagnostics.

#![forbid(unsafe_code)]

pub mod ast;
pub mod check;
pub mod diagnostic;
pub mod model;
pub mod parser;
pub mod span;
pub mod suggest;

pub use diagnostic::{Code, Diagnostic, Report, Severity};
pub use model::Ruleset;
pub use span::Span;

/// The result of checking one file: the ruleset when it has no errors, and
/// every diagnostic (errors and warnings) in source order.
pub struct Checked {
    pub ruleset: Option<Ruleset>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parse and check ruleset text.
pub fn check_source(source: &str) -> Checked {
    let (file, mut diagnostics) = parser::parse(source);
    let syntax_failed = diagnostics.iter().any(Diagnostic::is_error);
    let (ruleset, more) = check::check(&file, syntax_failed);
    diagnostics.extend(more);
    diagnostics.sort_by_key(|d| (d.label.span.start, d.severity));
    let ruleset = if diagnostics.iter().any(Diagnostic::is_error) { None } else { ruleset };
    Checked { ruleset, diagnostics }
}

/// Check raw bytes: refuses text that is not UTF-8 with a diagnostic that
/// points at the first bad byte.
pub fn check_bytes(bytes: &[u8]) -> (String, Checked) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), check_source(text)),
        Err(e) => {
            let at = e.valid_up_to();
            let text = String::from_utf8_lossy(bytes).into_owned();
            // Lossy decoding keeps the valid prefix byte for byte.
            let span = Span::new(at, at + 1);
            let d = Diagnostic::error(Code::NotUtf8, span, "file is not UTF-8 text")
                .label(format!("byte {at} is not valid UTF-8"))
                .help("save the ruleset as UTF-8 text; binary files cannot be rulesets");
            (text, Checked { ruleset: None, diagnostics: vec![d] })
        }
    }
}
