//! `chronoscope play`: humans at one terminal and bots, scripts, saves and
//! the JSON-lines log.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use engine::{notation, Choice, Event, Fail, Game, Program, ScoreSheet, ZoneInst, V};
use model::{ActionId, CounterId, ParamDomain, PieceId, PlayerId, TurnPolicy, Type, Visibility, ZoneKind};
use ruleset::span::line_col;

use crate::render;

pub struct PlayArgs {
    pub file: PathBuf,
    pub players: Option<u32>,
    pub seats: Option<String>,
    pub seed: Option<u64>,
    pub script: Option<PathBuf>,
    pub save: Option<PathBuf>,
    pub log: Option<PathBuf>,
    pub quiet: bool,
}

enum Seat {
    Human,
    Bot(Box<dyn bots::Bot + Send>),
}

/// A script: `# seed N` and `# players N` lines, then one action per line.
struct Script {
    seed: Option<u64>,
    players: Option<u32>,
    /// (line number, text)
    actions: Vec<(usize, String)>,
    next: usize,
}

fn read_script(path: &Path) -> Result<Script, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read script `{}`: {e}", path.display()))?;
    let mut s = Script { seed: None, players: None, actions: Vec::new(), next: 0 };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix('#') {
            let mut words = rest.split_whitespace();
            match (words.next(), words.next()) {
                (Some("seed"), Some(n)) => {
                    s.seed = Some(n.parse().map_err(|_| format!("script line {}: bad seed `{n}`", i + 1))?)
                }
                (Some("players"), Some(n)) => {
                    s.players = Some(
                        n.parse().map_err(|_| format!("script line {}: bad player count `{n}`", i + 1))?,
                    )
                }
                _ => {}
            }
        } else if !line.is_empty() {
            s.actions.push((i + 1, line.to_string()));
        }
    }
    Ok(s)
}

pub fn run(args: PlayArgs) -> ExitCode {
    let loaded = render::load(&args.file);
    let Some(rules) = loaded.checked.ruleset.clone() else {
        eprint!("{}", render::report(&loaded.checked.sources, &loaded.checked.diagnostics, true));
        eprintln!("{}: cannot play a ruleset with errors; fix them first", loaded.name);
        return ExitCode::FAILURE;
    };
    let program = Program::new(rules);
    match play(&program, &loaded.checked.sources, &loaded.name, args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn play(
    rules: &Program,
    sources: &[(String, String)],
    name: &str,
    args: PlayArgs,
) -> Result<ExitCode, String> {
    let mut script = match &args.script {
        Some(p) => Some(read_script(p)?),
        None => None,
    };
    let script_players = script.as_ref().and_then(|s| s.players);
    let (players, seat_words) =
        crate::simulate::seating(rules, args.seats.as_deref(), args.players.or(script_players))?;
    let players = players as u32;
    let seed = args.seed.or(script.as_ref().and_then(|s| s.seed)).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
    });
    let mut seats = Vec::new();
    let mut seat_names = Vec::new();
    for (i, word) in seat_words.iter().enumerate() {
        let word = word.as_str();
        let bot_seed = crate::simulate::bot_seed(seed, i);
        let seat = match word {
            "human" => Seat::Human,
            kind => match bots::make(kind, bot_seed) {
                Some(b) => Seat::Bot(b),
                None => {
                    return Err(format!(
                        "unknown seat `{kind}`; seats are: human, {}",
                        bots::KINDS.join(", ")
                    ));
                }
            },
        };
        seat_names.push(word.to_string());
        seats.push(seat);
    }

    let (mut game, setup_events) =
        Game::new(rules, players as usize, seed).map_err(|f| fail_text(&f, sources))?;
    let mut log = match &args.log {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write log `{}`: {e}", p.display()))?,
        )),
        None => None,
    };
    let mut saved: Vec<String> = Vec::new();
    let order: Vec<String> = game.seat_order().iter().map(PlayerId::to_string).collect();
    write_log(
        &mut log,
        serde_json::json!({
            "type": "start", "ruleset": name, "game": rules.game.name, "players": players,
            "seed": seed, "seats": seat_names, "order": order,
        }),
    )?;
    write_log(
        &mut log,
        serde_json::json!({ "type": "setup", "events": events_json(&setup_events, sources) }),
    )?;
    if !args.quiet {
        outln!("{} for {players} players, seed {seed} (replay with --seed {seed})", rules.game.title);
        outln!(
            "seats: {}",
            seat_names
                .iter()
                .enumerate()
                .map(|(i, s)| format!("P{} {s}", i + 1))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }

    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    while let Some(me) = game.current() {
        let choices = game.choices();
        if choices.is_empty() {
            return Err(format!(
                "{me} has no legal action and the game has not ended: the ruleset leaves this player stuck"
            ));
        }
        let from_script = script.as_mut().and_then(|s| {
            let line = s.actions.get(s.next).cloned();
            s.next += 1;
            line
        });
        let choice = if let Some((line_no, text)) = from_script {
            let choice =
                notation::parse(&game, &text).map_err(|e| format!("script line {line_no}: `{text}`: {e}"))?;
            game.check(&choice).map_err(|f| {
                format!("script line {line_no}: `{text}` is not legal: {}", fail_text(&f, sources))
            })?;
            choice
        } else {
            match &mut seats[me.index()] {
                Seat::Bot(bot) => {
                    let i = bot.choose(&bots::Seat::new(&game, me), &choices);
                    choices[i.min(choices.len() - 1)].clone()
                }
                Seat::Human => match ask(&game, &choices, sources, &mut input)? {
                    Some(c) => c,
                    None => {
                        outln!("the game stops unfinished");
                        finish_save(&args.save, seed, players, &saved)?;
                        return Ok(ExitCode::FAILURE);
                    }
                },
            }
        };
        let text = notation::format(&game, &choice);
        let before = player_summary(&game, me);
        let events = game.apply(&choice).map_err(|f| fail_text(&f, sources))?;
        let after = player_summary(&game, me);
        saved.push(text.clone());
        if !args.quiet {
            outln!("{:>4}. {me} {text}{}", game.actions_taken(), brief_change(&before, &after));
        }
        // What a rule showed to this seat alone, told only to a human in it.
        if matches!(seats[me.index()], Seat::Human) {
            for e in &events {
                if let Event::Reveal { zone, player, cards, .. } = e {
                    if *player == me.number() {
                        let seen = if cards.is_empty() {
                            "nothing".to_string()
                        } else {
                            collapse(cards.iter().map(String::as_str)).join(" · ")
                        };
                        outln!("      you see in {zone}: {seen}");
                    }
                }
            }
        }
        write_log(
            &mut log,
            serde_json::json!({
                "type": "action", "n": game.actions_taken(), "player": me.to_string(),
                "action": rules.actions[choice.action].name, "notation": text,
                "params": params_json(&game, &choice), "before": before, "after": after,
                "events": events_json(&events, sources),
            }),
        )?;
        if args.save.is_some() {
            finish_save(&args.save, seed, players, &saved)?;
        }
    }
    let sheet = game.scores().map_err(|f| fail_text(&f, sources))?;
    out!("{}", score_table(&sheet));
    write_log(
        &mut log,
        serde_json::json!({
            "type": "end", "actions": game.actions_taken(),
            "scores": sheet.rows.iter().map(|(rule, pts)| serde_json::json!({ "rule": rule, "points": pts })).collect::<Vec<_>>(),
            "totals": sheet.totals,
            "winners": sheet.winners.iter().map(PlayerId::to_string).collect::<Vec<_>>(),
        }),
    )?;
    if let Some(l) = log.as_mut() {
        l.flush().map_err(|e| format!("cannot write log: {e}"))?;
    }
    finish_save(&args.save, seed, players, &saved)?;
    Ok(ExitCode::SUCCESS)
}

fn finish_save(path: &Option<PathBuf>, seed: u64, players: u32, actions: &[String]) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    let mut text =
        format!("# chronoscope save: replay with `chronoscope play RULESET --script {}`\n", path.display());
    let _ = writeln!(text, "# seed {seed}\n# players {players}");
    for a in actions {
        let _ = writeln!(text, "{a}");
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write save `{}`: {e}", path.display()))
}

fn write_log(
    log: &mut Option<std::io::BufWriter<std::fs::File>>,
    v: serde_json::Value,
) -> Result<(), String> {
    if let Some(l) = log {
        writeln!(l, "{v}").map_err(|e| format!("cannot write log: {e}"))?;
    }
    Ok(())
}

/// Events as JSON, with the ruleset line that made each one.
fn events_json(events: &[Event], sources: &[(String, String)]) -> Vec<serde_json::Value> {
    events
        .iter()
        .map(|e| {
            let mut v = serde_json::to_value(e).unwrap_or_default();
            let at = match e {
                Event::Move { at, .. }
                | Event::Counter { at, .. }
                | Event::Piece { at, .. }
                | Event::Reveal { at, .. } => Some(*at),
                _ => None,
            };
            if let (Some(obj), Some(at)) = (v.as_object_mut(), at) {
                obj.remove("at");
                let (file, line) = where_in(sources, at);
                obj.insert("line".into(), line.into());
                if at.file != 0 {
                    obj.insert("file".into(), file.into());
                }
            }
            v
        })
        .collect()
}

/// The file name and line of a span.
fn where_in(sources: &[(String, String)], span: model::Span) -> (String, usize) {
    match sources.get(span.file) {
        Some((name, text)) => (name.clone(), line_col(text, span.start).0),
        None => (String::new(), 0),
    }
}

fn params_json(game: &Game, choice: &Choice) -> serde_json::Value {
    let action = &game.rules.actions[choice.action];
    let mut map = serde_json::Map::new();
    for (p, v) in action.params.iter().zip(&choice.args) {
        map.insert(p.name.clone(), value_json(game, v));
    }
    serde_json::Value::Object(map)
}

fn value_json(game: &Game, v: &V) -> serde_json::Value {
    let r = game.rules;
    match v {
        V::Int(n) => (*n).into(),
        V::Bool(b) => (*b).into(),
        V::Place(p) => r.places[*p].name.as_str().into(),
        V::Player(p) => p.to_string().into(),
        V::Card(c) => r.components[*c].name.as_str().into(),
        V::Text(t) => (*t).into(),
        _ => serde_json::Value::Null,
    }
}

/// A player's per-player counters and pieces, and every let that takes just
/// a player (in Thebes: the year, general books, ...).
fn player_summary(game: &Game, p: PlayerId) -> serde_json::Value {
    let r = game.rules;
    let mut map = serde_json::Map::new();
    for (id, c) in r.counters.iter().enumerate() {
        let id = CounterId::new(id);
        if !c.per_player {
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
    for l in &r.lets {
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
    for l in &r.lets {
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
fn brief_change(before: &serde_json::Value, after: &serde_json::Value) -> String {
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
            let (file, line) = where_in(sources, *span);
            let text =
                sources.get(span.file).and_then(|(_, t)| t.get(span.start..span.end)).unwrap_or("").trim();
            format!("the rules say `{text}` ({file}:{line})")
        }
        Fail::Illegal { reason, .. } => reason.clone(),
        Fail::Rule { message, span } => {
            let (file, line) = where_in(sources, *span);
            format!("the ruleset cannot go on at {file}:{line}: {message}")
        }
    }
}

// ------------------------------------------------------------- humans

const HELP: &str = "\
Type the number of a choice, or write it as listed: the action, then its
values in order (a name with spaces in quotes, or a component's number in
its zone's list), then the flags you want by name. Any unambiguous start of
an action or a name will do.
Other commands:
  list [ACTION]   all legal choices (of one action)
  show            the table again
  help            this text
  quit            stop the game";

/// Ask the human to move; `None` when input ends or they quit.
fn ask(
    game: &Game,
    choices: &[Choice],
    sources: &[(String, String)],
    input: &mut impl BufRead,
) -> Result<Option<Choice>, String> {
    let me = game.current().expect("a player is to move");
    out!("{}", table(game, me));
    out!("{}", choice_list(game, choices, None, 8));
    loop {
        out!("{me}> ");
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => return Ok(None),
            Ok(_) => {}
        }
        let line = line.trim();
        match line.split_whitespace().next() {
            None => continue,
            Some("help" | "?") => outln!("{HELP}"),
            Some("quit" | "exit") => return Ok(None),
            Some("show") => {
                out!("{}", table(game, me));
                out!("{}", choice_list(game, choices, None, 8));
            }
            Some("list") => {
                let filter = line.split_whitespace().nth(1);
                out!("{}", choice_list(game, choices, filter, usize::MAX));
            }
            Some(_) => {
                if let Ok(n) = line.parse::<usize>() {
                    match choices.get(n.wrapping_sub(1)) {
                        Some(c) => return Ok(Some(c.clone())),
                        None => {
                            outln!("no choice {n}; choices run from 1 to {}", choices.len());
                            continue;
                        }
                    }
                }
                match notation::parse(game, line) {
                    Err(e) => outln!("{e}"),
                    Ok(c) => match game.check(&c) {
                        Ok(()) => return Ok(Some(c)),
                        Err(f) => outln!("not allowed: {}", fail_text(&f, sources)),
                    },
                }
            }
        }
    }
}

/// The numbered legal choices, at most `per_action` of each action.
fn choice_list(game: &Game, choices: &[Choice], only: Option<&str>, per_action: usize) -> String {
    let mut out = String::from("Choices:\n");
    let mut shown: std::collections::HashMap<ActionId, usize> = Default::default();
    let mut hidden: std::collections::BTreeMap<String, usize> = Default::default();
    for (i, c) in choices.iter().enumerate() {
        let name = &game.rules.actions[c.action].name;
        if only.is_some_and(|o| !name.starts_with(o)) {
            continue;
        }
        let n = shown.entry(c.action).or_default();
        if *n < per_action {
            *n += 1;
            let _ = writeln!(out, "  {:>3}. {}{}", i + 1, notation::format(game, c), preview(game, c));
        } else {
            *hidden.entry(name.clone()).or_default() += 1;
        }
    }
    for (name, n) in hidden {
        let _ = writeln!(out, "       ... {n} more `{name}` choices (type `list {name}`)");
    }
    out
}

/// What a choice would do, as far as the player may know it: changes to the
/// mover's numbers and how many components it takes from hidden zones.
fn preview(game: &Game, choice: &Choice) -> String {
    let Ok(events) = game.preview(choice) else { return String::new() };
    let me = game.current().map(PlayerId::number);
    let r = game.rules;
    let mut deltas: Vec<(String, i64)> = Vec::new();
    let mut hidden: Vec<(String, usize)> = Vec::new();
    for e in &events {
        match e {
            Event::Counter { name, player, place: None, from, to, .. } if *player == me => {
                if let (Some(a), Some(b)) = (from.as_i64(), to.as_i64()) {
                    match deltas.iter_mut().find(|(n, _)| n == name) {
                        Some((_, d)) => *d += b - a,
                        None => deltas.push((name.clone(), b - a)),
                    }
                }
            }
            Event::Move { from, .. } => {
                let hidden_zone = r.zones.iter().any(|z| {
                    z.visibility == Visibility::Nobody
                        && (from == &z.name || from.starts_with(&format!("{}[", z.name)))
                });
                if hidden_zone {
                    match hidden.iter_mut().find(|(z, _)| z == from) {
                        Some((_, n)) => *n += 1,
                        None => hidden.push((from.clone(), 1)),
                    }
                }
            }
            _ => {}
        }
    }
    let mut parts: Vec<String> = deltas
        .into_iter()
        .filter(|(_, d)| *d != 0)
        .map(|(n, d)| format!("{n} {}{d}", if d > 0 { "+" } else { "" }))
        .collect();
    parts.extend(hidden.into_iter().map(|(z, n)| format!("draws {n} from {z}")));
    if parts.is_empty() {
        String::new()
    } else {
        format!("   ({})", parts.join(", "))
    }
}

/// The table as player `me` may see it.
fn table(game: &Game, me: PlayerId) -> String {
    let r = game.rules;
    let view = game.view(me);
    let mut out = String::new();
    let _ = writeln!(out, "\n── {} · action {} · {me} to move ──", r.game.title, game.actions_taken() + 1);
    if let TurnPolicy::LowestCounter(c) = r.turns {
        let mut order: Vec<PlayerId> = PlayerId::all(game.players()).collect();
        let value = |p: PlayerId| match game.counter(c, Some(p), None) {
            V::Int(n) => n,
            _ => 0,
        };
        order.sort_by(|a, b| value(*a).cmp(&value(*b)).then(game.arrival(*b).cmp(&game.arrival(*a))));
        let line: Vec<String> = order.iter().map(|p| format!("{p} {}", value(*p))).collect();
        let _ = writeln!(out, "turn order by {}: {}", r.counters[c].name, line.join(" · "));
    }
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
        if p == me {
            parts.extend(per_place_lets(game, p));
        }
        let who = if p == me { " (you)" } else { "" };
        let _ = writeln!(out, "{p}{who}: {}", parts.join(" · "));
    }
    // Shared zones first, then the player's own, then the others' open ones.
    for (i, inst) in game.layout.zone_insts().zip(&game.layout.instances) {
        let Ok(z) = inst.source else { continue };
        let zone = &r.zones[z];
        if inst.player.is_some() {
            continue;
        }
        if let Some(line) = zone_line(game, &view, i, zone.kind) {
            let _ = writeln!(out, "  {line}");
        }
    }
    for (i, inst) in game.layout.zone_insts().zip(&game.layout.instances) {
        let Ok(z) = inst.source else { continue };
        if inst.player == Some(me) {
            if let Some(line) = zone_line(game, &view, i, r.zones[z].kind) {
                let _ = writeln!(out, "  yours: {line}");
            }
        }
    }
    for (i, inst) in game.layout.zone_insts().zip(&game.layout.instances) {
        let Ok(z) = inst.source else { continue };
        if inst.player.is_some_and(|p| p != me) && r.zones[z].visibility == Visibility::All {
            if let Some(line) = zone_line(game, &view, i, r.zones[z].kind) {
                let _ = writeln!(out, "  {line}");
            }
        }
    }
    out
}

fn zone_line(game: &Game, view: &engine::View, inst: ZoneInst, kind: ZoneKind) -> Option<String> {
    let r = game.rules;
    let name = game.layout.zone_name(r, inst);
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
                            Some(c) => format!("[{slot}] {}", r.components[*c].name),
                            None => format!("[{slot}] -"),
                        }
                    })
                    .collect()
            } else {
                collapse(cards.iter().flatten().map(|c| r.components[*c].name.as_str()))
            };
            Some(format!("{name}: {}", items.join(" · ")))
        }
    }
}

/// `A, A, B` -> `A x2`, `B`.
fn collapse<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for n in names {
        match out.iter_mut().find(|(m, _)| m == n) {
            Some((_, k)) => *k += 1,
            None => out.push((n.to_string(), 1)),
        }
    }
    out.into_iter().map(|(n, k)| if k > 1 { format!("{n} x{k}") } else { n }).collect()
}
