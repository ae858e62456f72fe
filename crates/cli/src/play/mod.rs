//! `chronoscope play`: humans at one terminal and bots, scripts, saves and
//! the JSON-lines log.
//!
//! The loop is here; what a seat is shown is in `view`, the human prompt in
//! `prompt`, scripts and saves in `script`, the log's line types in `log`.
//! Input and output are passed in ([`Io`]), so a whole game can be played
//! from a test without a terminal or a process.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use engine::{notation, Game, Program};
use model::PlayerId;

use crate::render;

/// Write to a play's output; a failed write stops the game.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => { write!($out, $($arg)*)? };
}

macro_rules! sayln {
    ($out:expr, $($arg:tt)*) => { writeln!($out, $($arg)*)? };
}

pub mod board;
pub mod log;
pub mod prompt;
pub mod screen;
pub mod script;
pub mod view;

use log::{LogEvent, LogLine};
use script::{read_script, ruleset_hash, write_save, SaveHeader};
use view::{brief_change, fail_text, narrate, params_json, player_summary, score_table};

pub struct PlayArgs {
    pub file: PathBuf,
    pub players: Option<u32>,
    pub seats: Option<String>,
    pub seed: Option<u64>,
    pub script: Option<PathBuf>,
    pub save: Option<PathBuf>,
    pub log: Option<PathBuf>,
    pub quiet: bool,
    /// The line mode even on a terminal.
    pub plain: bool,
}

/// Where a game reads people's input and writes what they see.
pub struct Io<'a> {
    pub input: &'a mut dyn BufRead,
    pub out: &'a mut dyn Write,
    /// The full screen humans decide on; `None`: the line prompt on
    /// `input` and `out`.
    pub screen: Option<&'a mut dyn screen::Screen>,
}

/// Why a game stopped before its end.
#[derive(Debug)]
pub enum Stop {
    /// Something to tell the user (a bad script line, a stuck player, ...).
    Error(String),
    /// The output could not be written (a closed pipe, a full disk).
    Output(std::io::Error),
}

impl From<String> for Stop {
    fn from(s: String) -> Stop {
        Stop::Error(s)
    }
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Output(e)
    }
}

enum Seat {
    Human,
    Bot(Box<dyn bots::Bot + Send>),
}

/// Play on the command line, on the rules `engine` asks for.
pub fn run(args: PlayArgs, engine: crate::compiled::Engine) -> ExitCode {
    use std::io::IsTerminal;
    let file = args.file.clone();
    let full_screen =
        !args.plain && !args.quiet && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    with_program_on(&file, "play", engine, |program, loaded| {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        if !full_screen {
            let mut stdout = std::io::stdout().lock();
            let mut io = Io { input: &mut input, out: &mut stdout, screen: None };
            return play(program, &loaded.checked.sources, &loaded.name, args, &mut io);
        }
        // What the loop writes goes to the screen's log pane once a human
        // is asked, and to the terminal until then; what comes after the
        // last decision (the end, the score) is printed once the screen
        // has closed.
        let mut transcript = screen::Transcript::echoing(Box::new(std::io::stdout()));
        let mut full = screen::FullScreen::new(
            Box::new(ratatui::try_init),
            Box::new(ratatui::restore),
            Box::new(ratatui::crossterm::event::read),
            transcript.clone(),
        );
        let result = {
            let mut io = Io { input: &mut input, out: &mut transcript, screen: Some(&mut full) };
            play(program, &loaded.checked.sources, &loaded.name, args, &mut io)
        };
        let opened = full.backend().is_some();
        drop(full);
        if opened {
            let mut stdout = std::io::stdout().lock();
            write!(stdout, "{}", transcript.since_mark())?;
        }
        result
    })
}

/// Load and check a ruleset and run `f` on it: a ruleset with errors is
/// reported (`cannot VERB a ruleset with errors`), a `Stop` said on stderr
/// or, for output that cannot be written, as `output_error` says.
pub(crate) fn with_program(
    file: &std::path::Path,
    verb: &str,
    f: impl FnOnce(&Program, &render::Loaded) -> Result<ExitCode, Stop>,
) -> ExitCode {
    with_program_on(file, verb, crate::compiled::Engine::Interpreted, f)
}

/// `with_program`, on the rules `engine` asks for (or the whole command
/// in their worker).
fn with_program_on(
    file: &std::path::Path,
    verb: &str,
    engine: crate::compiled::Engine,
    f: impl FnOnce(&Program, &render::Loaded) -> Result<ExitCode, Stop>,
) -> ExitCode {
    let loaded = render::load(file);
    let Some(rules) = loaded.checked.ruleset.clone() else {
        err!("{}", render::report(&loaded.checked.sources, &loaded.checked.diagnostics, true));
        errln!("{}: cannot {verb} a ruleset with errors; fix them first", loaded.name);
        return ExitCode::FAILURE;
    };
    let program = match crate::compiled::program_for(Program::new(rules), engine) {
        Ok(program) => program,
        Err(code) => return code,
    };
    match f(&program, &loaded) {
        Ok(code) => code,
        Err(Stop::Output(e)) => crate::output_error(e),
        Err(Stop::Error(message)) => {
            errln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Play one game to its end (or until a human quits).
pub fn play(
    rules: &Program,
    sources: &[(String, String)],
    name: &str,
    args: PlayArgs,
    io: &mut Io,
) -> Result<ExitCode, Stop> {
    refuse_overwriting_inputs(&args, sources)?;
    let script = match &args.script {
        Some(p) => Some((p.display().to_string(), read_script(p)?)),
        None => None,
    };
    play_script(rules, sources, name, args, script, io)
}

/// [`play`] with its script already read (`label` names it in messages):
/// the path a save takes from its text to a replayed game, whether the text
/// came from a file or from a fuzzer.
pub fn play_script(
    rules: &Program,
    sources: &[(String, String)],
    name: &str,
    args: PlayArgs,
    script: Option<(String, script::Script)>,
    io: &mut Io,
) -> Result<ExitCode, Stop> {
    let out = &mut *io.out;
    let hash = ruleset_hash(sources);
    let mut script = match script {
        Some((label, s)) => {
            if s.ruleset.as_ref().is_some_and(|h| *h != hash) {
                return Err(Stop::Error(format!(
                    "`{label}` was saved with another ruleset (its text has changed since: hash {}, now {hash}); \
                     replay it with the ruleset it was played with",
                    s.ruleset.as_deref().unwrap_or_default()
                )));
            }
            Some(s)
        }
        None => None,
    };
    let script_players = script.as_ref().and_then(|s| s.players);
    // A save remembers who sat where; `--seats` says otherwise.
    let seat_spec = args.seats.clone().or_else(|| script.as_ref().and_then(|s| s.seats.clone()));
    let (players, seat_words) =
        crate::simulate::seating(rules, seat_spec.as_deref(), args.players.or(script_players))?;
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
            kind if bots::names_a_bot(kind) => match bots::make(kind, bot_seed) {
                Ok(b) => Seat::Bot(b),
                Err(why) => return Err(Stop::Error(why)),
            },
            kind => {
                return Err(Stop::Error(format!(
                    "unknown seat `{kind}`; seats are: human, {}",
                    bots::KINDS.join(", ")
                )));
            }
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
    let header = SaveHeader { seed, players, seats: &seat_names, ruleset: &hash };
    let order: Vec<String> = game.seat_order().iter().map(PlayerId::to_string).collect();
    write_log(
        &mut log,
        &LogLine::Start {
            ruleset: name.to_string(),
            game: rules.game.name.clone(),
            players,
            seed,
            seats: seat_names.clone(),
            order,
        },
    )?;
    write_log(&mut log, &LogLine::Setup { events: LogEvent::all(&game, sources, &setup_events) })?;
    if !args.quiet {
        sayln!(out, "{} for {players} players, seed {seed} (replay with --seed {seed})", rules.game.title);
        sayln!(
            out,
            "seats: {}",
            seat_names
                .iter()
                .enumerate()
                .map(|(i, s)| format!("P{} {s}", i + 1))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }

    // Positions a human may go back to: before each of their decisions
    // since anyone else moved or anything hidden was shown to them.
    let mut undo: Vec<(Game, usize)> = Vec::new();
    let mut undo_owner: Option<PlayerId> = None;
    let mut undo_block = "you have not decided anything yet";
    while let Some(me) = game.current() {
        let choices = game
            .legal()
            .map_err(|f| format!("{me} has no legal action, because {}", fail_text(&f, sources)))?;
        if choices.is_empty() {
            let why: Vec<String> =
                view::why_stuck(&game, sources).iter().map(|l| format!("\n  {l}")).collect();
            return Err(Stop::Error(format!(
                "{me} has no legal action and the game has not ended: the ruleset leaves this player stuck{}",
                why.concat()
            )));
        }
        let from_script = script.as_mut().and_then(script::Script::next_line);
        let scripted = from_script.is_some();
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
                Seat::Human => {
                    if let Some((_, a)) = game.asks().first() {
                        sayln!(out, "{me}, the rules ask you to `{}`:", rules.actions[*a].name);
                    }
                    let answer = match io.screen.as_deref_mut() {
                        Some(screen) => screen.ask(&game, &choices, sources)?,
                        None => prompt::ask(&game, &choices, sources, &mut *io.input, &mut *out)?,
                    };
                    match answer {
                        prompt::Answer::Choice(c) => c,
                        prompt::Answer::Undo => {
                            let last = if undo_owner == Some(me) { undo.pop() } else { None };
                            match last {
                                Some((before, n)) => {
                                    game = before;
                                    saved.truncate(n);
                                    write_log(&mut log, &LogLine::Undo { to: n as u64 })?;
                                    write_save(&args.save, &header, &saved)?;
                                    sayln!(out, "undone: back to action {}", n + 1);
                                }
                                None => sayln!(out, "nothing to undo: {undo_block}"),
                            }
                            continue;
                        }
                        prompt::Answer::Quit { typed, keep } => {
                            // Without `--save`, one who typed `quit` is asked
                            // whether to keep the game, in a file of its own
                            // (the full screen has asked already).
                            let mut save = args.save.clone();
                            if save.is_none() && typed {
                                let path = unused_save_path(&rules.game.name, seed);
                                let keep = match keep {
                                    Some(k) => k,
                                    None => {
                                        say!(
                                            out,
                                            "keep this game in {} to go on later? [Y/n] ",
                                            path.display()
                                        );
                                        out.flush()?;
                                        let answer = match prompt::read_line(&mut *io.input, prompt::MAX_LINE)
                                        {
                                            Ok(Some(prompt::Line::Text(t))) => t,
                                            _ => "n".to_string(),
                                        };
                                        !answer.trim().to_lowercase().starts_with('n')
                                    }
                                };
                                if keep {
                                    save = Some(path);
                                }
                            }
                            sayln!(out, "the game stops unfinished");
                            write_save(&save, &header, &saved)?;
                            // How to come back to it: the seats, the seed and the
                            // ruleset's hash are in the save.
                            match &save {
                                Some(path) => sayln!(
                                    out,
                                    "saved after {} actions: go on with `chronoscope play {} --script {}`",
                                    saved.len(),
                                    args.file.display(),
                                    path.display()
                                ),
                                None => sayln!(out, "(play with `--save FILE` to keep a game you may stop)"),
                            }
                            return Ok(ExitCode::FAILURE);
                        }
                    }
                }
            }
        };
        let text = notation::format(&game, &choice);
        let before = player_summary(&game, me);
        let checkpoint = (game.clone(), saved.len());
        let events = game.apply(&choice).map_err(|f| fail_text(&f, sources))?;
        // A human's decision can be taken back until someone else moves or
        // something hidden is shown to them (a card drawn, a rule's reveal).
        if scripted || !matches!(seats[me.index()], Seat::Human) {
            undo.clear();
            undo_block = "another player has moved since";
        } else {
            if undo_owner != Some(me) {
                undo.clear();
                undo_owner = Some(me);
            }
            if shows_hidden(&game, me, &events) {
                undo.clear();
                undo_block = "something hidden was shown to you since";
            } else {
                undo.push(checkpoint);
            }
        }
        let after = player_summary(&game, me);
        saved.push(text.clone());
        if !args.quiet {
            sayln!(out, "{:>4}. {me} {text}{}", game.actions_taken(), brief_change(&before, &after));
        }
        // What happened, as the human at the screen may see it: the one
        // who acted, else the only human seat; with none (or several, none
        // acting) only what lies open to all.
        if !args.quiet {
            let humans: Vec<PlayerId> =
                PlayerId::all(seats.len()).filter(|p| matches!(seats[p.index()], Seat::Human)).collect();
            let viewer = match humans.as_slice() {
                _ if humans.contains(&me) => Some(me),
                [only] => Some(*only),
                _ => None,
            };
            for line in narrate(&game, viewer, &events) {
                say!(out, "{}", view::wrap(&format!("      {line}\n"), view::screen_width()));
            }
        }
        write_log(
            &mut log,
            &LogLine::Action {
                n: game.actions_taken(),
                player: me.to_string(),
                action: rules.actions[choice.action].name.clone(),
                notation: text,
                params: params_json(&game, &choice),
                before,
                after,
                events: LogEvent::all(&game, sources, &events),
            },
        )?;
        // While a script is replayed, the save (which may be the very file
        // the script came from) is left alone: a bad line must not cut it.
        if args.save.is_some() && script.as_ref().is_none_or(script::Script::done) {
            write_save(&args.save, &header, &saved)?;
        }
    }
    if let Some(s) = script.as_mut() {
        if let Some((line_no, text)) = s.next_line() {
            let left = s.actions.len() - s.next + 1;
            return Err(Stop::Error(format!(
                "script line {line_no}: `{text}` comes after the end: the game ended after {} actions, \
                 and {left} line{} of the script were not played",
                game.actions_taken(),
                crate::plural(left)
            )));
        }
    }
    let sheet = game.scores().map_err(|f| fail_text(&f, sources))?;
    say!(out, "{}", score_table(&sheet));
    write_log(&mut log, &LogLine::end(game.actions_taken(), &sheet))?;
    if let Some(l) = log.as_mut() {
        l.flush().map_err(|e| format!("cannot write log: {e}"))?;
    }
    write_save(&args.save, &header, &saved)?;
    Ok(ExitCode::SUCCESS)
}

/// A file in the current directory to keep a stopped game in, named after
/// the game and its seed, that does not exist yet (`thebes-seed5.save`,
/// then `thebes-seed5-2.save`, ...).
fn unused_save_path(game: &str, seed: u64) -> PathBuf {
    let base = format!("{game}-seed{seed}");
    (1..)
        .map(|k| PathBuf::from(if k == 1 { format!("{base}.save") } else { format!("{base}-{k}.save") }))
        .find(|p| !p.exists())
        .unwrap_or_else(|| PathBuf::from(format!("{base}.save")))
}

/// Whether events showed `me` something that was hidden from them: a
/// component coming into sight from a zone they could not see, or a rule's
/// reveal to them.
fn shows_hidden(game: &Game, me: PlayerId, events: &[engine::Event]) -> bool {
    events.iter().any(|e| match e {
        engine::Event::Move { from, to, .. } => !game.visible_to(*from, me) && game.visible_to(*to, me),
        engine::Event::Reveal { player, .. } => *player == me,
        _ => false,
    })
}

/// The files a game writes (`--log`, `--save`) must not be files it reads
/// (the ruleset, the script) or each other: opening the log empties its
/// file before the first action, and a save replaces its file after each
/// one, so either would destroy a game or a ruleset before a word of
/// warning. (A save may be the script it replays: the save is left alone
/// until the script has been played to its end.)
fn refuse_overwriting_inputs(args: &PlayArgs, sources: &[(String, String)]) -> Result<(), Stop> {
    let mut read: Vec<(&str, PathBuf)> = vec![("the ruleset", args.file.clone())];
    read.extend(sources.iter().map(|(n, _)| ("a file of the ruleset", PathBuf::from(n))));
    read.extend(args.script.iter().map(|p| ("the script", p.clone())));
    let mut written: Vec<(&str, &PathBuf)> = Vec::new();
    written.extend(args.log.iter().map(|p| ("--log", p)));
    written.extend(args.save.iter().map(|p| ("--save", p)));
    for (i, (flag, path)) in written.iter().enumerate() {
        let target = same_file_key(path);
        let clash = read
            .iter()
            .filter(|(what, _)| !(*flag == "--save" && *what == "the script"))
            .map(|(what, p)| (*what, same_file_key(p)))
            .chain(written[..i].iter().map(|(f, p)| (*f, same_file_key(p))))
            .find(|(_, p)| *p == target);
        if let Some((what, _)) = clash {
            return Err(Stop::Error(format!(
                "`{flag} {}` names the same file as {what}: writing it would destroy it; choose another file",
                path.display()
            )));
        }
    }
    Ok(())
}

/// A path made comparable: its folder resolved (links, `..`), its name
/// kept, so that a file that does not exist yet compares too.
fn same_file_key(path: &std::path::Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let folder = match path.parent() {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => std::path::Path::new("."),
    };
    match (std::fs::canonicalize(folder), path.file_name()) {
        (Ok(f), Some(n)) => f.join(n),
        _ => path.to_path_buf(),
    }
}

fn write_log(log: &mut Option<std::io::BufWriter<std::fs::File>>, line: &LogLine) -> Result<(), String> {
    if let Some(l) = log {
        let text = serde_json::to_string(line).map_err(|e| format!("cannot write log: {e}"))?;
        writeln!(l, "{text}").map_err(|e| format!("cannot write log: {e}"))?;
    }
    Ok(())
}
