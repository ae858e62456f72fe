//! pest pairs to the syntax tree: one lowering function per construct.
//! Expressions are in `expr`.

use pest::iterators::{Pair, Pairs};

use super::keywords::is_silent as is_keyword;
use super::Rule;
use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::{Ident, Span};

/// What an item's lowering function reads: the item's parts, keywords and
/// notes taken out.
type Items<'i> = std::vec::IntoIter<Pair<'i, Rule>>;

/// Pairs to AST: one function per grammar construct.
pub(super) struct Lower<'d> {
    pub(super) offset: usize,
    pub(super) file: usize,
    pub(super) diags: &'d mut Vec<Diagnostic>,
}

impl Lower<'_> {
    pub(super) fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::in_file(self.file, self.offset + s.start(), self.offset + s.end())
    }

    pub(super) fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident { name: pair.as_str().to_string(), span: self.span(&pair) }
    }

    pub(super) fn int(&mut self, pair: Pair<Rule>) -> (i64, Span) {
        let span = self.span(&pair);
        match pair.as_str().parse::<i64>() {
            Ok(v) if v.abs() <= 1_000_000_000 => (v, span),
            _ => {
                self.diags.push(
                    Diagnostic::error(Code::BadNumber, span, "number is too large")
                        .label("not between -1000000000 and 1000000000")
                        .help("rulesets count cards, weeks and points; use a smaller number"),
                );
                (0, span)
            }
        }
    }

    pub(super) fn string(&self, pair: Pair<Rule>) -> String {
        pair.into_inner().next().map_or("", |p| p.as_str()).to_string()
    }

    pub(super) fn file(&mut self, mut pairs: Pairs<Rule>) -> File {
        let mut file = File::default();
        let Some(top) = pairs.next() else { return file };
        for pair in top.into_inner() {
            if pair.as_rule() == Rule::EOI {
                continue;
            }
            file.items.push(self.item(pair));
        }
        file
    }

    pub(super) fn note(&self, pair: Pair<Rule>) -> Note {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let kw = inner.next().expect("grammar: note starts with a keyword");
        let kind = if kw.as_rule() == Rule::kw_source { NoteKind::Source } else { NoteKind::Provisional };
        let text = inner.next().map(|s| self.string(s)).unwrap_or_default();
        Note { kind, text, span }
    }

    pub(super) fn item(&mut self, pair: Pair<Rule>) -> Item {
        if pair.as_rule() == Rule::override_item {
            let span = self.span(&pair);
            let mut inner = pair.into_inner();
            let kw = inner.next().expect("grammar: override keyword");
            let kw_span = self.span(&kw);
            let mut item = self.item(inner.next().expect("grammar: overridden item"));
            item.span = span;
            item.overrides = Some(kw_span);
            return item;
        }
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut notes = Vec::new();
        // Keywords carry no information once the rule is known.
        let mut inner: Vec<Pair<Rule>> = pair.into_inner().filter(|p| !is_keyword(p.as_rule())).collect();
        while let Some(pos) = inner.iter().position(|p| p.as_rule() == Rule::note) {
            let note = self.note(inner.remove(pos));
            notes.push(note);
        }
        let it = inner.into_iter();
        let kind = match rule {
            Rule::extends_item => self.extends_item(it),
            Rule::remove_item => self.remove_item(it),
            Rule::table_cell => self.table_cell(it),
            Rule::players_case_item => {
                let mut name = None;
                let mut case = None;
                for p in it {
                    match p.as_rule() {
                        Rule::ident => name = Some(self.ident(p)),
                        _ => case = Some(self.player_case(p)),
                    }
                }
                ItemKind::PlayersCase(name, case.expect("grammar: the case"))
            }
            Rule::rule_stmt => {
                let mut it = it;
                let name = self.ident(it.next().expect("grammar: rule name"));
                let body = self.block(it.next().expect("grammar: rule body"));
                ItemKind::Rule(name, body)
            }
            Rule::game_item => self.game_item(it, &mut notes),
            Rule::option_item => self.option_item(it),
            Rule::place_item => self.place_item(it, false),
            Rule::enum_item => self.place_item(it, true),
            Rule::route_item => self.route_item(it),
            Rule::tag_item => self.tag_item(it),
            Rule::kind_item => self.kind_item(it),
            Rule::group_item => self.group(it),
            Rule::zone_item => self.zone(it),
            Rule::counter_item => self.counter_item(it),
            Rule::piece_item => self.piece_item(it),
            Rule::table_item => self.table(it),
            Rule::let_item => self.let_item(it),
            Rule::procedure_item => self.procedure_item(it),
            Rule::setup_item => self.setup_item(it),
            Rule::turns_item => self.turns_item(it),
            Rule::action_item => self.action_item(it),
            Rule::hook_item => self.hook_item(it),
            Rule::end_item => self.end_item(it),
            Rule::tiebreak_item => self.tiebreak_item(it),
            Rule::score_item => self.score_item(it),
            other => unreachable!("grammar: {other:?} is not an item"),
        };
        Item::new(kind, span, notes)
    }

    pub(super) fn extends_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let path = it.next().expect("grammar: extends path");
        let pspan = self.span(&path);
        ItemKind::Extends(self.string(path), pspan)
    }

    pub(super) fn remove_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let what = self.ident(it.next().expect("grammar: remove what"));
        let name = self.ident(it.next().expect("grammar: remove name"));
        let instance = it.next().map(|p| {
            let span = self.span(&p);
            let name = if p.as_rule() == Rule::string { self.string(p) } else { p.as_str().to_string() };
            Ident { name, span }
        });
        ItemKind::Remove { what, name, instance }
    }

    pub(super) fn table_cell(&mut self, mut it: Items<'_>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: table name"));
        let mut ints: Vec<(i64, Span)> = it.map(|p| self.int(p)).collect();
        let value = ints.pop().expect("grammar: cell value");
        ItemKind::TableCell { name, keys: ints, value }
    }

    pub(super) fn game_item(&mut self, mut it: Items<'_>, notes: &mut Vec<Note>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: game name"));
        let mut title = None;
        let mut players = None;
        let mut actions = None;
        for p in it {
            match p.as_rule() {
                Rule::string => title = Some(self.string(p)),
                Rule::game_field => {
                    let f = p
                        .into_inner()
                        .find(|p| p.as_rule() != Rule::kw_players && p.as_rule() != Rule::kw_actions);
                    if let Some(f) = f {
                        let s = self.span(&f);
                        match f.as_rule() {
                            Rule::note => notes.push(self.note(f)),
                            Rule::int => actions = Some(self.int(f)),
                            _ => players = Some((self.range(f), s)),
                        }
                    }
                }
                _ => {}
            }
        }
        ItemKind::Game(Game { name, title, players, actions })
    }

    pub(super) fn option_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: option name"));
        let value = self.literal(it.next().expect("grammar: option value"));
        ItemKind::Option(OptionDecl { name, value })
    }

    pub(super) fn place_item(&mut self, mut it: Items<'_>, enumeration: bool) -> ItemKind {
        let class = self.ident(it.next().expect("grammar: place class"));
        let list = it.next().expect("grammar: place names");
        if list.as_rule() == Rule::grid_size {
            let span = self.span(&list);
            let sizes: Vec<Pair<Rule>> = list.into_inner().filter(|p| p.as_rule() == Rule::int).collect();
            let mut sizes = sizes.into_iter().map(|p| self.int(p).0);
            let (width, height) = (sizes.next().unwrap_or(0), sizes.next().unwrap_or(0));
            let grid = Some((width, height, span));
            return ItemKind::Place(PlaceDecl { class, places: Vec::new(), enumeration, grid });
        }
        let places = self.ident_list(list);
        ItemKind::Place(PlaceDecl { class, places, enumeration, grid: None })
    }

    pub(super) fn route_item(&mut self, it: Items<'_>) -> ItemKind {
        ItemKind::Route(it.map(|e| self.route_edge(e)).collect())
    }

    pub(super) fn tag_item(&mut self, mut it: Items<'_>) -> ItemKind {
        ItemKind::Tags(self.ident_list(it.next().expect("grammar: tag names")))
    }

    pub(super) fn kind_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: kind name"));
        let attrs = it.map(|a| self.attr_decl(a)).collect();
        ItemKind::Kind(KindDecl { name, attrs })
    }

    pub(super) fn counter_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: counter name"));
        let mut index = None;
        let mut per_player = false;
        let mut ty = None;
        let mut init = None;
        let mut bookkeeping = false;
        for p in it {
            match p.as_rule() {
                Rule::index_decl => index = Some(self.index_decl(p)),
                Rule::per_player => per_player = true,
                Rule::type_expr => ty = Some(self.type_expr(p)),
                Rule::bookkeeping => bookkeeping = true,
                Rule::expr => init = Some(self.expr(p)),
                _ => {}
            }
        }
        let init = init.expect("grammar: counter initial value");
        ItemKind::Counter(CounterDecl { name, index, per_player, ty, init, bookkeeping })
    }

    pub(super) fn piece_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: piece name"));
        let mut per_player = false;
        let mut start = None;
        for p in it {
            match p.as_rule() {
                Rule::per_player => per_player = true,
                Rule::ident => start = Some(self.ident(p)),
                _ => {}
            }
        }
        let start = start.expect("grammar: piece start place");
        ItemKind::Piece(PieceDecl { name, per_player, start })
    }

    pub(super) fn let_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: let name"));
        let mut params = None;
        let mut body = None;
        let mut bookkeeping = false;
        for p in it {
            match p.as_rule() {
                Rule::params => params = Some(self.params(p)),
                Rule::bookkeeping => bookkeeping = true,
                Rule::expr => body = Some(self.expr(p)),
                _ => {}
            }
        }
        let body = body.expect("grammar: let body");
        ItemKind::Let(LetDecl { name, params, body, bookkeeping })
    }

    pub(super) fn procedure_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: procedure name"));
        let params = self.params(it.next().expect("grammar: procedure params"));
        let body = self.block(it.next().expect("grammar: procedure body"));
        ItemKind::Procedure(ProcedureDecl { name, params, body })
    }

    pub(super) fn setup_item(&mut self, mut it: Items<'_>) -> ItemKind {
        ItemKind::Setup(self.block(it.next().expect("grammar: setup body")))
    }

    pub(super) fn turns_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let policy = it.next().expect("grammar: turn policy");
        let span = self.span(&policy);
        let parts: Vec<_> = policy.into_inner().collect();
        let until_end_turn = parts.iter().any(|p| p.as_rule() == Rule::until_end_turn);
        match parts.into_iter().find(|p| p.as_rule() == Rule::ident) {
            Some(c) => ItemKind::Turns(TurnPolicy::LowestCounter(self.ident(c))),
            None => ItemKind::Turns(TurnPolicy::Clockwise { span, until_end_turn }),
        }
    }

    pub(super) fn action_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: action name"));
        let mut params = Vec::new();
        let mut body = None;
        let mut asked = false;
        for p in it {
            match p.as_rule() {
                Rule::params => params = self.params(p),
                Rule::when_asked => asked = true,
                Rule::block => body = Some(self.block(p)),
                _ => {}
            }
        }
        let body = body.expect("grammar: action body");
        ItemKind::Action(ActionDecl { name, params, asked, body })
    }

    pub(super) fn hook_item(&mut self, mut it: Items<'_>) -> ItemKind {
        ItemKind::AfterAction(self.block(it.next().expect("grammar: hook body")))
    }

    pub(super) fn end_item(&mut self, mut it: Items<'_>) -> ItemKind {
        ItemKind::End(self.expr(it.next().expect("grammar: end condition")))
    }

    pub(super) fn tiebreak_item(&mut self, it: Items<'_>) -> ItemKind {
        ItemKind::Tiebreak(
            it.filter(|p| p.as_rule() == Rule::tiebreak_key)
                .map(|k| {
                    let mut kk = k.into_inner();
                    let lowest = kk.next().expect("grammar: lowest or highest").as_rule() == Rule::kw_lowest;
                    TiebreakKey { lowest, by: self.expr(kk.next().expect("grammar: tiebreak key")) }
                })
                .collect(),
        )
    }

    pub(super) fn score_item(&mut self, mut it: Items<'_>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: score name"));
        let mut index = None;
        let mut form = None;
        for p in it {
            match p.as_rule() {
                Rule::score_index => {
                    let param = p.into_inner().next().expect("grammar: score index");
                    index = Some(self.param(param));
                }
                Rule::expr => form = Some(ScoreForm::Expr(self.expr(p))),
                Rule::score_majority => {
                    let span = self.span(&p);
                    let mut inner = p.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    let measure = self.expr(inner.next().expect("grammar: majority measure"));
                    let fields = inner.map(|f| self.field(f)).collect();
                    form = Some(ScoreForm::Majority { measure, fields, span });
                }
                _ => {}
            }
        }
        let form = form.expect("grammar: score form");
        ItemKind::Score(ScoreDecl { name, index, form })
    }

    pub(super) fn range(&mut self, pair: Pair<Rule>) -> RangeLit {
        let mut inner = pair.into_inner();
        let lo = inner.next().map(|p| self.int(p).0).unwrap_or(0);
        let hi = inner.next().map(|p| self.int(p).0);
        RangeLit { lo, hi }
    }

    pub(super) fn ident_list(&self, pair: Pair<Rule>) -> Vec<Ident> {
        pair.into_inner().map(|p| self.ident(p)).collect()
    }

    pub(super) fn route_edge(&mut self, pair: Pair<Rule>) -> RouteEdge {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let a = self.ident(inner.next().expect("grammar: route start"));
        let b = self.ident(inner.next().expect("grammar: route end"));
        let steps = inner.next().map(|p| self.int(p));
        RouteEdge { a, b, steps, span }
    }

    pub(super) fn attr_decl(&mut self, pair: Pair<Rule>) -> AttrDecl {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().expect("grammar: attribute name"));
        let ty = self.type_expr(inner.next().expect("grammar: attribute type"));
        let mut on_back = false;
        let mut shown = false;
        let mut default = None;
        for p in inner {
            match p.as_rule() {
                Rule::on_back => on_back = true,
                Rule::shown => shown = true,
                _ => default = Some(self.value(p)),
            }
        }
        AttrDecl { name, ty, default, on_back, shown }
    }

    pub(super) fn type_expr(&mut self, pair: Pair<Rule>) -> TypeExpr {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let first = inner.next().expect("grammar: type");
        let kind = match first.as_rule() {
            Rule::range => TypeKind::Range(self.range(first)),
            Rule::map_type => {
                let mut m = first.into_inner();
                let key = self.ident(m.next().expect("grammar: map key"));
                let value = self.type_expr(m.next().expect("grammar: map value"));
                TypeKind::Map(key, Box::new(value))
            }
            _ => {
                let named = TypeExpr { kind: TypeKind::Named(self.ident(first)), span };
                if inner.next().is_some() {
                    TypeKind::Optional(Box::new(named))
                } else {
                    named.kind
                }
            }
        };
        TypeExpr { kind, span }
    }

    pub(super) fn group<'i>(&mut self, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> ItemKind {
        let noun = it.next().expect("grammar: group noun").as_str().to_string();
        let name = self.ident(it.next().expect("grammar: group name"));
        let mut kind = None;
        let mut total = None;
        let mut instances = Vec::new();
        let mut removals = Vec::new();
        for p in it {
            match p.as_rule() {
                Rule::ident => kind = Some(self.ident(p)),
                Rule::int => total = Some(self.int(p)),
                Rule::instance => instances.push(self.instance(p)),
                Rule::instance_removal => {
                    let target = p.into_inner().find(|p| matches!(p.as_rule(), Rule::string | Rule::ident));
                    if let Some(t) = target {
                        let span = self.span(&t);
                        let name =
                            if t.as_rule() == Rule::string { self.string(t) } else { t.as_str().to_string() };
                        removals.push(Ident { name, span });
                    }
                }
                _ => {}
            }
        }
        ItemKind::Group(GroupDecl { noun, name, kind, total, instances, removals })
    }

    pub(super) fn instance(&mut self, pair: Pair<Rule>) -> Instance {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let first = inner.next().expect("grammar: instance name");
        let name = if first.as_rule() == Rule::string {
            let span = self.span(&first);
            Ident { name: self.string(first), span }
        } else {
            self.ident(first)
        };
        let mut count = None;
        let mut fields = Vec::new();
        let mut notes = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::count => {
                    let span = self.span(&p);
                    let n = p.as_str()[1..].parse::<i64>().unwrap_or(i64::MAX);
                    if n > 100_000 {
                        self.diags.push(
                            Diagnostic::error(Code::BadNumber, span, "count is too large")
                                .label("more than 100000 copies")
                                .help("a component may have at most 100000 copies"),
                        );
                        count = Some((1, span));
                    } else {
                        count = Some((n, span));
                    }
                }
                Rule::field => fields.push(self.field(p)),
                Rule::note => notes.push(self.note(p)),
                _ => {}
            }
        }
        Instance { name, count, fields, notes, span }
    }

    /// `2, 3: { ... }`.
    pub(super) fn player_case(&mut self, case: Pair<Rule>) -> PlayerCase {
        let mut counts = Vec::new();
        let mut body = None;
        for p in case.into_inner() {
            match p.as_rule() {
                Rule::int => counts.push(self.int(p)),
                _ => body = Some(self.block(p)),
            }
        }
        let body = body.expect("grammar: player case body");
        PlayerCase { counts, body }
    }

    pub(super) fn zone<'i>(&mut self, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: zone name"));
        let mut index = None;
        let mut zone_kind = None;
        let mut per_player = None;
        let mut visible = None;
        let mut slots = None;
        let mut overflow = None;
        let mut label = None;
        for p in it {
            match p.as_rule() {
                Rule::index_decl => index = Some(self.index_decl(p)),
                Rule::ident => zone_kind = Some(self.ident(p)),
                Rule::zone_option => {
                    let opt = p.into_inner().next().expect("grammar: zone option");
                    let span = self.span(&opt);
                    let rule = opt.as_rule();
                    let mut inner = opt.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    match rule {
                        Rule::per_player => per_player = Some(span),
                        Rule::visibility => {
                            visible = inner.next().map(|p| self.ident(p));
                        }
                        Rule::overflow => overflow = inner.next().map(|p| self.ident(p)),
                        Rule::zone_label => label = inner.next().map(|p| self.string(p)),
                        Rule::slots => {
                            let v = inner.next().expect("grammar: slots value");
                            slots = Some(if v.as_rule() == Rule::int {
                                let (n, s) = self.int(v);
                                Slots::Count(n, s)
                            } else {
                                Slots::Named(self.ident_list(v))
                            });
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        let zone_kind = zone_kind.expect("grammar: zone kind");
        ItemKind::Zone(ZoneDecl { name, index, zone_kind, per_player, visible, slots, overflow, label })
    }

    pub(super) fn table<'i>(&mut self, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: table name"));
        let mut dims = Vec::new();
        let mut body = None;
        for p in it {
            match p.as_rule() {
                Rule::dimension => {
                    let mut inner = p.into_inner();
                    let dname = self.ident(inner.next().expect("grammar: dimension name"));
                    let r = inner.next().expect("grammar: dimension range");
                    let range_span = self.span(&r);
                    if r.as_rule() == Rule::ident {
                        let e = self.ident(r);
                        let range = RangeLit { lo: 0, hi: Some(0) };
                        dims.push(Dimension {
                            name: dname,
                            range,
                            range_span,
                            clamp: false,
                            enumeration: Some(e),
                        });
                    } else {
                        let range = self.range(r);
                        let clamp = inner.next().is_some();
                        dims.push(Dimension { name: dname, range, range_span, clamp, enumeration: None });
                    }
                }
                Rule::table_body => {
                    let inner: Vec<_> = p.into_inner().collect();
                    body = Some(match inner.first().map(|p| p.as_rule()) {
                        Some(Rule::int_row) => {
                            TableBody::Flat(self.int_row(inner.into_iter().next().expect("row")))
                        }
                        _ => TableBody::Rows(inner.into_iter().map(|r| self.table_row(r)).collect()),
                    });
                }
                _ => {}
            }
        }
        let body = body.unwrap_or(TableBody::Rows(Vec::new()));
        ItemKind::Table(TableDecl { name, dims, body })
    }

    pub(super) fn int_row(&mut self, pair: Pair<Rule>) -> IntRow {
        let span = self.span(&pair);
        let values = pair.into_inner().map(|p| self.int(p)).collect();
        IntRow { values, span }
    }

    pub(super) fn table_row(&mut self, pair: Pair<Rule>) -> TableRow {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let k = inner.next().expect("grammar: row key");
        let (key, name) = if k.as_rule() == Rule::ident {
            let name = self.ident(k);
            ((0, name.span), Some(name))
        } else {
            (self.int(k), None)
        };
        let row = self.int_row(inner.next().expect("grammar: row values"));
        let notes = inner.map(|n| self.note(n)).collect();
        TableRow { key, name, row, notes, span }
    }

    pub(super) fn index_decl(&self, pair: Pair<Rule>) -> Ident {
        self.ident(pair.into_inner().next().expect("grammar: index class"))
    }

    /// A value: the pair is a map, a list, or one of a literal's pieces.
    pub(super) fn value(&mut self, inner: Pair<Rule>) -> Value {
        match inner.as_rule() {
            Rule::map_value => {
                let span = self.span(&inner);
                let entries = inner
                    .into_inner()
                    .map(|e| {
                        let mut e = e.into_inner();
                        let key = self.ident(e.next().expect("grammar: map key"));
                        let value = self.value(e.next().expect("grammar: map value"));
                        (key, value)
                    })
                    .collect();
                Value { kind: ValueKind::Map(entries), span }
            }
            Rule::list_value => {
                let span = self.span(&inner);
                let items = inner.into_inner().map(|v| self.value(v)).collect();
                Value { kind: ValueKind::List(items), span }
            }
            _ => self.literal(inner),
        }
    }

    /// A number, a text, or a word (`yes`, `no`, `true`, `false` and `none`
    /// are told apart here rather than tried first by the grammar).
    pub(super) fn literal(&mut self, inner: Pair<Rule>) -> Value {
        let span = self.span(&inner);
        let kind = match inner.as_rule() {
            Rule::signed_int => ValueKind::Int(self.int(inner).0),
            Rule::string => ValueKind::Text(self.string(inner)),
            _ => match inner.as_str() {
                "yes" | "true" => ValueKind::Bool(true),
                "no" | "false" => ValueKind::Bool(false),
                "none" => ValueKind::None,
                word => ValueKind::Name(word.to_string()),
            },
        };
        Value { kind, span }
    }

    pub(super) fn field(&mut self, pair: Pair<Rule>) -> Field {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().expect("grammar: field name"));
        let value = self.value(inner.next().expect("grammar: field value"));
        Field { name, value }
    }

    pub(super) fn params(&mut self, pair: Pair<Rule>) -> Vec<Param> {
        pair.into_inner().map(|p| self.param(p)).collect()
    }

    pub(super) fn param(&mut self, pair: Pair<Rule>) -> Param {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().expect("grammar: parameter name"));
        let ty = inner.next().expect("grammar: parameter type");
        let ty = if ty.as_rule() == Rule::param_in {
            let e = ty.into_inner().find(|p| p.as_rule() == Rule::expr).expect("grammar: domain");
            ParamType::In(self.expr(e))
        } else if ty.as_rule() == Rule::param_set {
            let e = ty.into_inner().find(|p| p.as_rule() == Rule::expr).expect("grammar: domain");
            ParamType::SetOf(self.expr(e))
        } else {
            let t = self.type_expr(ty);
            match inner.next() {
                Some(among) => {
                    let e = among.into_inner().find(|p| p.as_rule() == Rule::expr).expect("grammar: domain");
                    ParamType::Among(t, self.expr(e))
                }
                None => ParamType::Type(t),
            }
        };
        Param { name, ty }
    }

    pub(super) fn block(&mut self, pair: Pair<Rule>) -> Block {
        let span = self.span(&pair);
        let stmts = pair.into_inner().map(|s| self.stmt(s)).collect();
        Block { stmts, span }
    }

    pub(super) fn stmt(&mut self, pair: Pair<Rule>) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let parts: Vec<Pair<Rule>> = pair.into_inner().collect();
        // Positions of keywords matter for `move`/`draw`; most statements
        // only need the non-keyword parts.
        let mut it = parts.iter().filter(|p| !is_keyword(p.as_rule())).cloned();
        let mut next = |what: &str| it.next().unwrap_or_else(|| panic!("grammar: {what}"));
        let kind = match rule {
            Rule::require_stmt => {
                let cond = self.expr(next("condition"));
                let message =
                    parts.iter().find(|p| p.as_rule() == Rule::string).map(|p| self.string(p.clone()));
                StmtKind::Require { cond, message }
            }
            Rule::let_stmt => {
                let name = self.ident(next("let name"));
                let value = self.expr(next("let value"));
                StmtKind::Let { name, value }
            }
            Rule::set_stmt => {
                let target = self.expr(next("set target"));
                let value = self.expr(next("set value"));
                StmtKind::Set { target, value }
            }
            Rule::advance_stmt => {
                let target = self.expr(next("advance target"));
                let by = self.expr(next("advance amount"));
                StmtKind::Advance { target, by }
            }
            Rule::move_stmt => {
                let what = self.selection(next("selection"));
                let (position, to) = self.destination(it);
                StmtKind::Move { what, position, to }
            }
            Rule::draw_stmt => {
                let count = self.expr(next("draw count"));
                let mut from = next("draw source");
                let at_random = from.as_rule() == Rule::at_random;
                if at_random {
                    from = next("draw source");
                }
                let from = self.expr(from);
                let (position, to) = self.destination(it);
                StmtKind::Draw { count, at_random, from, position, to }
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(next("shuffle target"))),
            Rule::split_stmt => {
                let from = self.expr(next("split source"));
                let into = it.map(|p| self.expr(p)).collect();
                StmtKind::Split { from, into }
            }
            Rule::reveal_stmt => {
                let zone = self.expr(next("reveal zone"));
                let to = self.expr(next("reveal viewer"));
                StmtKind::Reveal { zone, to }
            }
            Rule::ask_stmt => {
                let player = self.expr(next("asked player"));
                let action = self.ident(next("asked action"));
                StmtKind::Ask { player, action }
            }
            Rule::end_turn_stmt => StmtKind::EndTurn,
            Rule::if_stmt => self.if_stmt(parts),
            Rule::for_stmt => {
                let var = self.ident(next("for variable"));
                let domain = self.expr(next("for domain"));
                let body = self.block(next("for body"));
                StmtKind::For { var, domain, body }
            }
            Rule::repeat_stmt => {
                let cond = self.expr(next("repeat condition"));
                let body = self.block(next("repeat body"));
                StmtKind::Repeat { cond, body }
            }
            Rule::do_stmt => {
                let name = self.ident(next("procedure name"));
                let args = it.map(|p| self.expr(p)).collect();
                StmtKind::Do { name, args }
            }
            Rule::by_players_stmt => {
                let mut name = None;
                let mut cases = Vec::new();
                for p in it {
                    match p.as_rule() {
                        Rule::ident => name = Some(self.ident(p)),
                        _ => cases.push(self.player_case(p)),
                    }
                }
                StmtKind::ByPlayers { name, cases, span }
            }
            Rule::rule_stmt => {
                let name = self.ident(next("rule name"));
                let body = self.block(next("rule body"));
                StmtKind::Rule { name, body }
            }
            other => unreachable!("grammar: {other:?} is not a statement"),
        };
        Stmt { kind, span }
    }

    /// The `[top of|bottom of|front of] ZONE` that ends `move` and `draw`.
    pub(super) fn destination<'i>(&mut self, rest: impl Iterator<Item = Pair<'i, Rule>>) -> (Position, Expr) {
        let mut position = Position::Default;
        let mut to = None;
        for p in rest {
            match p.as_rule() {
                Rule::position => position = position_of(p),
                Rule::expr => to = Some(self.expr(p)),
                _ => {}
            }
        }
        (position, to.expect("grammar: a destination zone"))
    }

    pub(super) fn if_stmt(&mut self, parts: Vec<Pair<Rule>>) -> StmtKind {
        let mut it = parts.into_iter().filter(|p| !is_keyword(p.as_rule()));
        let first = it.next().expect("grammar: if condition");
        // An `else if` chain nests without braces (every other nesting of
        // statements is bounded by the brace depth).
        let Some(_level) = super::expr::Level::enter() else {
            self.diags.push(super::expr::too_deep(self.span(&first)));
            return StmtKind::EndTurn;
        };
        let cond = self.expr(first);
        let then = self.block(it.next().expect("grammar: if body"));
        let otherwise = it.next().map(|p| {
            if p.as_rule() == Rule::if_stmt {
                let span = self.span(&p);
                let nested = self.if_stmt(p.into_inner().collect());
                Block { stmts: vec![Stmt { kind: nested, span }], span }
            } else {
                self.block(p)
            }
        });
        StmtKind::If { cond, then, otherwise }
    }

    pub(super) fn selection(&mut self, pair: Pair<Rule>) -> Selection {
        let inner = pair.into_inner().next().expect("grammar: selection");
        let rule = inner.as_rule();
        if rule == Rule::expr {
            return Selection::One(self.expr(inner));
        }
        let mut it = inner.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let var = self.ident(it.next().expect("grammar: selection variable"));
        let domain = self.expr(it.next().expect("grammar: selection domain"));
        let filter = it.next().map(|p| self.expr(p));
        if rule == Rule::select_all {
            Selection::All { var, domain, filter }
        } else {
            Selection::First { var, domain, filter }
        }
    }
}

fn position_of(pair: Pair<Rule>) -> Position {
    match pair.into_inner().next().map(|p| p.as_rule()) {
        Some(Rule::kw_top) => Position::Top,
        Some(Rule::kw_bottom) => Position::Bottom,
        _ => Position::Front,
    }
}
