//! `play` driven through the library: typed input, captured output, no
//! process and no terminal.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use chronoscope_cli::play::{play, Io, PlayArgs, Stop};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// Play Thebes for two with P1 a human typing `typed`, P2 a random bot.
fn play_typed(typed: &str) -> (Result<ExitCode, Stop>, String) {
    play_bytes(typed.as_bytes().to_vec())
}

/// The same with any bytes typed.
fn play_bytes(typed: Vec<u8>) -> (Result<ExitCode, Stop>, String) {
    play_file("rulesets/thebes/thebes.ruleset", "human,random", 3, typed)
}

/// Play a ruleset for two, seats as given, with `typed` as the humans'
/// input; the result and everything written.
fn play_file(path: &str, seats: &str, seed: u64, typed: Vec<u8>) -> (Result<ExitCode, Stop>, String) {
    play_keeping(path, seats, seed, typed, None, None)
}

/// `play_file` with a save and a log.
fn play_keeping(
    path: &str,
    seats: &str,
    seed: u64,
    typed: Vec<u8>,
    save: Option<PathBuf>,
    log: Option<PathBuf>,
) -> (Result<ExitCode, Stop>, String) {
    let file = root().join(path);
    let loaded = chronoscope_cli::render::load(&file);
    let program = engine::Program::new(loaded.checked.ruleset.clone().expect("the ruleset checks clean"));
    let args = PlayArgs {
        file,
        players: Some(2),
        seats: Some(seats.into()),
        seed: Some(seed),
        script: None,
        save,
        log,
        quiet: false,
        plain: true,
    };
    let mut input = Cursor::new(typed);
    let mut out: Vec<u8> = Vec::new();
    let result = play(
        &program,
        &loaded.checked.sources,
        path,
        args,
        &mut Io { input: &mut input, out: &mut out, screen: None },
    );
    (result, String::from_utf8(out).expect("the output is UTF-8"))
}

#[test]
fn a_typed_move_is_played_and_a_typed_quit_stops_the_game_unfinished() {
    let (result, out) = play_typed("1\nquit\n");
    assert!(matches!(result, Ok(code) if code == ExitCode::FAILURE), "{out}");
    assert!(out.contains("P1> "), "the prompt names the seat: {out}");
    // P2 moves first with this seed; the human's first listed choice follows.
    assert!(out.contains("   2. P1 take \"Palestine 1 book, Vienna\""), "the first choice was played: {out}");
    assert!(
        out.trim_end()
            .ends_with("the game stops unfinished\n(play with `--save FILE` to keep a game you may stop)"),
        "{out}"
    );
}

#[test]
fn a_mistyped_move_gets_a_reason_and_the_prompt_again() {
    let (_, out) = play_typed("dig Atlantis 3\nquit\n");
    let after = out.split("P1> ").nth(1).expect("a prompt");
    assert!(after.contains("Atlantis"), "the reason names what was typed: {after}");
    assert_eq!(out.matches("P1> ").count(), 2, "asked again after the mistake: {out}");
}

#[test]
fn a_line_that_is_not_text_or_too_long_is_refused_and_the_prompt_asks_again() {
    let mut typed = b"\xff\xfe dig\n".to_vec();
    typed.extend(std::iter::repeat_n(b'a', 200_000));
    typed.extend(b"\nquit\n");
    let (result, out) = play_bytes(typed);
    assert!(matches!(result, Ok(code) if code == ExitCode::FAILURE), "quit ends it: {out}");
    assert!(out.contains("that line is not UTF-8 text"), "{out}");
    assert!(out.contains("that line is longer than 65536 bytes"), "{out}");
    assert_eq!(out.matches("P1> ").count(), 3, "asked again after each: {out}");
}

#[test]
fn a_failed_write_stops_the_game_with_an_output_error() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let file = root().join("rulesets/thebes/thebes.ruleset");
    let loaded = chronoscope_cli::render::load(&file);
    let program = engine::Program::new(loaded.checked.ruleset.clone().unwrap());
    let args = PlayArgs {
        file,
        players: Some(2),
        seats: None,
        seed: Some(3),
        script: None,
        save: None,
        log: None,
        quiet: false,
        plain: true,
    };
    let mut input = Cursor::new(Vec::new());
    let result = play(
        &program,
        &loaded.checked.sources,
        "thebes",
        args,
        &mut Io { input: &mut input, out: &mut Full, screen: None },
    );
    assert!(matches!(result, Err(Stop::Output(_))));
}

#[test]
fn a_human_asked_in_the_middle_of_a_turn_is_told_what_the_rules_ask() {
    // Two humans who always type `1` play the generic game of questions:
    // a thief drawn asks the drawer whom to rob, and the prompt says so.
    let typed = "1\n".repeat(600).into_bytes();
    let (result, out) = play_file("tests/fixtures/valid/turns_and_asks.ruleset", "human,human", 1, typed);
    assert!(matches!(result, Ok(code) if code == ExitCode::SUCCESS), "{out}");
    let asked = out.find("P2, the rules ask you to `steal`:").expect("P2 is asked to steal");
    assert!(out[asked..].contains("    1. steal P1"), "the answer's choices follow: {out}");
    assert!(out.contains("Final score"), "{out}");
}

#[test]
fn a_human_takes_back_decisions_until_something_hidden_is_shown_and_the_save_and_log_follow() {
    let dir = std::env::temp_dir().join(format!("chronoscope-undo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (save, log) = (dir.join("game.txt"), dir.join("game.jsonl"));
    // Dig (a card comes into the hand: no undo past it), trade, undo, trade
    // and take, undo the take, quit.
    let typed = b"dig\nundo\n1\nundo\n1\n1\nundo\nquit\n".to_vec();
    let path = "rulesets/archaeology/archaeology.ruleset";
    let (_, out) = play_keeping(path, "human,human", 1, typed, Some(save.clone()), Some(log.clone()));
    assert!(out.contains("nothing to undo: something hidden was shown to you since"), "{out}");
    assert!(out.contains("undone: back to action 2"), "{out}");
    assert!(out.contains("undone: back to action 3"), "{out}");
    // The save keeps what stands: the dig and the trade.
    let kept: Vec<String> = std::fs::read_to_string(&save)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(kept[0] == "dig" && kept[1].starts_with("trade"), "{kept:?}");
    // The log says what was taken back, and reads as the same two actions.
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.lines().filter(|l| l.contains("\"type\":\"undo\"")).count(), 2, "{text}");
    let replayed = chronoscope_cli::replay::read_game(&log).unwrap();
    let notations: Vec<String> = replayed.actions.iter().map(|(_, t)| t.clone()).collect();
    assert_eq!(notations, kept);
    let _ = std::fs::remove_dir_all(dir);
}
