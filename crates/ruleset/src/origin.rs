//! Where a checked ruleset came from: the files read, what each edition
//! changed in its base, and every `source` and `provisional` note.
//!
//! The engines never need this; `show`, `diff` and `explain` do. It is kept
//! beside the model, not in it, so the model stays what the engines run.

use model::{NoteKind, Span};

/// The side structure [`crate::check_file`] returns with a ruleset.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    /// The files read: the one given, then its bases (by file number).
    pub files: Vec<String>,
    /// What each edition file changed in its base, in merge order.
    pub changes: Vec<Change>,
    /// Every `source` and `provisional` note, in file order.
    pub provenance: Vec<Provenance>,
}

impl Origin {
    /// The notes that mark a value provisional.
    pub fn provisional(&self) -> impl Iterator<Item = &Provenance> {
        self.provenance.iter().filter(|p| p.kind == NoteKind::Provisional)
    }
}

/// One change an edition made to its base, for `show` and `diff`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// What changed: `option car_stacks`, `cards research_cards "Car, Moscow"`.
    pub item: String,
    /// `added`, `overridden`, `changed` or `removed`.
    pub how: &'static str,
    pub span: Span,
}

/// A `source` or `provisional` note, with what it is on.
#[derive(Clone, Debug)]
pub struct Provenance {
    /// What the note is on, e.g. `option car_stacks` or `table chronoscope row 9`.
    pub item: String,
    pub kind: NoteKind,
    pub text: String,
    pub span: Span,
}
