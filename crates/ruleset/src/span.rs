//! Spans as the ruleset crate uses them: the model's byte-offset [`Span`],
//! a name with its span, and the conversion to miette's spans.
//!
//! pest positions never leave the parser module; everything after it speaks
//! in these spans so that the checker and the engine do not depend on pest.

pub use model::span::{line_col, Span};
use serde::Serialize;

/// miette's span for a span (its file is the caller's business).
pub fn source_span(span: Span) -> miette::SourceSpan {
    miette::SourceSpan::new(span.start.into(), span.len())
}

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}
