//! Diagnostics: every problem the parser and checker find, with stable codes.
//!
//! Message style (keep to it): lowercase, no trailing period, names in
//! backticks; the primary label says what is wrong *here*; `help` says only
//! how to fix it; "did you mean" goes in help.

use std::fmt;

use serde::Serialize;

use crate::span::{line_col, source_span, Span};
use model::span::LineIndex;

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
    ControlCharacter => "ruleset::io::control_character",
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
    PerPlayerCounter => "ruleset::check::per_player_counter",
    PerPlayerPiece => "ruleset::check::per_player_piece",
    AggregateForm => "ruleset::check::aggregate_form",
    TooManyChoices => "ruleset::check::too_many_choices",
    BadZoneOption => "ruleset::check::bad_zone_option",
    MissingTurns => "ruleset::check::missing_turns",
    TurnStructure => "ruleset::check::turn_structure",
    MissingEnd => "ruleset::check::missing_end",
    NoActions => "ruleset::check::no_actions",
    NoScore => "ruleset::check::no_score",
    Recursion => "ruleset::check::recursion",
    Unused => "ruleset::check::unused",
    RowFill => "ruleset::check::row_fill",
    HidesValue => "ruleset::check::hides_value",
    RequireAfterChance => "ruleset::check::require_after_chance",
    ExtendsUnreadable => "ruleset::extends::unreadable",
    ExtendsCycle => "ruleset::extends::cycle",
    ExtendsTwice => "ruleset::extends::twice",
    NoBase => "ruleset::extends::no_base",
    AlreadyInBase => "ruleset::extends::already_in_base",
    NothingToOverride => "ruleset::extends::nothing_to_override",
    WrongOverride => "ruleset::extends::wrong_override",
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
    /// `check --format json`. `sources` are the ruleset's files by number.
    pub fn to_json(&self, sources: &[(String, String)]) -> JsonDiagnostic {
        let indexes: Vec<LineIndex> = sources.iter().map(|(_, t)| LineIndex::new(t)).collect();
        self.to_json_indexed(sources, &indexes)
    }

    /// As `to_json`, with each source's line index made once by the caller
    /// (a file with thousands of diagnostics).
    pub fn to_json_indexed(&self, sources: &[(String, String)], indexes: &[LineIndex]) -> JsonDiagnostic {
        let at = |span: Span| {
            let (file, text) = sources.get(span.file).map_or(("", ""), |(n, t)| (n.as_str(), t.as_str()));
            let (line, column, end_line, end_column) = match indexes.get(span.file) {
                Some(ix) => {
                    let (l, c) = ix.line_col(text, span.start);
                    let (el, ec) = ix.line_col(text, span.end);
                    (l, c, el, ec)
                }
                None => {
                    let (l, c) = line_col(text, span.start);
                    let (el, ec) = line_col(text, span.end);
                    (l, c, el, ec)
                }
            };
            JsonSpan {
                file: file.to_string(),
                start: span.start,
                end: span.end,
                line,
                column,
                end_line,
                end_column,
            }
        };
        JsonDiagnostic {
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
    pub file: String,
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
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    #[serde(flatten)]
    pub span: JsonSpan,
    pub label: String,
    pub help: Option<String>,
    pub related: Vec<JsonLabel>,
}

/// A diagnostic together with its sources, ready for a miette handler.
///
/// miette shows one file per diagnostic: labels in the diagnostic's own file
/// are drawn there, and each label in another file (the base item an edition
/// overrides) becomes a related report drawn on that file.
#[derive(Debug)]
pub struct Report {
    message: String,
    code: Option<&'static str>,
    severity: miette::Severity,
    help: Option<String>,
    source: miette::NamedSource<String>,
    labels: Vec<miette::LabeledSpan>,
    related: Vec<Report>,
}

impl Report {
    /// A report for a diagnostic in a single-file ruleset.
    pub fn new(diagnostic: Diagnostic, file: &str, source: &str) -> Self {
        Report::with_sources(&diagnostic, &[(file.to_string(), source.to_string())])
    }

    /// A report for a diagnostic whose labels may lie in several files.
    pub fn with_sources(d: &Diagnostic, sources: &[(String, String)]) -> Self {
        let named = |file: usize| {
            let (name, text) = sources.get(file).cloned().unwrap_or_default();
            miette::NamedSource::new(name, text)
        };
        // A label on a line too long to draw is said in words instead.
        let where_ = |span: Span| {
            let (name, text) =
                sources.get(span.file).map(|(n, t)| (n.as_str(), t.as_str())).unwrap_or_default();
            too_long_to_draw(text, span.start).map(|(line, col)| format!("{name}:{line}:{col}"))
        };
        let home = d.label.span.file;
        let mut message = d.message.clone();
        let mut labels = Vec::new();
        match where_(d.label.span) {
            Some(at) => {
                message.push_str(&format!(" (at {at}: {}; the line is too long to show)", d.label.text))
            }
            None => labels.push(miette::LabeledSpan::new_primary_with_span(
                (!d.label.text.is_empty()).then(|| d.label.text.clone()),
                source_span(d.label.span),
            )),
        }
        let mut related = Vec::new();
        for l in &d.related {
            let far = where_(l.span);
            if l.span.file == home && far.is_none() {
                labels.push(miette::LabeledSpan::new_with_span(Some(l.text.clone()), source_span(l.span)));
            } else {
                related.push(Report {
                    message: match &far {
                        Some(at) => format!("{} (at {at})", l.text),
                        None => l.text.clone(),
                    },
                    code: None,
                    severity: miette::Severity::Advice,
                    help: None,
                    source: named(l.span.file),
                    labels: match far {
                        Some(_) => Vec::new(),
                        None => vec![miette::LabeledSpan::new_primary_with_span(None, source_span(l.span))],
                    },
                    related: Vec::new(),
                });
            }
        }
        Report {
            message,
            code: Some(d.code.as_str()),
            severity: match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            help: d.help.clone(),
            source: named(home),
            labels,
            related,
        }
    }
}

/// Lines longer than this (in bytes) are not drawn under a report: nobody
/// reads them, and miette cannot draw a label past column 65535.
pub const MAX_DRAWN_LINE: usize = 1000;

/// The line and column of `offset` when its line is longer than
/// [`MAX_DRAWN_LINE`].
fn too_long_to_draw(text: &str, offset: usize) -> Option<(usize, usize)> {
    let offset = offset.min(text.len());
    let start = text.as_bytes()[..offset].iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let end = text.as_bytes()[offset..].iter().position(|b| *b == b'\n').map_or(text.len(), |i| offset + i);
    (end - start > MAX_DRAWN_LINE).then(|| line_col(text, offset))
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code.map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(self.related.iter().map(|r| r as &dyn miette::Diagnostic)))
        }
    }
}
