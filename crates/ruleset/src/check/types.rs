//! Types: declared types, literal values checked against them, and the
//! checker's own view of types while expressions are lowered.

use super::*;

/// The checker's view of a type: the model's types plus the partial forms an
/// expression passes through (`bag` before `[s]`, a table before its keys).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ty {
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
pub(super) enum LetState {
    Pending,
    InProgress,
    Done(Ty),
}

impl<'f> Checker<'f> {
    /// Resolve a written type.
    pub(super) fn type_expr(&mut self, t: &ast::TypeExpr) -> Option<Type> {
        match &t.kind {
            TypeKind::Range(r) => {
                if let Some(hi) = r.hi {
                    if hi < r.lo {
                        // Still a number, unbounded: its uses are not
                        // told again that the attribute is unknown.
                        self.error(errors::backwards_range(t.span, r.lo, hi));
                        return Some(Type::Int { lo: None, hi: None });
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
                        self.error(errors::unknown_type(name, help));
                        None
                    }
                },
            },
        }
    }

    /// Check a written value against a type.
    pub(super) fn literal(&mut self, v: &ast::Value, ty: &Type, what: &str) -> Option<Value> {
        let mismatch = |c: &mut Self, expected: String| {
            c.error(errors::value_expected(v, what, &expected, &describe_value(v)));
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
                    self.error(errors::value_out_of_range(v.span, what, &range, *n));
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
                        self.error(errors::place_of_wrong_class(
                            v.span,
                            what,
                            n,
                            expected,
                            actual,
                            help.unwrap_or_else(|| {
                                format!(
                                    "use one of: {}",
                                    self.classes[*class]
                                        .places
                                        .iter()
                                        .map(|p| self.places[*p].name.as_str())
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                )
                            }),
                        ));
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
                        self.error(errors::map_key_twice(key, what));
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

    pub(super) fn expect(&mut self, got: &Ty, expected: &Ty, span: Span, what: &str) {
        if !fits(expected, got) {
            self.type_error(span, expected, got, what);
        }
    }

    pub(super) fn type_error(&mut self, span: Span, expected: &Ty, got: &Ty, what: &str) {
        let e = describe_ty(expected, self);
        let g = describe_ty(got, self);
        self.error(errors::type_mismatch(span, what, &e, &g));
    }
}

pub(super) fn default_for(ty: &Type, given: Value) -> Value {
    if given != Value::None {
        return given;
    }
    match ty {
        Type::Tags => Value::Tags(Vec::new()),
        Type::Map(..) => Value::Map(Vec::new()),
        _ => Value::None,
    }
}

pub(super) fn ty_of(t: &Type) -> Ty {
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
impl Checker<'_> {
    /// Refuse a value of an enumeration where a place on the board is meant
    /// (a piece's place, `distance`): `fits` lets any place class through.
    pub(super) fn not_an_enum_value(&mut self, ty: &Ty, span: Span, what: &str) {
        if let Ty::Place(Some(c)) = ty {
            if self.classes[*c].enumeration {
                let name = self.classes[*c].name.clone();
                self.error(errors::enum_value_where_place_is_meant(span, &name, what));
            }
        }
    }
}

pub(super) fn fits(expected: &Ty, got: &Ty) -> bool {
    match (expected, got) {
        (Ty::Unknown, _) | (_, Ty::Unknown) => true,
        (Ty::Place(_), Ty::NoneLit) | (Ty::Player, Ty::NoneLit) | (Ty::Card, Ty::NoneLit) => true,
        (Ty::NoneLit, Ty::Place(_) | Ty::Player | Ty::Card | Ty::NoneLit) => true,
        (Ty::Place(None), Ty::Place(_)) | (Ty::Place(_), Ty::Place(None)) => true,
        (Ty::Map(a, x), Ty::Map(b, y)) => a == b && fits(x, y),
        (a, b) => a == b,
    }
}

pub(super) fn describe_ty(t: &Ty, c: &Checker) -> String {
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

pub(super) fn describe_value(v: &ast::Value) -> String {
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
