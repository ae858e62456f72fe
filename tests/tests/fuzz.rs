//! A seeded mutation fuzzer on the stable toolchain: the bundled rulesets
//! and every fixture, mutated (bytes cut, lines doubled or swapped, numbers
//! made extreme, keywords and punctuation dropped in), are checked; those
//! that check are played for a few random actions. Nothing may panic, and
//! no input may take longer than a bound.
//!
//! `cargo test --test fuzz` runs a fixed few thousand inputs (the same on
//! every run and machine). For a longer campaign:
//! `CHRONOSCOPE_FUZZ_INPUTS=200000 CHRONOSCOPE_FUZZ_SEED=7 cargo test
//! --release --test fuzz -- --nocapture`. An input that fails is written to
//! `target/fuzz-failure.ruleset`; keep it in `tests/fixtures/fuzz/`, where
//! `the_inputs_that_found_bugs_stay_fixed` replays every file.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use chronoscope_tests::{repo_root, ruleset_files};
use engine::{Game, Program};
use rand::{Rng, SeedableRng};

/// The longest one input may take (check plus a few actions), in a test
/// build on a busy 2-core machine: far above the milliseconds it needs.
const BOUND: Duration = Duration::from_secs(20);

/// How many random actions a mutated ruleset that checks is played for.
const ACTIONS: usize = 25;

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
fn mutate(text: &str, rng: &mut impl Rng) -> String {
    let kind = rng.gen_range(0..7);
    mutate_with(kind, text, rng)
}

/// A mutation that keeps most of a ruleset's structure: a number, a word,
/// a line doubled or swapped.
fn mutate_gently(text: &str, rng: &mut impl Rng) -> String {
    let kind = [1, 2, 2, 3, 4][rng.gen_range(0..5)];
    mutate_with(kind, text, rng)
}

fn mutate_with(kind: u32, text: &str, rng: &mut impl Rng) -> String {
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

/// Check the text; if it checks, play a few random actions. Returns how
/// many actions were played.
fn exercise(text: &str, seed: u64) -> usize {
    let checked = ruleset::check_source(text);
    for d in &checked.diagnostics {
        assert!(d.label.span.end <= text.len(), "a diagnostic points past the text: {d:?}");
    }
    let Some(rules) = checked.ruleset else { return 0 };
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
        let _ = g.view(model::PlayerId::new(0));
        if g.apply(c).is_err() {
            break;
        }
        played += 1;
        let _ = g.scores();
    }
    played
}

/// Run one input on its own thread: a panic or an overlong run fails the
/// test, with the input kept for reproduction.
fn run_bounded(text: String, seed: u64) -> usize {
    let (tx, rx) = mpsc::channel();
    let input = text.clone();
    std::thread::spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(|| exercise(&input, seed)));
        let _ = tx.send(result);
    });
    let started = Instant::now();
    let outcome = rx.recv_timeout(BOUND);
    let keep = || {
        let path = repo_root().join("target/fuzz-failure.ruleset");
        let _ = std::fs::write(&path, &text);
        path.display().to_string()
    };
    match outcome {
        Ok(Ok(played)) => played,
        Ok(Err(_)) => panic!("seed {seed}: the input panicked; kept in {}", keep()),
        Err(_) => panic!("seed {seed}: the input ran past {:?}; kept in {}", started.elapsed(), keep()),
    }
}

/// Every ruleset file of the repository, and those of them that check on
/// their own (the games, the fixtures' valid bases).
fn corpus() -> (Vec<String>, Vec<String>) {
    let root = repo_root();
    let mut files = ruleset_files(&root.join("rulesets"));
    files.extend(ruleset_files(&root.join("tests/fixtures")));
    // The inputs that found bugs are replayed by their own test; mutated,
    // the slow ones would only spend the time budget again and again.
    files.retain(|p| !p.starts_with(root.join("tests/fixtures/fuzz")));
    let all: Vec<String> = files.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect();
    let valid = all.iter().filter(|t| ruleset::check_source(t).ruleset.is_some()).cloned().collect();
    (all, valid)
}

#[test]
fn mutated_rulesets_never_panic_or_run_past_the_bound() {
    let inputs: usize =
        std::env::var("CHRONOSCOPE_FUZZ_INPUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000);
    let seed: u64 = std::env::var("CHRONOSCOPE_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let (corpus, valid) = corpus();
    assert!(corpus.len() > 60 && valid.len() >= 3, "the corpus is found");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let started = Instant::now();
    let (mut checked, mut actions) = (0, 0);
    for i in 0..inputs {
        // Half the inputs: a game that checks, changed a little, so that
        // the engine runs on it. The other half: anything, changed a lot.
        let text = if i % 2 == 0 {
            mutate_gently(&valid[rng.gen_range(0..valid.len())], &mut rng)
        } else {
            let mut text = mutate(&corpus[rng.gen_range(0..corpus.len())], &mut rng);
            for _ in 0..rng.gen_range(0..3) {
                text = mutate(&text, &mut rng);
            }
            text
        };
        let played = run_bounded(text, seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        checked += usize::from(played > 0);
        actions += played;
    }
    println!(
        "fuzz: {inputs} inputs in {:.1} s, {checked} of them played ({actions} actions)",
        started.elapsed().as_secs_f64()
    );
    // The mutations are small enough that some inputs still check and play:
    // the engine is exercised, not only the parser.
    assert!(checked * 20 > inputs, "{checked} of {inputs} inputs played");
}

#[test]
fn the_inputs_that_found_bugs_stay_fixed() {
    let dir = repo_root().join("tests/fixtures/fuzz");
    let files = ruleset_files(&dir);
    assert!(!files.is_empty(), "tests/fixtures/fuzz holds the inputs that found bugs");
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        run_bounded(text, 1);
    }
}
