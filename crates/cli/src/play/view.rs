//! What a seat is shown: the table, the score, one-line summaries. Every
//! function here returns text; the play loop decides where it goes.

use std::fmt::Write as _;

use engine::{Choice, Event, Fail, Game, ScoreSheet, ZoneInst, V};
use model::{CounterId, ParamDomain, PieceId, PlayerId, TurnPolicy, Type, Visibility, ZoneKind};

use super::log::{origin, value_json};

/// Every parameter of a choice by name, as the log writes values.
pub fn params_json(game: &Game, choice: &Choice) -> serde_json::Map<String, serde_json::Value> {
    let action = &game.rules.actions[choice.action];
    let mut map = serde_json::Map::new();
    for (p, v) in action.params.iter().zip(&choice.args) {
        let value = match v {
            // A set: its components' names, in the order they lay.
            V::Set(s) => choice
                .sets
                .get(*s as usize)
                .map(|set| set.iter().map(|c| value_json(game, &V::Card(*c))).collect())
                .unwrap_or_default(),
            _ => value_json(game, v),
        };
        map.insert(p.name.clone(), value);
    }
    map
}

/// a player (in Thebes: the year, general books, ...).
pub fn player_summary(game: &Game, p: PlayerId) -> serde_json::Value {
    let r = game.rules;
    let mut map = serde_json::Map::new();
    for (id, c) in r.counters.iter().enumerate() {
        let id = CounterId::new(id);
        if !c.per_player || c.bookkeeping {
            continue;
        }
        match c.index {
            None => {
                let v = &game.counter(id, Some(p), None);
                map.insert(c.name.clone(), value_json(game, v));
            }
            Some(class) => {
                let mut inner = serde_json::Map::new();
                for place in &r.classes[class].places {
                    let v = &game.counter(id, Some(p), Some(*place));
                    inner.insert(r.places[*place].name.clone(), value_json(game, v));
                }
                map.insert(c.name.clone(), serde_json::Value::Object(inner));
            }
        }
    }
    for (id, piece) in r.pieces.iter().enumerate() {
        let id = PieceId::new(id);
        if piece.per_player {
            let at = game.piece(id, Some(p));
            map.insert(piece.name.clone(), r.places[at].name.as_str().into());
        }
    }
    for l in r.lets.iter().filter(|l| !l.bookkeeping) {
        if l.params.len() == 1 && matches!(l.params[0].domain, ParamDomain::Type(Type::Player)) {
            if let Some(Ok(v)) = game.call_let(&l.name, Some(p), vec![V::Player(p)]) {
                map.insert(l.name.clone(), value_json(game, &v));
            }
        }
    }
    serde_json::Value::Object(map)
}

/// Every let of a player and a place class, per place: in Thebes the
/// knowledge, books, artifacts and permits per site.
fn per_place_lets(game: &Game, p: PlayerId) -> Vec<String> {
    let r = game.rules;
    let mut out = Vec::new();
    for l in r.lets.iter().filter(|l| !l.bookkeeping) {
        let [first, second] = l.params.as_slice() else { continue };
        let (ParamDomain::Type(Type::Player), ParamDomain::Type(Type::Place(Some(class)))) =
            (&first.domain, &second.domain)
        else {
            continue;
        };
        let mut cells = Vec::new();
        for place in &r.classes[*class].places {
            let v = game.call_let(&l.name, Some(p), vec![V::Player(p), V::Place(*place)]);
            let text = match v {
                Some(Ok(V::Int(n))) => n.to_string(),
                Some(Ok(V::Bool(b))) => (if b { "yes" } else { "no" }).to_string(),
                _ => "?".to_string(),
            };
            cells.push(format!("{} {text}", r.places[*place].name));
        }
        out.push(format!("{} [{}]", l.name, cells.join(", ")));
    }
    out
}

/// `(time 12 -> 15)`: the plain numbers that changed.
pub fn brief_change(before: &serde_json::Value, after: &serde_json::Value) -> String {
    let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else { return String::new() };
    let mut parts = Vec::new();
    for (k, va) in a {
        if let Some(vb) = b.get(k) {
            if vb != va && !va.is_object() {
                parts.push(format!("{k} {vb} -> {va}"));
            }
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("  ({})", parts.join(", ").replace('"', ""))
    }
}

pub fn score_table(sheet: &ScoreSheet) -> String {
    let n = sheet.totals.len();
    let width = sheet.rows.iter().map(|(r, _)| r.len()).max().unwrap_or(5).max(5);
    let mut out = String::from("\nFinal score\n");
    let heads: Vec<String> = PlayerId::all(n).map(|p| format!("{:>5}", p.to_string())).collect();
    let _ = writeln!(out, "  {:width$} {}", "", heads.join(""));
    for (rule, pts) in &sheet.rows {
        if pts.iter().all(|x| *x == 0) {
            continue;
        }
        let cells: Vec<String> = pts.iter().map(|x| format!("{x:>5}")).collect();
        let _ = writeln!(out, "  {rule:width$} {}", cells.join(""));
    }
    let cells: Vec<String> = sheet.totals.iter().map(|x| format!("{x:>5}")).collect();
    let _ = writeln!(out, "  {:width$} {}", "total", cells.join(""));
    let winners: Vec<String> = sheet.winners.iter().map(PlayerId::to_string).collect();
    let verb = if winners.len() == 1 { "wins" } else { "win (tied)" };
    let _ = writeln!(out, "{} {verb}", winners.join(" and "));
    out
}

/// The reason a choice failed, in words; a `require` without `else` text is
/// quoted from the ruleset.
pub fn fail_text(f: &Fail, sources: &[(String, String)]) -> String {
    match f {
        Fail::Illegal { reason, span } if reason.is_empty() => {
            let at = origin(sources, *span);
            let (file, line) = (at.file, at.line);
            let text =
                sources.get(span.file).and_then(|(_, t)| t.get(span.start..span.end)).unwrap_or("").trim();
            format!("the rules say `{text}` ({file}:{line})")
        }
        Fail::Illegal { reason, .. } => reason.clone(),
        Fail::Rule { message, span } => {
            let at = origin(sources, *span);
            format!("the ruleset cannot go on at {}:{}: {message}", at.file, at.line)
        }
    }
}

/// Why the player to move has no legal choice, action by action: a
/// parameter with nothing to choose from, or the reason most of the
/// action's choices fail (of up to 2,000 tried), with how many it refuses.
pub fn why_stuck(game: &Game, sources: &[(String, String)]) -> Vec<String> {
    const TRIED: usize = 2_000;
    let Some(me) = game.current() else { return Vec::new() };
    let r = game.rules;
    let asked: Vec<model::ActionId> = game.asks().iter().filter(|(p, _)| *p == me).map(|(_, a)| *a).collect();
    let mut out = Vec::new();
    for (i, action) in r.actions.iter().enumerate() {
        let id = model::ActionId::new(i);
        if (!asked.is_empty() && !asked.contains(&id)) || (asked.is_empty() && action.asked) {
            continue;
        }
        if action.params.iter().any(|p| matches!(p.domain, ParamDomain::SetOf(_))) {
            out.push(format!("`{}`: every set it could give is refused", action.name));
            continue;
        }
        let domains = match game.domains(action, me) {
            Ok(d) => d,
            Err(f) => {
                out.push(format!("`{}`: {}", action.name, fail_text(&f, sources)));
                continue;
            }
        };
        if let Some((p, _)) = action.params.iter().zip(&domains).find(|(_, d)| d.is_empty()) {
            out.push(format!("`{}`: there is no `{}` to choose", action.name, p.name));
            continue;
        }
        // The combinations in order, as a counter over the domains.
        let mut reasons: Vec<(String, usize)> = Vec::new();
        let mut index = vec![0usize; domains.len()];
        for _ in 0..TRIED {
            let args: Vec<V> = index.iter().zip(&domains).map(|(k, d)| d[*k]).collect();
            if let Err(f) = game.check(&Choice::new(id, args)) {
                let text = fail_text(&f, sources);
                match reasons.iter_mut().find(|(t, _)| *t == text) {
                    Some((_, n)) => *n += 1,
                    None => reasons.push((text, 1)),
                }
            }
            if !next_combination(&mut index, &domains) {
                break;
            }
        }
        reasons.sort_by_key(|r| std::cmp::Reverse(r.1));
        let tried: usize = reasons.iter().map(|(_, n)| n).sum();
        if let Some((text, n)) = reasons.first() {
            let of = if tried == 1 { String::new() } else { format!(" ({n} of the {tried} choices tried)") };
            out.push(format!("`{}`: {text}{of}", action.name));
        }
    }
    out
}

/// Step `index` to the next combination of the domains, the last one
/// fastest; `false` once every combination has been gone through.
fn next_combination(index: &mut [usize], domains: &[Vec<V>]) -> bool {
    for k in (0..index.len()).rev() {
        index[k] += 1;
        if index[k] < domains[k].len() {
            return true;
        }
        index[k] = 0;
    }
    false
}

/// The table as the player to move sees it, at their decision.
pub fn table(game: &Game, me: PlayerId) -> String {
    table_as(game, Some(me))
}

/// What a seat sees of another one's view: what lies open to all.
pub fn onlooker_view(game: &Game) -> engine::View {
    let mut view = game.view(PlayerId::new(0));
    for inst in game.layout.zone_insts() {
        if !sees(game, None, inst) {
            view.zones[inst.index()] = engine::ZoneView::Hidden(game.count(inst));
        }
    }
    view
}

/// The table as a seat sees it, in parts: the line mode prints them one
/// after another, the full screen puts each in its pane.
pub struct TableParts {
    /// `Thebes · action 12 · P1 to move`.
    pub heading: String,
    /// `turn order by time: P2 3 · P1 5`, when a counter orders turns.
    pub order: Option<String>,
    /// One line per player: their numbers, and the viewer's own per-place figures.
    pub players: Vec<String>,
    /// Zones with something to see: shared ones, the viewer's (`yours: ...`),
    /// then others' open ones.
    pub zones: Vec<String>,
    /// Each grid drawn as a map of what lies where (`board::maps`).
    pub maps: Vec<String>,
    /// What the viewer can count of what they cannot see (`unseen`).
    pub unseen: Vec<String>,
    /// The score as it stands, by the rules everyone can count, and the
    /// standings of each majority everyone can count.
    pub score: Option<String>,
    pub standings: Vec<String>,
}

/// The table as `viewer` sees it (`None`: an onlooker, who sees what lies
/// open to all).
pub fn table_as(game: &Game, viewer: Option<PlayerId>) -> String {
    let parts = table_parts(game, viewer);
    let mut out = format!("\n── {} ──\n", parts.heading);
    for line in parts.order.iter().chain(&parts.players) {
        let _ = writeln!(out, "{line}");
    }
    for line in &parts.maps {
        let _ = writeln!(out, "  {line}");
    }
    for line in parts.zones.iter().chain(&parts.unseen) {
        let _ = writeln!(out, "  {line}");
    }
    for line in parts.score.iter().chain(&parts.standings) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// [`table_as`], in parts.
pub fn table_parts(game: &Game, viewer: Option<PlayerId>) -> TableParts {
    let r = game.rules;
    let view = match viewer {
        Some(p) => game.view(p),
        None => onlooker_view(game),
    };
    let next = match game.current() {
        Some(p) => format!("{p} to move"),
        None => "the game is over".to_string(),
    };
    let heading = format!("{} · action {} · {next}", r.game.title, game.actions_taken() + 1);
    let mut order = None;
    if let TurnPolicy::LowestCounter(c) = r.turns {
        let mut players: Vec<PlayerId> = PlayerId::all(game.players()).collect();
        let value = |p: PlayerId| match game.counter(c, Some(p), None) {
            V::Int(n) => n,
            _ => 0,
        };
        players.sort_by(|a, b| value(*a).cmp(&value(*b)).then(game.arrival(*b).cmp(&game.arrival(*a))));
        let line: Vec<String> = players.iter().map(|p| format!("{p} {}", value(*p))).collect();
        order = Some(format!("turn order by {}: {}", r.counters[c].name, line.join(" · ")));
    }
    let mut players = Vec::new();
    for p in PlayerId::all(game.players()) {
        let summary = player_summary(game, p);
        let mut parts = Vec::new();
        if let Some(obj) = summary.as_object() {
            for (k, v) in obj {
                let text = match v {
                    serde_json::Value::Object(m) => {
                        let inner: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
                        format!("{k} [{}]", inner.join(", "))
                    }
                    other => format!("{k} {other}"),
                };
                parts.push(text.replace('"', ""));
            }
        }
        if viewer == Some(p) {
            parts.extend(per_place_lets(game, p));
        }
        let who = if viewer == Some(p) { " (you)" } else { "" };
        players.push(format!("{p}{who}: {}", parts.join(" · ")));
    }
    // Shared zones first, then the player's own, then the others' open ones.
    let mut zones = Vec::new();
    let kind_of = |inst: &engine::Instance| inst.source.ok().map(|z| (z, r.zones[z].kind));
    for (i, inst) in game.layout.zone_insts().zip(&game.layout.instances) {
        let Some((_, kind)) = kind_of(inst) else { continue };
        if inst.player.is_none() {
            zones.extend(zone_line(game, &view, i, kind));
        }
    }
    for (i, inst) in game.layout.zone_insts().zip(&game.layout.instances) {
        let Some((_, kind)) = kind_of(inst) else { continue };
        if inst.player.is_some() && inst.player == viewer {
            zones.extend(zone_line(game, &view, i, kind).map(|l| format!("yours: {l}")));
        }
    }
    for (i, inst) in game.layout.zone_insts().zip(&game.layout.instances) {
        let Some((z, kind)) = kind_of(inst) else { continue };
        if inst.player.is_some_and(|p| Some(p) != viewer) && r.zones[z].visibility == Visibility::All {
            zones.extend(zone_line(game, &view, i, kind));
        }
    }
    TableParts {
        heading,
        order,
        players,
        zones,
        maps: super::board::maps(game, &view.zones),
        unseen: unseen(game, &view),
        score: score_now(game),
        standings: standings(game),
    }
}

/// One back components show face down: its number, the hidden zones
/// holding such components (with how many), the names they may have.
type Back<'a> = (u32, Vec<(ZoneInst, usize)>, Vec<&'a str>);

/// What a seat can count of the components it cannot see: every component
/// of the game less those lying open to it, by the back they show (a bag's
/// tokens show their site, so each bag is counted apart), with the hidden
/// zones that hold them: `unseen in deck 45, hand of P2 4: Coin x5 · ...`.
/// It reads only the view and the backs, which everyone sees.
pub fn unseen(game: &Game, view: &engine::View) -> Vec<String> {
    let r = game.rules;
    let mut open = vec![false; r.components.len()];
    for z in &view.zones {
        if let engine::ZoneView::Open(cards) = z {
            for c in cards.iter().flatten() {
                open[c.index()] = true;
            }
        }
    }
    // Per back, in the order components are declared: the hidden zones
    // showing it (with how many), then the components it may be.
    let mut backs: Vec<Back> = Vec::new();
    for inst in game.layout.zone_insts() {
        if !matches!(view.zones[inst.index()], engine::ZoneView::Hidden(n) if n > 0) {
            continue;
        }
        for c in game.cards(inst) {
            let b = game.back_of(c);
            let entry = match backs.iter_mut().position(|(x, _, _)| *x == b) {
                Some(i) => &mut backs[i],
                None => {
                    backs.push((b, Vec::new(), Vec::new()));
                    backs.last_mut().expect("just pushed")
                }
            };
            match entry.1.iter_mut().find(|(z, _)| *z == inst) {
                Some((_, n)) => *n += 1,
                None => entry.1.push((inst, 1)),
            }
        }
    }
    for (i, c) in r.components.iter().enumerate() {
        let id = model::ComponentId::new(i);
        if !open[i] {
            if let Some(entry) = backs.iter_mut().find(|(b, _, _)| *b == game.back_of(id)) {
                entry.2.push(c.name.as_str());
            }
        }
    }
    backs
        .into_iter()
        .map(|(_, zones, names)| {
            let zones: Vec<String> =
                zones.iter().map(|(z, n)| format!("{} {n}", game.layout.zone_label(r, *z))).collect();
            format!("unseen in {}: {}", zones.join(", "), collapse(names.into_iter()).join(" · "))
        })
        .collect()
}

fn zone_line(game: &Game, view: &engine::View, inst: ZoneInst, kind: ZoneKind) -> Option<String> {
    let r = game.rules;
    let name = game.layout.zone_label(r, inst);
    match &view.zones[inst.index()] {
        engine::ZoneView::Hidden(0) => None,
        engine::ZoneView::Hidden(n) => Some(format!("{name}: {n} hidden")),
        engine::ZoneView::Open(cards) => {
            if cards.iter().all(Option::is_none) && kind != ZoneKind::Row {
                return None;
            }
            let slots = match game.layout.instance(inst).source {
                Ok(z) => r.zones[z].slots.clone(),
                Err(_) => Vec::new(),
            };
            let items: Vec<String> = if kind == ZoneKind::Row {
                cards
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let slot = slots.get(i).cloned().unwrap_or_default();
                        match c {
                            Some(c) => format!("[{slot}] {}", label(r, *c)),
                            None => format!("[{slot}] -"),
                        }
                    })
                    .collect()
            } else {
                let labels: Vec<String> = cards.iter().flatten().map(|c| label(r, *c)).collect();
                collapse(labels.iter().map(String::as_str))
            };
            Some(format!("{name}: {}", items.join(" · ")))
        }
    }
}

/// A component as players read it: its name and the attributes its kind
/// marks `shown` (`Large exhibition, Rome (points 5; needs Crete 2, Egypt
/// 1)`); map entries of 0, and a 0 that is the kind's default, left out.
pub fn label(r: &model::Ruleset, c: model::ComponentId) -> String {
    let comp = &r.components[c];
    let kind = &r.kinds[comp.kind];
    let mut parts = Vec::new();
    for attr in &kind.shown {
        let Some(slot) = kind.slot_of(*attr) else { continue };
        let text = match &comp.values[slot] {
            model::Value::Map(entries) => {
                let kept: Vec<String> = entries
                    .iter()
                    .filter(|(_, n)| *n != 0)
                    .map(|(p, n)| format!("{} {n}", r.places[*p].name))
                    .collect();
                if kept.is_empty() {
                    continue;
                }
                kept.join(", ")
            }
            model::Value::None => continue,
            // A 0 the kind gives by default: nothing to print (a thief's trade value).
            model::Value::Int(0) if kind.slots[slot].2 == model::Value::Int(0) => continue,
            v => crate::words::value(r, v),
        };
        parts.push(format!("{} {text}", r.attr_name(*attr)));
    }
    if parts.is_empty() {
        comp.name.clone()
    } else {
        format!("{} ({})", comp.name, parts.join("; "))
    }
}

/// `A, A, B` -> `A x2`, `B`.
pub fn collapse<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for n in names {
        match out.iter_mut().find(|(m, _)| m == n) {
            Some((_, k)) => *k += 1,
            None => out.push((n.to_string(), 1)),
        }
    }
    out.into_iter().map(|(n, k)| if k > 1 { format!("{n} x{k}") } else { n }).collect()
}

/// Whether `viewer` (a seat, or an onlooker who sees only what is open to
/// all) may see what lies in a zone instance.
fn sees(game: &Game, viewer: Option<PlayerId>, inst: ZoneInst) -> bool {
    match viewer {
        Some(p) => game.visible_to(inst, p),
        None => matches!(game.layout.instance(inst).source,
            Ok(z) if game.rules.zones[z].visibility == Visibility::All),
    }
}

/// What happened in an action, told as `viewer` may see it: each run of
/// components moving between two zones (`deck -> hand of P2: a card`;
/// named when the viewer sees either zone, so a player learns what they
/// drew and what was taken from them, and nobody else does), shuffles,
/// questions asked, and what a rule showed the viewer alone. Counters and
/// pieces are told by the action line itself.
pub fn narrate(game: &Game, viewer: Option<PlayerId>, events: &[Event]) -> Vec<String> {
    let r = game.rules;
    let zone = |z: ZoneInst| game.layout.zone_label(r, z);
    let mut out = Vec::new();
    let mut run: Option<(ZoneInst, ZoneInst, Vec<&str>, usize)> = None;
    let flush = |run: &mut Option<(ZoneInst, ZoneInst, Vec<&str>, usize)>, out: &mut Vec<String>| {
        if let Some((from, to, seen, unseen)) = run.take() {
            let mut items = collapse(seen.into_iter());
            match unseen {
                0 => {}
                1 => items.push("a card".into()),
                n => items.push(format!("{n} cards")),
            }
            out.push(format!("{} -> {}: {}", zone(from), zone(to), items.join(" · ")));
        }
    };
    for e in events {
        if let Event::Move { card, from, to, .. } = e {
            let seen = sees(game, viewer, *from) || sees(game, viewer, *to);
            match &mut run {
                Some((f, t, names, unseen)) if f == from && t == to => {
                    if seen {
                        names.push(r.components[*card].name.as_str());
                    } else {
                        *unseen += 1;
                    }
                }
                _ => {
                    flush(&mut run, &mut out);
                    let name = r.components[*card].name.as_str();
                    run = Some((*from, *to, if seen { vec![name] } else { Vec::new() }, usize::from(!seen)));
                }
            }
            continue;
        }
        flush(&mut run, &mut out);
        match e {
            Event::Shuffle { zone: z, .. } => out.push(format!("{} is shuffled", zone(*z))),
            Event::Ask { player, action, .. } => {
                out.push(format!("{player} is asked to `{}`", r.actions[*action].name));
            }
            Event::Reveal { zone: z, player, cards, .. } if Some(*player) == viewer => {
                let seen = if cards.is_empty() {
                    "nothing".to_string()
                } else {
                    collapse(cards.iter().map(|c| r.components[*c].name.as_str())).join(" · ")
                };
                out.push(format!("you see in {}: {seen}", zone(*z)));
            }
            Event::Reveal { zone: z, player, .. } => out.push(format!("{player} looks at {}", zone(*z))),
            _ => {}
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Per score rule: whether everyone can count it as things stand, because
/// it reads no zone hidden from anyone (only zones open to all, counters
/// and pieces), through every let it calls. Only those are shown before
/// the end: a rule that reads a hand or a bag would tell what lies there.
pub fn public_scores(r: &model::Ruleset) -> Vec<bool> {
    r.scores
        .iter()
        .map(|s| {
            let mut open = true;
            let mut lets = Vec::new();
            match &s.form {
                model::ScoreForm::Expr(e) => reads_only_open(r, e, &mut open, &mut lets),
                model::ScoreForm::Majority { measure, alone, tied, minimum } => {
                    for e in [measure, alone, tied, minimum] {
                        reads_only_open(r, e, &mut open, &mut lets);
                    }
                }
            }
            open
        })
        .collect()
}

/// Clear `open` if `e` reads a zone not open to all (or a group's supply),
/// itself or through the lets it calls.
fn reads_only_open(r: &model::Ruleset, e: &model::Expr, open: &mut bool, lets: &mut Vec<model::LetId>) {
    use model::ExprKind as K;
    match &e.kind {
        K::Group(_) => *open = false,
        K::Zone { zone, .. } if r.zones[*zone].visibility != Visibility::All => *open = false,
        K::Let { id, .. } if !lets.contains(id) => {
            lets.push(*id);
            reads_only_open(r, &r.lets[*id].body, open, lets);
        }
        _ => {}
    }
    e.for_each_child(|x| reads_only_open(r, x, open, lets));
}

/// Each player's points by the rules everyone can count (`public_scores`)
/// as things stand; `None` when the score cannot be worked out.
pub fn public_totals(game: &Game) -> Option<Vec<i64>> {
    let r = game.rules;
    let public = public_scores(r);
    let sheet = game.scores().ok()?;
    let rule_of = |row: &str| {
        r.scores.iter().position(|s| {
            row == s.name || row.strip_prefix(s.name.as_str()).is_some_and(|t| t.starts_with('['))
        })
    };
    let mut totals = vec![0i64; game.players()];
    for (row, points) in &sheet.rows {
        if rule_of(row).is_some_and(|i| public[i]) {
            for (t, p) in totals.iter_mut().zip(points) {
                *t = t.saturating_add(*p);
            }
        }
    }
    Some(totals)
}

/// The score as it stands, by the rules everyone can count
/// (`public_scores`): `score now: P1 12 · P2 9 (artifacts, congresses)`,
/// and which rules wait for the end. `None` when no rule can be shown.
pub fn score_now(game: &Game) -> Option<String> {
    let r = game.rules;
    let public = public_scores(r);
    let totals = public_totals(game)?;
    let shown: Vec<&str> =
        r.scores.iter().zip(&public).filter(|(_, p)| **p).map(|(s, _)| s.name.as_str()).collect();
    if shown.is_empty() {
        return None;
    }
    let hidden: Vec<&str> =
        r.scores.iter().zip(&public).filter(|(_, p)| !**p).map(|(s, _)| s.name.as_str()).collect();
    let each: Vec<String> =
        PlayerId::all(game.players()).map(|p| format!("{p} {}", totals[p.index()])).collect();
    let mut line = format!("score now: {} ({})", each.join(" · "), shown.join(", "));
    if !hidden.is_empty() {
        let _ = write!(line, "; at the end also {}", hidden.join(", "));
    }
    Some(line)
}

/// The standings of each majority everyone can count (`public_scores`),
/// one line per rule: who has how much, most first, per place
/// (`standings site_majority: Greece P2 3, P1 1 · Crete nobody · ...`);
/// players with nothing left out.
pub fn standings(game: &Game) -> Vec<String> {
    let r = game.rules;
    let public = public_scores(r);
    let Ok(sheet) = game.scores() else { return Vec::new() };
    let mut out = Vec::new();
    for (s, open) in r.scores.iter().zip(&public) {
        if !open || !matches!(s.form, model::ScoreForm::Majority { .. }) {
            continue;
        }
        let mut cells = Vec::new();
        for (row, m) in &sheet.measures {
            let place = match row.strip_prefix(s.name.as_str()) {
                Some("") => None,
                Some(rest) if rest.starts_with('[') => {
                    Some(rest.trim_start_matches('[').trim_end_matches(']'))
                }
                _ => continue,
            };
            let mut who: Vec<(PlayerId, i64)> =
                PlayerId::all(m.len()).map(|p| (p, m[p.index()])).filter(|(_, v)| *v != 0).collect();
            who.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let text = if who.is_empty() {
                "nobody".to_string()
            } else {
                who.iter().map(|(p, v)| format!("{p} {v}")).collect::<Vec<_>>().join(", ")
            };
            cells.push(match place {
                Some(pl) => format!("{pl} {text}"),
                None => text,
            });
        }
        if !cells.is_empty() {
            out.push(format!("standings {}: {}", s.name, cells.join(" · ")));
        }
    }
    out
}

/// The width to wrap the table to: `COLUMNS` when set, else 80.
pub fn screen_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(80)
}

/// Each line of `text` broken at spaces to fit `width` characters, the
/// rest of a broken line indented under its start (4 more than the line's
/// own indent), so that nothing wraps in the middle of a word. A word
/// longer than the width stays whole.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if body.chars().count() <= width {
            out.push_str(line);
            continue;
        }
        let indent = body.len() - body.trim_start().len();
        let more = " ".repeat((indent + 4).min(width / 2));
        let mut current = body[..indent].to_string();
        let mut used = indent;
        for (i, word) in body.trim_start().split(' ').enumerate() {
            let n = word.chars().count();
            if i == 0 {
                current.push_str(word);
                used += n;
            } else if used + 1 + n <= width {
                current.push(' ');
                current.push_str(word);
                used += 1 + n;
            } else {
                out.push_str(&current);
                out.push('\n');
                current = format!("{more}{word}");
                used = more.len() + n;
            }
        }
        out.push_str(&current);
        out.push_str(newline);
    }
    out
}
