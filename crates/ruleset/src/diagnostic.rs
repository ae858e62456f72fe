//! Diagnostics: every problem the parser and checker find, with stable codes.
//!
//! Message style (keep to it): lowercase, no trailing period, names in
//! backticks; the primary label says what is wrong *here*; `help` says only
//! how to fix it; "did you mean" goes in help.

use std::fmt;

use serde::Serialize;

use crate::span::{line_col, Span};

/// How bad a diagnostic is. Errors make `check` fail; warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

macro_rules! codes {
    ($( $variant:ident => $code:literal, )*) => {
        /// Every diagnostic code. The strings are stable: editors and scripts
        /// match on them, so never rename one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code { $( $variant, )* }

        impl Code {
            pub const ALL: &'static [Code] = &[$( Code::$variant, )*];

            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code, )* }
            }
        }
    };
}

codes! {
    Io => "ruleset::io::unreadable",
    NotUtf8 => "ruleset::io::not_utf8",
    TooLarge => "ruleset::io::too_large",
    Syntax => "ruleset::parse::syntax",
    TooDeep => "ruleset::parse::too_deep",
    TooComplex => "ruleset::parse::too_complex",
    BadNumber => "ruleset::parse::bad_number",
    MissingGame => "ruleset::check::missing_game",
    DuplicateGame => "ruleset::check::duplicate_game",
    BadPlayerRange => "ruleset::check::bad_player_range",
    Duplicate => "ruleset::check::duplicate_definition",
    ReservedWord => "ruleset::check::reserved_word",
    UnknownName => "ruleset::check::unknown_name",
    UnknownPlace => "ruleset::check::unknown_place",
    UnknownKind => "ruleset::check::unknown_kind",
    UnknownType => "ruleset::check::unknown_type",
    UnknownAttribute => "ruleset::check::unknown_attribute",
    UnknownTag => "ruleset::check::unknown_tag",
    UnknownZoneKind => "ruleset::check::unknown_zone_kind",
    UnknownFunction => "ruleset::check::unknown_function",
    MissingAttribute => "ruleset::check::missing_attribute",
    TypeMismatch => "ruleset::check::type_mismatch",
    OutOfRange => "ruleset::check::out_of_range",
    BadRange => "ruleset::check::bad_range",
    TotalMismatch => "ruleset::check::total_mismatch",
    TableShape => "ruleset::check::table_shape",
    TableIndex => "ruleset::check::table_index",
    SelfRoute => "ruleset::check::self_route",
    DuplicateRoute => "ruleset::check::duplicate_route",
    Unreachable => "ruleset::check::unreachable_place",
    SetupCoverage => "ruleset::check::setup_coverage",
    Arity => "ruleset::check::wrong_arity",
    NotAssignable => "ruleset::check::not_assignable",
    MeOutsideTurn => "ruleset::check::me_outside_turn",
    PerPlayerZone => "ruleset::check::per_player_zone",
    BadZoneOption => "ruleset::check::bad_zone_option",
    MissingTurns => "ruleset::check::missing_turns",
    MissingEnd => "ruleset::check::missing_end",
    NoActions => "ruleset::check::no_actions",
    NoScore => "ruleset::check::no_score",
    Recursion => "ruleset::check::recursion",
    Unused => "ruleset::check::unused",
}

/// A labelled span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Label {
    pub span: Span,
    pub text: String,
}

/// One problem found in a ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub label: Label,
    pub related: Vec<Label>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            label: Label { span, text: String::new() },
            related: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, span, message) }
    }

    pub fn label(mut self, text: impl Into<String>) -> Self {
        self.label.text = text.into();
        self
    }

    pub fn help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(text.into());
        self
    }

    pub fn maybe_help(mut self, text: Option<String>) -> Self {
        if text.is_some() {
            self.help = text;
        }
        self
    }

    pub fn related(mut self, span: Span, text: impl Into<String>) -> Self {
        self.related.push(Label { span, text: text.into() });
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// A machine-readable form with 1-based lines and columns, for
    /// `check --format json`.
    pub fn to_json(&self, file: &str, source: &str) -> JsonDiagnostic {
        let at = |span: Span| {
            let (line, column) = line_col(source, span.start);
            let (end_line, end_column) = line_col(source, span.end);
            JsonSpan { start: span.start, end: span.end, line, column, end_line, end_column }
        };
        JsonDiagnostic {
            file: file.to_string(),
            code: self.code.as_str(),
            severity: self.severity,
            message: self.message.clone(),
            span: at(self.label.span),
            label: self.label.text.clone(),
            help: self.help.clone(),
            related: self
                .related
                .iter()
                .map(|l| JsonLabel { span: at(l.span), label: l.text.clone() })
                .collect(),
        }
    }
}

#[derive(Serialize)]
pub struct JsonSpan {
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

#[derive(Serialize)]
pub struct JsonLabel {
    #[serde(flatten)]
    pub span: JsonSpan,
    pub label: String,
}

#[derive(Serialize)]
pub struct JsonDiagnostic {
    pub file: String,
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    #[serde(flatten)]
    pub span: JsonSpan,
    pub label: String,
    pub help: Option<String>,
    pub related: Vec<JsonLabel>,
}

/// A diagnostic together with its source, ready for a miette handler.
#[derive(Debug)]
pub struct Report {
    pub diagnostic: Diagnostic,
    pub source: miette::NamedSource<String>,
}

impl Report {
    pub fn new(diagnostic: Diagnostic, file: &str, source: &str) -> Self {
        Report { diagnostic, source: miette::NamedSource::new(file, source.to_string()) }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diagnostic.code.as_str()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.diagnostic.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let d = &self.diagnostic;
        let primary = miette::LabeledSpan::new_primary_with_span(
            (!d.label.text.is_empty()).then(|| d.label.text.clone()),
            d.label.span,
        );
        let related =
            d.related.iter().map(|l| miette::LabeledSpan::new_with_span(Some(l.text.clone()), l.span));
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}
