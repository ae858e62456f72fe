//! The checked, resolved ruleset: what the engines run.
//!
//! Every name is resolved to a typed ID, every expression is typed, every
//! component copy is expanded. Spans stay on items, statements and
//! expressions so the engine and `explain` can point back at the line that
//! produced an outcome. A `Ruleset` exists only for input that checked
//! without errors: consumers may assume every ID in it is valid and every
//! expression well-typed.
//!
//! This crate has no parser and no diagnostics: the ruleset crate builds a
//! `Ruleset` from text, the engine and the bots run it.

#![forbid(unsafe_code)]

pub mod ids;
pub mod ops;
pub mod span;

pub use ids::*;
pub use ops::{BinaryOp, NoteKind, Position, UnaryOp};
pub use span::Span;

#[derive(Clone, Debug)]
pub struct Ruleset {
    pub game: Game,
    pub options: Vec<OptionDef>,
    pub classes: Vec<PlaceClass>,
    pub places: Vec<Place>,
    pub routes: Vec<Route>,
    /// Shortest-path steps between every pair of places (`None`: no path),
    /// by place position; `Ruleset::distance` reads it by ID.
    pub distances: Vec<Vec<Option<u32>>>,
    pub tags: Vec<String>,
    /// Every attribute name used by any kind; `Kind::slots` maps into it.
    pub attr_names: Vec<String>,
    pub kinds: Vec<Kind>,
    pub groups: Vec<Group>,
    /// One entry per physical copy: `"Car" x2` gives two components.
    pub components: Vec<Component>,
    pub zones: Vec<Zone>,
    pub counters: Vec<Counter>,
    pub pieces: Vec<Piece>,
    pub tables: Vec<Table>,
    pub lets: Vec<Let>,
    pub procedures: Vec<Procedure>,
    pub setup: Body,
    pub turns: TurnPolicy,
    pub actions: Vec<Action>,
    pub after_action: Body,
    pub end: Expr,
    pub scores: Vec<Score>,
    /// Who wins a tie on points, key by key; empty: ties are shared.
    pub tiebreaks: Vec<TiebreakKey>,
}

#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub title: String,
    pub min_players: u32,
    pub max_players: u32,
    /// The most actions one game may take (`actions N`, or the default):
    /// past it the game is broken, not long.
    pub max_actions: u64,
    /// The `game` item's name, to point at when the limit is reached.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct OptionDef {
    pub name: String,
    pub value: Value,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct PlaceClass {
    pub name: String,
    pub places: Vec<PlaceId>,
    /// Declared with `enum`: named values (colours, kinds of treasure), not
    /// places on a board: no route, piece or distance reaches them.
    pub enumeration: bool,
    /// Declared with `place NAME grid W x H`: a square grid whose places
    /// lie row by row (`places[y * width + x]`); `Place::at` holds each
    /// one's coordinates.
    pub grid: Option<Grid>,
}

/// The size of a grid of places (`place cell grid 13 x 13`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: u32,
    pub height: u32,
}

#[derive(Clone, Debug)]
pub struct Place {
    pub name: String,
    pub class: ClassId,
    /// Its column and row, counted from 0 at the top left, on a grid.
    pub at: Option<(i64, i64)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Route {
    pub a: PlaceId,
    pub b: PlaceId,
    pub steps: u32,
    pub span: Span,
}

/// A static type, as declared for attributes, counters and parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    Int {
        lo: Option<i64>,
        hi: Option<i64>,
    },
    Bool,
    Text,
    Tag,
    Tags,
    Player,
    /// A place, of one class or (`None`) of any.
    Place(Option<ClassId>),
    Card,
    Map(ClassId, Box<Type>),
    Optional(Box<Type>),
}

/// How [`Ruleset::type_text`] writes a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeStyle {
    /// As a ruleset writes it: `int`, `flag`, `site?`.
    Syntax,
    /// In words for players: `a number`, `yes/no`, `a site or none`.
    Words,
}

/// A value of a component attribute, an option or a counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    None,
    Text(String),
    Place(PlaceId),
    Tag(TagId),
    Tags(Vec<TagId>),
    /// Place-keyed numbers; missing keys read as 0.
    Map(Vec<(PlaceId, i64)>),
}

#[derive(Clone, Debug)]
pub struct Kind {
    pub name: String,
    /// `(attribute, type, default)`; the component's values are in this order.
    pub slots: Vec<(AttrId, Type, Value)>,
    /// The attributes printed on the back (`region: region on back`): known
    /// to everyone while the component lies hidden. Components whose
    /// backs read the same cannot be told apart face down.
    pub back: Vec<AttrId>,
    /// The attributes players are shown beside the name (`shown`): an
    /// exhibition's needs and points.
    pub shown: Vec<AttrId>,
    pub span: Span,
    /// Where each of `slots` is declared (an edition's override of one
    /// attribute is in the edition's file).
    pub slot_spans: Vec<Span>,
}

impl Kind {
    pub fn slot_of(&self, attr: AttrId) -> Option<usize> {
        self.slots.iter().position(|(a, _, _)| *a == attr)
    }
}

#[derive(Clone, Debug)]
pub struct Group {
    pub name: String,
    pub noun: String,
    pub kind: KindId,
    pub declared_total: Option<u32>,
    /// Positions in `Ruleset::components` (a group's copies are
    /// consecutive); `Group::ids` gives them as IDs.
    pub components: std::ops::Range<usize>,
    pub span: Span,
}

impl Group {
    /// The group's components, in order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = ComponentId> + ExactSizeIterator + Clone {
        self.components.clone().map(ComponentId::new)
    }
}

#[derive(Clone, Debug)]
pub struct Component {
    pub name: String,
    pub group: GroupId,
    pub kind: KindId,
    /// Values in the order of `Kind::slots`.
    pub values: Vec<Value>,
    pub tags: Vec<TagId>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneKind {
    /// Face-down ordered pile; draws take the top.
    Deck,
    /// Face-up ordered pile (discards).
    Pile,
    /// Face-up slots.
    Row,
    /// Hidden, unordered; draws are random.
    Bag,
    /// A player's hidden cards.
    Hand,
    /// Cards face up in front of a player.
    Tableau,
    /// Out of the game.
    Box,
}

impl ZoneKind {
    pub const ALL: &'static [(&'static str, ZoneKind)] = &[
        ("deck", ZoneKind::Deck),
        ("pile", ZoneKind::Pile),
        ("row", ZoneKind::Row),
        ("bag", ZoneKind::Bag),
        ("hand", ZoneKind::Hand),
        ("tableau", ZoneKind::Tableau),
        ("box", ZoneKind::Box),
    ];

    pub fn name(self) -> &'static str {
        ZoneKind::ALL.iter().find(|(_, k)| *k == self).map_or("zone", |(n, _)| n)
    }

    /// Who sees a zone's contents unless the ruleset says otherwise.
    pub fn default_visibility(self) -> Visibility {
        match self {
            ZoneKind::Deck | ZoneKind::Bag | ZoneKind::Box => Visibility::Nobody,
            ZoneKind::Hand => Visibility::Owner,
            ZoneKind::Pile | ZoneKind::Row | ZoneKind::Tableau => Visibility::All,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    All,
    Owner,
    Nobody,
}

impl Visibility {
    pub fn name(self) -> &'static str {
        match self {
            Visibility::All => "all",
            Visibility::Owner => "owner",
            Visibility::Nobody => "none",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Zone {
    pub name: String,
    pub kind: ZoneKind,
    /// One zone per place of this class (`bag[site]`).
    pub index: Option<ClassId>,
    pub per_player: bool,
    pub visibility: Visibility,
    /// Slot names of a row (`4` gives `1`..`4`).
    pub slots: Vec<String>,
    pub overflow: Option<ZoneId>,
    /// What players read instead of the name (`shown "the later cards"`).
    pub label: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Counter {
    pub name: String,
    pub index: Option<ClassId>,
    pub per_player: bool,
    pub ty: Type,
    pub init: Expr,
    /// Kept for the rules only: `play` does not show it (`bookkeeping`).
    pub bookkeeping: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Piece {
    pub name: String,
    pub per_player: bool,
    pub start: PlaceId,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Dimension {
    pub name: String,
    pub lo: i64,
    pub hi: i64,
    /// Out-of-range keys read the nearest edge instead of failing.
    pub clamp: bool,
    /// Indexed by the values of an enumeration: key k is the k-th value
    /// (`lo` is 0, `hi` the last).
    pub class: Option<ClassId>,
}

#[derive(Clone, Debug)]
pub struct Table {
    pub name: String,
    pub dims: Vec<Dimension>,
    /// Row-major values.
    pub values: Vec<i64>,
    pub span: Span,
}

impl Table {
    /// The value at `keys`, clamping where the dimension says so; `None`
    /// for a key outside a non-clamped dimension.
    pub fn get(&self, keys: &[i64]) -> Option<i64> {
        let mut offset = 0usize;
        for (dim, &key) in self.dims.iter().zip(keys) {
            let key = if dim.clamp { key.clamp(dim.lo, dim.hi) } else { key };
            if key < dim.lo || key > dim.hi {
                return None;
            }
            let size = (dim.hi - dim.lo + 1) as usize;
            offset = offset * size + (key - dim.lo) as usize;
        }
        self.values.get(offset).copied()
    }
}

/// A parameter of a let, procedure, action or indexed score.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub domain: ParamDomain,
}

#[derive(Clone, Debug)]
pub enum ParamDomain {
    Type(Type),
    /// One component currently in this zone.
    In(Expr),
    /// A place of the type among those a set of places lists now
    /// (`to: quad in around(me.boat)`).
    Among(Type, Expr),
    /// Any set of components currently in this zone. Copies of one
    /// component (same group and name) are interchangeable: a set holds the
    /// first k of them in the order they lie, so each sub-multiset of the
    /// zone is one choice.
    SetOf(Expr),
}

#[derive(Clone, Debug)]
pub struct Let {
    pub name: String,
    pub params: Vec<Param>,
    pub body: Expr,
    pub locals: usize,
    /// Worked out for the rules only: `play` does not show it.
    pub bookkeeping: bool,
    pub span: Span,
}

/// Statements with the number of local slots they use (parameters first).
#[derive(Clone, Debug, Default)]
pub struct Body {
    pub stmts: Vec<Stmt>,
    pub locals: usize,
}

#[derive(Clone, Debug)]
pub struct Procedure {
    pub name: String,
    pub params: Vec<Param>,
    pub body: Body,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Action {
    pub name: String,
    pub params: Vec<Param>,
    /// `when asked`: never a choice of its own; a player takes it when a
    /// rule asks them to (`ask P to NAME`).
    pub asked: bool,
    pub body: Body,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TurnPolicy {
    /// The player with the lowest value of this per-player counter moves;
    /// on a tie, the one who reached that value last.
    LowestCounter(CounterId),
    /// Seat order (after `shuffle players`). `until_end_turn`: a turn lasts
    /// until an action runs `end turn`; otherwise every action ends it.
    Clockwise { until_end_turn: bool },
}

#[derive(Clone, Debug)]
pub struct Score {
    pub name: String,
    /// Scored once per place of this class (`site_majority[s: site]`).
    pub index: Option<ClassId>,
    pub form: ScoreForm,
    pub locals: usize,
    pub span: Span,
}

/// One tiebreak key: among the players tied on points, those with the
/// lowest (or highest) value of `by`, evaluated with `me` as each player.
#[derive(Clone, Debug)]
pub struct TiebreakKey {
    pub lowest: bool,
    pub by: Expr,
    pub locals: usize,
}

#[derive(Clone, Debug)]
pub enum ScoreForm {
    /// Points for `me`.
    Expr(Expr),
    /// `alone` points to the single player with the most of `measure`,
    /// `tied` to each of several tied for most, nothing below `minimum`.
    Majority { measure: Expr, alone: Expr, tied: Expr, minimum: Expr },
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// Which components a `move` takes.
#[derive(Clone, Debug)]
pub enum Selection {
    /// Every component of `domain` (bound to `var`) passing `filter`.
    All {
        var: usize,
        domain: Expr,
        filter: Option<Expr>,
    },
    /// The first one, from the top (or first slot).
    First {
        var: usize,
        domain: Expr,
        filter: Option<Expr>,
    },
    One(Expr),
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Require {
        cond: Expr,
        message: Option<String>,
    },
    Let {
        slot: usize,
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
        /// `at random`: random components, whatever the zone's order.
        at_random: bool,
        from: Expr,
        position: Position,
        to: Expr,
    },
    Shuffle(Expr),
    ShufflePlayers,
    Split {
        from: Expr,
        into: Vec<Expr>,
    },
    /// Show what lies in a zone to one player (who remembers it; the zone
    /// stays hidden to the others).
    Reveal {
        zone: Expr,
        to: Expr,
    },
    /// Ask a player to take an action (`when asked`) before play goes on:
    /// asks are answered in the order they were made.
    Ask {
        player: Expr,
        action: ActionId,
    },
    /// End the current turn (`turns clockwise until end turn`).
    EndTurn,
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    For {
        var: usize,
        domain: Expr,
        body: Vec<Stmt>,
    },
    Repeat {
        cond: Expr,
        body: Vec<Stmt>,
    },
    Do {
        procedure: ProcedureId,
        args: Vec<Expr>,
    },
    /// The body for the current player count (coverage is checked).
    ByPlayers {
        cases: Vec<(Vec<u32>, Vec<Stmt>)>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Min,
    Max,
    Abs,
    Distance,
    Count,
    /// How many slots a row has (`slots(display)`).
    Slots,
    /// A grid place's column (`p.x`) and row (`p.y`).
    X,
    Y,
}

/// A function whose value is a place (or `none`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceFn {
    /// `at(CLASS, x, y)`: the grid place at those coordinates, or `none`
    /// off the grid. Arguments: the class (`ExprKind::Class`), x, y.
    At,
    /// `rotate(v, k)`: the value k places after v in its class's order,
    /// going round (k may be negative). Arguments: v, k.
    Rotate,
}

/// A set of places worked out from the state, to go through.
#[derive(Clone, Debug)]
pub enum Region {
    /// `around(p)`: the places next to p: on a grid, the up to 8 cells
    /// around it (row by row); elsewhere, the places one route away.
    Around,
    /// `connected(p, LINK)`: every place reached from p (p first, then in
    /// the order found, breadth first) by steps to a place `around` the
    /// last for which LINK holds. `link` is a call of LINK on two locals:
    /// from, to.
    Connected { link: Box<Expr>, from: usize, to: usize },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    Count,
    Sum,
    Min,
    Max,
    Any,
    All,
    /// The first element that passes (for a zone: the one drawn next), or
    /// `none`.
    First,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Text(String),
    None,
    Local(usize),
    Me,
    PlayerCount,
    /// The domain of all players, in seat order.
    Players,
    /// The players in turn order, starting with one (`players from P`).
    PlayersFrom(Box<Expr>),
    /// The domain of all places of a class.
    Class(ClassId),
    Option(OptionId),
    Place(PlaceId),
    Tag(TagId),
    /// The supply of a group: where its components start.
    Group(GroupId),
    Zone {
        zone: ZoneId,
        player: Option<Box<Expr>>,
        index: Option<Box<Expr>>,
    },
    Counter {
        counter: CounterId,
        player: Option<Box<Expr>>,
        index: Option<Box<Expr>>,
    },
    Piece {
        piece: PieceId,
        player: Option<Box<Expr>>,
    },
    Attr {
        card: Box<Expr>,
        attr: AttrId,
    },
    MapGet {
        map: Box<Expr>,
        key: Box<Expr>,
    },
    Table {
        table: TableId,
        keys: Vec<Expr>,
    },
    Let {
        id: LetId,
        args: Vec<Expr>,
    },
    Builtin(Builtin, Vec<Expr>),
    PlaceFn(PlaceFn, Vec<Expr>),
    /// A set of places to go through (only as the domain of an aggregate,
    /// a `for` or a parameter): `around(p)`, `connected(p, LINK)`.
    Region(Box<Region>, Box<Expr>),
    Aggregate {
        func: Aggregate,
        value: Option<Box<Expr>>,
        var: usize,
        domain: Box<Expr>,
        filter: Option<Box<Expr>>,
    },
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// The expression inside, compiled to native code: the engine calls
    /// the native function at this index of its program's table
    /// (`engine::native`). Never written by the checker: only an engine
    /// program built with compiled rules wraps its own copy of the rules.
    Native(u32, Box<Expr>),
}

/// The children of an expression, in order, for `for_each_child` (shared)
/// and `for_each_child_mut` (mutable): one list for both.
macro_rules! each_child {
    ($kind:expr, $f:ident, $iter:ident, $($r:tt)+) => {{
        use ExprKind as K;
        match $kind {
            K::Zone { player, index, .. } | K::Counter { player, index, .. } => {
                player.$iter().chain(index.$iter()).for_each(|x| $f(x));
            }
            K::Piece { player, .. } => player.$iter().for_each(|x| $f(x)),
            K::Attr { card, .. } => $f(card),
            K::MapGet { map, key } => {
                $f(map);
                $f(key);
            }
            K::Table { keys, .. } | K::Builtin(_, keys) | K::Let { args: keys, .. } | K::PlaceFn(_, keys) => {
                keys.$iter().for_each($f)
            }
            K::Region(region, start) => {
                $f(start);
                if let Region::Connected { link, .. } = $($r)+ **region {
                    $f(link);
                }
            }
            K::Aggregate { value, domain, filter, .. } => {
                $f(domain);
                value.$iter().chain(filter.$iter()).for_each(|x| $f(x));
            }
            K::Unary(_, x) | K::PlayersFrom(x) | K::Native(_, x) => $f(x),
            K::Binary(_, a, b) => {
                $f(a);
                $f(b);
            }
            K::If(c, a, b) => {
                $f(c);
                $f(a);
                $f(b);
            }
            K::Local(_)
            | K::Me
            | K::Int(_)
            | K::Bool(_)
            | K::Text(_)
            | K::None
            | K::PlayerCount
            | K::Players
            | K::Class(_)
            | K::Option(_)
            | K::Place(_)
            | K::Tag(_)
            | K::Group(_) => {}
        }
    }};
}

impl Expr {
    /// Call `f` on each expression directly inside this one, in order (a
    /// let's body is not inside its call).
    pub fn for_each_child(&self, mut f: impl FnMut(&Expr)) {
        each_child!(&self.kind, f, iter, &);
    }

    /// As [`Expr::for_each_child`], with each child mutable: the same
    /// children in the same order.
    pub fn for_each_child_mut(&mut self, mut f: impl FnMut(&mut Expr)) {
        each_child!(&mut self.kind, f, iter_mut, &mut);
    }
}

impl Ruleset {
    /// Key `k` of a table dimension as written: the number, or the
    /// enumeration's value (`pot`).
    pub fn dimension_key(&self, d: &Dimension, k: i64) -> String {
        let value = |c: ClassId| {
            let places = &self.classes[c].places;
            usize::try_from(k).ok().and_then(|i| places.get(i)).map(|p| self.places[*p].name.clone())
        };
        d.class.and_then(value).unwrap_or_else(|| k.to_string())
    }

    /// A dimension's keys as written: `1..5`, or an enumeration's name.
    pub fn dimension_range(&self, d: &Dimension) -> String {
        match d.class {
            Some(c) => self.classes[c].name.clone(),
            None => format!("{}..{}", d.lo, d.hi),
        }
    }

    pub fn place_named(&self, name: &str) -> Option<PlaceId> {
        self.places.iter().position(|p| p.name == name).map(PlaceId::new)
    }

    pub fn tag_named(&self, name: &str) -> Option<TagId> {
        self.tags.iter().position(|t| t == name).map(TagId::new)
    }

    pub fn attr_named(&self, name: &str) -> Option<AttrId> {
        self.attr_names.iter().position(|a| a == name).map(AttrId::new)
    }

    pub fn class_named(&self, name: &str) -> Option<ClassId> {
        self.classes.iter().position(|c| c.name == name).map(ClassId::new)
    }

    pub fn zone_named(&self, name: &str) -> Option<ZoneId> {
        self.zones.iter().position(|z| z.name == name).map(ZoneId::new)
    }

    pub fn counter_named(&self, name: &str) -> Option<CounterId> {
        self.counters.iter().position(|c| c.name == name).map(CounterId::new)
    }

    pub fn piece_named(&self, name: &str) -> Option<PieceId> {
        self.pieces.iter().position(|p| p.name == name).map(PieceId::new)
    }

    pub fn let_named(&self, name: &str) -> Option<LetId> {
        self.lets.iter().position(|l| l.name == name).map(LetId::new)
    }

    pub fn table_named(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }

    pub fn group_named(&self, name: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.name == name)
    }

    pub fn option_named(&self, name: &str) -> Option<&OptionDef> {
        self.options.iter().find(|o| o.name == name)
    }

    /// Steps on the shortest route between two places (`None`: no route).
    #[inline]
    pub fn distance(&self, a: PlaceId, b: PlaceId) -> Option<u32> {
        self.distances[a.index()][b.index()]
    }

    pub fn attr_name(&self, attr: AttrId) -> &str {
        &self.attr_names[attr.index()]
    }

    /// A type as people read it: as written in a ruleset (`TypeStyle::Syntax`,
    /// `site -> 0..3`) or in words (`TypeStyle::Words`, `a site`).
    pub fn type_text(&self, t: &Type, style: TypeStyle) -> String {
        let words = style == TypeStyle::Words;
        let pick = |syntax: &str, prose: &str| if words { prose.to_string() } else { syntax.to_string() };
        match t {
            Type::Int { lo: Some(lo), hi: Some(hi) } => format!("{lo}..{hi}"),
            Type::Int { lo: Some(lo), hi: None } => format!("{lo}.."),
            Type::Int { .. } => pick("int", "a number"),
            Type::Bool => pick("flag", "yes/no"),
            Type::Text => "text".into(),
            Type::Tag => pick("tag", "a tag"),
            Type::Tags => "tags".into(),
            Type::Player => pick("player", "a player"),
            Type::Place(Some(c)) if words => format!("a {}", self.classes[*c].name),
            Type::Place(Some(c)) => self.classes[*c].name.clone(),
            Type::Place(None) => pick("place", "a place"),
            Type::Card => pick("card", "a component"),
            Type::Map(c, inner) => format!("{} -> {}", self.classes[*c].name, self.type_text(inner, style)),
            Type::Optional(inner) if words => format!("{} or none", self.type_text(inner, style)),
            Type::Optional(inner) => format!("{}?", self.type_text(inner, style)),
        }
    }
}
