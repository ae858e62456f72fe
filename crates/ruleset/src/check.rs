//! Syntax tree to checked [`Ruleset`]: resolve names, check types, shapes,
//! totals, reachability and coverage, and lower to the model.
//!
//! The checker never stops at the first problem: every check runs on what
//! could be resolved, with `Ty::Unknown` standing in for whatever could not,
//! so one mistake produces one diagnostic rather than a cascade.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::ast::{self, ItemKind, TypeKind, ValueKind};
use crate::diagnostic::{Code, Diagnostic};
use crate::origin::Provenance;
use crate::span::{Ident, Span};
use crate::suggest::help_for;
use model::*;

/// Check a parsed file. `syntax_failed` says that some items could not be
/// parsed: names may then be defined in the broken part, so unknown-name
/// errors and unused warnings are held back.
pub fn check(file: &ast::File, syntax_failed: bool) -> (Option<Ruleset>, Vec<Provenance>, Vec<Diagnostic>) {
    let mut c = Checker::new(syntax_failed);
    let ruleset = c.run(file);
    let provenance = std::mem::take(&mut c.provenance);
    let mut diags = c.diags;
    if syntax_failed {
        // Names may be defined in the part that did not parse: anything that
        // depends on finding a name would be noise.
        diags.retain(|d| !CASCADES_FROM_SYNTAX.contains(&d.code));
    }
    if diags.iter().any(Diagnostic::is_error) {
        // Something unused is most often the other half of an error.
        diags.retain(|d| d.code != Code::Unused);
    }
    (ruleset, provenance, diags)
}

const CASCADES_FROM_SYNTAX: &[Code] = &[
    Code::UnknownName,
    Code::UnknownPlace,
    Code::UnknownKind,
    Code::UnknownType,
    Code::UnknownAttribute,
    Code::UnknownTag,
    Code::UnknownFunction,
    Code::MissingAttribute,
    Code::MissingGame,
    Code::MissingTurns,
    Code::MissingEnd,
    Code::NoActions,
    Code::NoScore,
    Code::Unreachable,
    Code::TotalMismatch,
    Code::Unused,
];

/// What a global name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Sym {
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
    fn noun(self) -> &'static str {
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

/// The checker's view of a type: the model's types plus the partial forms an
/// expression passes through (`bag` before `[s]`, a table before its keys).
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Int,
    Bool,
    Text,
    Tag,
    Tags,
    Player,
    Place(Option<ClassId>),
    Card,
    Zone,
    Map(ClassId, Box<Ty>),
    NoneLit,
    Unknown,
    Domain(Box<Ty>),
    ZoneFamily(ClassId),
    CounterFamily(ClassId, Box<Ty>),
    Table(TableId, usize),
}

#[derive(Clone, Debug)]
enum LetState {
    Pending,
    InProgress,
    Done(Ty),
}

/// Local names in scope while lowering one body.
#[derive(Default)]
struct Cx {
    scope: Vec<(String, Ty, usize)>,
    next: usize,
    max: usize,
    /// `me` is meaningful (actions, procedures, hooks, scores, lets).
    me_allowed: bool,
    /// Where we are, for messages: "setup", "the end condition", ...
    place: &'static str,
}

impl Cx {
    fn new(me_allowed: bool, place: &'static str) -> Self {
        Cx { me_allowed, place, ..Cx::default() }
    }

    fn bind(&mut self, name: &str, ty: Ty) -> usize {
        let slot = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        self.scope.push((name.to_string(), ty, slot));
        slot
    }

    fn lookup(&self, name: &str) -> Option<(Ty, usize)> {
        self.scope.iter().rev().find(|(n, _, _)| n == name).map(|(_, t, s)| (t.clone(), *s))
    }

    fn mark(&self) -> usize {
        self.scope.len()
    }

    /// Leave a block: its names go out of scope (slots are not reused, so a
    /// body's slot count is simply the number of names it ever binds).
    fn reset(&mut self, mark: usize) {
        self.scope.truncate(mark);
    }
}

struct Checker<'f> {
    diags: Vec<Diagnostic>,
    quiet: bool,
    symbols: HashMap<String, (Sym, Span)>,
    used: HashSet<Sym>,
    game: Option<(model::Game, Span)>,
    options: Vec<OptionDef>,
    classes: Vec<PlaceClass>,
    class_spans: Vec<Span>,
    places: Vec<Place>,
    routes: Vec<Route>,
    /// A route named a place that does not exist: reachability would only
    /// repeat that error.
    broken_route: bool,
    tags: Vec<String>,
    tag_ids: HashMap<String, TagId>,
    /// The ruleset lists its tags with `tag`: components may use only those.
    declared_tags: bool,
    attr_names: Vec<String>,
    kinds: Vec<Kind>,
    groups: Vec<Group>,
    components: Vec<Component>,
    zones: Vec<Zone>,
    counters: Vec<Counter>,
    pieces: Vec<Piece>,
    tables: Vec<Table>,
    lets: Vec<Option<Let>>,
    let_decls: Vec<&'f ast::LetDecl>,
    let_state: Vec<LetState>,
    let_param_tys: Vec<Vec<Ty>>,
    procedures: Vec<Option<Procedure>>,
    procedure_param_tys: Vec<Vec<Ty>>,
    procedure_calls: Vec<Vec<(ProcedureId, Span)>>,
    current_procedure: Option<ProcedureId>,
    actions: Vec<Action>,
    scores: Vec<Score>,
    provenance: Vec<Provenance>,
}

const BUILTIN_NAMES: &[&str] = &["me", "players", "player_count"];

const FUNCTIONS: &[&str] = &["min", "max", "abs", "distance", "count", "sum", "any", "all", "first"];
const MAX_PLAYERS: i64 = 16;
const MAX_TABLE_CELLS: i64 = 100_000;

impl<'f> Checker<'f> {
    fn new(quiet: bool) -> Self {
        Checker {
            diags: Vec::new(),
            quiet,
            symbols: HashMap::new(),
            used: HashSet::new(),
            game: None,
            options: Vec::new(),
            classes: Vec::new(),
            class_spans: Vec::new(),
            places: Vec::new(),
            routes: Vec::new(),
            broken_route: false,
            tags: Vec::new(),
            tag_ids: HashMap::new(),
            declared_tags: false,
            attr_names: Vec::new(),
            kinds: Vec::new(),
            groups: Vec::new(),
            components: Vec::new(),
            zones: Vec::new(),
            counters: Vec::new(),
            pieces: Vec::new(),
            tables: Vec::new(),
            lets: Vec::new(),
            let_decls: Vec::new(),
            let_state: Vec::new(),
            let_param_tys: Vec::new(),
            procedures: Vec::new(),
            procedure_param_tys: Vec::new(),
            procedure_calls: Vec::new(),
            current_procedure: None,
            actions: Vec::new(),
            scores: Vec::new(),
            provenance: Vec::new(),
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    // ------------------------------------------------------------ declare

    /// Register a global name; a second definition is an error that points
    /// at the first.
    fn declare(&mut self, name: &Ident, sym: Sym) -> bool {
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
    fn not_reserved(&mut self, name: &Ident) -> bool {
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
    fn bind(&mut self, cx: &mut Cx, name: &Ident, ty: Ty) -> usize {
        self.not_reserved(name);
        cx.bind(&name.name, ty)
    }

    fn note_provenance(&mut self, item: String, notes: &[ast::Note]) {
        for n in notes {
            self.provenance.push(Provenance {
                item: item.clone(),
                kind: n.kind,
                text: n.text.clone(),
                span: n.span,
            });
        }
    }

    fn run(&mut self, file: &'f ast::File) -> Option<Ruleset> {
        use ItemKind as K;
        let mut setup_items = Vec::new();
        let mut turns_items = Vec::new();
        let mut end_items = Vec::new();
        let mut tiebreak_items = Vec::new();
        let mut hook_items = Vec::new();

        // Pass 1: game, options and places first, since everything refers
        // to them; then every other name.
        for item in &file.items {
            match &item.kind {
                K::Game(g) => self.game_item(g, item),
                K::Tags(names) => {
                    self.declared_tags = true;
                    for n in names {
                        self.tag(&n.name);
                    }
                }
                K::Option(o) => self.option_item(o, item),
                K::Place(p) => self.place_item(p, item),
                _ => {}
            }
        }
        let mut kind_items = Vec::new();
        let mut group_items = Vec::new();
        let mut zone_items = Vec::new();
        let mut counter_items = Vec::new();
        let mut piece_items = Vec::new();
        let mut table_items = Vec::new();
        let mut procedure_items = Vec::new();
        let mut action_items = Vec::new();
        let mut score_items = Vec::new();
        let mut route_items = Vec::new();
        for item in &file.items {
            match &item.kind {
                // Consumed by the merge of an edition with its base.
                K::Extends(..) | K::Remove { .. } | K::TableCell { .. } => {}
                K::Game(_) | K::Option(_) | K::Place(_) | K::Tags(_) => {}
                K::Route(r) => route_items.push((r, item)),
                K::Kind(k) => {
                    let id = KindId::new(self.kinds.len());
                    if self.declare(&k.name, Sym::Kind(id)) {
                        self.kinds.push(Kind {
                            name: k.name.name.clone(),
                            slots: Vec::new(),
                            back: Vec::new(),
                            span: k.name.span,
                        });
                        kind_items.push((k, item, id));
                    }
                }
                K::Group(g) => group_items.push((g, item)),
                K::Zone(z) => {
                    let id = ZoneId::new(self.zones.len());
                    if self.declare(&z.name, Sym::Zone(id)) {
                        self.zones.push(Zone {
                            name: z.name.name.clone(),
                            kind: ZoneKind::Pile,
                            index: None,
                            per_player: z.per_player.is_some(),
                            visibility: Visibility::All,
                            slots: Vec::new(),
                            overflow: None,
                            span: z.name.span,
                        });
                        zone_items.push((z, item, id));
                    }
                }
                K::Counter(cd) => {
                    let id = CounterId::new(self.counters.len());
                    if self.declare(&cd.name, Sym::Counter(id)) {
                        self.counters.push(Counter {
                            name: cd.name.name.clone(),
                            index: None,
                            per_player: cd.per_player,
                            ty: Type::Int { lo: None, hi: None },
                            init: Expr { kind: ExprKind::Int(0), span: cd.init.span },
                            span: cd.name.span,
                        });
                        counter_items.push((cd, item, id));
                    }
                }
                K::Piece(p) => {
                    let id = PieceId::new(self.pieces.len());
                    if self.declare(&p.name, Sym::Piece(id)) {
                        self.pieces.push(Piece {
                            name: p.name.name.clone(),
                            per_player: p.per_player,
                            start: PlaceId::new(0),
                            span: p.name.span,
                        });
                        piece_items.push((p, item, id));
                    }
                }
                K::Table(t) => {
                    let id = TableId::new(self.tables.len());
                    if self.declare(&t.name, Sym::Table(id)) {
                        self.tables.push(Table {
                            name: t.name.name.clone(),
                            dims: Vec::new(),
                            values: Vec::new(),
                            span: t.name.span,
                        });
                        table_items.push((t, item, id));
                    }
                }
                K::Let(l) => {
                    let id = LetId::new(self.lets.len());
                    if self.declare(&l.name, Sym::Let(id)) {
                        self.lets.push(None);
                        self.let_decls.push(l);
                        self.let_state.push(LetState::Pending);
                        self.let_param_tys.push(Vec::new());
                        self.note_provenance(format!("let {}", l.name.name), &item.notes);
                    }
                }
                K::Procedure(p) => {
                    let id = ProcedureId::new(self.procedures.len());
                    if self.declare(&p.name, Sym::Procedure(id)) {
                        self.procedures.push(None);
                        self.procedure_param_tys.push(Vec::new());
                        self.procedure_calls.push(Vec::new());
                        procedure_items.push((p, item, id));
                    }
                }
                K::Action(a) => {
                    let id = ActionId::new(self.actions.len());
                    if self.declare(&a.name, Sym::Action(id)) {
                        self.actions.push(Action {
                            name: a.name.name.clone(),
                            params: Vec::new(),
                            body: Body::default(),
                            span: a.name.span,
                        });
                        action_items.push((a, item, id));
                    }
                }
                K::Score(s) => {
                    let id = score_items.len();
                    if self.declare(&s.name, Sym::Score(id)) {
                        score_items.push((s, item));
                    }
                }
                K::Setup(b) => setup_items.push((b, item)),
                K::Turns(t) => turns_items.push((t, item)),
                K::End(e) => end_items.push((e, item)),
                K::Tiebreak(keys) => tiebreak_items.push((keys, item)),
                K::AfterAction(b) => hook_items.push((b, item)),
            }
        }

        // Pass 2: static data.
        for (r, item) in route_items {
            self.route_item(r, item);
        }
        for (k, item, id) in kind_items {
            self.kind_item(k, item, id);
        }
        for (g, item) in group_items {
            self.group_item(g, item);
        }
        for (z, item, id) in &zone_items {
            self.zone_item(z, item, *id);
        }
        for (p, item, id) in piece_items {
            self.piece_item(p, item, id);
        }
        for (t, item, id) in table_items {
            self.table_item(t, item, id);
        }
        // Signatures before bodies, so that any body may call any let,
        // procedure or action regardless of order in the file.
        for id in 0..self.let_decls.len() {
            let decl = self.let_decls[id];
            let params = decl.params.as_deref().unwrap_or(&[]);
            let tys = params.iter().map(|p| self.param_ty(p)).collect();
            self.let_param_tys[id] = tys;
        }
        for (p, _, id) in &procedure_items {
            let tys = p.params.iter().map(|p| self.param_ty(p)).collect();
            self.procedure_param_tys[id.index()] = tys;
        }
        for (cd, item, id) in counter_items {
            self.counter_item(cd, item, id);
        }

        // Pass 3: bodies.
        for id in LetId::all(self.let_decls.len()) {
            self.let_type(id);
        }
        for (p, item, id) in procedure_items {
            self.procedure_item(p, item, id);
        }
        let setup = self.single(&setup_items, "setup", |c, (b, item)| {
            c.note_provenance("setup".into(), &item.notes);
            let mut cx = Cx::new(false, "setup");
            let stmts = c.block(b, &mut cx);
            Body { stmts, locals: cx.max }
        });
        for (a, item, id) in action_items {
            self.action_item(a, item, id);
        }
        let after_action = self.single(&hook_items, "after action", |c, (b, _)| {
            let mut cx = Cx::new(true, "after action");
            let stmts = c.block(b, &mut cx);
            Body { stmts, locals: cx.max }
        });
        let turns = self.single(&turns_items, "turns", |c, (t, _)| c.turns_item(t));
        let end = self.single(&end_items, "end", |c, (e, _)| {
            let mut cx = Cx::new(false, "the end condition");
            let (x, ty) = c.value(e, &mut cx);
            c.expect(&ty, &Ty::Bool, e.span, "the end condition");
            x
        });
        for (s, item) in score_items {
            self.score_item(s, item);
        }
        let tiebreaks = self.single(&tiebreak_items, "tiebreak", |c, (keys, item)| {
            c.note_provenance("tiebreak".into(), &item.notes);
            keys.iter()
                .map(|k| {
                    let mut cx = Cx::new(true, "a tiebreak");
                    let (by, ty) = c.value(&k.by, &mut cx);
                    c.expect(&ty, &Ty::Int, k.by.span, "a tiebreak");
                    TiebreakKey { lowest: k.lowest, by, locals: cx.max }
                })
                .collect()
        });

        // Pass 4: whole-ruleset checks.
        let distances = self.reachability();
        self.procedure_recursion();
        self.required_items(file, turns.is_some(), end.is_some());
        if !self.quiet {
            self.unused();
        }

        if self.diags.iter().any(Diagnostic::is_error) {
            return None;
        }
        let (game, _) = self.game.take()?;
        Some(Ruleset {
            game,
            options: std::mem::take(&mut self.options),
            classes: std::mem::take(&mut self.classes),
            places: std::mem::take(&mut self.places),
            routes: std::mem::take(&mut self.routes),
            distances,
            tags: std::mem::take(&mut self.tags),
            attr_names: std::mem::take(&mut self.attr_names),
            kinds: std::mem::take(&mut self.kinds),
            groups: std::mem::take(&mut self.groups),
            components: std::mem::take(&mut self.components),
            zones: std::mem::take(&mut self.zones),
            counters: std::mem::take(&mut self.counters),
            pieces: std::mem::take(&mut self.pieces),
            tables: std::mem::take(&mut self.tables),
            lets: std::mem::take(&mut self.lets).into_iter().flatten().collect(),
            procedures: std::mem::take(&mut self.procedures).into_iter().flatten().collect(),
            setup: setup.unwrap_or_default(),
            turns: turns?,
            actions: std::mem::take(&mut self.actions),
            after_action: after_action.unwrap_or_default(),
            end: end?,
            scores: std::mem::take(&mut self.scores),
            tiebreaks: tiebreaks.unwrap_or_default(),
        })
    }

    /// Items that may appear once: lower the first, flag the others.
    fn single<T, R>(
        &mut self,
        items: &[(T, &ast::Item)],
        what: &str,
        mut lower: impl FnMut(&mut Self, (&T, &ast::Item)) -> R,
    ) -> Option<R> {
        let (first, rest) = items.split_first()?;
        for (_, item) in rest {
            self.error(
                Diagnostic::error(Code::Duplicate, head_span(item), format!("a ruleset has one `{what}`"))
                    .label("second one")
                    .related(head_span(first.1), "first one")
                    .help("merge the two into one"),
            );
        }
        Some(lower(self, (&first.0, first.1)))
    }

    // ------------------------------------------------------------- items

    fn game_item(&mut self, g: &ast::Game, item: &ast::Item) {
        if let Some((_, prev)) = &self.game {
            let prev = *prev;
            self.error(
                Diagnostic::error(Code::DuplicateGame, g.name.span, "a ruleset describes one game")
                    .label("second `game`")
                    .related(prev, "first `game`")
                    .help("put each game in its own file"),
            );
            return;
        }
        let (min, max) = match g.players {
            Some((r, span)) => {
                let hi = r.hi.unwrap_or(r.lo);
                if r.lo < 1 || hi < r.lo || hi > MAX_PLAYERS {
                    self.error(
                        Diagnostic::error(
                            Code::BadPlayerRange,
                            span,
                            "player counts must be a range within 1..16",
                        )
                        .label("not a valid range of player counts")
                        .help("write the supported counts as `players 2..4`"),
                    );
                    (1, 1)
                } else {
                    (r.lo as u32, hi as u32)
                }
            }
            None => {
                self.error(
                    Diagnostic::error(
                        Code::BadPlayerRange,
                        g.name.span,
                        "the game does not say how many play",
                    )
                    .label("no `players` line")
                    .help("add `players 2..4` inside the braces"),
                );
                (1, 1)
            }
        };
        self.note_provenance(format!("game {}", g.name.name), &item.notes);
        self.game = Some((
            model::Game {
                name: g.name.name.clone(),
                title: g.title.clone().unwrap_or_else(|| g.name.name.clone()),
                min_players: min,
                max_players: max,
            },
            g.name.span,
        ));
    }

    fn player_counts(&self) -> Option<(u32, u32)> {
        self.game.as_ref().map(|(g, _)| (g.min_players, g.max_players))
    }

    fn option_item(&mut self, o: &ast::OptionDecl, item: &ast::Item) {
        let id = OptionId::new(self.options.len());
        if !self.declare(&o.name, Sym::Option(id)) {
            return;
        }
        let value = match &o.value.kind {
            ValueKind::Int(n) => Value::Int(*n),
            ValueKind::Bool(b) => Value::Bool(*b),
            ValueKind::Text(t) => Value::Text(t.clone()),
            _ => {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        o.value.span,
                        "an option is a number, yes/no or a text",
                    )
                    .label("not a number, yes/no or text")
                    .help("write a value such as `2`, `yes` or `\"first\"`"),
                );
                Value::Int(0)
            }
        };
        self.note_provenance(format!("option {}", o.name.name), &item.notes);
        self.options.push(OptionDef { name: o.name.name.clone(), value, span: o.name.span });
    }

    fn place_item(&mut self, p: &ast::PlaceDecl, item: &ast::Item) {
        let class = match self.symbols.get(&p.class.name) {
            Some((Sym::Class(id), _)) => *id,
            _ => {
                let id = ClassId::new(self.classes.len());
                if !self.declare(&p.class, Sym::Class(id)) {
                    return;
                }
                self.classes.push(PlaceClass { name: p.class.name.clone(), places: Vec::new() });
                self.class_spans.push(p.class.span);
                id
            }
        };
        for place in &p.places {
            let id = PlaceId::new(self.places.len());
            if self.declare(place, Sym::Place(id)) {
                self.places.push(Place { name: place.name.clone(), class, span: place.span });
                self.classes[class].places.push(id);
            }
        }
        self.note_provenance(format!("place {}", p.class.name), &item.notes);
    }

    fn lookup_place(&mut self, name: &Ident) -> Option<PlaceId> {
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

    fn route_item(&mut self, edges: &[ast::RouteEdge], item: &ast::Item) {
        for e in edges {
            let a = self.lookup_place(&e.a);
            let b = self.lookup_place(&e.b);
            let steps = match e.steps {
                Some((n, span)) if n < 1 => {
                    self.error(
                        Diagnostic::error(Code::OutOfRange, span, "a route is at least 1 step long")
                            .label("must be 1 or more")
                            .help("leave the number out for a 1-step route"),
                    );
                    1
                }
                Some((n, _)) => n as u32,
                None => 1,
            };
            let (Some(a), Some(b)) = (a, b) else {
                self.broken_route = true;
                continue;
            };
            if a == b {
                self.error(
                    Diagnostic::error(
                        Code::SelfRoute,
                        e.span,
                        format!("route from `{}` to itself", e.a.name),
                    )
                    .label("both ends are the same place")
                    .help("a route joins two different places"),
                );
                continue;
            }
            if let Some(prev) = self.routes.iter().find(|r| (r.a, r.b) == (a, b) || (r.a, r.b) == (b, a)) {
                let prev = prev.span;
                self.error(
                    Diagnostic::error(
                        Code::DuplicateRoute,
                        e.span,
                        format!("route `{} - {}` is listed twice", e.a.name, e.b.name),
                    )
                    .label("second listing")
                    .related(prev, "first listing")
                    .help("delete one; routes go both ways"),
                );
                continue;
            }
            self.routes.push(Route { a, b, steps, span: e.span });
        }
        self.note_provenance("route".into(), &item.notes);
    }

    fn attr_id(&mut self, name: &str) -> AttrId {
        match self.attr_names.iter().position(|n| n == name) {
            Some(id) => AttrId::new(id),
            None => {
                self.attr_names.push(name.to_string());
                AttrId::new(self.attr_names.len() - 1)
            }
        }
    }

    fn kind_item(&mut self, k: &ast::KindDecl, item: &ast::Item, id: KindId) {
        let mut slots = Vec::new();
        let mut back = Vec::new();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for a in &k.attrs {
            if let Some(prev) = seen.get(a.name.name.as_str()) {
                self.error(
                    Diagnostic::error(
                        Code::Duplicate,
                        a.name.span,
                        format!("attribute `{}` is declared twice", a.name.name),
                    )
                    .label("second declaration")
                    .related(*prev, "first declaration")
                    .help("delete one of them"),
                );
                continue;
            }
            seen.insert(&a.name.name, a.name.span);
            let Some(ty) = self.type_expr(&a.ty) else { continue };
            let default = match &a.default {
                Some(v) => self.literal(v, &ty, &a.name.name).unwrap_or(Value::None),
                None => Value::None,
            };
            let attr = self.attr_id(&a.name.name);
            if a.on_back {
                back.push(attr);
            }
            // No default and not optional: `None` marks it required.
            let required = a.default.is_none() && !matches!(ty, Type::Optional(_) | Type::Tags);
            let default = if required { Value::None } else { default_for(&ty, default) };
            slots.push((attr, ty, default));
        }
        self.note_provenance(format!("kind {}", k.name.name), &item.notes);
        self.kinds[id].slots = slots;
        self.kinds[id].back = back;
    }

    /// Resolve a written type.
    fn type_expr(&mut self, t: &ast::TypeExpr) -> Option<Type> {
        match &t.kind {
            TypeKind::Range(r) => {
                if let Some(hi) = r.hi {
                    if hi < r.lo {
                        self.error(
                            Diagnostic::error(Code::BadRange, t.span, "range runs backwards")
                                .label(format!("{} is greater than {hi}", r.lo))
                                .help(format!("write `{hi}..{}`", r.lo)),
                        );
                        return None;
                    }
                }
                Some(Type::Int { lo: Some(r.lo), hi: r.hi })
            }
            TypeKind::Optional(inner) => Some(Type::Optional(Box::new(self.type_expr(inner)?))),
            TypeKind::Map(key, value) => {
                let class = self.lookup_class(key)?;
                let value = self.type_expr(value)?;
                Some(Type::Map(class, Box::new(value)))
            }
            TypeKind::Named(name) => match name.name.as_str() {
                "int" | "number" => Some(Type::Int { lo: None, hi: None }),
                "flag" | "bool" => Some(Type::Bool),
                "text" => Some(Type::Text),
                "tag" => Some(Type::Tag),
                "tags" => Some(Type::Tags),
                "player" => Some(Type::Player),
                "place" => Some(Type::Place(None)),
                "card" | "component" => Some(Type::Card),
                _ => match self.symbols.get(&name.name) {
                    Some((Sym::Class(c), _)) => {
                        let c = *c;
                        self.used.insert(Sym::Class(c));
                        Some(Type::Place(Some(c)))
                    }
                    _ => {
                        let mut names: Vec<&str> =
                            vec!["int", "flag", "text", "tag", "tags", "player", "place", "card"];
                        names.extend(self.classes.iter().map(|c| c.name.as_str()));
                        let help = help_for(&name.name, names);
                        self.error(
                            Diagnostic::error(Code::UnknownType, name.span, format!(
                                "unknown type `{}`",
                                name.name
                            ))
                            .label("not a type")
                            .help(help.unwrap_or_else(|| {
                                "types are `int`, `a..b`, `flag`, `text`, `tag`, `tags`, `player`, `place`, `card`, a place class, or `class -> type`".into()
                            })),
                        );
                        None
                    }
                },
            },
        }
    }

    fn lookup_class(&mut self, name: &Ident) -> Option<ClassId> {
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

    fn tag(&mut self, name: &str) -> TagId {
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
    fn component_tag(&mut self, name: &str, span: Span) -> Option<TagId> {
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

    /// Check a written value against a type.
    fn literal(&mut self, v: &ast::Value, ty: &Type, what: &str) -> Option<Value> {
        let mismatch = |c: &mut Self, expected: String| {
            c.error(
                Diagnostic::error(
                    Code::TypeMismatch,
                    v.span,
                    format!("`{what}` expects {expected}, found {}", describe_value(v)),
                )
                .label(format!("expected {expected}"))
                .help(format!("write {expected} here")),
            );
            None
        };
        match (ty, &v.kind) {
            (Type::Optional(_), ValueKind::None) => Some(Value::None),
            (Type::Optional(inner), _) => self.literal(v, inner, what),
            (Type::Int { lo, hi }, ValueKind::Int(n)) => {
                let below = lo.is_some_and(|lo| *n < lo);
                let above = hi.is_some_and(|hi| *n > hi);
                if below || above {
                    let range = format!(
                        "{}..{}",
                        lo.map_or(String::new(), |l| l.to_string()),
                        hi.map_or(String::new(), |h| h.to_string())
                    );
                    self.error(
                        Diagnostic::error(
                            Code::OutOfRange,
                            v.span,
                            format!("`{what}` must be in {range}, found {n}"),
                        )
                        .label(format!("outside {range}"))
                        .help(format!("use a value in {range}, or widen the range in the kind")),
                    );
                    return None;
                }
                Some(Value::Int(*n))
            }
            (Type::Int { .. }, _) => mismatch(self, "a number".into()),
            (Type::Bool, ValueKind::Bool(b)) => Some(Value::Bool(*b)),
            (Type::Bool, _) => mismatch(self, "`yes` or `no`".into()),
            (Type::Text, ValueKind::Text(t)) => Some(Value::Text(t.clone())),
            (Type::Text, _) => mismatch(self, "a quoted text".into()),
            (Type::Tag, ValueKind::Name(n)) => Some(Value::Tag(self.component_tag(n, v.span)?)),
            (Type::Tag, _) => mismatch(self, "a tag name".into()),
            (Type::Tags, ValueKind::Name(n)) => Some(Value::Tags(vec![self.component_tag(n, v.span)?])),
            (Type::Tags, ValueKind::List(items)) => {
                let mut tags = Vec::new();
                for item in items {
                    match &item.kind {
                        ValueKind::Name(n) => tags.push(self.component_tag(n, item.span)?),
                        _ => return mismatch(self, "a list of tag names such as `[car, one_shot]`".into()),
                    }
                }
                Some(Value::Tags(tags))
            }
            (Type::Tags, _) => mismatch(self, "a list of tag names such as `[car, one_shot]`".into()),
            (Type::Place(class), ValueKind::Name(n)) => {
                let ident = Ident { name: n.clone(), span: v.span };
                let id = self.lookup_place(&ident)?;
                if let Some(class) = class {
                    if self.places[id].class != *class {
                        let expected = &self.classes[*class].name;
                        let actual = &self.classes[self.places[id].class].name;
                        let help = help_for(
                            n,
                            self.classes[*class].places.iter().map(|p| self.places[*p].name.as_str()),
                        );
                        self.error(
                            Diagnostic::error(
                                Code::TypeMismatch,
                                v.span,
                                format!("`{what}` expects a {expected}, but `{n}` is a {actual}"),
                            )
                            .label(format!("a {actual}, not a {expected}"))
                            .help(help.unwrap_or_else(|| {
                                format!(
                                    "use one of: {}",
                                    self.classes[*class]
                                        .places
                                        .iter()
                                        .map(|p| self.places[*p].name.as_str())
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                )
                            })),
                        );
                        return None;
                    }
                }
                Some(Value::Place(id))
            }
            (Type::Place(class), _) => {
                let expected = match class {
                    Some(c) => format!("a {}", self.classes[*c].name),
                    None => "a place".into(),
                };
                mismatch(self, expected)
            }
            (Type::Map(class, inner), ValueKind::Map(entries)) => {
                let mut out: Vec<(PlaceId, i64)> = Vec::new();
                for (key, value) in entries {
                    let key_value = ast::Value { kind: ValueKind::Name(key.name.clone()), span: key.span };
                    let Some(Value::Place(p)) = self.literal(&key_value, &Type::Place(Some(*class)), what)
                    else {
                        continue;
                    };
                    if out.iter().any(|(q, _)| *q == p) {
                        self.error(
                            Diagnostic::error(
                                Code::Duplicate,
                                key.span,
                                format!("`{}` appears twice in `{what}`", key.name),
                            )
                            .label("second entry")
                            .help("give each key once"),
                        );
                        continue;
                    }
                    if let Some(Value::Int(n)) = self.literal(value, inner, what) {
                        out.push((p, n));
                    }
                }
                Some(Value::Map(out))
            }
            (Type::Map(class, _), _) => {
                mismatch(self, format!("a map such as `{{ {}: 1 }}`", self.first_place_name(*class)))
            }
            (Type::Player, ValueKind::None) | (Type::Card, ValueKind::None) => Some(Value::None),
            (Type::Player, _) => mismatch(self, "`none`".into()),
            (Type::Card, _) => mismatch(self, "`none`".into()),
        }
    }

    fn first_place_name(&self, class: ClassId) -> String {
        self.classes[class].places.first().map_or("place".into(), |p| self.places[*p].name.clone())
    }

    fn group_item(&mut self, g: &ast::GroupDecl, item: &ast::Item) {
        let id = GroupId::new(self.groups.len());
        if !self.declare(&g.name, Sym::Group(id)) {
            return;
        }
        self.note_provenance(format!("{} {}", g.noun, g.name.name), &item.notes);
        let kind =
            match &g.kind {
                None => {
                    self.error(
                        Diagnostic::error(
                            Code::UnknownKind,
                            g.name.span,
                            format!("`{}` does not say its kind", g.name.name),
                        )
                        .label("which kind of component?")
                        .help(format!("write `{} {} of KIND {{ ... }}`", g.noun, g.name.name)),
                    );
                    None
                }
                Some(kname) => match self.symbols.get(&kname.name) {
                    Some((Sym::Kind(k), _)) => {
                        let k = *k;
                        self.used.insert(Sym::Kind(k));
                        Some(k)
                    }
                    _ => {
                        let help = help_for(&kname.name, self.kinds.iter().map(|k| k.name.as_str()));
                        self.error(
                            Diagnostic::error(
                                Code::UnknownKind,
                                kname.span,
                                format!("unknown kind `{}`", kname.name),
                            )
                            .label("no kind has this name")
                            .help(help.unwrap_or_else(|| {
                                format!("declare it with `kind {} {{ ... }}`", kname.name)
                            })),
                        );
                        None
                    }
                },
            };
        let first = self.components.len();
        let mut total = 0i64;
        let mut names: HashMap<&str, Span> = HashMap::new();
        for inst in &g.instances {
            let copies = inst.count.map_or(1, |(n, _)| n);
            if let Some((n, span)) = inst.count {
                if n < 1 {
                    self.error(
                        Diagnostic::error(Code::OutOfRange, span, "a component has at least 1 copy")
                            .label("`x0` makes nothing")
                            .help("delete the line to remove the component"),
                    );
                }
            }
            total += copies.max(0);
            if let Some(prev) = names.get(inst.name.name.as_str()) {
                self.error(
                    Diagnostic::error(
                        Code::Duplicate,
                        inst.name.span,
                        format!("`{}` is listed twice in `{}`", inst.name.name, g.name.name),
                    )
                    .label("second listing")
                    .related(*prev, "first listing")
                    .help("give the copies one line with a count such as `x2`, or distinct names"),
                );
            }
            names.insert(&inst.name.name, inst.name.span);
            self.note_provenance(format!("{} {} \"{}\"", g.noun, g.name.name, inst.name.name), &inst.notes);
            let Some(kind) = kind else {
                // Keep the tags, so that `has` elsewhere does not cascade.
                for f in inst.fields.iter().filter(|f| f.name.name == "tags") {
                    if let ValueKind::List(items) = &f.value.kind {
                        for item in items {
                            if let ValueKind::Name(n) = &item.kind {
                                self.tag(n);
                            }
                        }
                    }
                }
                continue;
            };
            let Some((values, tags)) = self.instance_values(inst, kind) else { continue };
            for _ in 0..copies.max(0) {
                self.components.push(Component {
                    name: inst.name.name.clone(),
                    group: id,
                    kind,
                    values: values.clone(),
                    tags: tags.clone(),
                    span: inst.span,
                });
            }
        }
        if let Some((declared, span)) = g.total {
            if declared != total {
                self.error(
                    Diagnostic::error(
                        Code::TotalMismatch,
                        span,
                        format!(
                            "`{}` is declared with {declared} {}, but its lines add up to {total}",
                            g.name.name, g.noun
                        ),
                    )
                    .label(format!("declared {declared}"))
                    .related(g.name.span, format!("the listed counts add up to {total}"))
                    .help("fix the counts (`x2`) or the declared total"),
                );
            }
        }
        self.groups.push(Group {
            name: g.name.name.clone(),
            noun: g.noun.clone(),
            kind: kind.unwrap_or_default(),
            declared_total: g.total.map(|(n, _)| n.max(0) as u32),
            components: first..self.components.len(),
            span: g.name.span,
        });
    }

    fn instance_values(&mut self, inst: &ast::Instance, kind: KindId) -> Option<(Vec<Value>, Vec<TagId>)> {
        let slots = self.kinds[kind].slots.clone();
        let mut values: Vec<Option<Value>> = vec![None; slots.len()];
        let mut given = vec![false; slots.len()];
        let mut ok = true;
        for f in &inst.fields {
            let attr = self.attr_names.iter().position(|n| *n == f.name.name).map(AttrId::new);
            let slot = attr.and_then(|a| slots.iter().position(|(s, _, _)| *s == a));
            let Some(slot) = slot else {
                let kind_name = self.kinds[kind].name.clone();
                let help =
                    help_for(&f.name.name, slots.iter().map(|(a, _, _)| self.attr_names[a.index()].as_str()));
                self.error(
                    Diagnostic::error(
                        Code::UnknownAttribute,
                        f.name.span,
                        format!("kind `{kind_name}` has no attribute `{}`", f.name.name),
                    )
                    .label("unknown attribute")
                    .related(self.kinds[kind].span, format!("`{kind_name}` is declared here"))
                    .help(help.unwrap_or_else(|| format!("add `{}: TYPE` to the kind", f.name.name))),
                );
                ok = false;
                continue;
            };
            if given[slot] {
                self.error(
                    Diagnostic::error(
                        Code::Duplicate,
                        f.name.span,
                        format!("`{}` is given twice", f.name.name),
                    )
                    .label("second value")
                    .help("give each attribute once"),
                );
                continue;
            }
            given[slot] = true;
            match self.literal(&f.value, &slots[slot].1, &f.name.name) {
                Some(v) => values[slot] = Some(v),
                None => ok = false,
            }
        }
        let mut out = Vec::with_capacity(slots.len());
        let mut tags = Vec::new();
        for (i, (attr, ty, default)) in slots.iter().enumerate() {
            let v = match values[i].take() {
                Some(v) => v,
                None => {
                    let required = *default == Value::None
                        && !matches!(ty, Type::Optional(_) | Type::Tags | Type::Map(..));
                    if required && !given[i] {
                        self.error(
                            Diagnostic::error(
                                Code::MissingAttribute,
                                inst.name.span,
                                format!("`{}` has no `{}`", inst.name.name, self.attr_names[attr.index()]),
                            )
                            .label(format!("`{}` is missing", self.attr_names[attr.index()]))
                            .related(self.kinds[kind].span, "the kind requires it")
                            .help(format!(
                                "add `{}: ...`, or give the attribute a default in the kind",
                                self.attr_names[attr.index()]
                            )),
                        );
                        ok = false;
                    }
                    default.clone()
                }
            };
            if let Value::Tags(t) = &v {
                tags.extend(t.iter().copied());
            }
            out.push(v);
        }
        ok.then_some((out, tags))
    }

    fn zone_item(&mut self, z: &ast::ZoneDecl, item: &ast::Item, id: ZoneId) {
        self.note_provenance(format!("zone {}", z.name.name), &item.notes);
        let kind = ZoneKind::ALL.iter().find(|(n, _)| *n == z.zone_kind.name).map(|(_, k)| *k);
        let kind = match kind {
            Some(k) => k,
            None => {
                let help = help_for(&z.zone_kind.name, ZoneKind::ALL.iter().map(|(n, _)| *n));
                self.error(
                    Diagnostic::error(
                        Code::UnknownZoneKind,
                        z.zone_kind.span,
                        format!("unknown kind of zone `{}`", z.zone_kind.name),
                    )
                    .label("not a kind of zone")
                    .help(help.unwrap_or_else(|| {
                        "zones are `deck`, `pile`, `row`, `bag`, `hand`, `tableau` or `box`".into()
                    })),
                );
                ZoneKind::Pile
            }
        };
        let index = z.index.as_ref().and_then(|i| self.lookup_class(i));
        let visibility = match &z.visible {
            None => kind.default_visibility(),
            Some(v) => match v.name.as_str() {
                "all" => Visibility::All,
                "owner" => Visibility::Owner,
                "none" | "nobody" => Visibility::Nobody,
                _ => {
                    self.error(
                        Diagnostic::error(
                            Code::BadZoneOption,
                            v.span,
                            format!("unknown visibility `{}`", v.name),
                        )
                        .label("not a visibility")
                        .help("write `visible to all`, `visible to owner` or `visible to none`"),
                    );
                    Visibility::All
                }
            },
        };
        if visibility == Visibility::Owner && z.per_player.is_none() {
            let span = z.visible.as_ref().map_or(z.name.span, |v| v.span);
            self.error(
                Diagnostic::error(
                    Code::BadZoneOption,
                    span,
                    "only a zone that each player has can be visible to its owner",
                )
                .label("this zone has no owner")
                .help("add `per player`, or make it `visible to all` or `visible to none`"),
            );
        }
        let slots = match (&z.slots, kind) {
            (Some(ast::Slots::Count(n, span)), ZoneKind::Row) => {
                if *n < 1 || *n > 1000 {
                    self.error(
                        Diagnostic::error(Code::OutOfRange, *span, "a row has 1 to 1000 slots")
                            .label("out of range")
                            .help("give the number of slots the board shows"),
                    );
                    Vec::new()
                } else {
                    (1..=*n).map(|i| i.to_string()).collect()
                }
            }
            (Some(ast::Slots::Named(names)), ZoneKind::Row) => names.iter().map(|n| n.name.clone()).collect(),
            (Some(_), _) => {
                self.error(
                    Diagnostic::error(
                        Code::BadZoneOption,
                        z.zone_kind.span,
                        format!("a {} has no slots", kind.name()),
                    )
                    .label("`slots` is only for rows")
                    .help("make the zone a `row`, or drop `slots`"),
                );
                Vec::new()
            }
            (None, ZoneKind::Row) => {
                self.error(
                    Diagnostic::error(Code::BadZoneOption, z.zone_kind.span, "a row needs its slots")
                        .label("how many slots?")
                        .help("add `slots 4` or `slots a, b, c`"),
                );
                Vec::new()
            }
            (None, _) => Vec::new(),
        };
        let overflow = z.overflow.as_ref().and_then(|o| match self.symbols.get(&o.name) {
            Some((Sym::Zone(target), _)) => {
                let target = *target;
                self.used.insert(Sym::Zone(target));
                Some(target)
            }
            _ => {
                let help = help_for(&o.name, self.zones.iter().map(|z| z.name.as_str()));
                self.error(
                    Diagnostic::error(Code::UnknownName, o.span, format!("unknown zone `{}`", o.name))
                        .label("no zone has this name")
                        .maybe_help(help),
                );
                None
            }
        });
        if z.overflow.is_some() && kind != ZoneKind::Row {
            let span = z.overflow.as_ref().map_or(z.name.span, |o| o.span);
            self.error(
                Diagnostic::error(Code::BadZoneOption, span, "only a row can overflow")
                    .label("this zone has no slots to push along")
                    .help("make the zone a `row`, or drop `overflow to`"),
            );
        }
        let zone = &mut self.zones[id];
        zone.kind = kind;
        zone.index = index;
        zone.visibility = visibility;
        zone.slots = slots;
        zone.overflow = overflow;
    }

    fn counter_item(&mut self, cd: &ast::CounterDecl, item: &ast::Item, id: CounterId) {
        self.note_provenance(format!("counter {}", cd.name.name), &item.notes);
        let index = cd.index.as_ref().and_then(|i| self.lookup_class(i));
        let ty = match &cd.ty {
            Some(t) => self.type_expr(t).unwrap_or(Type::Int { lo: None, hi: None }),
            None => Type::Int { lo: None, hi: None },
        };
        let mut cx = Cx::new(false, "a counter's starting value");
        let (init, got) = self.value(&cd.init, &mut cx);
        let expected = ty_of(&ty);
        if !fits(&expected, &got) {
            self.type_error(cd.init.span, &expected, &got, "the starting value");
        }
        let counter = &mut self.counters[id];
        counter.index = index;
        counter.ty = ty;
        counter.init = init;
    }

    fn piece_item(&mut self, p: &ast::PieceDecl, item: &ast::Item, id: PieceId) {
        self.note_provenance(format!("piece {}", p.name.name), &item.notes);
        if let Some(start) = self.lookup_place(&p.start) {
            self.pieces[id].start = start;
        }
    }

    fn table_item(&mut self, t: &ast::TableDecl, item: &ast::Item, id: TableId) {
        self.note_provenance(format!("table {}", t.name.name), &item.notes);
        let mut dims = Vec::new();
        for d in &t.dims {
            let Some(hi) = d.range.hi else {
                self.error(
                    Diagnostic::error(Code::BadRange, d.range_span, "a table dimension needs both ends")
                        .label("open-ended")
                        .help(format!("write `{}..N`", d.range.lo)),
                );
                return;
            };
            if hi < d.range.lo {
                self.error(
                    Diagnostic::error(Code::BadRange, d.range_span, "range runs backwards")
                        .label(format!("{} is greater than {hi}", d.range.lo))
                        .help(format!("write `{hi}..{}`", d.range.lo)),
                );
                return;
            }
            dims.push(Dimension { name: d.name.name.clone(), lo: d.range.lo, hi, clamp: d.clamp });
        }
        self.tables[id].dims = dims.clone();
        let size = |d: &Dimension| d.hi - d.lo + 1;
        let cells: i64 = dims.iter().map(size).product();
        if cells > MAX_TABLE_CELLS {
            self.error(
                Diagnostic::error(
                    Code::TableShape,
                    t.name.span,
                    format!("table `{}` would have {cells} cells", t.name.name),
                )
                .label(format!("more than {MAX_TABLE_CELLS} cells"))
                .help("narrow the dimensions"),
            );
            return;
        }
        let mut values = Vec::new();
        match (&t.body, dims.as_slice()) {
            (ast::TableBody::Flat(row), [d]) => {
                self.row_shape(row, size(d), &t.name.name, &d.name);
                values.extend(row.values.iter().map(|(v, _)| *v));
            }
            (ast::TableBody::Rows(rows), [d1, d2]) => {
                let mut expected = d1.lo;
                for row in rows {
                    let (key, span) = row.key;
                    if key < d1.lo || key > d1.hi {
                        self.error(
                            Diagnostic::error(
                                Code::TableShape,
                                span,
                                format!("row {key} is outside `{}` {}..{}", d1.name, d1.lo, d1.hi),
                            )
                            .label("no such row")
                            .help(format!("rows run from {} to {}", d1.lo, d1.hi)),
                        );
                        continue;
                    }
                    if key != expected {
                        let what =
                            if key < expected { "repeated or out of order" } else { "comes too early" };
                        self.error(
                            Diagnostic::error(
                                Code::TableShape,
                                span,
                                format!("row {key} is {what}; expected row {expected}"),
                            )
                            .label(format!("expected row {expected} here"))
                            .help(format!("list the rows of `{}` in order, each once", d1.name)),
                        );
                        return;
                    }
                    expected += 1;
                    self.row_shape(&row.row, size(d2), &t.name.name, &d2.name);
                    values.extend(row.row.values.iter().map(|(v, _)| *v));
                    self.note_provenance(format!("table {} row {key}", t.name.name), &row.notes);
                }
                if expected <= d1.hi {
                    let span = match rows.last() {
                        Some(r) => r.span,
                        None => t.name.span,
                    };
                    self.error(
                        Diagnostic::error(
                            Code::TableShape,
                            span,
                            format!(
                                "table `{}` stops at row {}; `{}` runs to {}",
                                t.name.name,
                                expected - 1,
                                d1.name,
                                d1.hi
                            ),
                        )
                        .label(format!("row {expected} should follow"))
                        .help(if expected == d1.hi {
                            format!("add row {expected}")
                        } else {
                            format!("add rows {expected} to {}", d1.hi)
                        }),
                    );
                }
            }
            (ast::TableBody::Flat(row), dims) => {
                self.error(
                    Diagnostic::error(
                        Code::TableShape,
                        row.span,
                        format!("a table with {} dimensions is written as rows", dims.len()),
                    )
                    .label("one flat list")
                    .help("write `{ 1: [...]  2: [...] }`, one row per key"),
                );
            }
            (ast::TableBody::Rows(_), dims) => {
                let n = dims.len();
                self.error(
                    Diagnostic::error(
                        Code::TableShape,
                        t.name.span,
                        format!(
                            "table `{}` has {n} dimension{}; tables have 1 (a list) or 2 (rows)",
                            t.name.name,
                            if n == 1 { "" } else { "s" }
                        ),
                    )
                    .label("unsupported shape")
                    .help(if n == 1 {
                        "write a 1-dimension table as `= [a, b, c]`"
                    } else {
                        "split it into 2-dimension tables"
                    }),
                );
            }
        }
        self.tables[id].dims = dims;
        self.tables[id].values = values;
    }

    fn row_shape(&mut self, row: &ast::IntRow, expected: i64, table: &str, dim: &str) {
        let n = row.values.len() as i64;
        if n != expected {
            let span = if n > expected {
                row.values[expected as usize].1.to(row.span.end_point())
            } else {
                row.span
            };
            self.error(
                Diagnostic::error(
                    Code::TableShape,
                    span,
                    format!("table `{table}` needs {expected} values along `{dim}`, this row has {n}"),
                )
                .label(if n > expected {
                    "extra values".to_string()
                } else {
                    format!("{} missing", expected - n)
                })
                .help(format!("give exactly {expected} values, one per `{dim}`")),
            );
        }
    }

    // --------------------------------------------------- signatures, lets

    fn param_ty(&mut self, p: &ast::Param) -> Ty {
        match &p.ty {
            ast::ParamType::Type(t) => self.type_expr(t).map_or(Ty::Unknown, |t| ty_of(&t)),
            ast::ParamType::In(_) => Ty::Card,
        }
    }

    fn lower_params(&mut self, params: &[ast::Param], tys: &[Ty], cx: &mut Cx) -> Vec<Param> {
        let mut out = Vec::new();
        for (p, ty) in params.iter().zip(tys) {
            let domain = match &p.ty {
                ast::ParamType::Type(t) => {
                    ParamDomain::Type(self.type_expr(t).unwrap_or(Type::Int { lo: None, hi: None }))
                }
                ast::ParamType::In(e) => {
                    let (z, zt) = self.value(e, cx);
                    self.expect(&zt, &Ty::Zone, e.span, "a parameter's `in`");
                    ParamDomain::In(z)
                }
            };
            if cx.lookup(&p.name.name).is_some() {
                self.error(
                    Diagnostic::error(
                        Code::Duplicate,
                        p.name.span,
                        format!("parameter `{}` is named twice", p.name.name),
                    )
                    .label("second parameter with this name")
                    .help("rename one of them"),
                );
            }
            self.bind(cx, &p.name, ty.clone());
            out.push(Param { name: p.name.name.clone(), domain });
        }
        out
    }

    /// The type of a let's value, lowering its body on first use.
    fn let_type(&mut self, id: LetId) -> Ty {
        match &self.let_state[id.index()] {
            LetState::Done(t) => return t.clone(),
            LetState::InProgress => {
                let decl = self.let_decls[id.index()];
                self.error(
                    Diagnostic::error(
                        Code::Recursion,
                        decl.name.span,
                        format!("`{}` is defined in terms of itself", decl.name.name),
                    )
                    .label("this definition needs its own value")
                    .help("a let cannot call itself, directly or through others"),
                );
                return Ty::Unknown;
            }
            LetState::Pending => {}
        }
        self.let_state[id.index()] = LetState::InProgress;
        let decl = self.let_decls[id.index()];
        let saved = self.current_procedure.take();
        let mut cx = Cx::new(true, "a let");
        let tys = self.let_param_tys[id.index()].clone();
        let params = self.lower_params(decl.params.as_deref().unwrap_or(&[]), &tys, &mut cx);
        let (body, ty) = self.value(&decl.body, &mut cx);
        self.current_procedure = saved;
        // An earlier recursion error may have finished this let already.
        if !matches!(self.let_state[id.index()], LetState::Done(_)) {
            self.let_state[id.index()] = LetState::Done(ty.clone());
        }
        self.lets[id.index()] =
            Some(Let { name: decl.name.name.clone(), params, body, locals: cx.max, span: decl.name.span });
        ty
    }

    fn procedure_item(&mut self, p: &ast::ProcedureDecl, item: &ast::Item, id: ProcedureId) {
        self.note_provenance(format!("procedure {}", p.name.name), &item.notes);
        let mut cx = Cx::new(true, "a procedure");
        let tys = self.procedure_param_tys[id.index()].clone();
        let params = self.lower_params(&p.params, &tys, &mut cx);
        self.current_procedure = Some(id);
        let stmts = self.block(&p.body, &mut cx);
        self.current_procedure = None;
        self.procedures[id.index()] = Some(Procedure {
            name: p.name.name.clone(),
            params,
            body: Body { stmts, locals: cx.max },
            span: p.name.span,
        });
    }

    fn action_item(&mut self, a: &ast::ActionDecl, item: &ast::Item, id: ActionId) {
        self.note_provenance(format!("action {}", a.name.name), &item.notes);
        let mut cx = Cx::new(true, "an action");
        let tys: Vec<Ty> = a.params.iter().map(|p| self.param_ty(p)).collect();
        let params = self.lower_params(&a.params, &tys, &mut cx);
        for (p, ty) in a.params.iter().zip(&tys) {
            let finite = matches!(ty, Ty::Bool | Ty::Place(_) | Ty::Player | Ty::Card | Ty::Unknown)
                || matches!(&p.ty, ast::ParamType::Type(t) if matches!(t.kind, TypeKind::Range(ast::RangeLit { hi: Some(_), .. })));
            if !finite {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        p.name.span,
                        format!("action parameter `{}` has no list of choices", p.name.name),
                    )
                    .label("players could type anything here")
                    .help("give it a range such as `1..12`, a place class, `flag`, `player`, or `in ZONE`"),
                );
            }
        }
        let stmts = self.block(&a.body, &mut cx);
        self.actions[id].params = params;
        self.actions[id].body = Body { stmts, locals: cx.max };
    }

    fn turns_item(&mut self, t: &ast::TurnPolicy) -> TurnPolicy {
        match t {
            ast::TurnPolicy::Clockwise(_) => TurnPolicy::Clockwise,
            ast::TurnPolicy::LowestCounter(name) => match self.symbols.get(&name.name) {
                Some((Sym::Counter(id), _)) => {
                    let id = *id;
                    self.used.insert(Sym::Counter(id));
                    let c = &self.counters[id];
                    if !c.per_player || c.index.is_some() || !matches!(c.ty, Type::Int { .. }) {
                        self.error(
                            Diagnostic::error(
                                Code::TypeMismatch,
                                name.span,
                                format!(
                                    "turn order needs a number each player has; `{}` is not one",
                                    name.name
                                ),
                            )
                            .label("not a plain per-player number")
                            .related(c.span, "declared here")
                            .help("declare it as `counter NAME per player = 0`"),
                        );
                    }
                    TurnPolicy::LowestCounter(id)
                }
                _ => {
                    let help = help_for(&name.name, self.counters.iter().map(|c| c.name.as_str()));
                    self.error(
                        Diagnostic::error(
                            Code::UnknownName,
                            name.span,
                            format!("unknown counter `{}`", name.name),
                        )
                        .label("no counter has this name")
                        .help(help.unwrap_or_else(|| "declare it with `counter NAME per player = 0`".into())),
                    );
                    TurnPolicy::Clockwise
                }
            },
        }
    }

    fn score_item(&mut self, s: &ast::ScoreDecl, item: &ast::Item) {
        self.note_provenance(format!("score {}", s.name.name), &item.notes);
        let mut cx = Cx::new(true, "a score");
        let mut index = None;
        if let Some(p) = &s.index {
            let ty = self.param_ty(p);
            match &ty {
                Ty::Place(Some(c)) => index = Some(*c),
                Ty::Unknown => {}
                _ => {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            p.name.span,
                            "a score is indexed by a place class",
                        )
                        .label("not a place class")
                        .help("write `score NAME[s: site] ...`"),
                    );
                }
            }
            self.bind(&mut cx, &p.name, ty);
        }
        let form = match &s.form {
            ast::ScoreForm::Expr(e) => {
                let (x, ty) = self.value(e, &mut cx);
                self.expect(&ty, &Ty::Int, e.span, "a score");
                ScoreForm::Expr(x)
            }
            ast::ScoreForm::Majority { measure, fields, span } => {
                let (m, ty) = self.value(measure, &mut cx);
                self.expect(&ty, &Ty::Int, measure.span, "a majority's measure");
                let get = |c: &mut Self, name: &str, required: bool| -> Expr {
                    match fields.iter().find(|f| f.name.name == name) {
                        Some(f) => c.number_field(&f.value, name),
                        None => {
                            if required {
                                c.error(
                                    Diagnostic::error(
                                        Code::MissingAttribute,
                                        *span,
                                        format!("majority has no `{name}`"),
                                    )
                                    .label(format!("`{name}` is missing"))
                                    .help(format!("add `{name}: POINTS` inside the braces")),
                                );
                            }
                            Expr { kind: ExprKind::Int(if name == "minimum" { 1 } else { 0 }), span: *span }
                        }
                    }
                };
                let alone = get(self, "alone", true);
                let tied = get(self, "tied", true);
                let minimum = get(self, "minimum", false);
                for f in fields {
                    if !["alone", "tied", "minimum"].contains(&f.name.name.as_str()) {
                        let help = help_for(&f.name.name, ["alone", "tied", "minimum"]);
                        self.error(
                            Diagnostic::error(
                                Code::UnknownAttribute,
                                f.name.span,
                                format!("a majority has no `{}`", f.name.name),
                            )
                            .label("unknown field")
                            .help(
                                help.unwrap_or_else(|| "a majority has `alone`, `tied` and `minimum`".into()),
                            ),
                        );
                    }
                }
                ScoreForm::Majority { measure: m, alone, tied, minimum }
            }
        };
        self.scores.push(Score { name: s.name.name.clone(), index, form, locals: cx.max, span: s.name.span });
    }

    /// A number written as a literal or as the name of a number option.
    fn number_field(&mut self, v: &ast::Value, what: &str) -> Expr {
        match &v.kind {
            ValueKind::Int(n) => Expr { kind: ExprKind::Int(*n), span: v.span },
            ValueKind::Name(n) => match self.symbols.get(n) {
                Some((Sym::Option(id), _)) if matches!(self.options[*id].value, Value::Int(_)) => {
                    let id = *id;
                    self.used.insert(Sym::Option(id));
                    Expr { kind: ExprKind::Option(id), span: v.span }
                }
                _ => {
                    let help = help_for(n, self.options.iter().map(|o| o.name.as_str()));
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            v.span,
                            format!("`{what}` takes a number or a number option, found `{n}`"),
                        )
                        .label("not a number option")
                        .help(help.unwrap_or_else(|| "write a number".into())),
                    );
                    Expr { kind: ExprKind::Int(0), span: v.span }
                }
            },
            _ => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, v.span, format!("`{what}` takes a number"))
                        .label("not a number")
                        .help("write a number"),
                );
                Expr { kind: ExprKind::Int(0), span: v.span }
            }
        }
    }

    // ------------------------------------------------------- statements

    fn block(&mut self, b: &ast::Block, cx: &mut Cx) -> Vec<Stmt> {
        let mark = cx.mark();
        let out = b.stmts.iter().map(|s| self.stmt(s, cx)).collect();
        cx.reset(mark);
        out
    }

    fn stmt(&mut self, s: &ast::Stmt, cx: &mut Cx) -> Stmt {
        use ast::StmtKind as S;
        let kind = match &s.kind {
            S::Require { cond, message } => {
                let (c, ty) = self.value(cond, cx);
                self.expect(&ty, &Ty::Bool, cond.span, "`require`");
                StmtKind::Require { cond: c, message: message.clone() }
            }
            S::Let { name, value } => {
                let (v, ty) = self.value(value, cx);
                let slot = self.bind(cx, name, ty);
                StmtKind::Let { slot, value: v }
            }
            S::Set { target, value } => {
                let (t, tty) = self.lvalue(target, cx, "set");
                let (v, vty) = self.value(value, cx);
                if !fits(&tty, &vty) {
                    self.type_error(value.span, &tty, &vty, "the new value");
                }
                StmtKind::Set { target: t, value: v }
            }
            S::Advance { target, by } => {
                let (t, tty) = self.lvalue(target, cx, "advance");
                self.expect(&tty, &Ty::Int, target.span, "`advance`");
                let (b, bty) = self.value(by, cx);
                self.expect(&bty, &Ty::Int, by.span, "`advance ... by`");
                StmtKind::Advance { target: t, by: b }
            }
            S::Move { what, position, to } => {
                let mark = cx.mark();
                let what = self.selection(what, cx);
                cx.reset(mark);
                let (t, ty) = self.value(to, cx);
                self.expect(&ty, &Ty::Zone, to.span, "`move ... to`");
                StmtKind::Move { what, position: *position, to: t }
            }
            S::Draw { count, from, position, to } => {
                let (n, nty) = self.value(count, cx);
                self.expect(&nty, &Ty::Int, count.span, "`draw`");
                let (f, fty) = self.value(from, cx);
                self.expect(&fty, &Ty::Zone, from.span, "`draw ... from`");
                let (t, tty) = self.value(to, cx);
                self.expect(&tty, &Ty::Zone, to.span, "`draw ... to`");
                StmtKind::Draw { count: n, from: f, position: *position, to: t }
            }
            S::Shuffle(e) => {
                let (z, ty) = self.value(e, cx);
                match ty {
                    Ty::Domain(inner) if *inner == Ty::Player => StmtKind::ShufflePlayers,
                    ty => {
                        self.expect(&ty, &Ty::Zone, e.span, "`shuffle`");
                        StmtKind::Shuffle(z)
                    }
                }
            }
            S::Split { from, into } => {
                let (f, fty) = self.value(from, cx);
                self.expect(&fty, &Ty::Zone, from.span, "`split`");
                if into.len() < 2 {
                    self.error(
                        Diagnostic::error(Code::Arity, s.span, "`split` needs at least two piles")
                            .label("one pile is a move")
                            .help("write `split deck into pile1, pile2`, or use `move all`"),
                    );
                }
                let into = into
                    .iter()
                    .map(|z| {
                        let (x, ty) = self.value(z, cx);
                        self.expect(&ty, &Ty::Zone, z.span, "`split ... into`");
                        x
                    })
                    .collect();
                StmtKind::Split { from: f, into }
            }
            S::Reveal { zone, to } => {
                let (z, zty) = self.value(zone, cx);
                self.expect(&zty, &Ty::Zone, zone.span, "`reveal`");
                let (t, tty) = self.value(to, cx);
                self.expect(&tty, &Ty::Player, to.span, "`reveal ... to`");
                StmtKind::Reveal { zone: z, to: t }
            }
            S::If { cond, then, otherwise } => {
                let (c, ty) = self.value(cond, cx);
                self.expect(&ty, &Ty::Bool, cond.span, "`if`");
                let then = self.block(then, cx);
                let otherwise = otherwise.as_ref().map(|b| self.block(b, cx)).unwrap_or_default();
                StmtKind::If { cond: c, then, otherwise }
            }
            S::For { var, domain, body } => {
                let (d, ty) = self.value(domain, cx);
                let elem = self.element_type(&ty, domain.span, "`for`");
                let mark = cx.mark();
                let slot = self.bind(cx, var, elem);
                let body = self.block(body, cx);
                cx.reset(mark);
                StmtKind::For { var: slot, domain: d, body }
            }
            S::Repeat { cond, body } => {
                let (c, ty) = self.value(cond, cx);
                self.expect(&ty, &Ty::Bool, cond.span, "`repeat while`");
                let body = self.block(body, cx);
                StmtKind::Repeat { cond: c, body }
            }
            S::Do { name, args } => {
                let lowered: Vec<(Expr, Ty, Span)> = args
                    .iter()
                    .map(|a| {
                        let (x, t) = self.value(a, cx);
                        (x, t, a.span)
                    })
                    .collect();
                match self.symbols.get(&name.name) {
                    Some((Sym::Procedure(id), _)) => {
                        let id = *id;
                        self.used.insert(Sym::Procedure(id));
                        if let Some(caller) = self.current_procedure {
                            self.procedure_calls[caller.index()].push((id, name.span));
                        }
                        let tys = self.procedure_param_tys[id.index()].clone();
                        self.check_args(name, &tys, &lowered, s.span);
                        StmtKind::Do { procedure: id, args: lowered.into_iter().map(|(x, _, _)| x).collect() }
                    }
                    _ => {
                        if !self.quiet {
                            let procs: Vec<String> = self
                                .symbols
                                .iter()
                                .filter(|(_, (s, _))| matches!(s, Sym::Procedure(_)))
                                .map(|(n, _)| n.clone())
                                .collect();
                            let help = help_for(&name.name, procs.iter().map(String::as_str));
                            self.error(
                                Diagnostic::error(
                                    Code::UnknownName,
                                    name.span,
                                    format!("unknown procedure `{}`", name.name),
                                )
                                .label("no procedure has this name")
                                .help(help.unwrap_or_else(|| {
                                    format!("declare it with `procedure {}(...) {{ ... }}`", name.name)
                                })),
                            );
                        }
                        StmtKind::Require {
                            cond: Expr { kind: ExprKind::Bool(true), span: s.span },
                            message: None,
                        }
                    }
                }
            }
            S::ByPlayers { cases, span } => self.by_players(cases, *span, cx),
        };
        Stmt { kind, span: s.span }
    }

    fn by_players(&mut self, cases: &[ast::PlayerCase], span: Span, cx: &mut Cx) -> StmtKind {
        let (lo, hi) = self.player_counts().unwrap_or((1, MAX_PLAYERS as u32));
        let mut seen: HashMap<i64, Span> = HashMap::new();
        let mut out = Vec::new();
        for case in cases {
            let mut counts = Vec::new();
            for (n, nspan) in &case.counts {
                if *n < lo as i64 || *n > hi as i64 {
                    self.error(
                        Diagnostic::error(
                            Code::OutOfRange,
                            *nspan,
                            format!("the game is for {lo} to {hi} players, not {n}"),
                        )
                        .label("no such player count")
                        .help(format!("use counts from {lo} to {hi}, or widen `players` in `game`")),
                    );
                    continue;
                }
                if let Some(prev) = seen.get(n) {
                    self.error(
                        Diagnostic::error(
                            Code::SetupCoverage,
                            *nspan,
                            format!("{n} players is covered twice"),
                        )
                        .label("second block for this count")
                        .related(*prev, "first block for this count")
                        .help("each player count gets exactly one block"),
                    );
                    continue;
                }
                seen.insert(*n, *nspan);
                counts.push(*n as u32);
            }
            let body = self.block(&case.body, cx);
            out.push((counts, body));
        }
        let missing: Vec<String> =
            (lo..=hi).filter(|n| !seen.contains_key(&(*n as i64))).map(|n| n.to_string()).collect();
        if !missing.is_empty() {
            let list = missing.join(", ");
            self.error(
                Diagnostic::error(
                    Code::SetupCoverage,
                    span,
                    format!(
                        "`by players` has no block for {list} player{}",
                        if missing.len() == 1 && missing[0] == "1" { "" } else { "s" }
                    ),
                )
                .label(format!("covers {}", covered(&seen)))
                .help(format!("add a block `{}: {{ ... }}` (a block may be empty)", missing.join(", "))),
            );
        }
        StmtKind::ByPlayers { cases: out }
    }

    fn check_args(&mut self, name: &Ident, params: &[Ty], args: &[(Expr, Ty, Span)], span: Span) {
        if params.len() != args.len() {
            self.error(
                Diagnostic::error(
                    Code::Arity,
                    span,
                    format!(
                        "`{}` takes {} argument{}, found {}",
                        name.name,
                        params.len(),
                        if params.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                )
                .label(format!("{} given", args.len()))
                .help(format!(
                    "pass {} value{}",
                    params.len(),
                    if params.len() == 1 { "" } else { "s" }
                )),
            );
            return;
        }
        for (p, (_, ty, aspan)) in params.iter().zip(args) {
            if !fits(p, ty) {
                self.type_error(*aspan, p, ty, &format!("this argument of `{}`", name.name));
            }
        }
    }

    fn selection(&mut self, sel: &ast::Selection, cx: &mut Cx) -> Selection {
        match sel {
            ast::Selection::One(e) => {
                let (x, ty) = self.value(e, cx);
                self.expect(&ty, &Ty::Card, e.span, "`move`");
                Selection::One(x)
            }
            ast::Selection::All { var, domain, filter } | ast::Selection::First { var, domain, filter } => {
                let (d, ty) = self.value(domain, cx);
                self.expect(&ty, &Ty::Zone, domain.span, "`move all`/`move first`");
                let slot = self.bind(cx, var, Ty::Card);
                let filter = filter.as_ref().map(|f| {
                    let (x, t) = self.value(f, cx);
                    self.expect(&t, &Ty::Bool, f.span, "`where`");
                    x
                });
                if matches!(sel, ast::Selection::All { .. }) {
                    Selection::All { var: slot, domain: d, filter }
                } else {
                    Selection::First { var: slot, domain: d, filter }
                }
            }
        }
    }

    /// What a `for` or an aggregate binds its variable to when ranging over `ty`.
    fn element_type(&mut self, ty: &Ty, span: Span, what: &str) -> Ty {
        match ty {
            Ty::Zone => Ty::Card,
            Ty::Domain(inner) => (**inner).clone(),
            Ty::Unknown => Ty::Unknown,
            other => {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        span,
                        format!(
                            "{what} ranges over a zone, `players` or a place class, found {}",
                            describe_ty(other, self)
                        ),
                    )
                    .label("cannot go through this")
                    .help("write a zone (`me.tableau`), `players`, or a place class (`site`)"),
                );
                Ty::Unknown
            }
        }
    }

    /// Lower an assignment target: a counter or a piece.
    fn lvalue(&mut self, e: &ast::Expr, cx: &mut Cx, what: &str) -> (Expr, Ty) {
        let (x, ty) = self.value(e, cx);
        match &x.kind {
            ExprKind::Counter { .. } | ExprKind::Piece { .. } => (x, ty),
            _ if ty == Ty::Unknown => (x, ty),
            _ => {
                self.error(
                    Diagnostic::error(
                        Code::NotAssignable,
                        e.span,
                        format!("`{what}` changes a counter or a piece"),
                    )
                    .label("not a counter or a piece")
                    .help("declare it with `counter` to change it; `let` values are fixed"),
                );
                (x, Ty::Unknown)
            }
        }
    }

    // ------------------------------------------------------ expressions

    fn expect(&mut self, got: &Ty, expected: &Ty, span: Span, what: &str) {
        if !fits(expected, got) {
            self.type_error(span, expected, got, what);
        }
    }

    fn type_error(&mut self, span: Span, expected: &Ty, got: &Ty, what: &str) {
        let e = describe_ty(expected, self);
        let g = describe_ty(got, self);
        self.error(
            Diagnostic::error(Code::TypeMismatch, span, format!("{what} expects {e}, found {g}"))
                .label(format!("this is {g}"))
                .help(format!("write {e} here")),
        );
    }

    /// Lower an expression used as a value: partial forms (a zone family
    /// without its index, a table without all its keys) are errors here.
    fn value(&mut self, e: &ast::Expr, cx: &mut Cx) -> (Expr, Ty) {
        let (x, ty) = self.expr(e, cx);
        match &ty {
            Ty::ZoneFamily(class) | Ty::CounterFamily(class, _) => {
                let class_name = self.classes[*class].name.clone();
                let example = self.first_place_name(*class);
                self.error(
                    Diagnostic::error(
                        Code::TableIndex,
                        e.span,
                        format!("there is one of these per {class_name}; say which"),
                    )
                    .label(format!("needs `[{class_name}]`"))
                    .help(format!("write `...[{example}]` or `...[s]` with `s` a {class_name}")),
                );
                (x, Ty::Unknown)
            }
            Ty::Table(id, given) => {
                let t = &self.tables[*id];
                let (name, dims) = (t.name.clone(), t.dims.len());
                let keys: Vec<String> = t.dims.iter().map(|d| format!("[{}]", d.name)).collect();
                self.error(
                    Diagnostic::error(
                        Code::TableIndex,
                        e.span,
                        format!(
                            "table `{name}` has {dims} dimension{}, given {given}",
                            if dims == 1 { "" } else { "s" }
                        ),
                    )
                    .label("not a number yet")
                    .help(format!("write `{name}{}`", keys.join(""))),
                );
                (x, Ty::Unknown)
            }
            _ => (x, ty),
        }
    }

    fn expr(&mut self, e: &ast::Expr, cx: &mut Cx) -> (Expr, Ty) {
        use ast::ExprKind as E;
        let span = e.span;
        let mk = |kind| Expr { kind, span };
        match &e.kind {
            E::Int(n) => (mk(ExprKind::Int(*n)), Ty::Int),
            E::Text(t) => (mk(ExprKind::Text(t.clone())), Ty::Text),
            E::Bool(b) => (mk(ExprKind::Bool(*b)), Ty::Bool),
            E::None => (mk(ExprKind::None), Ty::NoneLit),
            E::Name(name) => self.name(name, cx),
            E::Unary(op, inner) => {
                let (x, ty) = self.value(inner, cx);
                let want = if *op == ast::UnaryOp::Neg { Ty::Int } else { Ty::Bool };
                self.expect(&ty, &want, inner.span, if want == Ty::Int { "`-`" } else { "`not`" });
                (mk(ExprKind::Unary(*op, Box::new(x))), want)
            }
            E::Binary(op, a, b) => self.binary(*op, a, b, span, cx),
            E::If(c, a, b) => {
                let (cx_, cty) = self.value(c, cx);
                self.expect(&cty, &Ty::Bool, c.span, "`if`");
                let (ax, aty) = self.value(a, cx);
                let (bx, bty) = self.value(b, cx);
                let ty = if !fits(&aty, &bty) && !fits(&bty, &aty) {
                    self.type_error(b.span, &aty, &bty, "the `else` branch");
                    Ty::Unknown
                } else if aty == Ty::NoneLit {
                    bty
                } else {
                    aty
                };
                (mk(ExprKind::If(Box::new(cx_), Box::new(ax), Box::new(bx))), ty)
            }
            E::Field(base, field) => self.field(base, field, span, cx),
            E::Index(base, index) => self.index(base, index, span, cx),
            E::Call(name, args) => self.call(name, args, span, cx),
            E::Aggregate { func, value, var, domain, filter } => {
                let agg = match func.name.as_str() {
                    "count" => Aggregate::Count,
                    "sum" => Aggregate::Sum,
                    "min" => Aggregate::Min,
                    "max" => Aggregate::Max,
                    "any" => Aggregate::Any,
                    "all" => Aggregate::All,
                    "first" => Aggregate::First,
                    other => {
                        let help = help_for(other, ["count", "sum", "min", "max", "any", "all", "first"]);
                        self.error(
                            Diagnostic::error(
                                Code::UnknownFunction,
                                func.span,
                                format!("`{other}` cannot go through a collection"),
                            )
                            .label("not count, sum, min, max, any, all or first")
                            .help(
                                help.unwrap_or_else(|| "use count, sum, min, max, any, all or first".into()),
                            ),
                        );
                        return (mk(ExprKind::Int(0)), Ty::Unknown);
                    }
                };
                let (d, dty) = self.value(domain, cx);
                let elem = self.element_type(&dty, domain.span, &format!("`{}`", func.name));
                let mark = cx.mark();
                let slot = self.bind(cx, var, elem.clone());
                let needs_value = matches!(agg, Aggregate::Sum | Aggregate::Min | Aggregate::Max);
                let value = match (value, needs_value) {
                    (Some(v), true) => {
                        let (x, ty) = self.value(v, cx);
                        self.expect(&ty, &Ty::Int, v.span, &format!("`{}`", func.name));
                        Some(Box::new(x))
                    }
                    (None, true) => {
                        self.error(
                            Diagnostic::error(
                                Code::Arity,
                                span,
                                format!("`{}` needs what to add up", func.name),
                            )
                            .label(format!("`{}` of what?", func.name))
                            .help(format!("write `{}(c.value for c in ZONE)`", func.name)),
                        );
                        None
                    }
                    (Some(v), false) => {
                        self.error(
                            Diagnostic::error(
                                Code::Arity,
                                v.span,
                                format!("`{}` takes no value before `for`", func.name),
                            )
                            .label("not used")
                            .help(format!("write `{}(x in DOMAIN where CONDITION)`", func.name)),
                        );
                        None
                    }
                    (None, false) => None,
                };
                let filter = filter.as_ref().map(|f| {
                    let (x, t) = self.value(f, cx);
                    self.expect(&t, &Ty::Bool, f.span, "`where`");
                    Box::new(x)
                });
                if matches!(agg, Aggregate::Any | Aggregate::All) && filter.is_none() {
                    self.error(
                        Diagnostic::error(Code::Arity, span, format!("`{}` needs a condition", func.name))
                            .label("no `where`")
                            .help(format!("write `{}(x in DOMAIN where CONDITION)`", func.name)),
                    );
                }
                cx.reset(mark);
                let ty = match agg {
                    Aggregate::Any | Aggregate::All => Ty::Bool,
                    // The first element that passes, or `none`.
                    Aggregate::First => elem,
                    _ => Ty::Int,
                };
                (mk(ExprKind::Aggregate { func: agg, value, var: slot, domain: Box::new(d), filter }), ty)
            }
        }
    }

    fn name(&mut self, name: &Ident, cx: &mut Cx) -> (Expr, Ty) {
        let span = name.span;
        let mk = |kind| Expr { kind, span };
        if let Some((ty, slot)) = cx.lookup(&name.name) {
            return (mk(ExprKind::Local(slot)), ty);
        }
        match name.name.as_str() {
            "me" => {
                if !cx.me_allowed {
                    self.error(
                        Diagnostic::error(
                            Code::MeOutsideTurn,
                            span,
                            format!("`me` has no meaning in {}", cx.place),
                        )
                        .label("nobody is acting here")
                        .help("go through the players: `for p in players { ... p ... }`"),
                    );
                }
                return (mk(ExprKind::Me), Ty::Player);
            }
            "players" => return (mk(ExprKind::Players), Ty::Domain(Box::new(Ty::Player))),
            "player_count" => return (mk(ExprKind::PlayerCount), Ty::Int),
            _ => {}
        }
        let Some((sym, _)) = self.symbols.get(&name.name).copied() else {
            if let Some(tag) = self.tag_ids.get(&name.name) {
                return (mk(ExprKind::Tag(*tag)), Ty::Tag);
            }
            self.unknown_name(name, cx);
            return (mk(ExprKind::Int(0)), Ty::Unknown);
        };
        self.used.insert(sym);
        match sym {
            Sym::Option(id) => {
                let ty = match &self.options[id].value {
                    Value::Int(_) => Ty::Int,
                    Value::Bool(_) => Ty::Bool,
                    Value::Text(_) => Ty::Text,
                    _ => Ty::Unknown,
                };
                (mk(ExprKind::Option(id)), ty)
            }
            Sym::Class(id) => (mk(ExprKind::Class(id)), Ty::Domain(Box::new(Ty::Place(Some(id))))),
            Sym::Place(id) => (mk(ExprKind::Place(id)), Ty::Place(Some(self.places[id].class))),
            Sym::Group(id) => (mk(ExprKind::Group(id)), Ty::Zone),
            Sym::Zone(id) => {
                let z = &self.zones[id];
                if z.per_player {
                    let zname = z.name.clone();
                    self.error(
                        Diagnostic::error(
                            Code::PerPlayerZone,
                            span,
                            format!("each player has a `{zname}`; say whose"),
                        )
                        .label("whose?")
                        .help(format!("write `me.{zname}` or `p.{zname}`")),
                    );
                    return (mk(ExprKind::Int(0)), Ty::Unknown);
                }
                let ty = match z.index {
                    Some(c) => Ty::ZoneFamily(c),
                    None => Ty::Zone,
                };
                (mk(ExprKind::Zone { zone: id, player: None, index: None }), ty)
            }
            Sym::Counter(id) => {
                let c = &self.counters[id];
                if c.per_player {
                    let cname = c.name.clone();
                    self.error(
                        Diagnostic::error(
                            Code::PerPlayerZone,
                            span,
                            format!("each player has a `{cname}`; say whose"),
                        )
                        .label("whose?")
                        .help(format!("write `me.{cname}` or `p.{cname}`")),
                    );
                    return (mk(ExprKind::Int(0)), Ty::Unknown);
                }
                let ty = match c.index {
                    Some(class) => Ty::CounterFamily(class, Box::new(ty_of(&c.ty))),
                    None => ty_of(&c.ty),
                };
                (mk(ExprKind::Counter { counter: id, player: None, index: None }), ty)
            }
            Sym::Piece(id) => {
                let p = &self.pieces[id];
                if p.per_player {
                    let pname = p.name.clone();
                    self.error(
                        Diagnostic::error(
                            Code::PerPlayerZone,
                            span,
                            format!("each player has a `{pname}`; say whose"),
                        )
                        .label("whose?")
                        .help(format!("write `me.{pname}` or `p.{pname}`")),
                    );
                    return (mk(ExprKind::Int(0)), Ty::Unknown);
                }
                (mk(ExprKind::Piece { piece: id, player: None }), Ty::Place(None))
            }
            Sym::Table(id) => (mk(ExprKind::Table { table: id, keys: Vec::new() }), Ty::Table(id, 0)),
            Sym::Let(id) => {
                let nparams = self.let_decls[id.index()].params.as_ref().map_or(0, Vec::len);
                if nparams > 0 {
                    self.error(
                        Diagnostic::error(
                            Code::Arity,
                            span,
                            format!(
                                "`{}` takes {nparams} argument{}",
                                name.name,
                                if nparams == 1 { "" } else { "s" }
                            ),
                        )
                        .label("called without arguments")
                        .help(format!("write `{}(...)`", name.name)),
                    );
                }
                let ty = self.let_type(id);
                (mk(ExprKind::Let { id, args: Vec::new() }), ty)
            }
            Sym::Kind(_) | Sym::Procedure(_) | Sym::Action(_) | Sym::Score(_) => {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        span,
                        format!("`{}` is a {}, which has no value", name.name, sym.noun()),
                    )
                    .label("not a value")
                    .help("refer to values: counters, zones, places, options, lets"),
                );
                (mk(ExprKind::Int(0)), Ty::Unknown)
            }
        }
    }

    fn unknown_name(&mut self, name: &Ident, cx: &Cx) {
        if self.quiet {
            return;
        }
        let mut candidates: Vec<String> = cx.scope.iter().map(|(n, _, _)| n.clone()).collect();
        candidates.extend(self.symbols.keys().cloned());
        candidates.extend(self.tags.iter().cloned());
        candidates.extend(BUILTIN_NAMES.iter().map(|s| s.to_string()));
        let help = help_for(&name.name, candidates.iter().map(String::as_str));
        let code = if name.name.chars().next().is_some_and(char::is_uppercase) {
            Code::UnknownPlace
        } else {
            Code::UnknownName
        };
        let what = if code == Code::UnknownPlace { "place" } else { "name" };
        self.error(
            Diagnostic::error(code, name.span, format!("unknown {what} `{}`", name.name))
                .label("not defined anywhere")
                .help(help.unwrap_or_else(|| "define it, or check the spelling".into())),
        );
    }

    fn binary(
        &mut self,
        op: ast::BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        cx: &mut Cx,
    ) -> (Expr, Ty) {
        use ast::BinaryOp as B;
        let (ax, aty) = self.value(a, cx);
        if op == B::Has {
            if !matches!(aty, Ty::Card | Ty::Zone | Ty::Unknown) {
                self.type_error(a.span, &Ty::Card, &aty, "`has`");
            }
            let bx = self.tag_expr(b, cx);
            return (Expr { kind: ExprKind::Binary(op, Box::new(ax), Box::new(bx)), span }, Ty::Bool);
        }
        let (bx, bty) = self.value(b, cx);
        let ty = match op {
            B::Or | B::And => {
                self.expect(&aty, &Ty::Bool, a.span, &format!("`{}`", op.symbol()));
                self.expect(&bty, &Ty::Bool, b.span, &format!("`{}`", op.symbol()));
                Ty::Bool
            }
            B::Eq | B::Ne => {
                if !fits(&aty, &bty) && !fits(&bty, &aty) {
                    let e = describe_ty(&aty, self);
                    let g = describe_ty(&bty, self);
                    self.error(
                        Diagnostic::error(Code::TypeMismatch, span, format!("cannot compare {e} with {g}"))
                            .label("these never match")
                            .help("compare values of the same type"),
                    );
                }
                Ty::Bool
            }
            B::Lt | B::Le | B::Gt | B::Ge => {
                self.expect(&aty, &Ty::Int, a.span, &format!("`{}`", op.symbol()));
                self.expect(&bty, &Ty::Int, b.span, &format!("`{}`", op.symbol()));
                Ty::Bool
            }
            B::Add | B::Sub | B::Mul | B::Div | B::Rem => {
                self.expect(&aty, &Ty::Int, a.span, &format!("`{}`", op.symbol()));
                self.expect(&bty, &Ty::Int, b.span, &format!("`{}`", op.symbol()));
                Ty::Int
            }
            B::Has => unreachable!("handled above"),
        };
        (Expr { kind: ExprKind::Binary(op, Box::new(ax), Box::new(bx)), span }, ty)
    }

    /// The right side of `has`: a tag name or a tag-valued expression.
    fn tag_expr(&mut self, e: &ast::Expr, cx: &mut Cx) -> Expr {
        if let ast::ExprKind::Name(n) = &e.kind {
            // After `has`, a tag's name means the tag, unless a local of
            // type tag shadows it.
            let local_tag = matches!(cx.lookup(&n.name), Some((Ty::Tag, _)));
            if !local_tag {
                if let Some(id) = self.tag_ids.get(&n.name) {
                    return Expr { kind: ExprKind::Tag(*id), span: e.span };
                }
            }
            if cx.lookup(&n.name).is_none() {
                if !self.quiet {
                    let help = help_for(&n.name, self.tags.iter().map(String::as_str));
                    self.error(
                        Diagnostic::error(Code::UnknownTag, e.span, format!("unknown tag `{}`", n.name))
                            .label("no component has this tag")
                            .help(help.unwrap_or_else(|| "tags come from the `tags` of components".into())),
                    );
                }
                return Expr { kind: ExprKind::Tag(TagId::default()), span: e.span };
            }
        }
        let (x, ty) = self.value(e, cx);
        self.expect(&ty, &Ty::Tag, e.span, "`has`");
        x
    }

    fn field(&mut self, base: &ast::Expr, field: &Ident, span: Span, cx: &mut Cx) -> (Expr, Ty) {
        let (bx, bty) = self.value(base, cx);
        let mk = |kind| Expr { kind, span };
        match bty {
            Ty::Player => match self.symbols.get(&field.name).copied() {
                Some((Sym::Zone(id), _)) if self.zones[id].per_player => {
                    self.used.insert(Sym::Zone(id));
                    let ty = match self.zones[id].index {
                        Some(c) => Ty::ZoneFamily(c),
                        None => Ty::Zone,
                    };
                    (mk(ExprKind::Zone { zone: id, player: Some(Box::new(bx)), index: None }), ty)
                }
                Some((Sym::Counter(id), _)) if self.counters[id].per_player => {
                    self.used.insert(Sym::Counter(id));
                    let c = &self.counters[id];
                    let ty = match c.index {
                        Some(class) => Ty::CounterFamily(class, Box::new(ty_of(&c.ty))),
                        None => ty_of(&c.ty),
                    };
                    (mk(ExprKind::Counter { counter: id, player: Some(Box::new(bx)), index: None }), ty)
                }
                Some((Sym::Piece(id), _)) if self.pieces[id].per_player => {
                    self.used.insert(Sym::Piece(id));
                    (mk(ExprKind::Piece { piece: id, player: Some(Box::new(bx)) }), Ty::Place(None))
                }
                _ => {
                    let owned: Vec<&str> = self
                        .zones
                        .iter()
                        .filter(|z| z.per_player)
                        .map(|z| z.name.as_str())
                        .chain(self.counters.iter().filter(|c| c.per_player).map(|c| c.name.as_str()))
                        .chain(self.pieces.iter().filter(|p| p.per_player).map(|p| p.name.as_str()))
                        .collect();
                    let help = help_for(&field.name, owned.iter().copied());
                    self.error(
                        Diagnostic::error(
                            Code::UnknownName,
                            field.span,
                            format!("players have no zone, counter or piece `{}`", field.name),
                        )
                        .label("not something each player has")
                        .help(help.unwrap_or_else(|| {
                            format!(
                                "each player has: {}",
                                if owned.is_empty() { "nothing yet".into() } else { owned.join(", ") }
                            )
                        })),
                    );
                    (mk(ExprKind::Int(0)), Ty::Unknown)
                }
            },
            Ty::Card => {
                let attr = self.attr_names.iter().position(|n| *n == field.name).map(AttrId::new);
                let Some(attr) = attr else {
                    let help = help_for(&field.name, self.attr_names.iter().map(String::as_str));
                    self.error(
                        Diagnostic::error(
                            Code::UnknownAttribute,
                            field.span,
                            format!("no kind has an attribute `{}`", field.name),
                        )
                        .label("unknown attribute")
                        .help(help.unwrap_or_else(|| "attributes are declared in `kind`".into())),
                    );
                    return (mk(ExprKind::Int(0)), Ty::Unknown);
                };
                // Components of different kinds may share an attribute name;
                // when they disagree on its type, the type is unknown.
                let mut ty: Option<Ty> = None;
                for k in &self.kinds {
                    if let Some(slot) = k.slot_of(attr) {
                        let t = ty_of(&k.slots[slot].1);
                        ty = match ty {
                            None => Some(t),
                            Some(prev) if fits(&prev, &t) && fits(&t, &prev) => Some(prev),
                            Some(_) => Some(Ty::Unknown),
                        };
                    }
                }
                (mk(ExprKind::Attr { card: Box::new(bx), attr }), ty.unwrap_or(Ty::Unknown))
            }
            Ty::Unknown => (mk(ExprKind::Int(0)), Ty::Unknown),
            other => {
                let d = describe_ty(&other, self);
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        field.span,
                        format!("{d} has no `.{}`", field.name),
                    )
                    .label("nothing to look up here")
                    .help("`.` follows a player (`me.tableau`) or a component (`c.weeks`)"),
                );
                (mk(ExprKind::Int(0)), Ty::Unknown)
            }
        }
    }

    fn index(&mut self, base: &ast::Expr, index: &ast::Expr, span: Span, cx: &mut Cx) -> (Expr, Ty) {
        let (mut bx, bty) = self.expr(base, cx);
        let (ix, ity) = self.value(index, cx);
        match bty {
            Ty::ZoneFamily(class) | Ty::CounterFamily(class, _) => {
                self.expect(&ity, &Ty::Place(Some(class)), index.span, "this index");
                let ty = match bty {
                    Ty::CounterFamily(_, inner) => *inner,
                    _ => Ty::Zone,
                };
                match &mut bx.kind {
                    ExprKind::Zone { index: slot, .. } | ExprKind::Counter { index: slot, .. } => {
                        *slot = Some(Box::new(ix))
                    }
                    _ => {}
                }
                bx.span = span;
                (bx, ty)
            }
            Ty::Table(id, given) => {
                let dims = self.tables[id].dims.len();
                if given >= dims {
                    self.error(
                        Diagnostic::error(
                            Code::TableIndex,
                            index.span,
                            format!(
                                "table `{}` has only {dims} dimension{}",
                                self.tables[id].name,
                                if dims == 1 { "" } else { "s" }
                            ),
                        )
                        .label("one index too many")
                        .help("remove this index"),
                    );
                    return (bx, Ty::Unknown);
                }
                self.expect(&ity, &Ty::Int, index.span, "a table index");
                if let ExprKind::Table { keys, .. } = &mut bx.kind {
                    keys.push(ix);
                }
                bx.span = span;
                let ty = if given + 1 == dims { Ty::Int } else { Ty::Table(id, given + 1) };
                (bx, ty)
            }
            Ty::Map(class, inner) => {
                self.expect(&ity, &Ty::Place(Some(class)), index.span, "this index");
                (Expr { kind: ExprKind::MapGet { map: Box::new(bx), key: Box::new(ix) }, span }, *inner)
            }
            Ty::Unknown => (bx, Ty::Unknown),
            other => {
                let d = describe_ty(&other, self);
                self.error(
                    Diagnostic::error(Code::TableIndex, span, format!("{d} cannot be indexed"))
                        .label("`[...]` does not apply here")
                        .help("index tables, per-place zones and counters, and maps"),
                );
                (bx, Ty::Unknown)
            }
        }
    }

    fn call(&mut self, name: &Ident, args: &[ast::Expr], span: Span, cx: &mut Cx) -> (Expr, Ty) {
        let lowered: Vec<(Expr, Ty, Span)> = args
            .iter()
            .map(|a| {
                let (x, t) = self.value(a, cx);
                (x, t, a.span)
            })
            .collect();
        let mk = |kind| Expr { kind, span };
        let builtin = match name.name.as_str() {
            "min" => Some(Builtin::Min),
            "max" => Some(Builtin::Max),
            "abs" => Some(Builtin::Abs),
            "distance" => Some(Builtin::Distance),
            "count" => Some(Builtin::Count),
            _ => None,
        };
        if let Some(b) = builtin {
            let (params, ty): (Vec<Ty>, Ty) = match b {
                Builtin::Min | Builtin::Max => {
                    if lowered.is_empty() {
                        self.error(
                            Diagnostic::error(
                                Code::Arity,
                                span,
                                format!("`{}` needs at least one value", name.name),
                            )
                            .label("nothing to compare")
                            .help(format!("write `{}(a, b)`", name.name)),
                        );
                    }
                    (vec![Ty::Int; lowered.len()], Ty::Int)
                }
                Builtin::Abs => (vec![Ty::Int], Ty::Int),
                Builtin::Distance => (vec![Ty::Place(None), Ty::Place(None)], Ty::Int),
                Builtin::Count => (vec![Ty::Zone], Ty::Int),
            };
            self.check_args(name, &params, &lowered, span);
            let args = lowered.into_iter().map(|(x, _, _)| x).collect();
            return (mk(ExprKind::Builtin(b, args)), ty);
        }
        match self.symbols.get(&name.name).copied() {
            Some((Sym::Let(id), _)) => {
                self.used.insert(Sym::Let(id));
                let params = self.let_param_tys[id.index()].clone();
                self.check_args(name, &params, &lowered, span);
                let ty = self.let_type(id);
                (mk(ExprKind::Let { id, args: lowered.into_iter().map(|(x, _, _)| x).collect() }), ty)
            }
            Some((sym, _)) => {
                self.error(
                    Diagnostic::error(
                        Code::UnknownFunction,
                        name.span,
                        format!("`{}` is a {}, not a function", name.name, sym.noun()),
                    )
                    .label("cannot be called")
                    .help(
                        "functions are lets with parameters and the built-ins min, max, abs, distance, count",
                    ),
                );
                (mk(ExprKind::Int(0)), Ty::Unknown)
            }
            None => {
                if !self.quiet {
                    let mut names: Vec<String> = FUNCTIONS.iter().map(|s| s.to_string()).collect();
                    names.extend(
                        self.symbols
                            .iter()
                            .filter(|(_, (s, _))| matches!(s, Sym::Let(_)))
                            .map(|(n, _)| n.clone()),
                    );
                    let help = help_for(&name.name, names.iter().map(String::as_str));
                    self.error(
                        Diagnostic::error(
                            Code::UnknownFunction,
                            name.span,
                            format!("unknown function `{}`", name.name),
                        )
                        .label("no let or built-in has this name")
                        .help(
                            help.unwrap_or_else(|| format!("define it with `let {}(...) = ...`", name.name)),
                        ),
                    );
                }
                (mk(ExprKind::Int(0)), Ty::Unknown)
            }
        }
    }

    // ------------------------------------------------ whole-ruleset checks

    /// All-pairs distances, and an error for every place no route reaches.
    fn reachability(&mut self) -> Vec<Vec<Option<u32>>> {
        let n = self.places.len();
        let mut adj: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
        for r in &self.routes {
            adj[r.a.index()].push((r.b.index(), r.steps));
            adj[r.b.index()].push((r.a.index(), r.steps));
        }
        let dist: Vec<Vec<Option<u32>>> = (0..n).map(|s| dijkstra(&adj, s)).collect();
        if n > 1 && !self.broken_route && (!self.routes.is_empty() || !self.pieces.is_empty()) {
            let start = self.pieces.first().map_or(PlaceId::default(), |p| p.start);
            let start_name = self.places[start].name.clone();
            for (id, d) in dist[start.index()].iter().enumerate() {
                if d.is_none() {
                    let p = &self.places[id];
                    let (name, span) = (p.name.clone(), p.span);
                    self.error(
                        Diagnostic::error(
                            Code::Unreachable,
                            span,
                            format!("no route reaches `{name}` from `{start_name}`"),
                        )
                        .label("unreachable place")
                        .help(format!("add a route such as `route {name} - {start_name}`")),
                    );
                }
            }
        }
        dist
    }

    fn procedure_recursion(&mut self) {
        let n = self.procedure_calls.len();
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut state = vec![0u8; n];
        for start in ProcedureId::all(n) {
            if state[start.index()] == 0 {
                self.visit_procedure(start, &mut state);
            }
        }
    }

    fn visit_procedure(&mut self, id: ProcedureId, state: &mut [u8]) {
        state[id.index()] = 1;
        for (callee, span) in self.procedure_calls[id.index()].clone() {
            match state[callee.index()] {
                1 => {
                    let name =
                        self.procedures[callee.index()].as_ref().map_or(String::new(), |p| p.name.clone());
                    self.error(
                        Diagnostic::error(Code::Recursion, span, format!("`{name}` ends up calling itself"))
                            .label("this call closes a loop")
                            .help("procedures may not call themselves, directly or through others; use `repeat while`"),
                    );
                }
                0 => self.visit_procedure(callee, state),
                _ => {}
            }
        }
        state[id.index()] = 2;
    }

    fn required_items(&mut self, file: &ast::File, has_turns: bool, has_end: bool) {
        if self.quiet {
            return;
        }
        let start = Span::new(0, 0);
        if file.items.is_empty() {
            self.error(
                Diagnostic::error(Code::MissingGame, start, "the file has no rules")
                    .label("empty")
                    .help("a ruleset starts with `game NAME \"Title\" { players 2..4 }`"),
            );
            return;
        }
        let at = file.items.first().map_or(start, head_span);
        if self.game.is_none() {
            self.error(
                Diagnostic::error(Code::MissingGame, at, "the ruleset has no `game`")
                    .label("expected `game` before this")
                    .help("start the file with `game NAME \"Title\" { players 2..4 }`"),
            );
        }
        if !has_turns {
            self.error(
                Diagnostic::error(Code::MissingTurns, at, "the ruleset does not say who moves next")
                    .label("no `turns` in this file")
                    .help("add `turns clockwise` or `turns by lowest COUNTER`"),
            );
        }
        if !has_end {
            self.error(
                Diagnostic::error(Code::MissingEnd, at, "the ruleset never ends")
                    .label("no `end when` in this file")
                    .help("add `end when CONDITION`"),
            );
        }
        if self.actions.is_empty() {
            self.error(
                Diagnostic::error(Code::NoActions, at, "players have nothing to do")
                    .label("no `action` in this file")
                    .help("add `action NAME(...) { ... }`"),
            );
        }
        if self.scores.is_empty() {
            self.error(
                Diagnostic::error(Code::NoScore, at, "nobody can score")
                    .label("no `score` in this file")
                    .help("add `score NAME = EXPRESSION`"),
            );
        }
    }

    /// A let of a player (or of a player and a place) is shown to players
    /// by `play` and written to the log: that is a use.
    fn displayed(&self, sym: Sym) -> bool {
        let Sym::Let(id) = sym else { return false };
        let tys = &self.let_param_tys[id.index()];
        matches!(tys.as_slice(), [Ty::Player] | [Ty::Player, Ty::Place(Some(_))])
    }

    fn unused(&mut self) {
        let mut found: Vec<(Span, String, &'static str)> = Vec::new();
        for (name, (sym, span)) in &self.symbols {
            let check = matches!(
                sym,
                Sym::Option(_)
                    | Sym::Kind(_)
                    | Sym::Group(_)
                    | Sym::Zone(_)
                    | Sym::Counter(_)
                    | Sym::Piece(_)
                    | Sym::Table(_)
                    | Sym::Let(_)
                    | Sym::Procedure(_)
            );
            if check && !self.used.contains(sym) && !self.displayed(*sym) {
                found.push((*span, name.clone(), sym.noun()));
            }
        }
        found.sort_by_key(|(s, _, _)| s.start);
        for (span, name, noun) in found {
            let help = match noun {
                "component group" => "move its components into a zone in `setup`, or delete it",
                "option" => "use it in a rule, or delete it",
                _ => "use it, or delete it",
            };
            self.diags.push(
                Diagnostic::warning(Code::Unused, span, format!("{noun} `{name}` is never used"))
                    .label("defined but not used")
                    .help(help),
            );
        }
    }
}

// ----------------------------------------------------------------- helpers

fn head_span(item: &ast::Item) -> Span {
    // The first line of an item is enough to point at.
    Span::in_file(item.span.file, item.span.start, item.span.start + 1)
}

fn covered(seen: &HashMap<i64, Span>) -> String {
    let counts: BTreeSet<i64> = seen.keys().copied().collect();
    if counts.is_empty() {
        "no player count".into()
    } else {
        let list: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
        format!("{} players", list.join(", "))
    }
}

fn default_for(ty: &Type, given: Value) -> Value {
    if given != Value::None {
        return given;
    }
    match ty {
        Type::Tags => Value::Tags(Vec::new()),
        Type::Map(..) => Value::Map(Vec::new()),
        _ => Value::None,
    }
}

fn ty_of(t: &Type) -> Ty {
    match t {
        Type::Int { .. } => Ty::Int,
        Type::Bool => Ty::Bool,
        Type::Text => Ty::Text,
        Type::Tag => Ty::Tag,
        Type::Tags => Ty::Tags,
        Type::Player => Ty::Player,
        Type::Place(c) => Ty::Place(*c),
        Type::Card => Ty::Card,
        Type::Map(c, inner) => Ty::Map(*c, Box::new(ty_of(inner))),
        Type::Optional(inner) => ty_of(inner),
    }
}

/// Whether a value of type `got` may stand where `expected` is wanted.
fn fits(expected: &Ty, got: &Ty) -> bool {
    match (expected, got) {
        (Ty::Unknown, _) | (_, Ty::Unknown) => true,
        (Ty::Place(_), Ty::NoneLit) | (Ty::Player, Ty::NoneLit) | (Ty::Card, Ty::NoneLit) => true,
        (Ty::NoneLit, Ty::Place(_) | Ty::Player | Ty::Card | Ty::NoneLit) => true,
        (Ty::Place(None), Ty::Place(_)) | (Ty::Place(_), Ty::Place(None)) => true,
        (Ty::Map(a, x), Ty::Map(b, y)) => a == b && fits(x, y),
        (a, b) => a == b,
    }
}

fn describe_ty(t: &Ty, c: &Checker) -> String {
    match t {
        Ty::Int => "a number".into(),
        Ty::Bool => "yes/no".into(),
        Ty::Text => "a text".into(),
        Ty::Tag => "a tag".into(),
        Ty::Tags => "a list of tags".into(),
        Ty::Player => "a player".into(),
        Ty::Place(Some(class)) => format!("a {}", c.classes[*class].name),
        Ty::Place(None) => "a place".into(),
        Ty::Card => "a component".into(),
        Ty::Zone => "a zone".into(),
        Ty::Map(class, _) => format!("a map by {}", c.classes[*class].name),
        Ty::NoneLit => "`none`".into(),
        Ty::Unknown => "something".into(),
        Ty::Domain(inner) => format!("a collection of {}", describe_ty(inner, c).trim_start_matches("a ")),
        Ty::ZoneFamily(class) => format!("one zone per {}", c.classes[*class].name),
        Ty::CounterFamily(class, _) => format!("one counter per {}", c.classes[*class].name),
        Ty::Table(id, _) => format!("the table `{}`", c.tables[*id].name),
    }
}

fn describe_value(v: &ast::Value) -> String {
    match &v.kind {
        ValueKind::Int(n) => format!("the number {n}"),
        ValueKind::Bool(b) => format!("`{}`", if *b { "yes" } else { "no" }),
        ValueKind::None => "`none`".into(),
        ValueKind::Text(t) => format!("the text \"{t}\""),
        ValueKind::Name(n) => format!("`{n}`"),
        ValueKind::List(_) => "a list".into(),
        ValueKind::Map(_) => "a map".into(),
    }
}

fn dijkstra(adj: &[Vec<(usize, u32)>], source: usize) -> Vec<Option<u32>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut dist: Vec<Option<u32>> = vec![None; adj.len()];
    let mut heap = BinaryHeap::new();
    dist[source] = Some(0);
    heap.push(Reverse((0u32, source)));
    while let Some(Reverse((d, u))) = heap.pop() {
        if dist[u].is_some_and(|best| d > best) {
            continue;
        }
        for &(v, w) in &adj[u] {
            let nd = d.saturating_add(w);
            if dist[v].is_none_or(|best| nd < best) {
                dist[v] = Some(nd);
                heap.push(Reverse((nd, v)));
            }
        }
    }
    dist
}
