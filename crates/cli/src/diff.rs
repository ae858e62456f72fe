//! `chronoscope diff A B`: the semantic difference of two rulesets after
//! resolution (editions merged, names resolved), grouped by kind of item.
//! Data (options, cards, tables, board) is compared value by value; rules
//! (setup, actions, lets, scoring) by their text with comments and layout
//! removed.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use model::*;
use ruleset::span::line_col;
use ruleset::Span;
use serde::Serialize;

use crate::render;

/// One difference.
#[derive(Serialize, Debug, Clone)]
pub struct Entry {
    pub group: &'static str,
    /// `added`, `removed` or `changed`.
    pub change: &'static str,
    pub item: String,
    pub old: Option<String>,
    pub new: Option<String>,
    /// `file:line` where A and B define the item.
    pub old_at: Option<String>,
    pub new_at: Option<String>,
}

/// The order groups are printed in.
const GROUPS: &[&str] = &[
    "game", "options", "tags", "board", "kinds", "cards", "tokens", "zones", "counters", "tables", "setup",
    "turns", "actions", "rules", "scoring",
];

pub fn run(a: &Path, b: &Path, json: bool) -> ExitCode {
    let la = render::load(a);
    let lb = render::load(b);
    let mut broken = false;
    for l in [&la, &lb] {
        if l.checked.has_errors() {
            err!("{}", render::report(&l.checked.sources, &l.checked.diagnostics, true));
            errln!("{}: has errors; fix them before comparing", l.name);
            broken = true;
        }
    }
    let (Some(ra), Some(rb)) = (&la.checked.ruleset, &lb.checked.ruleset) else {
        return ExitCode::from(2);
    };
    if broken {
        return ExitCode::from(2);
    }
    let entries = diff(Side::new(ra, &la.checked), Side::new(rb, &lb.checked));
    if json {
        let out = serde_json::json!({
            "a": la.name, "b": lb.name, "equal": entries.is_empty(), "differences": entries,
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        out!("{}", human(&la.name, &lb.name, &entries));
    }
    if entries.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

pub fn human(a: &str, b: &str, entries: &[Entry]) -> String {
    let mut out = format!("diff {a} {b}\n");
    for group in GROUPS {
        let in_group: Vec<&Entry> = entries.iter().filter(|e| e.group == *group).collect();
        if in_group.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{group}");
        for e in in_group {
            let mark = match e.change {
                "added" => "+",
                "removed" => "-",
                _ => "~",
            };
            let value = match (&e.old, &e.new) {
                (Some(o), Some(n)) => format!(": {} -> {}", short(o), short(n)),
                (None, Some(n)) | (Some(n), None) if n.is_empty() => String::new(),
                (None, Some(n)) => format!(": {}", short(n)),
                (Some(o), None) => format!(": {}", short(o)),
                (None, None) => String::new(),
            };
            let _ = writeln!(out, "  {mark} {}{value}", e.item);
            let at = match (&e.old_at, &e.new_at) {
                (Some(o), Some(n)) if o != n => format!("{o} -> {n}"),
                (Some(o), Some(_)) => o.clone(),
                (Some(o), None) => o.clone(),
                (None, Some(n)) => n.clone(),
                (None, None) => String::new(),
            };
            if !at.is_empty() {
                let _ = writeln!(out, "      {at}");
            }
        }
    }
    let n = entries.len();
    let _ = writeln!(
        out,
        "\n{}",
        if n == 0 { "no differences".to_string() } else { format!("{n} difference{}", crate::plural(n)) }
    );
    out
}

fn short(text: &str) -> String {
    const MAX: usize = 160;
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut} ...")
    } else {
        text.to_string()
    }
}

#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub r: &'a Ruleset,
    pub origin: &'a ruleset::Origin,
    pub sources: &'a [(String, String)],
    /// Every declared name with where (for what the model keeps no span
    /// of: tags).
    pub outline: &'a [ruleset::outline::Declared],
}

impl<'a> Side<'a> {
    /// One side of a comparison: a checked ruleset and where it came from.
    pub fn new(r: &'a Ruleset, checked: &'a ruleset::Checked) -> Self {
        Side { r, origin: &checked.origin, sources: &checked.sources, outline: &checked.outline }
    }

    /// Where an edition last changed part of an item (a component, a table
    /// row or cell), if it did.
    fn edited(&self, labels: &[String]) -> Option<Span> {
        self.origin.changes.iter().rev().find(|c| labels.contains(&c.item)).map(|c| c.span)
    }

    fn at(&self, span: Span) -> String {
        match self.sources.get(span.file) {
            Some((name, text)) => format!("{name}:{}", line_col(text, span.start).0),
            None => "?".into(),
        }
    }

    /// Source text with comments and layout removed.
    fn text(&self, span: Span) -> String {
        let raw = self.sources.get(span.file).and_then(|(_, t)| t.get(span.start..span.end)).unwrap_or("");
        raw.lines()
            .map(|l| l.split("//").next().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn stmts(&self, stmts: &[Stmt]) -> String {
        self.lines(stmts).into_iter().map(|(t, _)| t).collect::<Vec<_>>().join("; ")
    }

    /// A body as its statements' texts with where each is, a `by players`
    /// case by case (an edition may override one case, which then lies in
    /// another file than the statement around it).
    fn lines(&self, stmts: &[Stmt]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        self.lines_into(stmts, "", &mut out);
        out
    }

    fn lines_into(&self, stmts: &[Stmt], prefix: &str, out: &mut Vec<(String, String)>) {
        for s in stmts {
            match &s.kind {
                model::StmtKind::ByPlayers { cases } => {
                    for (counts, body) in cases {
                        let n: Vec<String> = counts.iter().map(u32::to_string).collect();
                        let inner = format!("{prefix}by players {}: ", n.join(", "));
                        if body.is_empty() {
                            out.push((format!("{inner}(nothing)"), self.at(s.span)));
                        }
                        self.lines_into(body, &inner, out);
                    }
                }
                _ => out.push((format!("{prefix}{}", self.text(s.span)), self.at(s.span))),
            }
        }
    }

    fn value(&self, v: &Value) -> String {
        crate::words::value(self.r, v)
    }

    fn params(&self, params: &[Param]) -> String {
        params
            .iter()
            .map(|p| match &p.domain {
                ParamDomain::Type(t) => format!("{}: {}", p.name, self.ty(t)),
                ParamDomain::In(e) => format!("{}: in {}", p.name, self.text(e.span)),
                ParamDomain::Among(t, e) => format!("{}: {} in {}", p.name, self.ty(t), self.text(e.span)),
                ParamDomain::SetOf(e) => format!("{}: set of {}", p.name, self.text(e.span)),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn ty(&self, t: &Type) -> String {
        self.r.type_text(t, TypeStyle::Syntax)
    }

    /// Components of a group by name: (copies, attributes, where).
    fn components(&self, g: &Group) -> BTreeMap<String, (usize, String, Span)> {
        let mut out: BTreeMap<String, (usize, String, Span)> = BTreeMap::new();
        for c in g.components.clone() {
            let comp = &self.r.components[c];
            let kind = &self.r.kinds[comp.kind];
            let attrs: Vec<String> = kind
                .slots
                .iter()
                .zip(&comp.values)
                .filter(|((_, _, default), v)| v != &default)
                .map(|((a, _, _), v)| format!("{} {}", self.r.attr_name(*a), self.value(v)))
                .collect();
            let entry = out.entry(comp.name.clone()).or_insert((0, attrs.join(", "), comp.span));
            entry.0 += 1;
        }
        out
    }
}

/// Compare keyed items: `describe` gives each item's comparable text and
/// where it is defined.
fn compare<K: Ord + Clone + std::fmt::Display>(
    out: &mut Vec<Entry>,
    group: &'static str,
    a: BTreeMap<K, (String, String)>,
    b: BTreeMap<K, (String, String)>,
) {
    for (k, (va, at_a)) in &a {
        match b.get(k) {
            None => out.push(Entry {
                group,
                change: "removed",
                item: k.to_string(),
                old: Some(va.clone()),
                new: None,
                old_at: Some(at_a.clone()),
                new_at: None,
            }),
            Some((vb, at_b)) if vb != va => out.push(Entry {
                group,
                change: "changed",
                item: k.to_string(),
                old: Some(va.clone()),
                new: Some(vb.clone()),
                old_at: Some(at_a.clone()),
                new_at: Some(at_b.clone()),
            }),
            Some(_) => {}
        }
    }
    for (k, (vb, at_b)) in &b {
        if !a.contains_key(k) {
            out.push(Entry {
                group,
                change: "added",
                item: k.to_string(),
                old: None,
                new: Some(vb.clone()),
                old_at: None,
                new_at: Some(at_b.clone()),
            });
        }
    }
}

pub fn diff(a: Side, b: Side) -> Vec<Entry> {
    let mut out = Vec::new();
    let game = |s: Side| {
        let g = &s.r.game;
        let mut m = BTreeMap::new();
        m.insert("title".to_string(), (g.title.clone(), String::new()));
        m.insert("players".to_string(), (format!("{}..{}", g.min_players, g.max_players), String::new()));
        m.insert("actions".to_string(), (g.max_actions.to_string(), String::new()));
        m
    };
    compare(&mut out, "game", game(a), game(b));

    let options = |s: Side| {
        s.r.options
            .iter()
            .map(|o| (o.name.clone(), (s.value(&o.value), s.at(o.span))))
            .collect::<BTreeMap<_, _>>()
    };
    compare(&mut out, "options", options(a), options(b));

    let tags = |s: Side| {
        s.r.tags
            .iter()
            .map(|t| {
                let at =
                    s.outline.iter().find(|d| d.what == "tag" && d.name == *t).map(|d| s.at(d.name_span));
                (format!("tag {t}"), (String::new(), at.unwrap_or_default()))
            })
            .collect::<BTreeMap<_, _>>()
    };
    compare(&mut out, "tags", tags(a), tags(b));

    let board = |s: Side| {
        let mut m = BTreeMap::new();
        for p in &s.r.places {
            let class = &s.r.classes[p.class];
            let word = if class.enumeration { "enum value" } else { "place" };
            m.insert(format!("{word} {}", p.name), (class.name.clone(), s.at(p.span)));
        }
        for rt in &s.r.routes {
            let (x, y) = (&s.r.places[rt.a].name, &s.r.places[rt.b].name);
            let (x, y) = if x <= y { (x, y) } else { (y, x) };
            m.insert(
                format!("route {x} - {y}"),
                (format!("{} step{}", rt.steps, if rt.steps == 1 { "" } else { "s" }), s.at(rt.span)),
            );
        }
        for p in &s.r.pieces {
            m.insert(
                format!("piece {}", p.name),
                (format!("starts at {}", s.r.places[p.start].name), s.at(p.span)),
            );
        }
        m
    };
    compare(&mut out, "board", board(a), board(b));

    // One entry per attribute: an edition that widens one range shows that
    // line, not the whole kind.
    let kinds = |s: Side| {
        let mut m = BTreeMap::new();
        for k in &s.r.kinds {
            for (i, (attr, t, d)) in k.slots.iter().enumerate() {
                let back = if k.back.contains(attr) { " on back" } else { "" };
                let shown = if k.shown.contains(attr) { " shown" } else { "" };
                let at = s.at(k.slot_spans.get(i).copied().unwrap_or(k.span));
                m.insert(
                    format!("{}.{}", k.name, s.r.attr_name(*attr)),
                    (format!("{}{back}{shown} = {}", s.ty(t), s.value(d)), at),
                );
            }
        }
        m
    };
    compare(&mut out, "kinds", kinds(a), kinds(b));

    // Components, group by group.
    let ga: BTreeMap<String, &Group> = a.r.groups.iter().map(|g| (g.name.clone(), g)).collect();
    let gb: BTreeMap<String, &Group> = b.r.groups.iter().map(|g| (g.name.clone(), g)).collect();
    for (name, g) in &ga {
        let group: &'static str = if g.noun == "tokens" { "tokens" } else { "cards" };
        match gb.get(name) {
            None => out.push(Entry {
                group,
                change: "removed",
                item: format!("{} {name}", g.noun),
                old: Some(format!("{} components", g.components.len())),
                new: None,
                old_at: Some(a.at(g.span)),
                new_at: None,
            }),
            Some(h) => {
                let total = |x: &Group| x.declared_total.map_or("none".to_string(), |t| t.to_string());
                if g.declared_total != h.declared_total {
                    out.push(Entry {
                        group,
                        change: "changed",
                        item: format!("{name} total"),
                        old: Some(total(g)),
                        new: Some(total(h)),
                        old_at: Some(a.at(g.span)),
                        new_at: Some(b.at(h.span)),
                    });
                }
                let describe = |s: Side, x: &Group| {
                    s.components(x)
                        .into_iter()
                        .map(|(n, (copies, attrs, span))| {
                            let span = s.edited(&[format!("cards {name} \"{n}\"")]).unwrap_or(span);
                            let count = if copies > 1 { format!("x{copies} ") } else { String::new() };
                            (format!("{name} \"{n}\""), (format!("{count}{{ {attrs} }}"), s.at(span)))
                        })
                        .collect::<BTreeMap<_, _>>()
                };
                compare(&mut out, group, describe(a, g), describe(b, h));
            }
        }
    }
    for (name, h) in &gb {
        if !ga.contains_key(name) {
            out.push(Entry {
                group: if h.noun == "tokens" { "tokens" } else { "cards" },
                change: "added",
                item: format!("{} {name}", h.noun),
                old: None,
                new: Some(format!("{} components", h.components.len())),
                old_at: None,
                new_at: Some(b.at(h.span)),
            });
        }
    }

    let zones = |s: Side| {
        s.r.zones
            .iter()
            .map(|z| {
                let mut d = z.kind.name().to_string();
                if let Some(c) = z.index {
                    let _ = write!(d, " per {}", s.r.classes[c].name);
                }
                if z.per_player {
                    d.push_str(" per player");
                }
                if !z.slots.is_empty() {
                    let _ = write!(d, ", slots {}", z.slots.join(" "));
                }
                if let Some(o) = z.overflow {
                    let _ = write!(d, ", overflow to {}", s.r.zones[o].name);
                }
                let _ = write!(d, ", visible to {}", z.visibility.name());
                if let Some(l) = &z.label {
                    let _ = write!(d, ", shown \"{l}\"");
                }
                (z.name.clone(), (d, s.at(z.span)))
            })
            .collect::<BTreeMap<_, _>>()
    };
    compare(&mut out, "zones", zones(a), zones(b));

    let counters = |s: Side| {
        s.r.counters
            .iter()
            .map(|c| {
                let mut d = format!("{} = {}", s.ty(&c.ty), s.text(c.init.span));
                if c.per_player {
                    d.push_str(", per player");
                }
                if let Some(k) = c.index {
                    let _ = write!(d, ", per {}", s.r.classes[k].name);
                }
                if c.bookkeeping {
                    d.push_str(", bookkeeping");
                }
                (c.name.clone(), (d, s.at(c.span)))
            })
            .collect::<BTreeMap<_, _>>()
    };
    compare(&mut out, "counters", counters(a), counters(b));

    // Tables: cell by cell when the shapes agree.
    let ta: BTreeMap<String, &Table> = a.r.tables.iter().map(|t| (t.name.clone(), t)).collect();
    let tb: BTreeMap<String, &Table> = b.r.tables.iter().map(|t| (t.name.clone(), t)).collect();
    let shape = |r: &Ruleset, t: &Table| {
        t.dims
            .iter()
            .map(|d| {
                // An enumeration's name alone would hide a value added to it.
                let size =
                    if d.class.is_some() { format!(" ({} values)", d.hi - d.lo + 1) } else { String::new() };
                format!("[{} {}{size}{}]", d.name, r.dimension_range(d), if d.clamp { " clamp" } else { "" })
            })
            .collect::<String>()
    };
    for (name, t) in &ta {
        match tb.get(name) {
            None => out.push(Entry {
                group: "tables",
                change: "removed",
                item: format!("table {name}"),
                old: Some(shape(a.r, t)),
                new: None,
                old_at: Some(a.at(t.span)),
                new_at: None,
            }),
            Some(u) if shape(a.r, t) != shape(b.r, u) => out.push(Entry {
                group: "tables",
                change: "changed",
                item: format!("table {name} shape"),
                old: Some(shape(a.r, t)),
                new: Some(shape(b.r, u)),
                old_at: Some(a.at(t.span)),
                new_at: Some(b.at(u.span)),
            }),
            Some(u) => {
                let keys = cells(a.r, t);
                for ((key, row), (x, y)) in keys.iter().zip(t.values.iter().zip(&u.values)) {
                    if x != y {
                        let labels = [
                            format!("table {name}{key}"),
                            format!("table {name} row {row}"),
                            format!("table {name}"),
                        ];
                        out.push(Entry {
                            group: "tables",
                            change: "changed",
                            item: format!("{name}{key}"),
                            old: Some(x.to_string()),
                            new: Some(y.to_string()),
                            old_at: Some(a.at(a.edited(&labels).unwrap_or(t.span))),
                            new_at: Some(b.at(b.edited(&labels).unwrap_or(u.span))),
                        });
                    }
                }
            }
        }
    }
    for (name, u) in &tb {
        if !ta.contains_key(name) {
            out.push(Entry {
                group: "tables",
                change: "added",
                item: format!("table {name}"),
                old: None,
                new: Some(shape(b.r, u)),
                old_at: None,
                new_at: Some(b.at(u.span)),
            });
        }
    }

    let single = |s: Side, which: &str| {
        let mut m = BTreeMap::new();
        match which {
            "setup" => {
                m.insert("setup".to_string(), (s.stmts(&s.r.setup.stmts), String::new()));
            }
            "turns" => {
                let t = match s.r.turns {
                    TurnPolicy::LowestCounter(c) => format!("by lowest {}", s.r.counters[c].name),
                    TurnPolicy::Clockwise { until_end_turn: false } => "clockwise".into(),
                    TurnPolicy::Clockwise { until_end_turn: true } => "clockwise until end turn".into(),
                };
                m.insert("turns".to_string(), (t, String::new()));
                m.insert("end when".to_string(), (s.text(s.r.end.span), s.at(s.r.end.span)));
                m.insert("after action".to_string(), (s.stmts(&s.r.after_action.stmts), String::new()));
                let keys: Vec<String> = s
                    .r
                    .tiebreaks
                    .iter()
                    .map(|k| format!("{} {}", if k.lowest { "lowest" } else { "highest" }, s.text(k.by.span)))
                    .collect();
                let at = s.r.tiebreaks.first().map_or(String::new(), |k| s.at(k.by.span));
                m.insert("tiebreak".to_string(), (keys.join(", "), at));
            }
            _ => {}
        }
        m
    };
    compare(&mut out, "setup", single(a, "setup"), single(b, "setup"));
    compare(&mut out, "turns", single(a, "turns"), single(b, "turns"));
    // A changed body is told statement by statement, each with its file:line.
    let bodies = |s: Side| {
        let mut m: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        m.insert("setup".into(), s.lines(&s.r.setup.stmts));
        m.insert("after action".into(), s.lines(&s.r.after_action.stmts));
        for x in &s.r.actions {
            m.insert(format!("action {}", x.name), s.lines(&x.body.stmts));
        }
        for p in &s.r.procedures {
            m.insert(format!("procedure {}", p.name), s.lines(&p.body.stmts));
        }
        m
    };
    let (body_a, body_b) = (bodies(a), bodies(b));

    let actions = |s: Side| {
        s.r.actions
            .iter()
            .map(|x| {
                (
                    format!("action {}", x.name),
                    (format!("({}) {}", s.params(&x.params), s.stmts(&x.body.stmts)), s.at(x.span)),
                )
            })
            .collect::<BTreeMap<_, _>>()
    };
    compare(&mut out, "actions", actions(a), actions(b));

    let rules = |s: Side| {
        let mut m: BTreeMap<String, (String, String)> =
            s.r.lets
                .iter()
                .map(|l| {
                    (
                        format!("let {}", l.name),
                        (
                            format!(
                                "({}){} = {}",
                                s.params(&l.params),
                                if l.bookkeeping { " bookkeeping" } else { "" },
                                s.text(l.body.span)
                            ),
                            s.at(l.span),
                        ),
                    )
                })
                .collect();
        for p in &s.r.procedures {
            m.insert(
                format!("procedure {}", p.name),
                (format!("({}) {}", s.params(&p.params), s.stmts(&p.body.stmts)), s.at(p.span)),
            );
        }
        m
    };
    compare(&mut out, "rules", rules(a), rules(b));

    let scoring = |s: Side| {
        s.r.scores
            .iter()
            .map(|sc| {
                let index = sc.index.map_or(String::new(), |c| format!("[{}] ", s.r.classes[c].name));
                let text = match &sc.form {
                    ScoreForm::Expr(e) => s.text(e.span),
                    ScoreForm::Majority { measure, alone, tied, minimum } => format!(
                        "majority {} {{ alone: {}, tied: {}, minimum: {} }}",
                        s.text(measure.span),
                        s.text(alone.span),
                        s.text(tied.span),
                        s.text(minimum.span)
                    ),
                };
                (format!("score {}", sc.name), (format!("{index}{text}"), s.at(sc.span)))
            })
            .collect::<BTreeMap<_, _>>()
    };
    compare(&mut out, "scoring", scoring(a), scoring(b));
    explode_bodies(&mut out, &body_a, &body_b);
    out
}

/// Replace each "changed" entry of a body (setup, an action, ...) by the
/// statements removed and added, found by a longest common subsequence of
/// the two bodies' statements; the parameters, if they changed, stay one
/// entry.
fn explode_bodies(
    out: &mut Vec<Entry>,
    a: &BTreeMap<String, Vec<(String, String)>>,
    b: &BTreeMap<String, Vec<(String, String)>>,
) {
    let mut result = Vec::with_capacity(out.len());
    for e in out.drain(..) {
        let (Some(la), Some(lb)) = (a.get(&e.item), b.get(&e.item)) else {
            result.push(e);
            continue;
        };
        if e.change != "changed" {
            result.push(e);
            continue;
        }
        // The parameters: what comes before the body's text, in parentheses.
        let head = |t: &Option<String>| {
            t.as_deref()
                .and_then(|t| t.strip_prefix('('))
                .and_then(|t| t.split_once(')'))
                .map(|(p, _)| p.to_string())
        };
        let (ha, hb) = (head(&e.old), head(&e.new));
        if ha != hb {
            result.push(Entry {
                item: format!("{} parameters", e.item),
                old: ha.map(|h| format!("({h})")),
                new: hb.map(|h| format!("({h})")),
                ..e.clone()
            });
        }
        let (n, m) = (la.len(), lb.len());
        let mut lcs = vec![vec![0usize; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i][j] =
                    if la[i].0 == lb[j].0 { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
            }
        }
        let (mut i, mut j) = (0, 0);
        let entry =
            |change: &'static str, old: Option<&(String, String)>, new: Option<&(String, String)>| Entry {
                group: e.group,
                change,
                item: e.item.clone(),
                old: old.map(|(t, _)| t.clone()),
                new: new.map(|(t, _)| t.clone()),
                old_at: old.map(|(_, at)| at.clone()),
                new_at: new.map(|(_, at)| at.clone()),
            };
        while i < n || j < m {
            if i < n && j < m && la[i].0 == lb[j].0 {
                i += 1;
                j += 1;
            } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
                result.push(entry("added", None, Some(&lb[j])));
                j += 1;
            } else {
                result.push(entry("removed", Some(&la[i]), None));
                i += 1;
            }
        }
    }
    *out = result;
}

/// `([k1][k2], k1)` for every cell of a table, row-major.
fn cells(r: &Ruleset, t: &Table) -> Vec<(String, String)> {
    let mut keys: Vec<(String, String)> = vec![(String::new(), String::new())];
    for (n, d) in t.dims.iter().enumerate() {
        keys = keys
            .iter()
            .flat_map(|(k, row)| {
                (d.lo..=d.hi).map(move |i| {
                    let key = r.dimension_key(d, i);
                    (format!("{k}[{key}]"), if n == 0 { key } else { row.clone() })
                })
            })
            .collect();
    }
    keys
}
