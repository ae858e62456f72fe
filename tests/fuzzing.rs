//! What every fuzz input is run through, and what must hold of it: shared by
//! the stable-toolchain harness (`tests/tests/fuzz.rs`, which CI runs) and
//! the coverage-guided cargo-fuzz targets (`fuzz/`, on a nightly
//! toolchain), so that both test the same thing.
//!
//! Each function panics when a property fails; a fuzzer reports the panic
//! with the input. What is never allowed anywhere: a panic inside the
//! program, a run past the time or memory bound the harness sets.
//!
//! - [`parse_and_check`]: any bytes as a ruleset, checked; each diagnostic
//!   points inside the text and renders as `check` prints it.
//! - [`check_and_play`]: what checks is played for a few random actions,
//!   with every seat's view and the scores asked for after each.
//! - [`replay_save`]: any text as a save of the bundled Thebes, replayed by
//!   the code `play --script` runs, bots playing what the save leaves.
//! - [`read_move`]: any line as a move in the notation, at a point of a
//!   seeded game; a move that reads and is legal applies, and its own
//!   notation reads back as it.

use std::sync::OnceLock;

use crate::{repo_root, ruleset_files};

use chronoscope_cli::play::{self, script, Io, PlayArgs, Stop};
use engine::{notation, Game, Program};
use model::PlayerId;
use rand::{Rng, SeedableRng};

/// How many random actions [`check_and_play`] plays of a ruleset that checks.
pub const ACTIONS: usize = 25;

/// Check the text as a ruleset; every diagnostic must point inside it and
/// render. Returns the checked result.
pub fn parse_and_check(text: &str) -> ruleset::Checked {
    parse_and_check_bytes(text.as_bytes())
}

/// [`parse_and_check`] of any bytes, read as a file is read (bytes that
/// are not UTF-8 are a diagnostic too).
pub fn parse_and_check_bytes(bytes: &[u8]) -> ruleset::Checked {
    let checked = ruleset::check_file("input.ruleset", &mut |path| {
        if path == "input.ruleset" {
            Ok(bytes.to_vec())
        } else {
            Err("a fuzzed ruleset extends nothing".to_string())
        }
    });
    let text = checked.sources.first().map_or("", |(_, t)| t.as_str());
    for d in &checked.diagnostics {
        assert!(d.label.span.end <= text.len(), "a diagnostic points past the text: {d:?}");
        assert!(
            text.is_char_boundary(d.label.span.start) && text.is_char_boundary(d.label.span.end),
            "a diagnostic points inside a character: {d:?}"
        );
    }
    // Rendered as `check` prints it (the first hundred, as `check` does).
    let shown = chronoscope_cli::render::report(&checked.sources, &checked.diagnostics, false);
    assert!(checked.diagnostics.is_empty() || !shown.is_empty());
    checked
}

/// Check the text; if it checks, play a few random actions, asking for
/// every seat's view and the scores after each. Returns how many actions
/// were played.
pub fn check_and_play(text: &str, seed: u64) -> usize {
    let Some(rules) = parse_and_check(text).ruleset else { return 0 };
    let program = Program::new(rules);
    let players = program.game.min_players as usize;
    let Ok((mut g, _)) = Game::new(&program, players, seed) else { return 0 };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut played = 0;
    for _ in 0..ACTIONS {
        let Ok(choices) = g.legal() else { break };
        if choices.is_empty() {
            break;
        }
        let c = &choices[rng.gen_range(0..choices.len())];
        for p in 0..players {
            let _ = g.view(PlayerId::new(p));
        }
        // A choice listed as legal applies (an error here is a rule error
        // the ruleset makes, never a panic).
        if g.apply(c).is_err() {
            break;
        }
        played += 1;
        let _ = g.scores();
    }
    played
}

/// The bundled Thebes, loaded once: what saves and moves are read against.
pub struct Table {
    pub program: Program,
    pub sources: Vec<(String, String)>,
    pub path: std::path::PathBuf,
}

/// The bundled Thebes (checked once per process).
pub fn thebes() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let path = crate::repo_root().join("rulesets/thebes/thebes.ruleset");
        let loaded = chronoscope_cli::render::load(&path);
        let rules = loaded.checked.ruleset.expect("the bundled Thebes checks");
        Table { program: Program::new(rules), sources: loaded.checked.sources, path }
    })
}

/// Replay the text as a save of the bundled Thebes, as `play --script`
/// does, bots in every seat the save does not fill. A bad save must end in
/// a message (never a panic); a good one plays to the end. Returns whether
/// the game ended.
pub fn replay_save(text: &str) -> bool {
    let table = thebes();
    let Ok(script) = script::parse_script(text) else { return false };
    let args = PlayArgs {
        file: table.path.clone(),
        players: None,
        seats: None,
        seed: None,
        script: None,
        save: None,
        log: None,
        quiet: true,
        plain: true,
    };
    let (mut input, mut out) = (std::io::empty(), std::io::sink());
    let mut io = Io { input: &mut input, out: &mut out, screen: None };
    let result = play::play_script(
        &table.program,
        &table.sources,
        "thebes",
        args,
        Some(("fuzzed save".into(), script)),
        &mut io,
    );
    match result {
        Ok(code) => code == std::process::ExitCode::SUCCESS,
        Err(Stop::Error(message)) => {
            assert!(!message.is_empty(), "an error with no message");
            false
        }
        Err(Stop::Output(e)) => panic!("writing to a sink failed: {e}"),
    }
}

/// Read `line` as a move of a seeded 3-player Thebes after `before` random
/// actions. A move that reads and is legal must apply, and its notation
/// must read back as the same move. Returns whether the move was played.
pub fn read_move(before: u8, line: &str) -> bool {
    let table = thebes();
    let seed = u64::from(before);
    let Ok((mut g, _)) = Game::new(&table.program, 3, seed) else { panic!("Thebes starts for 3") };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..before % 64 {
        let choices = g.choices();
        if choices.is_empty() {
            break;
        }
        let c = choices[rng.gen_range(0..choices.len())].clone();
        g.apply(&c).expect("a listed choice applies");
    }
    let Ok(choice) = notation::parse(&g, line) else { return false };
    if g.check(&choice).is_err() {
        return false;
    }
    let text = notation::format(&g, &choice);
    assert_eq!(
        notation::parse(&g, &text).as_ref(),
        Ok(&choice),
        "`{line}` read as `{text}`, which reads back otherwise"
    );
    g.apply(&choice).unwrap_or_else(|f| panic!("`{line}` passed its check and failed to apply: {f:?}"));
    true
}

/// Saves of whole bot games of the bundled Thebes (2 to 4 players), as
/// `play --save` writes them: the seeds of the save fuzzers.
pub fn sample_saves() -> Vec<String> {
    let table = thebes();
    let hash = script::ruleset_hash(&table.sources);
    let mut saves = Vec::new();
    for players in 2..=4u32 {
        let seed = u64::from(players) * 7;
        let Ok((mut g, _)) = Game::new(&table.program, players as usize, seed) else { continue };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut actions = Vec::new();
        while g.current().is_some() {
            let choices = g.choices();
            if choices.is_empty() {
                break;
            }
            let c = choices[rng.gen_range(0..choices.len())].clone();
            actions.push(notation::format(&g, &c));
            g.apply(&c).expect("a listed choice applies");
        }
        let seats = vec!["random".to_string(); players as usize];
        let header = script::SaveHeader { seed, players, seats: &seats, ruleset: &hash };
        saves.push(script::save_text(&header, &actions));
    }
    saves
}

// ----------------------------------------------------------- the mutator

/// Words and punctuation of the language, dropped into a text by
/// [`mutate`].
const WORDS: &[&str] = &[
    "game",
    "players",
    "actions",
    "option",
    "place",
    "route",
    "tag",
    "kind",
    "cards",
    "tokens",
    "zone",
    "counter",
    "piece",
    "table",
    "let",
    "procedure",
    "setup",
    "turns",
    "action",
    "after",
    "end",
    "score",
    "tiebreak",
    "require",
    "set",
    "advance",
    "move",
    "draw",
    "shuffle",
    "split",
    "reveal",
    "if",
    "then",
    "else",
    "for",
    "in",
    "where",
    "repeat",
    "while",
    "do",
    "by",
    "all",
    "first",
    "top",
    "of",
    "me",
    "players",
    "none",
    "yes",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ":",
    ",",
    "..",
    "->",
    "=",
    "==",
    "+",
    "-",
    "*",
    "/",
    "%",
    "x2",
    "\"",
    "//",
    "\n",
    "max(",
    "count(",
];

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "12",
    "1000000000",
    "-1000000000",
    "999999999999",
    "9223372036854775807",
    "x0",
    "x100000",
];

/// One mutation of `text`, chosen by `rng`.
pub fn mutate(text: &str, rng: &mut impl Rng) -> String {
    let kind = rng.gen_range(0..7);
    mutate_with(kind, text, rng)
}

/// A mutation that keeps most of a ruleset's structure: a number, a word,
/// a line doubled or swapped.
pub fn mutate_gently(text: &str, rng: &mut impl Rng) -> String {
    let kind = [1, 2, 2, 3, 4][rng.gen_range(0..5)];
    mutate_with(kind, text, rng)
}

pub fn mutate_with(kind: u32, text: &str, rng: &mut impl Rng) -> String {
    let bytes = text.as_bytes();
    let at = |rng: &mut dyn rand::RngCore| if bytes.is_empty() { 0 } else { rng.gen_range(0..bytes.len()) };
    let mut out = match kind {
        // Cut a stretch out.
        0 => {
            let a = at(rng);
            let b = (a + rng.gen_range(1..200)).min(bytes.len());
            [&bytes[..a], &bytes[b..]].concat()
        }
        // A word or punctuation dropped in.
        1 => {
            let a = at(rng);
            let w = WORDS[rng.gen_range(0..WORDS.len())];
            [&bytes[..a], b" ", w.as_bytes(), b" ", &bytes[a..]].concat()
        }
        // A number made extreme.
        2 => {
            let digits: Vec<usize> = (0..bytes.len()).filter(|i| bytes[*i].is_ascii_digit()).collect();
            if digits.is_empty() {
                bytes.to_vec()
            } else {
                let a = digits[rng.gen_range(0..digits.len())];
                let b = (a..bytes.len()).find(|i| !bytes[*i].is_ascii_digit()).unwrap_or(bytes.len());
                let n = NUMBERS[rng.gen_range(0..NUMBERS.len())];
                [&bytes[..a], n.as_bytes(), &bytes[b..]].concat()
            }
        }
        // A line doubled, or two lines swapped.
        3 | 4 => {
            let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
            if !lines.is_empty() {
                let i = rng.gen_range(0..lines.len());
                let j = rng.gen_range(0..lines.len());
                if rng.gen_bool(0.5) {
                    lines.insert(j, lines[i]);
                } else {
                    lines.swap(i, j);
                }
            }
            lines.concat().into_bytes()
        }
        // Cut short.
        5 => bytes[..at(rng)].to_vec(),
        // A byte flipped.
        _ => {
            let mut v = bytes.to_vec();
            if !v.is_empty() {
                let i = rng.gen_range(0..v.len());
                v[i] ^= 1 << rng.gen_range(0..8);
            }
            v
        }
    };
    out.truncate(4 * 1024 * 1024);
    String::from_utf8_lossy(&out).into_owned()
}

/// Every ruleset file of the repository, and those of them that check on
/// their own (the games, the fixtures' valid bases).
pub fn corpus() -> (Vec<String>, Vec<String>) {
    let root = repo_root();
    let mut files = ruleset_files(&root.join("rulesets"));
    files.extend(ruleset_files(&root.join("tests/fixtures")));
    // The inputs that found bugs are replayed by their own test; mutated,
    // the slow ones would only spend the time budget again and again.
    files.retain(|p| !p.starts_with(root.join("tests/fixtures/fuzz")));
    let all: Vec<String> = files.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect();
    // Clean: a fixture that only warns (`fixtures/check/row_fill`) is there for its warning.
    let valid = all
        .iter()
        .filter(|t| {
            let c = ruleset::check_source(t);
            c.ruleset.is_some() && c.diagnostics.is_empty()
        })
        .cloned()
        .collect();
    (all, valid)
}

/// A ruleset that checks (a bundled game or a fixture, chosen by the input),
/// changed a little (a number made extreme, a word dropped in, a line
/// doubled or swapped, once or twice, the changes drawn from a
/// generator seeded by the input), then checked and played as
/// [`check_and_play`]: about a quarter still check, so the engine runs
/// on them. For a coverage-guided fuzzer, whose raw byte mutations of a whole
/// ruleset almost never check. Returns how many actions were played.
pub fn mutate_and_play(data: &[u8]) -> usize {
    static VALID: OnceLock<Vec<String>> = OnceLock::new();
    let valid = VALID.get_or_init(|| corpus().1);
    // FNV-1a of the input: the same input, the same changes.
    let seed =
        data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut text = valid[rng.gen_range(0..valid.len())].clone();
    // One change most of the time: two break the text far more often.
    for _ in 0..[1, 1, 2][rng.gen_range(0..3)] {
        text = mutate_gently(&text, &mut rng);
    }
    check_and_play(&text, seed)
}
