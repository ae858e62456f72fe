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
    /// Stop: they typed `quit` (`typed`), or the input ended.
    Quit {
        typed: bool,
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
            Ok(None) | Err(_) => return Ok(Answer::Quit { typed: false }),
        };
        let line = line.trim();
        match line.split_whitespace().next() {
            None => continue,
            Some("help" | "?") => sayln!(out, "{HELP}"),
            Some("quit" | "exit") => return Ok(Answer::Quit { typed: true }),
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
pub fn choice_list(game: &Game, choices: &[Choice], only: Option<&str>, per_action: usize) -> String {
    let mut out = String::from("Choices:\n");
    let imagined = imagine(game);
    let me = game.current();
    // Which choices to list, per action, in the engine's order of actions.
    let mut by_action: Vec<(ActionId, Vec<usize>)> = Vec::new();
    for (i, c) in choices.iter().enumerate() {
        let name = &game.rules.actions[c.action].name;
        if only.is_some_and(|o| !name.starts_with(o)) {
            continue;
        }
        match by_action.iter_mut().find(|(a, _)| *a == c.action) {
            Some((_, v)) => v.push(i),
            None => by_action.push((c.action, vec![i])),
        }
    }
    let mut listed: Vec<usize> = Vec::new();
    let mut hidden: Vec<(String, usize)> = Vec::new();
    for (action, mut idx) in by_action {
        if idx.len() > per_action {
            if let Some(me) = me {
                let score: Vec<(usize, f64)> =
                    idx.iter().map(|i| (*i, mean_points(&imagined, me, &choices[*i]))).collect();
                let mut ranked = score;
                ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                idx = ranked.into_iter().map(|(i, _)| i).collect();
            }
            hidden.push((game.rules.actions[action].name.clone(), idx.len() - per_action));
            idx.truncate(per_action);
            idx.sort_unstable();
        }
        listed.extend(idx);
    }
    listed.sort_unstable();
    for i in listed {
        let c = &choices[i];
        let _ =
            writeln!(out, "  {:>3}. {}{}", i + 1, notation::format(game, c), preview_on(game, &imagined, c));
    }
    for (name, n) in hidden {
        let _ = writeln!(out, "       ... {n} more `{name}` choices (type `list {name}`)");
    }
    out
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
fn mean_points(imagined: &[Game], me: model::PlayerId, choice: &Choice) -> f64 {
    let outcomes = outcomes_on(imagined, me, choice);
    let total: i64 = outcomes.iter().flatten().filter(|(f, _)| *f == Figure::Points).map(|(_, v)| *v).sum();
    total as f64 / outcomes.len().max(1) as f64
}

/// `preview` on games already imagined.
fn preview_on(game: &Game, imagined: &[Game], choice: &Choice) -> String {
    let Some(me) = game.current() else { return String::new() };
    let mut outcomes = outcomes_on(imagined, me, choice);
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
#[derive(PartialEq)]
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
                    add(Figure::Drawn(game.layout.zone_name(r, *from)), 1);
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
