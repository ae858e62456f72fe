//! The syntax tree of one ruleset file, as written (names unresolved).
//!
//! Built by `parser`, consumed by `check`, which resolves names and lowers it
//! into the `model`. No pest type appears here.

use crate::span::{Ident, Span};
pub use model::ops::{BinaryOp, NoteKind, Position, UnaryOp};

#[derive(Clone, Debug, Default)]
pub struct File {
    pub items: Vec<Item>,
}

/// A provenance note (`source "..."` or `provisional "..."`).
#[derive(Clone, Debug)]
pub struct Note {
    pub kind: NoteKind,
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Item {
    pub kind: ItemKind,
    /// The whole item.
    pub span: Span,
    pub notes: Vec<Note>,
    /// Written as `override ...`: the `override` keyword.
    pub overrides: Option<Span>,
    /// After merging an edition: the base item this one replaced or changed.
    pub base: Option<Span>,
    /// After merging: the overrides and removals that changed parts of this
    /// item (a component list, table rows) while it kept its own span.
    pub changed_by: Vec<Span>,
}

impl Item {
    pub fn new(kind: ItemKind, span: Span, notes: Vec<Note>) -> Item {
        Item { kind, span, notes, overrides: None, base: None, changed_by: Vec::new() }
    }
}

#[derive(Clone, Debug)]
pub enum ItemKind {
    /// `extends "path"`, relative to the file it is written in.
    Extends(String, Span),
    /// `remove KIND NAME` or `remove cards GROUP "Component"`.
    Remove {
        what: Ident,
        name: Ident,
        instance: Option<Ident>,
    },
    /// `override table NAME[row][column] = value`.
    TableCell {
        name: Ident,
        keys: Vec<(i64, Span)>,
        value: (i64, Span),
    },
    /// `override by players [NAME] 5: { ... }`: one case of the base's `by players`.
    PlayersCase(Option<Ident>, PlayerCase),
    /// `override rule NAME { ... }`: the base's named block of that name.
    Rule(Ident, Block),
    Game(Game),
    Option(OptionDecl),
    Place(PlaceDecl),
    Tags(Vec<Ident>),
    Route(Vec<RouteEdge>),
    Kind(KindDecl),
    Group(GroupDecl),
    Zone(ZoneDecl),
    Counter(CounterDecl),
    Piece(PieceDecl),
    Table(TableDecl),
    Let(LetDecl),
    Procedure(ProcedureDecl),
    Setup(Block),
    Turns(TurnPolicy),
    Action(ActionDecl),
    AfterAction(Block),
    End(Expr),
    Score(ScoreDecl),
    /// `tiebreak lowest EXPR, highest EXPR`: who wins a tie on points.
    Tiebreak(Vec<TiebreakKey>),
}

#[derive(Clone, Debug)]
pub struct TiebreakKey {
    pub lowest: bool,
    pub by: Expr,
}

#[derive(Clone, Debug)]
pub struct Game {
    pub name: Ident,
    pub title: Option<String>,
    pub players: Option<(RangeLit, Span)>,
    /// `actions N`: the most actions a game may take.
    pub actions: Option<(i64, Span)>,
}

/// `a..b` or `a..` as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeLit {
    pub lo: i64,
    pub hi: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: Ident,
    pub value: Value,
}

#[derive(Clone, Debug)]
pub struct PlaceDecl {
    pub class: Ident,
    pub places: Vec<Ident>,
    /// `enum`: named values, not places on a board.
    pub enumeration: bool,
    /// `place cell grid W x H`: width, height (as written) and where.
    pub grid: Option<(i64, i64, Span)>,
}

#[derive(Clone, Debug)]
pub struct RouteEdge {
    pub a: Ident,
    pub b: Ident,
    pub steps: Option<(i64, Span)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct KindDecl {
    pub name: Ident,
    pub attrs: Vec<AttrDecl>,
}

#[derive(Clone, Debug)]
pub struct AttrDecl {
    pub name: Ident,
    pub ty: TypeExpr,
    pub default: Option<Value>,
    /// Printed on the back: known to everyone while the component is hidden.
    pub on_back: bool,
    /// Shown to players beside the component's name (`shown`).
    pub shown: bool,
}

#[derive(Clone, Debug)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TypeKind {
    Range(RangeLit),
    /// A built-in type name (`int`, `text`, `flag`, `tags`, `player`,
    /// `place`) or a place class; resolved by the checker.
    Named(Ident),
    Optional(Box<TypeExpr>),
    Map(Ident, Box<TypeExpr>),
}

#[derive(Clone, Debug)]
pub struct GroupDecl {
    /// `cards`, `tokens` or `tiles`: only a word for the reader.
    pub noun: String,
    pub name: Ident,
    /// Required, except in an override (which keeps the base's kind).
    pub kind: Option<Ident>,
    pub total: Option<(i64, Span)>,
    pub instances: Vec<Instance>,
    /// `remove "Name"` lines (overrides only).
    pub removals: Vec<Ident>,
}

#[derive(Clone, Debug)]
pub struct Instance {
    pub name: Ident,
    pub count: Option<(i64, Span)>,
    pub fields: Vec<Field>,
    pub notes: Vec<Note>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: Ident,
    pub value: Value,
}

#[derive(Clone, Debug)]
pub struct Value {
    pub kind: ValueKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ValueKind {
    Int(i64),
    Bool(bool),
    None,
    Text(String),
    Name(String),
    List(Vec<Value>),
    Map(Vec<(Ident, Value)>),
}

#[derive(Clone, Debug)]
pub struct ZoneDecl {
    pub name: Ident,
    pub index: Option<Ident>,
    pub zone_kind: Ident,
    pub per_player: Option<Span>,
    pub visible: Option<Ident>,
    pub slots: Option<Slots>,
    pub overflow: Option<Ident>,
    /// `shown "the later cards"`: what players read instead of the name.
    pub label: Option<String>,
}

#[derive(Clone, Debug)]
pub enum Slots {
    Count(i64, Span),
    Named(Vec<Ident>),
}

#[derive(Clone, Debug)]
pub struct CounterDecl {
    pub name: Ident,
    pub index: Option<Ident>,
    pub per_player: bool,
    pub ty: Option<TypeExpr>,
    pub init: Expr,
    /// Kept for the rules, not shown to players.
    pub bookkeeping: bool,
}

#[derive(Clone, Debug)]
pub struct PieceDecl {
    pub name: Ident,
    pub per_player: bool,
    pub start: Ident,
}

#[derive(Clone, Debug)]
pub struct TableDecl {
    pub name: Ident,
    pub dims: Vec<Dimension>,
    pub body: TableBody,
}

#[derive(Clone, Debug)]
pub struct Dimension {
    pub name: Ident,
    pub range: RangeLit,
    pub range_span: Span,
    pub clamp: bool,
    /// `[t: treasure]`: indexed by the values of an enumeration (the range
    /// is then unused).
    pub enumeration: Option<Ident>,
}

#[derive(Clone, Debug)]
pub enum TableBody {
    Flat(IntRow),
    Rows(Vec<TableRow>),
}

#[derive(Clone, Debug)]
pub struct IntRow {
    pub values: Vec<(i64, Span)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TableRow {
    pub key: (i64, Span),
    /// A row keyed by an enumeration's value (`pot: [...]`); `key` is then 0.
    pub name: Option<Ident>,
    pub row: IntRow,
    pub notes: Vec<Note>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: Ident,
    pub ty: ParamType,
}

#[derive(Clone, Debug)]
pub enum ParamType {
    Type(TypeExpr),
    /// `c: in display`: one component of a zone.
    In(Expr),
    /// `to: quad in around(me.boat)`: a place of the type among those a
    /// set of places lists now.
    Among(TypeExpr, Expr),
    /// `give: set of me.hand`: any set of components of a zone, copies of
    /// one component counted, not told apart.
    SetOf(Expr),
}

#[derive(Clone, Debug)]
pub struct LetDecl {
    pub name: Ident,
    pub params: Option<Vec<Param>>,
    pub body: Expr,
    /// Worked out for the rules, not shown to players.
    pub bookkeeping: bool,
}

#[derive(Clone, Debug)]
pub struct ProcedureDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub enum TurnPolicy {
    /// The player with the lowest value of a per-player counter moves; ties
    /// go to the one who arrived there last.
    LowestCounter(Ident),
    /// Seat order; `until end turn`: a turn lasts until an action runs `end turn`.
    Clockwise { span: Span, until_end_turn: bool },
}

#[derive(Clone, Debug)]
pub struct ActionDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    /// `when asked`: taken only when a rule asks a player to (`ask`).
    pub asked: bool,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub struct ScoreDecl {
    pub name: Ident,
    pub index: Option<Param>,
    pub form: ScoreForm,
}

#[derive(Clone, Debug)]
pub enum ScoreForm {
    Expr(Expr),
    Majority { measure: Expr, fields: Vec<Field>, span: Span },
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Selection {
    All { var: Ident, domain: Expr, filter: Option<Expr> },
    First { var: Ident, domain: Expr, filter: Option<Expr> },
    One(Expr),
}

#[derive(Clone, Debug)]
pub struct PlayerCase {
    pub counts: Vec<(i64, Span)>,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Require {
        cond: Expr,
        message: Option<String>,
    },
    Let {
        name: Ident,
        value: Expr,
    },
    Set {
        target: Expr,
        value: Expr,
    },
    Advance {
        target: Expr,
        by: Expr,
    },
    Move {
        what: Selection,
        position: Position,
        to: Expr,
    },
    Draw {
        count: Expr,
        at_random: bool,
        from: Expr,
        position: Position,
        to: Expr,
    },
    Shuffle(Expr),
    Split {
        from: Expr,
        into: Vec<Expr>,
    },
    Reveal {
        zone: Expr,
        to: Expr,
    },
    Ask {
        player: Expr,
        action: Ident,
    },
    EndTurn,
    If {
        cond: Expr,
        then: Block,
        otherwise: Option<Block>,
    },
    For {
        var: Ident,
        domain: Expr,
        body: Block,
    },
    Repeat {
        cond: Expr,
        body: Block,
    },
    Do {
        name: Ident,
        args: Vec<Expr>,
    },
    /// `by players NAME { ... }`: the name lets an edition override one case.
    ByPlayers {
        name: Option<Ident>,
        cases: Vec<PlayerCase>,
        span: Span,
    },
    /// `rule NAME { ... }`: a named block, run in place, that an edition
    /// overrides or removes by its name.
    Rule {
        name: Ident,
        body: Block,
    },
}

impl Item {
    /// The statement block an item runs, with what it is (`setup`, `action
    /// dig`): where named rules and `by players` are found.
    pub fn body_mut(&mut self) -> Option<(String, &mut Block)> {
        Some(match &mut self.kind {
            ItemKind::Setup(b) => ("setup".to_string(), b),
            ItemKind::AfterAction(b) => ("after action".to_string(), b),
            ItemKind::Action(a) => (format!("action {}", a.name.name), &mut a.body),
            ItemKind::Procedure(p) => (format!("procedure {}", p.name.name), &mut p.body),
            _ => return None,
        })
    }

    /// The statement block an item runs, if any.
    pub fn body(&self) -> Option<&Block> {
        match &self.kind {
            ItemKind::Setup(b) | ItemKind::AfterAction(b) => Some(b),
            ItemKind::Action(a) => Some(&a.body),
            ItemKind::Procedure(p) => Some(&p.body),
            _ => None,
        }
    }
}

impl ExprKind {
    /// Call `f` on each direct sub-expression.
    pub fn children<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        match self {
            ExprKind::Int(_) | ExprKind::Text(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::Name(_) => {
            }
            ExprKind::Unary(_, a) | ExprKind::Field(a, _) | ExprKind::PlayersFrom(a) => f(a),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                f(a);
                f(b);
            }
            ExprKind::Call(_, args) => args.iter().for_each(f),
            ExprKind::Aggregate { value, domain, filter, .. } => {
                value.iter().for_each(|v| f(v));
                f(domain);
                filter.iter().for_each(|v| f(v));
            }
            ExprKind::If(a, b, c) => {
                f(a);
                f(b);
                f(c);
            }
        }
    }

    /// Move the direct sub-expressions out into `out`, leaving leaves.
    pub fn take_children(&mut self, out: &mut Vec<Expr>) {
        match std::mem::replace(self, ExprKind::None) {
            ExprKind::Unary(_, a) | ExprKind::Field(a, _) | ExprKind::PlayersFrom(a) => out.push(*a),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => out.extend([*a, *b]),
            ExprKind::Call(_, args) => out.extend(args),
            ExprKind::Aggregate { value, domain, filter, .. } => {
                out.extend(value.map(|v| *v));
                out.push(*domain);
                out.extend(filter.map(|v| *v));
            }
            ExprKind::If(a, b, c) => out.extend([*a, *b, *c]),
            other => *self = other,
        }
    }
}

impl StmtKind {
    /// The blocks a statement holds: an `if`'s branches, a loop's body, the
    /// cases of `by players`, a named rule's body.
    pub fn blocks(&self) -> Vec<&Block> {
        match self {
            StmtKind::If { then, otherwise, .. } => std::iter::once(then).chain(otherwise.as_ref()).collect(),
            StmtKind::For { body, .. } | StmtKind::Repeat { body, .. } | StmtKind::Rule { body, .. } => {
                vec![body]
            }
            StmtKind::ByPlayers { cases, .. } => cases.iter().map(|c| &c.body).collect(),
            _ => Vec::new(),
        }
    }

    /// [`StmtKind::blocks`], to change.
    pub fn blocks_mut(&mut self) -> Vec<&mut Block> {
        match self {
            StmtKind::If { then, otherwise, .. } => std::iter::once(then).chain(otherwise.as_mut()).collect(),
            StmtKind::For { body, .. } | StmtKind::Repeat { body, .. } | StmtKind::Rule { body, .. } => {
                vec![body]
            }
            StmtKind::ByPlayers { cases, .. } => cases.iter_mut().map(|c| &mut c.body).collect(),
            _ => Vec::new(),
        }
    }
}

impl Block {
    /// Every `rule NAME { ... }` in the block, however deeply nested, in
    /// file order: its name and its body.
    pub fn rules<'a>(&'a self, out: &mut Vec<(&'a Ident, &'a Block)>) {
        for stmt in &self.stmts {
            if let StmtKind::Rule { name, body } = &stmt.kind {
                out.push((name, body));
            }
            for b in stmt.kind.blocks() {
                b.rules(out);
            }
        }
    }

    /// The names of every rule in the block ([`Block::rules`]).
    pub fn rule_names<'a>(&'a self, out: &mut Vec<&'a Ident>) {
        let mut rules = Vec::new();
        self.rules(&mut rules);
        out.extend(rules.into_iter().map(|(n, _)| n));
    }

    /// The body of the rule named `want`, however deeply nested.
    pub fn rule_mut(&mut self, want: &str) -> Option<&mut Block> {
        let named = |s: &Stmt| matches!(&s.kind, StmtKind::Rule { name, .. } if name.name == want);
        let holds = |b: &Block| {
            let mut names = Vec::new();
            b.rule_names(&mut names);
            names.iter().any(|n| n.name == want)
        };
        let i = self.stmts.iter().position(|s| named(s) || s.kind.blocks().into_iter().any(holds))?;
        if named(&self.stmts[i]) {
            return self.stmts[i].kind.blocks_mut().into_iter().next();
        }
        self.stmts[i].kind.blocks_mut().into_iter().find_map(|b| b.rule_mut(want))
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Text(String),
    Bool(bool),
    None,
    Name(Ident),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    Field(Box<Expr>, Ident),
    Index(Box<Expr>, Box<Expr>),
    Call(Ident, Vec<Expr>),
    /// `players from P`: every player in turn order, starting with P.
    PlayersFrom(Box<Expr>),
    Aggregate {
        func: Ident,
        value: Option<Box<Expr>>,
        var: Ident,
        domain: Box<Expr>,
        filter: Option<Box<Expr>>,
    },
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}
