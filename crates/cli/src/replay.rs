//! `chronoscope replay RULESET GAME --to N [--as P2]`: the table after
//! action N of a saved game (`play --save`) or a log (`play --log`), as one
//! seat sees it or as an onlooker, with what action N did as that seat saw
//! it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use engine::{notation, Game, Program};
use model::PlayerId;

use crate::play::script::{parse_script, ruleset_hash, Script, MAX_SCRIPT_BYTES};
use crate::play::view::{fail_text, narrate, screen_width, table_as, wrap};
use crate::play::Stop;

pub struct ReplayArgs {
    pub file: PathBuf,
    pub game: PathBuf,
    pub to: Option<usize>,
    pub seat: Option<String>,
}

pub fn run(args: ReplayArgs) -> ExitCode {
    crate::play::with_program(&args.file, "replay with", |program, loaded| {
        let mut stdout = std::io::stdout().lock();
        replay(program, &loaded.checked.sources, &args, &mut stdout).map(|()| ExitCode::SUCCESS)
    })
}

/// A saved game or a log, read as a script: a log's `start` line gives the
/// seed and players, its `action` lines the actions in the notation.
pub fn read_game(path: &Path) -> Result<Script, String> {
    let shown = path.display();
    let text = crate::read_text(path, MAX_SCRIPT_BYTES, "game")?;
    if !text.trim_start().starts_with('{') {
        return parse_script(&text).map_err(|e| format!("`{shown}`: {e}"));
    }
    let mut s =
        Script { seed: None, players: None, seats: None, ruleset: None, actions: Vec::new(), next: 0 };
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("`{shown}` line {}: not a log line: {e}", i + 1))?;
        match v.get("type").and_then(|t| t.as_str()) {
            Some("start") => {
                s.seed = v.get("seed").and_then(serde_json::Value::as_u64);
                s.players =
                    v.get("players").and_then(serde_json::Value::as_u64).and_then(|n| u32::try_from(n).ok());
            }
            // Undone actions are gone.
            Some("undo") => {
                let to = v.get("to").and_then(serde_json::Value::as_u64).unwrap_or(0) as usize;
                s.actions.truncate(to);
            }
            Some("action") => match v.get("notation").and_then(|t| t.as_str()) {
                Some(n) => s.actions.push((i + 1, n.to_string())),
                None => return Err(format!("`{shown}` line {}: an action without its notation", i + 1)),
            },
            _ => {}
        }
    }
    Ok(s)
}

/// A saved game or a log read for a replay: its actions, seed and players,
/// refused when it was played with another text of the ruleset.
pub fn read_for_replay(sources: &[(String, String)], path: &Path) -> Result<(Script, u64, u32), Stop> {
    let shown = path.display();
    let script = read_game(path)?;
    let hash = ruleset_hash(sources);
    if script.ruleset.as_ref().is_some_and(|h| *h != hash) {
        return Err(Stop::Error(format!(
            "`{shown}` was saved with another ruleset (its text has changed since); replay it with the ruleset it was played with"
        )));
    }
    let (Some(seed), Some(players)) = (script.seed, script.players) else {
        return Err(Stop::Error(format!(
            "`{shown}` does not say its seed and players (`# seed N`, `# players N`)"
        )));
    };
    Ok((script, seed, players))
}

/// The game after the first `n` actions of a script.
pub fn play_to<'r>(
    rules: &'r Program,
    sources: &[(String, String)],
    path: &Path,
    script: &Script,
    (seed, players): (u64, u32),
    n: usize,
) -> Result<(Game<'r>, Vec<engine::Event>), Stop> {
    let shown = path.display();
    let (mut game, _) = Game::new(rules, players as usize, seed).map_err(|f| fail_text(&f, sources))?;
    let mut last = Vec::new();
    for (line, text) in &script.actions[..n.min(script.actions.len())] {
        let choice =
            notation::parse(&game, text).map_err(|e| format!("`{shown}` line {line}: `{text}`: {e}"))?;
        last = game
            .apply(&choice)
            .map_err(|f| format!("`{shown}` line {line}: `{text}`: {}", fail_text(&f, sources)))?;
    }
    Ok((game, last))
}

pub fn replay(
    rules: &Program,
    sources: &[(String, String)],
    args: &ReplayArgs,
    out: &mut dyn Write,
) -> Result<(), Stop> {
    let shown = args.game.display();
    let (script, seed, players) = read_for_replay(sources, &args.game)?;
    let seat = match &args.seat {
        None => None,
        Some(word) => {
            let n = word
                .trim_start_matches(['P', 'p'])
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=players as usize).contains(n));
            match n {
                Some(n) => Some(PlayerId::new(n - 1)),
                None => return Err(Stop::Error(format!("`--as {word}`: a seat from P1 to P{players}"))),
            }
        }
    };
    let total = script.actions.len();
    let to = args.to.unwrap_or(total);
    if to > total {
        return Err(Stop::Error(format!("`{shown}` has {total} actions, not {to}")));
    }
    let (game, last) = play_to(rules, sources, &args.game, &script, (seed, players), to)?;
    let who = seat.map_or("an onlooker".to_string(), |p| p.to_string());
    writeln!(
        out,
        "{} for {players} players, seed {seed}: after action {to} of {total}, as {who} sees it",
        rules.game.title
    )?;
    if to > 0 {
        let (_, text) = &script.actions[to - 1];
        writeln!(out, "{to:>4}. {text}")?;
        for line in narrate(&game, seat, &last) {
            write!(out, "{}", wrap(&format!("      {line}\n"), screen_width()))?;
        }
    }
    write!(out, "{}", wrap(&table_as(&game, seat), screen_width()))?;
    Ok(())
}
