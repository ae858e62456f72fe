//! The full-screen table (`play` on a terminal), drawn on ratatui's test
//! backend: fixed positions of each bundled game at 80×24 and 120×40 as
//! snapshots, the keys, whole games played by keys, and a screen that is
//! the same whatever lies hidden from its seat.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::ExitCode;

use chronoscope_cli::play::screen::{draw, FullScreen, Outcome, Page, Transcript, Ui};
use chronoscope_cli::play::{self, Io, PlayArgs, Stop};
use chronoscope_tests::scenario::{self, permuted};
use engine::Game;
use rand::{Rng, SeedableRng};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn keys(codes: &[KeyCode]) -> Vec<Event> {
    codes.iter().map(|c| key(*c)).collect()
}

/// What a game played on a test screen left: the last screen drawn, what
/// the loop wrote, how it ended.
struct Played {
    screen: String,
    transcript: String,
    result: Result<ExitCode, Stop>,
}

/// Play a bundled game with `seats` on a `width`×`height` test screen, the
/// humans pressing `presses`; when they run out the game stops there (as
/// a terminal that closed).
fn play_on_screen(
    path: &str,
    seats: &str,
    seed: u64,
    presses: Vec<Event>,
    size: (u16, u16),
    save: Option<PathBuf>,
) -> Played {
    let file = chronoscope_tests::repo_root().join(path);
    let loaded = chronoscope_cli::render::load(&file);
    let program = engine::Program::new(loaded.checked.ruleset.clone().expect("the ruleset checks clean"));
    let args = PlayArgs {
        file,
        players: None,
        seats: Some(seats.into()),
        seed: Some(seed),
        script: None,
        save,
        log: None,
        quiet: false,
        plain: false,
    };
    let mut presses: VecDeque<Event> = presses.into();
    let mut transcript = Transcript::default();
    let (w, h) = size;
    let mut full = FullScreen::new(
        Box::new(move || Terminal::new(TestBackend::new(w, h))),
        Box::new(|| {}),
        Box::new(move || presses.pop_front().ok_or_else(|| std::io::Error::other("no more keys"))),
        transcript.clone(),
    );
    let mut input = std::io::empty();
    let result = play::play(
        &program,
        &loaded.checked.sources,
        path,
        args,
        &mut Io { input: &mut input, out: &mut transcript, screen: Some(&mut full) },
    );
    let screen = full.backend().map(ToString::to_string).unwrap_or_default();
    let transcript = transcript.last_lines(100_000).join("\n");
    Played { screen, transcript, result }
}

/// The screen after a few decisions in each bundled game, at both sizes.
#[test]
fn the_full_screen_of_each_bundled_game_at_80x24_and_120x40() {
    let games = [
        ("thebes", "rulesets/thebes/thebes.ruleset", "human,random,random", 7),
        ("grabrauber", "rulesets/grabrauber/grabrauber.ruleset", "human,random,random", 3),
        ("archaeology", "rulesets/archaeology/archaeology.ruleset", "human,random,random", 2),
    ];
    for (name, path, seats, seed) in games {
        for (w, h) in [(80, 24), (120, 40)] {
            // Three decisions (the best listed each time), then two rows down.
            let presses =
                keys(&[KeyCode::Enter, KeyCode::Enter, KeyCode::Enter, KeyCode::Down, KeyCode::Down]);
            let played = play_on_screen(path, seats, seed, presses, (w, h), None);
            assert!(matches!(played.result, Err(Stop::Output(_))), "{name}: stops when the keys run out");
            insta::assert_snapshot!(format!("{name}_{w}x{h}"), played.screen);
        }
    }
}

#[test]
fn a_game_played_by_keys_on_the_screen_reaches_its_end_and_prints_the_score() {
    // Enter plays the first choice listed: in long lists the one with the
    // most points.
    let played = play_on_screen(
        "rulesets/grabrauber/grabrauber.ruleset",
        "human,random",
        4,
        vec![key(KeyCode::Enter); 2_000],
        (100, 30),
        None,
    );
    assert!(matches!(played.result, Ok(code) if code == ExitCode::SUCCESS), "{}", played.transcript);
    assert!(played.transcript.contains("Final score"), "{}", played.transcript);
}

#[test]
fn q_asks_first_esc_goes_on_and_n_stops_without_a_save() {
    let presses =
        keys(&[KeyCode::Char('q'), KeyCode::Esc, KeyCode::Enter, KeyCode::Char('q'), KeyCode::Char('n')]);
    let played = play_on_screen("rulesets/thebes/thebes.ruleset", "human,random", 5, presses, (80, 24), None);
    assert!(matches!(played.result, Ok(code) if code == ExitCode::FAILURE), "{}", played.transcript);
    assert!(played.transcript.contains("the game stops unfinished"), "{}", played.transcript);
    // One decision was played between the two `q`s.
    assert!(played.transcript.contains("P1 "), "{}", played.transcript);
}

#[test]
fn q_then_y_keeps_the_game_in_the_save_which_replays_to_the_same_table() {
    let dir = std::env::temp_dir().join(format!("chronoscope-screen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.save");
    let presses =
        keys(&[KeyCode::Enter, KeyCode::Down, KeyCode::Enter, KeyCode::Char('q'), KeyCode::Char('y')]);
    let played = play_on_screen(
        "rulesets/thebes/thebes.ruleset",
        "human,random",
        5,
        presses,
        (80, 24),
        Some(save.clone()),
    );
    assert!(matches!(played.result, Ok(code) if code == ExitCode::FAILURE), "{}", played.transcript);
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(played.transcript.contains(&format!("--script {}", save.display())), "{}", played.transcript);
    // The save holds every action played, the human's two among them.
    let actions = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).count();
    let played_lines = played
        .transcript
        .lines()
        .filter(|l| l.trim_start().split('.').next().is_some_and(|n| n.parse::<u32>().is_ok()))
        .count();
    assert_eq!(actions, played_lines, "{text}\n{}", played.transcript);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn u_takes_back_the_last_decision_on_the_screen() {
    // Two humans at Archaeology: the first digs (a card shown to them: no
    // undo past it), then types a sale, then takes the sale back.
    let mut presses = keys(&[KeyCode::Enter, KeyCode::Char(':')]);
    presses.extend("sell Coin".chars().map(|c| key(KeyCode::Char(c))));
    presses.extend(keys(&[KeyCode::Enter, KeyCode::Char('u')]));
    let played =
        play_on_screen("rulesets/archaeology/archaeology.ruleset", "human,human", 5, presses, (80, 24), None);
    assert!(played.transcript.contains("sell [Coin]"), "{}", played.transcript);
    assert!(played.transcript.contains("undone: back to action 2"), "{}", played.transcript);
}

/// A position of a bundled game after `steps` random actions.
fn position(program: &engine::Program, players: usize, seed: u64, steps: usize) -> Game<'_> {
    let (mut g, _) = Game::new(program, players, seed).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..steps {
        if g.current().is_none() {
            break;
        }
        let choices = g.choices();
        g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
    }
    g
}

#[test]
fn keys_move_through_the_choices_and_enter_or_a_typed_choice_plays() {
    let program = scenario::load("rulesets/thebes/thebes.ruleset");
    let g = position(&program, 2, 3, 6);
    let choices = g.choices();
    let page = Page::new(&g, &choices);
    let mut ui = Ui::new();
    let press = |ui: &mut Ui, code: KeyCode| {
        ui.on_key(KeyEvent::new(code, KeyModifiers::NONE), &page, &g, &choices, &[])
    };
    // Down twice: the third row; Enter plays the choice that row shows.
    press(&mut ui, KeyCode::Down);
    press(&mut ui, KeyCode::Down);
    let (gi, ei) = page.rows[2];
    let number = page.groups[gi].entries[ei].number;
    match press(&mut ui, KeyCode::Enter) {
        Outcome::Play(c) => assert_eq!(c, choices[number - 1]),
        other => panic!("{other:?}"),
    }
    // → jumps to the first row of the next action.
    let mut ui = Ui::new();
    press(&mut ui, KeyCode::Right);
    assert!(page.groups.len() < 2 || page.rows[ui.selected].0 == 1, "{:?}", page.rows[ui.selected]);
    // A digit starts a typed choice; Enter plays choice 2.
    let mut ui = Ui::new();
    press(&mut ui, KeyCode::Char('2'));
    assert_eq!(ui.input.as_deref(), Some("2"));
    match press(&mut ui, KeyCode::Enter) {
        Outcome::Play(c) => assert_eq!(c, choices[1]),
        other => panic!("{other:?}"),
    }
    // A typed choice that is not legal says why and plays nothing.
    let mut ui = Ui::new();
    press(&mut ui, KeyCode::Char(':'));
    for c in "fly".chars() {
        press(&mut ui, KeyCode::Char(c));
    }
    assert!(matches!(press(&mut ui, KeyCode::Enter), Outcome::Nothing));
    assert!(ui.message.as_deref().is_some_and(|m| m.contains("fly")), "{:?}", ui.message);
}

/// Draw one decision's screen for the player to move, with no log.
fn drawn(g: &Game, size: (u16, u16)) -> String {
    let choices = g.choices();
    let page = Page::new(g, &choices);
    let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
    let mut ui = Ui::new();
    // The table scrolled to its end too: everything in it is compared.
    ui.table_scroll = usize::MAX / 8;
    let mut out = String::new();
    for scroll in [0, usize::MAX / 8] {
        ui.table_scroll = scroll;
        terminal.draw(|f| draw(f, &page, &ui, &[])).unwrap();
        out.push_str(&terminal.backend().to_string());
    }
    out
}

#[test]
fn the_screen_of_a_seat_is_the_same_whatever_lies_hidden_from_it() {
    let mut compared = 0;
    for (path, players) in [
        ("rulesets/thebes/thebes.ruleset", 3),
        ("rulesets/grabrauber/grabrauber.ruleset", 3),
        ("rulesets/archaeology/archaeology.ruleset", 3),
    ] {
        let program = scenario::load(path);
        for (seed, steps) in [(1, 4), (2, 15), (3, 30)] {
            let g = position(&program, players, seed, steps);
            let Some(me) = g.current() else { continue };
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let b = permuted(&g, &[me], &mut rng);
            assert_eq!(drawn(&g, (120, 40)), drawn(&b, (120, 40)), "{path} seed {seed}, the screen of {me}");
            compared += 1;
        }
    }
    assert_eq!(compared, 9);
}

#[test]
fn a_terminal_shrunk_to_any_size_down_to_nothing_is_drawn_without_panicking() {
    let program = scenario::load("rulesets/thebes/thebes.ruleset");
    let g = position(&program, 3, 2, 5);
    let choices = g.choices();
    let page = Page::new(&g, &choices);
    for (w, h) in [
        (0, 0),
        (0, 5),
        (5, 0),
        (1, 1),
        (2, 1),
        (1, 5),
        (5, 1),
        (10, 3),
        (20, 6),
        (40, 10),
        (109, 12),
        (110, 12),
        (300, 4),
    ] {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        let ui = Ui::new();
        terminal.draw(|f| draw(f, &page, &ui, &["a log line".to_string()])).unwrap();
        // (The test backend cannot print a buffer with no columns.)
        if w > 0 {
            assert_eq!(terminal.backend().to_string().lines().count(), h as usize, "{w}x{h}");
        }
    }
}
