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

mod data;
mod decls;
pub mod errors;
mod expr;
mod grid;
mod scope;
mod stmt;
mod tables;
mod types;
mod whole;

use scope::{Cx, Sym};
use tables::*;
use types::*;
use whole::*;

/// Check a parsed file. `syntax_failed` says that some items could not be
/// parsed: names may then be defined in the broken part, so unknown-name
/// errors and unused warnings are held back.
pub fn check(file: &ast::File, syntax_failed: bool) -> (Option<Ruleset>, Vec<Provenance>, Vec<Diagnostic>) {
    crate::suggest::reset_budget();
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
    /// Each route's pair of places (the lower id first) and where it is.
    route_pairs: HashMap<(PlaceId, PlaceId), Span>,
    /// Tables whose declaration failed: reading them reports nothing more.
    broken_tables: HashSet<TableId>,
    /// Where `end turn` is written.
    ends_turn: Vec<Span>,
    /// Routes past `MAX_ROUTES` were found (and reported, once).
    too_many_routes: bool,
    /// A route named a place that does not exist: reachability would only
    /// repeat that error.
    broken_route: bool,
    tags: Vec<String>,
    tag_ids: HashMap<String, TagId>,
    /// The ruleset lists its tags with `tag`: components may use only those.
    declared_tags: bool,
    /// Tags written on components but missing from the `tag` list: already
    /// reported there, so their uses in rules are not reported again.
    undeclared_tags: std::collections::HashSet<String>,
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
    /// The component limit was reported (once).
    too_many_components: bool,
    current_procedure: Option<ProcedureId>,
    /// How deep expression lowering has recursed (see `expr`).
    depth: usize,
    /// The deepest `depth` reached, counting the depth of lets read.
    peak: usize,
    /// How deep each let's body goes, its reads of lets included.
    let_depth: Vec<usize>,
    /// `MAX_EVAL_DEPTH` was passed and said once.
    depth_reported: bool,
    actions: Vec<Action>,
    scores: Vec<Score>,
    provenance: Vec<Provenance>,
}

const BUILTIN_NAMES: &[&str] = &["me", "players", "player_count"];

const FUNCTIONS: &[&str] = &[
    "min",
    "max",
    "abs",
    "distance",
    "count",
    "slots",
    "sum",
    "any",
    "all",
    "first",
    "at",
    "rotate",
    "around",
    "connected",
];
const MAX_PLAYERS: i64 = 16;
const MAX_TABLE_CELLS: i64 = 100_000;
/// The most components a ruleset may have, every copy counted
/// (docs/limits.md); the bundled games have 190 to 250.
pub const MAX_COMPONENTS: usize = 100_000;
/// The most places a ruleset may declare: the checker works out the
/// distance between every two (a table of places squared).
pub const MAX_PLACES: usize = 2_000;
/// The most routes a ruleset may declare: distances are found from every
/// place, so the work is places times routes.
pub const MAX_ROUTES: usize = 10_000;
/// The actions a game may take unless its `game` item says (docs/limits.md).
pub const DEFAULT_MAX_ACTIONS: u64 = 10_000;
/// The most a `game` item may allow.
pub const MAX_ACTIONS: u64 = 1_000_000;
/// Expressions inside expressions, counted through the lets they read: the
/// engine evaluates them recursively, so deeper is refused at check time.
/// (One written expression may nest 256 deep: `parser::MAX_DEPTH`.)
pub const MAX_EVAL_DEPTH: usize = 512;
/// Procedures calling procedures, each inside the one before.
pub const MAX_CALL_CHAIN: usize = 64;
/// The most values one action parameter may take (docs/limits.md).
pub const MAX_PARAM_VALUES: u128 = 10_000;
/// The most combinations of parameter values one action may have.
pub const MAX_COMBINATIONS: u128 = 4_000_000;

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
            route_pairs: HashMap::new(),
            too_many_routes: false,
            ends_turn: Vec::new(),
            broken_tables: HashSet::new(),
            broken_route: false,
            tags: Vec::new(),
            tag_ids: HashMap::new(),
            declared_tags: false,
            undeclared_tags: std::collections::HashSet::new(),
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
            too_many_components: false,
            current_procedure: None,
            depth: 0,
            peak: 0,
            let_depth: Vec::new(),
            depth_reported: false,
            actions: Vec::new(),
            scores: Vec::new(),
            provenance: Vec::new(),
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn run(&mut self, file: &'f ast::File) -> Option<Ruleset> {
        use ItemKind as K;
        let mut setup_items = Vec::new();
        let mut turns_items = Vec::new();
        let mut end_items = Vec::new();
        let mut tiebreak_items = Vec::new();
        let mut hook_items = Vec::new();

        // Named rules (`rule NAME { ... }`) are found by their name alone,
        // wherever they are: a name may be given once.
        let mut rules: HashMap<&str, Span> = HashMap::new();
        for body in file.items.iter().filter_map(ast::Item::body) {
            let mut names = Vec::new();
            body.rule_names(&mut names);
            for n in names {
                match rules.get(n.name.as_str()) {
                    Some(prev) => self.error(errors::defined_twice(n, "rule", *prev, "rule")),
                    None => {
                        rules.insert(&n.name, n.span);
                    }
                }
            }
        }

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
                K::Extends(..)
                | K::Remove { .. }
                | K::TableCell { .. }
                | K::PlayersCase(..)
                | K::Rule(..) => {}
                K::Game(_) | K::Option(_) | K::Place(_) | K::Tags(_) => {}
                K::Route(r) => route_items.push((r, item)),
                K::Kind(k) => {
                    let id = KindId::new(self.kinds.len());
                    if self.declare(&k.name, Sym::Kind(id)) {
                        self.kinds.push(Kind {
                            name: k.name.name.clone(),
                            slots: Vec::new(),
                            back: Vec::new(),
                            shown: Vec::new(),
                            span: k.name.span,
                            slot_spans: Vec::new(),
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
                            label: z.label.clone(),
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
                            bookkeeping: cd.bookkeeping,
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
                        self.let_depth.push(0);
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
                            asked: a.asked,
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
        if let (Some(policy), Some((t, _))) = (&turns, turns_items.first()) {
            self.turn_structure(policy, t);
        }
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
            if let Some(s) = &setup {
                self.row_fill(&s.stmts);
            }
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
            self.error(errors::single_item_twice(what, head_span(item), head_span(first.1)));
        }
        Some(lower(self, (&first.0, first.1)))
    }

    // --------------------------------------------------- signatures, lets

    // ------------------------------------------------------ expressions
}
