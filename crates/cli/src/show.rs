//! `chronoscope show`: a readable summary of a checked ruleset.
//!
//! Rules (setup, actions, scoring) are quoted from the ruleset's own text via
//! the spans the checker kept, so what `show` prints is always what the
//! engine runs.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use model::*;
use ruleset::origin::{Origin, Provenance};
use ruleset::span::line_col;

use crate::render;

pub fn run(path: &Path, players: Option<u32>, provisional_only: bool) -> ExitCode {
    let loaded = render::load(path);
    let Some(rules) = &loaded.checked.ruleset else {
        err!("{}", render::report(&loaded.checked.sources, &loaded.checked.diagnostics, true));
        errln!("{}: cannot show a ruleset with errors; fix them first", loaded.name);
        return ExitCode::FAILURE;
    };
    if let Some(n) = players {
        if n < rules.game.min_players || n > rules.game.max_players {
            errln!(
                "error: {} is for {} to {} players, not {n}",
                rules.game.title,
                rules.game.min_players,
                rules.game.max_players
            );
            return ExitCode::FAILURE;
        }
    }
    let text = if provisional_only {
        provisional(&loaded.checked.origin, &loaded.checked.sources)
    } else {
        summary(rules, &loaded.checked.origin, &loaded.checked.sources, players)
    };
    out!("{text}");
    ExitCode::SUCCESS
}

/// A ruleset with grids: each drawn as the table is once setup has run
/// (before any question setup asks is answered), as an onlooker sees it,
/// for the fewest players (or `players`) and seed 1.
fn starting_board(out: &mut String, r: &Ruleset, players: Option<u32>) {
    if !crate::play::board::has_grid(r) {
        return;
    }
    let n = players.unwrap_or(r.game.min_players) as usize;
    let program = engine::Program::new(r.clone());
    let Ok(game) = engine::Game::start(&program, n, 1) else { return };
    let view = crate::play::view::onlooker_view(&game);
    let _ = writeln!(out, "  the starting board ({n} players, seed 1; `?N`: N hidden components):");
    for line in crate::play::board::maps(&game, &view.zones) {
        let _ = writeln!(out, "    {line}");
    }
}

/// The full summary.
pub fn summary(r: &Ruleset, origin: &Origin, sources: &[(String, String)], players: Option<u32>) -> String {
    let mut out = String::new();
    let s = Show { r, origin, sources };
    let file = sources.first().map_or("", |(n, _)| n.as_str());
    let _ = writeln!(
        out,
        "{} ({}), {} to {} players",
        r.game.title, r.game.name, r.game.min_players, r.game.max_players
    );
    for p in origin.provenance.iter().filter(|p| p.item.starts_with("game ") && p.kind == NoteKind::Source) {
        let _ = writeln!(out, "source: {}", p.text);
    }
    let _ = writeln!(out, "file: {file}");

    if !r.options.is_empty() {
        section(&mut out, "Options");
        let width = r.options.iter().map(|o| o.name.len()).max().unwrap_or(0);
        for o in &r.options {
            let mark = if s.is_provisional(&format!("option {}", o.name)) { "  (provisional)" } else { "" };
            let _ = writeln!(out, "  {:width$} = {}{mark}", o.name, s.value(&o.value));
        }
    }

    let on_board = r.places.iter().filter(|p| !r.classes[p.class].enumeration).count();
    section(&mut out, &format!("Board: {on_board} places, {} routes", r.routes.len()));
    for c in r.classes.iter().filter(|c| !c.enumeration) {
        let names: Vec<&str> = c.places.iter().map(|p| r.places[*p].name.as_str()).collect();
        match (c.grid, names.first(), names.last()) {
            (Some(g), Some(first), Some(last)) => {
                let _ = writeln!(
                    out,
                    "  {} ({}): a grid of {} x {}, {first} .. {last}",
                    c.name,
                    names.len(),
                    g.width,
                    g.height
                );
            }
            _ => {
                let _ = writeln!(out, "  {} ({}): {}", c.name, names.len(), names.join(", "));
            }
        }
    }
    for c in r.classes.iter().filter(|c| c.enumeration) {
        let names: Vec<&str> = c.places.iter().map(|p| r.places[*p].name.as_str()).collect();
        let _ = writeln!(out, "  enum {} ({}): {}", c.name, names.len(), names.join(", "));
    }
    if !r.routes.is_empty() {
        let _ = writeln!(out, "  routes:");
        for chunk in r.routes.chunks(4) {
            let line: Vec<String> = chunk
                .iter()
                .map(|rt| {
                    let steps = if rt.steps == 1 { String::new() } else { format!(" ({} steps)", rt.steps) };
                    format!("{} - {}{steps}", r.places[rt.a].name, r.places[rt.b].name)
                })
                .collect();
            let _ = writeln!(out, "    {}", line.join(", "));
        }
    }
    for p in &r.pieces {
        let whose = if p.per_player { "one per player" } else { "one" };
        let _ = writeln!(out, "  piece {}: {whose}, starts at {}", p.name, r.places[p.start].name);
    }
    starting_board(&mut out, r, players);

    let total: usize = r.groups.iter().map(|g| g.components.len()).sum();
    section(&mut out, &format!("Components: {total}"));
    for g in &r.groups {
        let declared = g.declared_total.map_or(String::new(), |t| format!(" (declared total {t})"));
        let _ = writeln!(
            out,
            "  {}: {} {} of kind {}{declared}",
            g.name,
            g.components.len(),
            g.noun,
            r.kinds[g.kind].name
        );
        let mut i = g.components.start;
        while i < g.components.end {
            let c = &r.components[i];
            let mut n = 1;
            while i + n < g.components.end && r.components[i + n].span == c.span {
                n += 1;
            }
            let count = if n > 1 { format!(" x{n}") } else { String::new() };
            let attrs = s.attributes(c);
            let sep = if attrs.is_empty() { "" } else { ": " };
            let _ = writeln!(out, "    {}{count}{sep}{attrs}", c.name);
            i += n;
        }
    }

    section(&mut out, "Zones");
    let width =
        r.zones.iter().map(|z| z.name.len() + z.index.map_or(0, |c| r.classes[c].name.len() + 2)).max();
    for z in &r.zones {
        let name = match z.index {
            Some(c) => format!("{}[{}]", z.name, r.classes[c].name),
            None => z.name.clone(),
        };
        let mut desc = z.kind.name().to_string();
        if !z.slots.is_empty() {
            let _ = write!(desc, ", slots {}", z.slots.join(" "));
        }
        if let Some(o) = z.overflow {
            let _ = write!(desc, ", overflow to {}", r.zones[o].name);
        }
        if z.per_player {
            desc.push_str(", one per player");
        }
        let _ = write!(desc, ", visible to {}", z.visibility.name());
        if let Some(l) = &z.label {
            let _ = write!(desc, ", shown \"{l}\"");
        }
        let _ = writeln!(out, "  {:w$}  {desc}", name, w = width.unwrap_or(0));
    }

    if !r.counters.is_empty() {
        section(&mut out, "Counters");
        for c in &r.counters {
            let mut name = c.name.clone();
            if let Some(class) = c.index {
                let _ = write!(name, "[{}]", r.classes[class].name);
            }
            let whose = if c.per_player { " per player" } else { "" };
            let kept = if c.bookkeeping { " (bookkeeping: not shown to players)" } else { "" };
            let _ =
                writeln!(out, "  {name}{whose}: {}, starts at {}{kept}", s.ty(&c.ty), s.text(c.init.span));
        }
    }

    if !r.tables.is_empty() {
        section(&mut out, "Tables");
        for t in &r.tables {
            s.table(&mut out, t);
        }
    }

    match players {
        Some(n) => section(&mut out, &format!("Setup for {n} players")),
        None => section(&mut out, "Setup"),
    }
    s.stmts(&mut out, &r.setup.stmts, 1, players);

    section(&mut out, "Turns");
    match r.turns {
        TurnPolicy::LowestCounter(c) => {
            let _ = writeln!(
                out,
                "  the player with the lowest `{}` moves; on a tie, the one who got there last",
                r.counters[c].name
            );
        }
        TurnPolicy::Clockwise { until_end_turn: false } => {
            let _ = writeln!(out, "  clockwise, one action a turn");
        }
        TurnPolicy::Clockwise { until_end_turn: true } => {
            let _ = writeln!(out, "  clockwise; a turn lasts until an action runs `end turn`");
        }
    }

    section(&mut out, "Actions");
    for a in &r.actions {
        let params: Vec<String> = a.params.iter().map(|p| s.param(p)).collect();
        let asked = if a.asked { " when asked" } else { "" };
        let _ = writeln!(out, "  {}({}){asked}", a.name, params.join(", "));
    }
    if !r.after_action.stmts.is_empty() {
        let _ = writeln!(out, "  after every action:");
        s.stmts(&mut out, &r.after_action.stmts, 2, players);
    }

    section(&mut out, "End");
    let _ = writeln!(out, "  when {}", s.text(r.end.span));

    section(&mut out, "Scoring");
    for sc in &r.scores {
        let index = sc.index.map_or(String::new(), |c| format!(" per {}", r.classes[c].name));
        match &sc.form {
            ScoreForm::Expr(e) => {
                let _ = writeln!(out, "  {}{index}: {}", sc.name, s.text(e.span));
            }
            ScoreForm::Majority { measure, alone, tied, minimum } => {
                let _ = writeln!(
                    out,
                    "  {}{index}: most {} scores {}, tied {} each, at least {}",
                    sc.name,
                    s.text(measure.span),
                    s.text(alone.span),
                    s.text(tied.span),
                    s.text(minimum.span)
                );
            }
        }
    }
    if !r.tiebreaks.is_empty() {
        let keys: Vec<String> = r
            .tiebreaks
            .iter()
            .map(|k| format!("{} {}", if k.lowest { "lowest" } else { "highest" }, s.text(k.by.span)))
            .collect();
        let _ = writeln!(out, "  a tie on points goes to: {}", keys.join(", then "));
    }

    out.push_str(&editions(origin, sources));
    out.push_str(&provisional(origin, sources));
    out
}

/// Every item marked provisional, with its line, for owners of the physical
/// components to check one by one.
pub fn provisional(origin: &Origin, sources: &[(String, String)]) -> String {
    let mut out = String::new();
    let items: Vec<&Provenance> = origin.provisional().collect();
    section(&mut out, &format!("Provisional: {}", items.len()));
    for p in items {
        let (file, text) = sources.get(p.span.file).map_or(("", ""), |(n, t)| (n.as_str(), t.as_str()));
        let (line, _) = line_col(text, p.span.start);
        let _ = writeln!(out, "  {file}:{line}  {}: {}", p.item, p.text);
    }
    out
}

/// Where items came from: the base, and what each edition file changed.
pub fn editions(origin: &Origin, sources: &[(String, String)]) -> String {
    let mut out = String::new();
    if sources.len() < 2 {
        return out;
    }
    let base = sources.last().map_or("", |(n, _)| n.as_str());
    section(&mut out, "Editions");
    let _ = writeln!(out, "  everything not listed below comes from {base}");
    for (file, (name, text)) in sources.iter().enumerate().rev().skip(1) {
        let _ = writeln!(out, "  changed by {name}:");
        for c in origin.changes.iter().filter(|c| c.span.file == file) {
            let (line, _) = line_col(text, c.span.start);
            let _ = writeln!(out, "    {:<10} {}  (line {line})", c.how, c.item);
        }
    }
    out
}

fn section(out: &mut String, title: &str) {
    let _ = writeln!(out, "\n{title}");
}

struct Show<'a> {
    r: &'a Ruleset,
    origin: &'a Origin,
    sources: &'a [(String, String)],
}

impl Show<'_> {
    fn text(&self, span: ruleset::Span) -> String {
        let raw = self.sources.get(span.file).and_then(|(_, t)| t.get(span.start..span.end)).unwrap_or("?");
        // Collapse line breaks and comments inside a quoted expression.
        raw.lines()
            .map(|l| l.split("//").next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn is_provisional(&self, item: &str) -> bool {
        self.origin.provenance.iter().any(|p| p.item == item && p.kind == NoteKind::Provisional)
    }

    fn value(&self, v: &Value) -> String {
        crate::words::value(self.r, v)
    }

    fn ty(&self, t: &Type) -> String {
        self.r.type_text(t, TypeStyle::Words)
    }

    fn param(&self, p: &Param) -> String {
        match &p.domain {
            ParamDomain::Type(t) => format!("{}: {}", p.name, self.ty(t)),
            ParamDomain::In(e) => format!("{}: in {}", p.name, self.text(e.span)),
            ParamDomain::Among(t, e) => format!("{}: {} in {}", p.name, self.ty(t), self.text(e.span)),
            ParamDomain::SetOf(e) => format!("{}: set of {}", p.name, self.text(e.span)),
        }
    }

    fn attributes(&self, c: &Component) -> String {
        let kind = &self.r.kinds[c.kind];
        let mut parts = Vec::new();
        for ((attr, _, default), v) in kind.slots.iter().zip(&c.values) {
            let empty = matches!(v, Value::None)
                || matches!(v, Value::Tags(t) if t.is_empty())
                || matches!(v, Value::Map(m) if m.is_empty());
            if v == default && empty {
                continue;
            }
            if v == default && matches!(v, Value::Int(0)) {
                continue;
            }
            parts.push(format!("{} {}", self.r.attr_name(*attr), self.value(v)));
        }
        parts.join(", ")
    }

    fn table(&self, out: &mut String, t: &Table) {
        let dims: Vec<String> = t
            .dims
            .iter()
            .map(|d| {
                format!(
                    "[{} {}{}]",
                    d.name,
                    self.r.dimension_range(d),
                    if d.clamp { ", clamped" } else { "" }
                )
            })
            .collect();
        let _ = writeln!(out, "  {} {}", t.name, dims.join(""));
        match t.dims.as_slice() {
            [d] => {
                // Each column as wide as its key (an enumeration's value may
                // be a long name) or its value.
                let keys: Vec<String> = (d.lo..=d.hi).map(|k| self.r.dimension_key(d, k)).collect();
                let widths: Vec<usize> = keys
                    .iter()
                    .zip(&t.values)
                    .map(|(k, v)| k.len().max(v.to_string().len()).max(2) + 1)
                    .collect();
                let vals: Vec<String> =
                    t.values.iter().zip(&widths).map(|(v, w)| format!("{v:>w$}")).collect();
                let keys: Vec<String> = keys.iter().zip(&widths).map(|(k, w)| format!("{k:>w$}")).collect();
                let w = d.name.len().max(5);
                let _ = writeln!(out, "    {:>w$} |{}", d.name, keys.join(""));
                let _ = writeln!(out, "    {:>w$} |{}", "value", vals.join(""));
            }
            [d1, d2] => {
                let cols = (d2.hi - d2.lo + 1) as usize;
                let head: Vec<String> =
                    (d2.lo..=d2.hi).map(|k| format!("{:>3}", self.r.dimension_key(d2, k))).collect();
                // The rows' keys as wide as the longest (an enumeration's
                // value may be a long name).
                let w = (d1.lo..=d1.hi).map(|k| self.r.dimension_key(d1, k).len()).max().unwrap_or(0).max(8);
                let _ = writeln!(
                    out,
                    "    {:>w$} |{}",
                    format!(
                        "{}\\{}",
                        d1.name.chars().next().unwrap_or('?'),
                        d2.name.chars().next().unwrap_or('?')
                    ),
                    head.join("")
                );
                for (i, row) in t.values.chunks(cols).enumerate() {
                    let key = self.r.dimension_key(d1, d1.lo + i as i64);
                    let vals: Vec<String> = row.iter().map(|v| format!("{v:>3}")).collect();
                    let mark = if self.is_provisional(&format!("table {} row {key}", t.name)) {
                        "  provisional"
                    } else {
                        ""
                    };
                    let _ = writeln!(out, "    {key:>w$} |{}{mark}", vals.join(""));
                }
            }
            _ => {}
        }
    }

    /// Quote statements from the source; `by players` shows only the block
    /// for `players` when a count is given.
    fn stmts(&self, out: &mut String, stmts: &[Stmt], depth: usize, players: Option<u32>) {
        let pad = "  ".repeat(depth);
        for st in stmts {
            match &st.kind {
                StmtKind::ByPlayers { cases } => match players {
                    Some(n) => {
                        for (counts, body) in cases {
                            if counts.contains(&n) {
                                self.stmts(out, body, depth, players);
                            }
                        }
                    }
                    None => {
                        for (counts, body) in cases {
                            let list: Vec<String> = counts.iter().map(u32::to_string).collect();
                            let _ = writeln!(out, "{pad}with {} players:", list.join(", "));
                            self.stmts(out, body, depth + 1, players);
                        }
                    }
                },
                StmtKind::If { then, otherwise, .. } => {
                    let _ = writeln!(out, "{pad}{}", self.header(st.span));
                    self.stmts(out, then, depth + 1, players);
                    if !otherwise.is_empty() {
                        let _ = writeln!(out, "{pad}else:");
                        self.stmts(out, otherwise, depth + 1, players);
                    }
                }
                StmtKind::For { body, .. } | StmtKind::Repeat { body, .. } => {
                    let _ = writeln!(out, "{pad}{}", self.header(st.span));
                    self.stmts(out, body, depth + 1, players);
                }
                _ => {
                    let _ = writeln!(out, "{pad}{}", self.text(st.span));
                }
            }
        }
    }

    /// The first line of a compound statement, up to its `{`.
    fn header(&self, span: ruleset::Span) -> String {
        let text = self.text(span);
        let head = text.split('{').next().unwrap_or("").trim();
        format!("{head}:")
    }
}
