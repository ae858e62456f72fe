//! `chronoscope explain RULESET GAME --action N` (or `--score`): the rules
//! behind one action of a saved game or a log, or behind its final score,
//! each with its file and line and the values it read.
//!
//! The action is replayed with the engine's trace on (`Game::apply_traced`,
//! `Game::scores_traced`): every let called and table entry looked up is
//! noted with its arguments and value where the rules asked for it, and each
//! change the action made names the statement that made it. This is a tool
//! for a game's author or a curious player after the game: it names every
//! component moved, hidden or not.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use engine::{notation, Event, Game, Program, Traced, TracedKind, V};

use crate::play::log::{origin, value_json};
use crate::play::view::fail_text;
use crate::play::Stop;
use crate::replay::{play_to, read_for_replay};

pub struct ExplainArgs {
    pub file: PathBuf,
    pub game: PathBuf,
    pub action: Option<usize>,
    pub score: bool,
}

/// At most this many values read are listed (the rest are counted).
const MAX_READS: usize = 60;

pub fn run(args: ExplainArgs) -> ExitCode {
    crate::play::with_program(&args.file, "explain with", |program, loaded| {
        let mut stdout = std::io::stdout().lock();
        explain(program, &loaded.checked.sources, &args, &mut stdout).map(|()| ExitCode::SUCCESS)
    })
}

pub fn explain(
    rules: &Program,
    sources: &[(String, String)],
    args: &ExplainArgs,
    out: &mut dyn Write,
) -> Result<(), Stop> {
    let shown = args.game.display();
    let (script, seed, players) = read_for_replay(sources, &args.game)?;
    let total = script.actions.len();
    let at = |span: model::Span| file_line(sources, span);
    if args.score || args.action.is_none() {
        let (game, _) = play_to(rules, sources, &args.game, &script, (seed, players), total)?;
        let (sheet, trace) = game.scores_traced().map_err(|f| fail_text(&f, sources))?;
        let state = if game.current().is_none() { "final score" } else { "score as things stand" };
        writeln!(out, "{} after {total} actions: the {state}, rule by rule", rules.game.title)?;
        for (row, points) in &sheet.rows {
            let rule = rules.scores.iter().find(|s| {
                *row == s.name || row.strip_prefix(s.name.as_str()).is_some_and(|t| t.starts_with('['))
            });
            let cells: Vec<String> =
                points.iter().enumerate().map(|(p, v)| format!("P{} {v}", p + 1)).collect();
            let place = rule.map(|s| at(s.span)).unwrap_or_default();
            writeln!(out, "  {row}: {}   ({place})", cells.join(", "))?;
            if let Some((_, m)) = sheet.measures.iter().find(|(name, _)| name == row) {
                let each: Vec<String> =
                    m.iter().enumerate().map(|(p, v)| format!("P{} {v}", p + 1)).collect();
                writeln!(out, "      measured: {}", each.join(", "))?;
            }
        }
        let totals: Vec<String> =
            sheet.totals.iter().enumerate().map(|(p, v)| format!("P{} {v}", p + 1)).collect();
        writeln!(out, "  total: {}", totals.join(", "))?;
        write_reads(out, &game, sources, &trace)?;
        return Ok(());
    }
    let n = args.action.unwrap_or(0);
    if n == 0 || n > total {
        return Err(Stop::Error(format!("`{shown}` has actions 1 to {total}; there is no action {n}")));
    }
    let (mut game, _) = play_to(rules, sources, &args.game, &script, (seed, players), n - 1)?;
    let (line, text) = &script.actions[n - 1];
    let choice = notation::parse(&game, text).map_err(|e| format!("`{shown}` line {line}: `{text}`: {e}"))?;
    let me = game.current().map_or_else(String::new, |p| p.to_string());
    let action = &rules.actions[choice.action];
    let (events, trace) = game
        .apply_traced(&choice)
        .map_err(|f| format!("`{shown}` line {line}: {}", fail_text(&f, sources)))?;
    writeln!(out, "action {n}: {me} {text}   (action `{}` at {})", action.name, at(action.span))?;
    writeln!(out, "what it did:")?;
    if events.is_empty() {
        writeln!(out, "  nothing")?;
    }
    for e in &events {
        writeln!(out, "  {:<24} {}", at(e.at()), describe(&game, e))?;
    }
    write_reads(out, &game, sources, &trace)?;
    Ok(())
}

/// `thebes.ruleset:441`.
fn file_line(sources: &[(String, String)], span: model::Span) -> String {
    let o = origin(sources, span);
    format!("{}:{}", o.file, o.line)
}

/// A value as the log writes it, without quotes.
fn value(game: &Game, v: &V) -> String {
    value_json(game, v).to_string().replace('"', "")
}

/// One change in words, naming every component.
fn describe(game: &Game, e: &Event) -> String {
    let r = game.rules;
    let zone = |z| game.layout.zone_name(r, z);
    let whose = |p: &Option<model::PlayerId>| p.map_or(String::new(), |p| format!(" of {p}"));
    match e {
        Event::Move { card, from, to, .. } => {
            format!("{} -> {}: {}", zone(*from), zone(*to), r.components[*card].name)
        }
        Event::Counter { counter, player, place, from, to, .. } => {
            let at = place.map_or(String::new(), |p| format!("[{}]", r.places[p].name));
            format!(
                "{}{at}{}: {} -> {}",
                r.counters[*counter].name,
                whose(player),
                value(game, from),
                value(game, to)
            )
        }
        Event::Piece { piece, player, from, to, .. } => {
            format!(
                "{}{}: {} -> {}",
                r.pieces[*piece].name,
                whose(player),
                r.places[*from].name,
                r.places[*to].name
            )
        }
        Event::Shuffle { zone: z, .. } => format!("{} is shuffled", zone(*z)),
        Event::Ask { player, action, .. } => format!("{player} is asked to `{}`", r.actions[*action].name),
        Event::Reveal { zone: z, player, cards, .. } => {
            let names: Vec<&str> = cards.iter().map(|c| r.components[*c].name.as_str()).collect();
            format!("{player} sees in {}: {}", zone(*z), names.join(", "))
        }
        Event::PlayerOrder { order, .. } => {
            let o: Vec<String> = order.iter().map(ToString::to_string).collect();
            format!("the player order is {}", o.join(", "))
        }
    }
}

/// The values the rules read: where they asked, what, and the value;
/// repeated reads (same place, same question, same answer) once, counted.
fn write_reads(
    out: &mut dyn Write,
    game: &Game,
    sources: &[(String, String)],
    trace: &[Traced],
) -> Result<(), Stop> {
    let r = game.rules;
    let at = |span: model::Span| file_line(sources, span);
    // Where a let or table is defined, short when in the file that asked.
    let defined = |span: model::Span, asked: model::Span| {
        let o = origin(sources, span);
        if span.file == asked.file {
            format!(":{}", o.line)
        } else {
            format!("{}:{}", o.file, o.line)
        }
    };
    let mut lines: Vec<(String, usize)> = Vec::new();
    for t in trace {
        let text = match &t.what {
            TracedKind::Let(id, args) => {
                let l = &r.lets[*id];
                let a: Vec<String> = args.iter().map(|v| value(game, v)).collect();
                let call =
                    if a.is_empty() { l.name.clone() } else { format!("{}({})", l.name, a.join(", ")) };
                format!(
                    "{:<24} {call} = {}   (let at {})",
                    at(t.at),
                    value(game, &t.value),
                    defined(l.span, t.at)
                )
            }
            TracedKind::Table(id, keys) => {
                let table = &r.tables[*id];
                let k: String = keys
                    .iter()
                    .zip(&table.dims)
                    .map(|(k, d)| {
                        let name = d.class.and_then(|c| {
                            let i = usize::try_from(*k).ok()?;
                            r.classes[c].places.get(i).map(|p| r.places[*p].name.clone())
                        });
                        format!("[{}]", name.unwrap_or_else(|| k.to_string()))
                    })
                    .collect();
                let (name, v) = (&table.name, value(game, &t.value));
                format!("{:<24} {name}{k} = {v}   (table at {})", at(t.at), defined(table.span, t.at))
            }
        };
        match lines.iter_mut().find(|(l, _)| *l == text) {
            Some((_, n)) => *n += 1,
            None => lines.push((text, 1)),
        }
    }
    if lines.is_empty() {
        return Ok(());
    }
    writeln!(out, "values it read (where asked, what, the value, where defined):")?;
    for (text, n) in lines.iter().take(MAX_READS) {
        let times = if *n > 1 { format!("   x{n}") } else { String::new() };
        writeln!(out, "  {text}{times}")?;
    }
    if lines.len() > MAX_READS {
        writeln!(out, "  ... and {} more", lines.len() - MAX_READS)?;
    }
    Ok(())
}
