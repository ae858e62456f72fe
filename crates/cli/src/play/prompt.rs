//! A human at the keyboard: the prompt, the numbered choices with their
//! previews, `help`, `list`, `show` and `quit`. Input and output are
//! passed in, so a test can type and read without a terminal.

use std::fmt::Write as _;
use std::io::{BufRead, Write};

use engine::{notation, Choice, Event, Game, V};
use model::{ActionId, Visibility};

use super::view::{fail_text, public_totals, screen_width, table, wrap};
use super::Stop;

const HELP: &str = "\
Type the number of a choice, or write it as listed: the action, then its
values in order (a name with spaces in quotes, or a component's number in
its zone's list), then the flags you want by name. Any unambiguous start of
an action or a name will do.
Other commands:
  list [ACTION]   all legal choices (of one action)
  show            the table again
  undo            take back your last decision, if nobody else has moved
                  and nothing hidden was shown to you since
  help            this text
  quit            stop the game";

/// The longest line the prompt reads; the rest of a longer one is skipped.
pub const MAX_LINE: usize = 64 * 1024;

/// One line typed at the prompt.
pub enum Line {
    Text(String),
    /// Longer than the limit (what came after it on the line was skipped).
    TooLong,
    NotUtf8,
}

/// Read one line of at most `max` bytes without holding more than that in
/// memory, however long the line is; `None` at the end of the input.
pub fn read_line(input: &mut dyn BufRead, max: usize) -> std::io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            if bytes.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if bytes.len() + chunk.len() > max {
                too_long = true;
                bytes.clear();
            } else {
                bytes.extend_from_slice(chunk);
            }
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    Ok(Some(if too_long {
        Line::TooLong
    } else {
        match String::from_utf8(bytes) {
            Ok(s) => Line::Text(s),
            Err(_) => Line::NotUtf8,
        }
    }))
}

/// What the human at the prompt decided.
pub enum Answer {
    Choice(Choice),
    /// Take back their last decision.
    Undo,
    /// Stop: they typed `quit` (`typed`), or the input ended; `keep`:
    /// whether to keep the game, when already asked.
    Quit {
        typed: bool,
        keep: Option<bool>,
    },
}

/// Ask the human to move.
pub fn ask(
    game: &Game,
    choices: &[Choice],
    sources: &[(String, String)],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Answer, Stop> {
    let me = game.current().expect("a player is to move");
    say!(out, "{}", wrap(&table(game, me), screen_width()));
    say!(out, "{}", choice_list(game, choices, None, 8));
    loop {
        say!(out, "{me}> ");
        out.flush()?;
        let line = match read_line(input, MAX_LINE) {
            Ok(Some(Line::Text(l))) => l,
            Ok(Some(Line::TooLong)) => {
                sayln!(out, "that line is longer than {MAX_LINE} bytes; type a choice");
                continue;
            }
            Ok(Some(Line::NotUtf8)) => {
                sayln!(out, "that line is not UTF-8 text; type a choice");
                continue;
            }
            Ok(None) | Err(_) => return Ok(Answer::Quit { typed: false, keep: None }),
        };
        let line = line.trim();
        match line.split_whitespace().next() {
            None => continue,
            Some("help" | "?") => sayln!(out, "{HELP}"),
            Some("quit" | "exit") => return Ok(Answer::Quit { typed: true, keep: None }),
            Some("undo") => return Ok(Answer::Undo),
            Some("show") => {
                say!(out, "{}", wrap(&table(game, me), screen_width()));
                say!(out, "{}", choice_list(game, choices, None, 8));
            }
            Some("list") => {
                let filter = line.split_whitespace().nth(1);
                say!(out, "{}", choice_list(game, choices, filter, usize::MAX));
            }
            Some(_) => {
                if let Ok(n) = line.parse::<usize>() {
                    match choices.get(n.wrapping_sub(1)) {
                        Some(c) => return Ok(Answer::Choice(c.clone())),
                        None => {
                            sayln!(out, "no choice {n}; choices run from 1 to {}", choices.len());
                            continue;
                        }
                    }
                }
                match notation::parse(game, line) {
                    Err(e) => sayln!(out, "{e}"),
                    Ok(c) => match game.check(&c) {
                        Ok(()) => return Ok(Answer::Choice(c)),
                        Err(f) => sayln!(out, "not allowed: {}", fail_text(&f, sources)),
                    },
                }
            }
        }
    }
}

/// The numbered legal choices, at most `per_action` of each action. When
/// an action has more, those listed are the ones that make the most points
/// on average over the imagined games (by the rules everyone can count),
/// then the first in the engine's order; the numbers stay the engine's.
/// Choices that spend a card for nothing are counted, not listed, unless
/// every choice is asked for.
pub fn choice_list(game: &Game, choices: &[Choice], only: Option<&str>, per_action: usize) -> String {
    let mut out = String::from("Choices:\n");
    let groups = listing(game, choices, only);
    let mut listed: Vec<(usize, String)> = Vec::new();
    let mut notes = Vec::new();
    for g in &groups {
        let kept = g.entries.len().min(per_action);
        for e in &g.entries[..kept] {
            listed.push((e.number, format!("{}{}", e.text, e.preview)));
        }
        if g.entries.len() > kept {
            let n = g.entries.len() - kept;
            notes.push(format!("       ... {n} more `{}` choices (type `list {}`)", g.name, g.name));
        }
        if per_action == usize::MAX {
            for w in &g.wasted {
                listed.push((w.number, format!("{}   ({})", w.text, w.note)));
            }
        } else if !g.wasted.is_empty() {
            let n = g.wasted.len();
            notes.push(format!(
                "       ... {n} `{}` choice{} that spend{} a card for nothing (type `list {}`)",
                g.name,
                crate::plural(n),
                if n == 1 { "s" } else { "" },
                g.name
            ));
        }
    }
    listed.sort_by_key(|(n, _)| *n);
    for (n, text) in listed {
        let _ = writeln!(out, "  {n:>3}. {text}");
    }
    for note in notes {
        let _ = writeln!(out, "{note}");
    }
    out
}

/// How many choices of one action are listed in the engine's order; more
/// are ranked by the points they make.
const RANK_OVER: usize = 8;

/// The legal choices of one action, as a player reads them.
pub struct Group {
    pub name: String,
    /// Most points first when there are more than `RANK_OVER`, else in the
    /// engine's order.
    pub entries: Vec<Entry>,
    /// Choices that use a flag which, in every imagined game, changes
    /// nothing but spending a card: legal, but left out of short lists.
    pub wasted: Vec<Entry>,
    /// Whether `entries` are ordered by points (there were more than
    /// `RANK_OVER`, and not all make the same).
    pub ranked: bool,
}

/// One legal choice as listed.
pub struct Entry {
    /// Its number in the engine's list, from 1 (what the player types).
    pub number: usize,
    /// Its notation (`dig Egypt 3`).
    pub text: String,
    /// What it would do (`   (time +3, draws 3 from bag[Egypt])`), or for
    /// a wasted choice, why it is one.
    pub preview: String,
    pub note: String,
}

/// The legal choices (of actions starting with `only`), grouped by action
/// in the engine's order, each worked out once on the imagined games.
pub fn listing(game: &Game, choices: &[Choice], only: Option<&str>) -> Vec<Group> {
    let imagined = imagine(game);
    let me = game.current();
    let outcomes: Vec<Vec<Vec<(Figure, i64)>>> = choices
        .iter()
        .map(|c| match me {
            Some(me) if only.is_none_or(|o| game.rules.actions[c.action].name.starts_with(o)) => {
                outcomes_on(&imagined, me, c)
            }
            _ => Vec::new(),
        })
        .collect();
    let mut by_action: Vec<(ActionId, Vec<usize>)> = Vec::new();
    for (i, c) in choices.iter().enumerate() {
        if only.is_some_and(|o| !game.rules.actions[c.action].name.starts_with(o)) {
            continue;
        }
        match by_action.iter_mut().find(|(a, _)| *a == c.action) {
            Some((_, v)) => v.push(i),
            None => by_action.push((c.action, vec![i])),
        }
    }
    let entry = |i: usize, note: String| Entry {
        number: i + 1,
        text: notation::format(game, &choices[i]),
        preview: preview_from(game, &choices[i], outcomes[i].clone()),
        note,
    };
    by_action
        .into_iter()
        .map(|(action, mut idx)| {
            let mean = |i: usize| mean_points(&outcomes[i]);
            let ranked = idx.len() > RANK_OVER && idx.iter().any(|i| mean(*i) != mean(idx[0]));
            if ranked {
                idx.sort_by(|a, b| mean(*b).total_cmp(&mean(*a)).then(a.cmp(b)));
            }
            let mut entries = Vec::new();
            let mut wasted = Vec::new();
            for i in idx {
                match wasted_flag(game, choices, &outcomes, i) {
                    Some(note) => wasted.push(entry(i, note)),
                    None => entries.push(entry(i, String::new())),
                }
            }
            Group { name: game.rules.actions[action].name.clone(), entries, wasted, ranked }
        })
        .collect()
}

/// Whether choice `i` sets a flag that only spends a card: the same choice
/// without it is legal too and, in every imagined game, does the same
/// (the same numbers, draws, destination and points) but keeps what the
/// flag spends. Then `spends Shovel for nothing: as 12`.
fn wasted_flag(
    game: &Game,
    choices: &[Choice],
    outcomes: &[Vec<Vec<(Figure, i64)>>],
    i: usize,
) -> Option<String> {
    let c = &choices[i];
    let params = &game.rules.actions[c.action].params;
    for (k, v) in c.args.iter().enumerate() {
        if *v != V::Bool(true) {
            continue;
        }
        let mut without = c.clone();
        without.args[k] = V::Bool(false);
        let Some(j) = choices.iter().position(|x| *x == without) else { continue };
        let (a, b) = (&outcomes[i], &outcomes[j]);
        if a.is_empty() || a.len() != b.len() {
            continue;
        }
        let mut spent: Vec<String> = Vec::new();
        let same = a.iter().zip(b).all(|(fa, fb)| {
            let rest = |f: &Vec<(Figure, i64)>| -> Vec<(String, i64)> {
                f.iter()
                    .filter(|(x, _)| !matches!(x, Figure::Spends(_)))
                    .map(|(x, n)| (x.key(), *n))
                    .collect()
            };
            let spends = |f: &Vec<(Figure, i64)>, name: &str| {
                f.iter().find(|(x, _)| matches!(x, Figure::Spends(n) if n == name)).map_or(0, |(_, n)| *n)
            };
            let mut ra = rest(fa);
            let mut rb = rest(fb);
            ra.retain(|(_, n)| *n != 0);
            rb.retain(|(_, n)| *n != 0);
            ra.sort();
            rb.sort();
            let more: Vec<String> = fa
                .iter()
                .filter_map(|(x, n)| match x {
                    Figure::Spends(name) if *n > spends(fb, name) => Some(name.clone()),
                    _ => None,
                })
                .collect();
            let fewer = fb.iter().any(|(x, n)| matches!(x, Figure::Spends(name) if *n > spends(fa, name)));
            for m in &more {
                if !spent.contains(m) {
                    spent.push(m.clone());
                }
            }
            ra == rb && !more.is_empty() && !fewer
        });
        if same {
            return Some(format!(
                "`{}` spends {} for nothing: as {}",
                params[k].name,
                spent.join(" and "),
                j + 1
            ));
        }
    }
    None
}

/// How many imagined games a preview is worked out on.
const PREVIEW_SAMPLES: usize = 8;

/// What a choice would do, as far as the player may know it: changes to the
/// mover's numbers and how many components it takes from hidden zones.
///
/// Worked out on games the seat imagines (`Game::sample_for`: every hidden
/// component dealt anew among the places showing its back), never on the
/// real one, whose hidden order could show through (a refill that draws
/// again when a certain card comes up would tell what lies on top of a face
/// down deck). A figure that differs between the imagined games is shown
/// as its range (`draws 1-2 from deck`).
pub fn preview(game: &Game, choice: &Choice) -> String {
    preview_on(game, &imagine(game), choice)
}

/// The games a preview is worked out on: `PREVIEW_SAMPLES` deals of what
/// the player to move cannot see, from a fixed seed, so that the same
/// position previews the same way every time.
fn imagine<'r>(game: &Game<'r>) -> Vec<Game<'r>> {
    use rand::SeedableRng;
    let Some(me) = game.current() else { return Vec::new() };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5EE5_1DE5);
    (0..PREVIEW_SAMPLES).map(|_| game.sample_for(me, &mut rng)).collect()
}

/// The figures of a choice on each imagined game.
fn outcomes_on(imagined: &[Game], me: model::PlayerId, choice: &Choice) -> Vec<Vec<(Figure, i64)>> {
    let mut outcomes = Vec::with_capacity(imagined.len());
    for g in imagined {
        if let Ok(events) = g.preview(choice) {
            let mut figures = preview_figures(g, me, &events);
            // The mover's points by the rules everyone can count.
            let mut after = g.clone();
            let stepped = after.step(choice).is_ok();
            if let (true, Some(a), Some(b)) = (stepped, public_totals(g), public_totals(&after)) {
                figures.push((Figure::Points, b[me.index()].saturating_sub(a[me.index()])));
            }
            outcomes.push(figures);
        }
    }
    outcomes
}

/// The points a choice makes on average over the imagined games (for
/// ordering a long list: the most promising first).
fn mean_points(outcomes: &[Vec<(Figure, i64)>]) -> f64 {
    let total: i128 =
        outcomes.iter().flatten().filter(|(f, _)| *f == Figure::Points).map(|(_, v)| i128::from(*v)).sum();
    total as f64 / outcomes.len().max(1) as f64
}

/// `preview` on games already imagined.
fn preview_on(game: &Game, imagined: &[Game], choice: &Choice) -> String {
    let Some(me) = game.current() else { return String::new() };
    preview_from(game, choice, outcomes_on(imagined, me, choice))
}

/// `preview` from a choice's figures on each imagined game.
fn preview_from(game: &Game, choice: &Choice, mut outcomes: Vec<Vec<(Figure, i64)>>) -> String {
    // Components the choice names itself (a card taken, a set traded) need
    // no "spends".
    let named: Vec<&str> = choice
        .args
        .iter()
        .filter_map(|v| if let V::Card(c) = v { Some(*c) } else { None })
        .chain(choice.sets.iter().flatten().copied())
        .map(|c| game.rules.components[c].name.as_str())
        .collect();
    for o in outcomes.iter_mut() {
        o.retain(|(f, _)| !matches!(f, Figure::Spends(n) if named.contains(&n.as_str())));
    }
    // Every figure named in any imagined outcome, in first-seen order.
    let mut figures: Vec<&Figure> = Vec::new();
    for o in &outcomes {
        for (f, _) in o {
            if !figures.contains(&f) {
                figures.push(f);
            }
        }
    }
    let parts: Vec<String> = figures
        .into_iter()
        .filter_map(|figure| {
            let values: Vec<i64> =
                outcomes.iter().map(|o| o.iter().find(|(f, _)| f == figure).map_or(0, |(_, v)| *v)).collect();
            let (lo, hi) = (*values.iter().min()?, *values.iter().max()?);
            let signed = |v: i64| if v > 0 { format!("+{v}") } else { v.to_string() };
            match figure {
                Figure::Drawn(zone) if lo == hi => Some(format!("draws {lo} from {zone}")),
                Figure::Drawn(zone) => Some(format!("draws {lo}-{hi} from {zone}")),
                Figure::Counter(_) if lo == 0 && hi == 0 => None,
                Figure::Counter(name) if lo == hi => Some(format!("{name} {}", signed(lo))),
                Figure::Counter(name) => Some(format!("{name} {}..{}", signed(lo), signed(hi))),
                Figure::Points if lo == 0 && hi == 0 => None,
                Figure::Points if lo == hi => Some(format!("points {}", signed(lo))),
                Figure::Points => Some(format!("points {}..{}", signed(lo), signed(hi))),
                // Named in every imagined outcome: what the choice surely does.
                Figure::Spends(name) | Figure::Goes(name) if lo == 0 => None,
                Figure::Spends(name) if lo == 1 => Some(format!("spends {name}")),
                Figure::Spends(name) => Some(format!("spends {name} x{lo}")),
                Figure::Goes(place) => Some(format!("to {place}")),
            }
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("   ({})", parts.join(", "))
    }
}

/// What a preview counts.
#[derive(Clone, PartialEq)]
enum Figure {
    /// A number counter of the mover, by its name: how much it changes.
    Counter(String),
    /// A hidden zone, by its name: how many components leave it.
    Drawn(String),
    /// A component of this name leaves the mover's zones for a zone that
    /// is not theirs (a card played, a treasure traded away): how many.
    Spends(String),
    /// The mover's piece ends the action at this place.
    Goes(String),
    /// The mover's points by the rules everyone can count: the change.
    Points,
}

impl Figure {
    /// A key to compare figures by.
    fn key(&self) -> String {
        match self {
            Figure::Counter(n) => format!("counter {n}"),
            Figure::Drawn(n) => format!("drawn {n}"),
            Figure::Spends(n) => format!("spends {n}"),
            Figure::Goes(n) => format!("goes {n}"),
            Figure::Points => "points".to_string(),
        }
    }
}

/// The figures of one (imagined) outcome.
fn preview_figures(game: &Game, me: model::PlayerId, events: &[Event]) -> Vec<(Figure, i64)> {
    let r = game.rules;
    let mut figures: Vec<(Figure, i64)> = Vec::new();
    let mut last_place = None;
    let mut add = |figure: Figure, by: i64| match figures.iter_mut().find(|(f, _)| *f == figure) {
        Some((_, v)) => *v += by,
        None => figures.push((figure, by)),
    };
    for e in events {
        match e {
            Event::Counter {
                counter, player: Some(p), place: None, from: V::Int(a), to: V::Int(b), ..
            } if *p == me => {
                add(Figure::Counter(r.counters[*counter].name.clone()), b.saturating_sub(*a));
            }
            Event::Move { card, from, to, .. } => {
                let hidden_zone = matches!(game.layout.instance(*from).source,
                    Ok(z) if r.zones[z].visibility == Visibility::Nobody);
                if hidden_zone {
                    add(Figure::Drawn(game.layout.zone_label(r, *from)), 1);
                }
                let mine = |z: &engine::ZoneInst| game.layout.instance(*z).player == Some(me);
                if mine(from) && !mine(to) && game.visible_to(*from, me) {
                    add(Figure::Spends(r.components[*card].name.clone()), 1);
                }
            }
            // Only the last destination counts: one figure per place would
            // list every stop of a trip.
            Event::Piece { player: Some(p), to, .. } if *p == me => last_place = Some(*to),
            _ => {}
        }
    }
    if let Some(place) = last_place {
        figures.push((Figure::Goes(r.places[place].name.clone()), 1));
    }
    figures
}
