//! Names: declaring them (once, not reserved), looking up places, classes,
//! tags and attributes, and the locals in scope while lowering a body.

use super::*;

/// What a global name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Sym {
    Option(OptionId),
    Class(ClassId),
    Place(PlaceId),
    Kind(KindId),
    Group(GroupId),
    Zone(ZoneId),
    Counter(CounterId),
    Piece(PieceId),
    Table(TableId),
    Let(LetId),
    Procedure(ProcedureId),
    Action(ActionId),
    Score(usize),
}

impl Sym {
    pub(super) fn noun(self) -> &'static str {
        match self {
            Sym::Option(_) => "option",
            Sym::Class(_) => "place class",
            Sym::Place(_) => "place",
            Sym::Kind(_) => "kind",
            Sym::Group(_) => "component group",
            Sym::Zone(_) => "zone",
            Sym::Counter(_) => "counter",
            Sym::Piece(_) => "piece",
            Sym::Table(_) => "table",
            Sym::Let(_) => "let",
            Sym::Procedure(_) => "procedure",
            Sym::Action(_) => "action",
            Sym::Score(_) => "score",
        }
    }
}

/// Local names in scope while lowering one body.
#[derive(Default)]
pub(super) struct Cx {
    pub(super) scope: Vec<(String, Ty, usize)>,
    pub(super) next: usize,
    pub(super) max: usize,
    /// `me` is meaningful (actions, procedures, hooks, scores, lets).
    pub(super) me_allowed: bool,
    /// Where we are, for messages: "setup", "the end condition", ...
    pub(super) place: &'static str,
}

impl Cx {
    pub(super) fn new(me_allowed: bool, place: &'static str) -> Self {
        Cx { me_allowed, place, ..Cx::default() }
    }

    pub(super) fn bind(&mut self, name: &str, ty: Ty) -> usize {
        let slot = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        self.scope.push((name.to_string(), ty, slot));
        slot
    }

    pub(super) fn lookup(&self, name: &str) -> Option<(Ty, usize)> {
        self.scope.iter().rev().find(|(n, _, _)| n == name).map(|(_, t, s)| (t.clone(), *s))
    }

    pub(super) fn mark(&self) -> usize {
        self.scope.len()
    }

    /// Leave a block: its names go out of scope (slots are not reused, so a
    /// body's slot count is simply the number of names it ever binds).
    pub(super) fn reset(&mut self, mark: usize) {
        self.scope.truncate(mark);
    }
}

impl<'f> Checker<'f> {
    /// Register a global name; a second definition is an error that points
    /// at the first.
    pub(super) fn declare(&mut self, name: &Ident, sym: Sym) -> bool {
        if !self.not_reserved(name) {
            return false;
        }
        if BUILTIN_NAMES.contains(&name.name.as_str()) {
            self.error(
                Diagnostic::error(Code::Duplicate, name.span, format!("`{}` is a built-in name", name.name))
                    .label("cannot be redefined")
                    .help("choose another name"),
            );
            return false;
        }
        if let Some((prev, prev_span)) = self.symbols.get(&name.name) {
            let prev_noun = prev.noun();
            let prev_span = *prev_span;
            self.error(
                Diagnostic::error(Code::Duplicate, name.span, format!("`{}` is defined twice", name.name))
                    .label(format!("second definition, as a {}", sym.noun()))
                    .related(prev_span, format!("first defined here, as a {prev_noun}"))
                    .help("rename one of them, or delete the copy"),
            );
            return false;
        }
        self.symbols.insert(name.name.clone(), (sym, name.span));
        true
    }

    /// Refuse a reserved word as a name, with a suggestion.
    pub(super) fn not_reserved(&mut self, name: &Ident) -> bool {
        if crate::parser::keywords::reserved_words().any(|w| w == name.name) {
            self.error(
                Diagnostic::error(
                    Code::ReservedWord,
                    name.span,
                    format!("`{}` is a reserved word", name.name),
                )
                .label("cannot be a name")
                .help(format!("choose another name, such as `{}s` or `my_{}`", name.name, name.name)),
            );
            return false;
        }
        true
    }

    /// Bind a local name, refusing reserved words.
    pub(super) fn bind(&mut self, cx: &mut Cx, name: &Ident, ty: Ty) -> usize {
        self.not_reserved(name);
        cx.bind(&name.name, ty)
    }

    pub(super) fn note_provenance(&mut self, item: String, notes: &[ast::Note]) {
        for n in notes {
            self.provenance.push(Provenance {
                item: item.clone(),
                kind: n.kind,
                text: n.text.clone(),
                span: n.span,
            });
        }
    }

    pub(super) fn lookup_place(&mut self, name: &Ident) -> Option<PlaceId> {
        match self.symbols.get(&name.name) {
            Some((Sym::Place(id), _)) => Some(*id),
            Some((other, _)) => {
                let noun = other.noun();
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        name.span,
                        format!("`{}` is a {noun}, not a place", name.name),
                    )
                    .label("expected a place")
                    .maybe_help(help_for(&name.name, self.places.iter().map(|p| p.name.as_str()))),
                );
                None
            }
            None => {
                if !self.quiet {
                    let help = help_for(&name.name, self.places.iter().map(|p| p.name.as_str()));
                    self.error(
                        Diagnostic::error(
                            Code::UnknownPlace,
                            name.span,
                            format!("unknown place `{}`", name.name),
                        )
                        .label("no place has this name")
                        .help(help.unwrap_or_else(|| "declare it with `place CLASS NAME`".into())),
                    );
                }
                None
            }
        }
    }

    pub(super) fn lookup_class(&mut self, name: &Ident) -> Option<ClassId> {
        match self.symbols.get(&name.name) {
            Some((Sym::Class(c), _)) => {
                let c = *c;
                self.used.insert(Sym::Class(c));
                Some(c)
            }
            _ => {
                let help = help_for(&name.name, self.classes.iter().map(|c| c.name.as_str()));
                self.error(
                    Diagnostic::error(
                        Code::UnknownName,
                        name.span,
                        format!("unknown place class `{}`", name.name),
                    )
                    .label("not a class of places")
                    .help(
                        help.unwrap_or_else(|| "place classes are declared by `place CLASS A, B, C`".into()),
                    ),
                );
                None
            }
        }
    }

    pub(super) fn attr_id(&mut self, name: &str) -> AttrId {
        match self.attr_names.iter().position(|n| n == name) {
            Some(id) => AttrId::new(id),
            None => {
                self.attr_names.push(name.to_string());
                AttrId::new(self.attr_names.len() - 1)
            }
        }
    }

    pub(super) fn tag(&mut self, name: &str) -> TagId {
        if let Some(id) = self.tag_ids.get(name) {
            return *id;
        }
        let id = TagId::new(self.tags.len());
        self.tags.push(name.to_string());
        self.tag_ids.insert(name.to_string(), id);
        id
    }

    /// A tag written on a component: new tags are welcome unless the
    /// ruleset lists its tags with `tag`, when a tag outside the list is a
    /// typo.
    pub(super) fn component_tag(&mut self, name: &str, span: Span) -> Option<TagId> {
        if self.declared_tags && !self.tag_ids.contains_key(name) {
            let help = help_for(name, self.tags.iter().map(String::as_str));
            self.error(
                Diagnostic::error(
                    Code::UnknownTag,
                    span,
                    format!("tag `{name}` is not in the ruleset's `tag` list"),
                )
                .label("not a declared tag")
                .help(help.unwrap_or_else(|| format!("add it: `tag {name}`"))),
            );
            return None;
        }
        Some(self.tag(name))
    }

    pub(super) fn first_place_name(&self, class: ClassId) -> String {
        self.classes[class].places.first().map_or("place".into(), |p| self.places[*p].name.clone())
    }
}
