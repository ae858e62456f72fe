//! Every name a ruleset declares, with where: the outline an editor shows
//! (symbols, hover, go to definition, completion).
//!
//! Read from the merged syntax tree, so it is there even when the checker
//! finds errors, and an item an edition overrides is found where the
//! override is, with the base's declaration beside it.

use crate::ast::{self, ItemKind};
use crate::span::Span;
use model::NoteKind;

/// One declared name.
#[derive(Clone, Debug)]
pub struct Declared {
    /// The item's keyword: `option`, `zone`, `action`, ... (`place` for each
    /// place of a class, `class` for the class, `value` for an enum's).
    pub what: &'static str,
    pub name: String,
    /// The name where it is declared.
    pub name_span: Span,
    /// The whole item.
    pub item: Span,
    /// The base item an edition's override replaced.
    pub base: Option<Span>,
    /// Its `source` and `provisional` notes.
    pub notes: Vec<(NoteKind, String)>,
}

/// The declared names of a merged file, in file order.
pub fn outline(file: &ast::File) -> Vec<Declared> {
    let mut out = Vec::new();
    for item in &file.items {
        let notes: Vec<(NoteKind, String)> = item.notes.iter().map(|n| (n.kind, n.text.clone())).collect();
        let mut add = |what: &'static str, name: &crate::span::Ident| {
            out.push(Declared {
                what,
                name: name.name.clone(),
                name_span: name.span,
                item: item.span,
                base: item.base,
                notes: notes.clone(),
            });
        };
        match &item.kind {
            ItemKind::Game(g) => add("game", &g.name),
            ItemKind::Option(o) => add("option", &o.name),
            ItemKind::Place(p) => {
                add(if p.enumeration { "enum" } else { "class" }, &p.class);
                for place in &p.places {
                    add(if p.enumeration { "value" } else { "place" }, place);
                }
            }
            ItemKind::Tags(tags) => tags.iter().for_each(|t| add("tag", t)),
            ItemKind::Kind(k) => {
                add("kind", &k.name);
                for a in &k.attrs {
                    add("attribute", &a.name);
                }
            }
            ItemKind::Group(g) => add("group", &g.name),
            ItemKind::Zone(z) => add("zone", &z.name),
            ItemKind::Counter(c) => add("counter", &c.name),
            ItemKind::Piece(p) => add("piece", &p.name),
            ItemKind::Table(t) => add("table", &t.name),
            ItemKind::Let(l) => add("let", &l.name),
            ItemKind::Procedure(p) => add("procedure", &p.name),
            ItemKind::Action(a) => add("action", &a.name),
            ItemKind::Score(s) => add("score", &s.name),
            ItemKind::Extends(..)
            | ItemKind::Remove { .. }
            | ItemKind::TableCell { .. }
            | ItemKind::PlayersCase(..)
            | ItemKind::Rule(..)
            | ItemKind::Route(_)
            | ItemKind::Setup(_)
            | ItemKind::Turns(_)
            | ItemKind::AfterAction(_)
            | ItemKind::End(_)
            | ItemKind::Tiebreak(_) => {}
        }
        // A named rule is shown as its body is now (an edition's override
        // of it, say), under the name the base gave it.
        if let Some(body) = item.body() {
            let mut rules = Vec::new();
            body.rules(&mut rules);
            for (name, block) in rules {
                out.push(Declared {
                    what: "rule",
                    name: name.name.clone(),
                    name_span: name.span,
                    item: block.span,
                    base: None,
                    notes: Vec::new(),
                });
            }
        }
    }
    out
}
