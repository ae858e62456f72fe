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
    /// The first statement so far that draws by chance or from a hidden
    /// zone, or shuffles: a `require` after it would make legality depend
    /// on what it turns up.
    pub(super) chance: Option<Span>,
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
            self.error(errors::builtin_name(name));
            return false;
        }
        if let Some((prev, prev_span)) = self.symbols.get(&name.name) {
            let prev_noun = prev.noun();
            let prev_span = *prev_span;
            self.error(errors::defined_twice(name, sym.noun(), prev_span, prev_noun));
            return false;
        }
        self.symbols.insert(name.name.clone(), (sym, name.span));
        true
    }

    /// Refuse a reserved word as a name, with a suggestion.
    pub(super) fn not_reserved(&mut self, name: &Ident) -> bool {
        if crate::parser::keywords::reserved_words().any(|w| w == name.name) {
            self.error(errors::reserved_word(name));
            return false;
        }
        true
    }

    /// Bind a local name, refusing reserved words.
    pub(super) fn bind(&mut self, cx: &mut Cx, name: &Ident, ty: Ty) -> usize {
        self.not_reserved(name);
        if let Some((Sym::Place(p), declared)) = self.symbols.get(&name.name).copied() {
            let class = self.classes[self.places[p].class].name.clone();
            self.error(errors::hides_value(name, &class, declared));
        }
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

    /// A place on the board (a route's end, a piece's start): not a value
    /// of an enumeration.
    pub(super) fn lookup_board_place(&mut self, name: &Ident) -> Option<PlaceId> {
        let id = self.lookup_place(name)?;
        let class = &self.classes[self.places[id].class];
        if class.enumeration {
            let class = class.name.clone();
            self.error(errors::enum_value_not_a_place(name, &class));
            return None;
        }
        Some(id)
    }

    pub(super) fn lookup_place(&mut self, name: &Ident) -> Option<PlaceId> {
        match self.symbols.get(&name.name) {
            Some((Sym::Place(id), _)) => Some(*id),
            Some((other, _)) => {
                let noun = other.noun();
                self.error(errors::not_a_place(
                    name,
                    noun,
                    help_for(&name.name, self.places.iter().map(|p| p.name.as_str())),
                ));
                None
            }
            None => {
                if !self.quiet {
                    let help = help_for(&name.name, self.places.iter().map(|p| p.name.as_str()));
                    self.error(errors::unknown_place(name, help));
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
                self.error(errors::unknown_place_class(name, help));
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
            self.undeclared_tags.insert(name.to_string());
            let help = help_for(name, self.tags.iter().map(String::as_str));
            self.error(errors::undeclared_tag(name, span, help));
            return None;
        }
        Some(self.tag(name))
    }

    pub(super) fn first_place_name(&self, class: ClassId) -> String {
        self.classes[class].places.first().map_or("place".into(), |p| self.places[*p].name.clone())
    }
}
