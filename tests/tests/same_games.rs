//! The same seeds give the same games: a few hundred games of every bundled
//! ruleset, played by seeded random and greedy players, are reduced to one
//! digest each (every action in the notation, every event, the final zones,
//! counters, pieces and score sheet) and compared with the digests recorded
//! in `tests/fixtures/same_games.txt`.
//!
//! A change that alters games for a seed must say so and why; it then
//! records the new digests with `CHRONOSCOPE_BLESS=1 cargo test --test
//! same_games` and the commit explains the difference. With
//! `CHRONOSCOPE_DUMP_GAMES=1` (and `-- --nocapture`) the test prints the
//! text it digests, so two versions' games can be compared line by line.

use std::fmt::Write as _;

use bots::{Bot, GreedyBot, Seat};
use chronoscope_cli::play::log::LogEvent;
use chronoscope_tests::repo_root;
use engine::{notation, Event, Game, V};
use rand::{Rng, SeedableRng};

/// (ruleset path, player counts, seeds per count, greedy games per count)
const PLAN: &[(&str, &[usize], u64, u64)] = &[
    ("rulesets/thebes/thebes.ruleset", &[2, 3, 4], 40, 2),
    ("rulesets/grabrauber/grabrauber.ruleset", &[2, 3, 4], 40, 2),
    ("rulesets/archaeology/archaeology.ruleset", &[2, 3, 4], 20, 2),
    ("rulesets/akrotiri/akrotiri.ruleset", &[2], 20, 2),
    ("rulesets/thebes/editions/es.ruleset", &[2, 4], 8, 0),
    ("rulesets/thebes/editions/fr.ruleset", &[2, 4], 8, 0),
    ("rulesets/thebes/editions/ru.ruleset", &[2, 4], 8, 0),
    ("rulesets/thebes/house/big-majorities.ruleset", &[3], 4, 0),
    ("rulesets/thebes/house/cars-stack.ruleset", &[3], 4, 0),
    ("rulesets/thebes/house/kind-chronoscope.ruleset", &[3], 4, 0),
    ("rulesets/thebes/house/no-zeppelins.ruleset", &[3], 4, 0),
    ("rulesets/thebes/house/steady-warsaw.ruleset", &[3], 4, 0),
];

/// FNV-1a, 64 bits: the same digest on every machine.
struct Digest(u64);

impl Digest {
    fn new() -> Self {
        Digest(0xcbf2_9ce4_8422_2325)
    }
    fn add(&mut self, text: &str) {
        if std::env::var_os("CHRONOSCOPE_DUMP_GAMES").is_some() {
            eprintln!("{text}");
        }
        for b in text.bytes().chain(std::iter::once(b'\n')) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// An event as text, by names, so that the digest does not depend on how
/// events are stored.
fn event_text(g: &Game, e: &Event) -> String {
    let s = e.at();
    let at = format!("@{}:{}", s.file, s.start);
    match LogEvent::new(g, &[], e) {
        LogEvent::Move { card, from, to, .. } => format!("move {card}: {from} -> {to} {at}"),
        LogEvent::Counter { name, player, place, from, to, .. } => {
            format!("counter {name} {player:?} {place:?}: {from} -> {to} {at}")
        }
        LogEvent::Piece { name, player, from, to, steps, .. } => {
            format!("piece {name} {player:?}: {from} -> {to} {steps:?} {at}")
        }
        // Shuffles and player orders named no line before events were typed.
        LogEvent::Shuffle { zone, .. } => format!("shuffle {zone}"),
        LogEvent::Reveal { zone, player, cards, .. } => {
            format!("reveal {zone} to {player}: {} {at}", cards.join(", "))
        }
        LogEvent::PlayerOrder { order, .. } => format!("order {}", order.join(" ")),
        LogEvent::Ask { player, action, .. } => format!("ask {player} to {action} {at}"),
    }
}

/// A choice as the notation wrote it when the digests were recorded: the
/// notation has since learned to number copies of one name (`"Car"#2`),
/// which changes the text, not the game, so the numbers are left out here.
fn choice_text(g: &Game, c: &engine::Choice) -> String {
    let text = notation::format(g, c);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == '#' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        } else {
            out.push(ch);
        }
    }
    out
}

/// A runtime value as text, by names.
fn value_text(g: &Game, v: &V) -> String {
    match v {
        V::Int(n) => n.to_string(),
        V::Bool(b) => b.to_string(),
        V::None => "none".into(),
        V::Text(t) => format!("{t:?}"),
        V::Place(p) => g.rules.places[*p].name.clone(),
        V::Player(p) => p.to_string(),
        V::Card(c) => g.rules.components[*c].name.clone(),
        other => format!("{other:?}"),
    }
}

/// Play one game and digest it.
fn digest_game(rules: &engine::Program, players: usize, seed: u64, greedy: bool) -> (usize, u64) {
    let (mut g, setup) = Game::new(rules, players, seed).expect("setup runs");
    let mut d = Digest::new();
    for e in &setup {
        d.add(&event_text(&g, e));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5A4E);
    let mut bots: Vec<GreedyBot> = (0..players as u64).map(|p| GreedyBot::new(seed * 10 + p)).collect();
    let mut actions = 0;
    while let Some(me) = g.current() {
        let choices = g.choices();
        assert!(!choices.is_empty(), "seed {seed}: no legal action");
        let pick = if greedy {
            bots[me.index()].choose(&Seat::new(&g, me), &choices)
        } else {
            rng.gen_range(0..choices.len())
        };
        d.add(&choice_text(&g, &choices[pick]));
        let events = g.apply(&choices[pick]).expect("a legal choice applies");
        for e in &events {
            d.add(&event_text(&g, e));
        }
        actions += 1;
        assert!(actions < 5_000, "seed {seed}: the game does not end");
    }
    for inst in g.layout.zone_insts() {
        let names: Vec<&str> = g.cards(inst).map(|c| g.rules.components[c].name.as_str()).collect();
        d.add(&format!("{}: {}", g.layout.zone_name(g.rules, inst), names.join(", ")));
    }
    let snapshot = g.snapshot();
    let counters: Vec<String> = snapshot.counters.iter().map(|v| value_text(&g, v)).collect();
    d.add(&counters.join(" "));
    let pieces: Vec<&str> = snapshot.pieces.iter().map(|p| g.rules.places[*p].name.as_str()).collect();
    d.add(&pieces.join(" "));
    let sheet = g.scores().expect("scores");
    for (rule, points) in &sheet.rows {
        d.add(&format!("{rule} {points:?}"));
    }
    let winners: Vec<usize> = sheet.winners.iter().map(|p| p.index()).collect();
    d.add(&format!("totals {:?} winners {winners:?}", sheet.totals));
    (actions, d.0)
}

fn all_digests() -> String {
    let root = repo_root();
    let mut out = String::new();
    for (path, counts, seeds, greedy) in PLAN {
        let full = root.join(path);
        let checked = ruleset::check_file(&full.display().to_string(), &mut |p| {
            std::fs::read(p).map_err(|e| e.to_string())
        });
        let rules = engine::Program::new(checked.ruleset.unwrap_or_else(|| panic!("{path} checks clean")));
        for &players in *counts {
            for seed in 0..*seeds {
                let (n, digest) = digest_game(&rules, players, seed, false);
                writeln!(out, "{path} {players}p seed {seed} random: {n} actions, {digest:016x}").unwrap();
            }
            for seed in 0..*greedy {
                let (n, digest) = digest_game(&rules, players, 1000 + seed, true);
                writeln!(out, "{path} {players}p seed {} greedy: {n} actions, {digest:016x}", 1000 + seed)
                    .unwrap();
            }
        }
    }
    out
}

#[test]
fn the_same_seeds_give_the_same_games_as_recorded() {
    let path = repo_root().join("tests/fixtures/same_games.txt");
    let now = all_digests();
    if std::env::var_os("CHRONOSCOPE_BLESS").is_some() {
        std::fs::write(&path, &now).expect("write the recorded digests");
        return;
    }
    let recorded = std::fs::read_to_string(&path).expect("tests/fixtures/same_games.txt exists");
    let differ: Vec<String> = recorded
        .lines()
        .zip(now.lines())
        .filter(|(a, b)| a != b)
        .take(10)
        .map(|(a, b)| format!("recorded {a}\n     now {b}"))
        .collect();
    assert!(differ.is_empty(), "games differ from the recorded ones:\n{}", differ.join("\n"));
    assert_eq!(recorded.lines().count(), now.lines().count(), "as many games as recorded");
}
