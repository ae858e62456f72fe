//! `chronoscope simulate`: many games with bots, for balance questions.
//!
//! Game `i` of a run uses seed `SEED + i`, whatever the number of threads,
//! so results are the same for any `--jobs`, and a shard (`--shard K/N`) is a
//! slice of the same games. A JSON result holds every game's record, so
//! `simulate merge` recombines shards exactly.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use engine::{Game, Program};
use model::PlayerId;
use ruleset::Ruleset;
use serde::{Deserialize, Serialize};

use crate::render;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SimFormat {
    Table,
    Json,
    Csv,
}

pub struct SimArgs {
    pub file: PathBuf,
    pub games: u64,
    pub players: Option<u32>,
    pub seats: Option<String>,
    pub seed: u64,
    pub jobs: Option<usize>,
    pub format: SimFormat,
    pub plot: Option<PathBuf>,
    pub shard: Option<String>,
    pub compare: Option<PathBuf>,
    pub engine: crate::compiled::Engine,
}

/// One game's outcome.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Record {
    pub game: u64,
    pub seed: u64,
    pub actions: u64,
    /// The seat that moved first.
    pub first: usize,
    pub totals: Vec<i64>,
    pub winners: Vec<usize>,
    /// Points per scoring rule (in `Results::rules` order) and seat, rule
    /// by rule: `rules[rule * players + seat]`. One flat list keeps a run of
    /// 100,000 games small.
    pub rules: Vec<i64>,
}

/// A run's results: enough to merge shards exactly.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Results {
    pub ruleset: String,
    /// A hash of the ruleset's text (see `play::script::ruleset_hash`):
    /// shards of one run must have been played with the same rules.
    #[serde(default)]
    pub ruleset_hash: String,
    pub players: usize,
    pub seats: Vec<String>,
    pub seed: u64,
    /// Games in the whole run (all shards).
    pub games: u64,
    pub rules: Vec<String>,
    pub records: Vec<Record>,
}

/// How long an interpreted run under `--engine auto` takes before its end
/// suggests `--engine compiled`.
const HINT_AFTER: std::time::Duration = std::time::Duration::from_secs(20);

pub fn run(args: SimArgs) -> ExitCode {
    match simulate(args) {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn load(path: &Path) -> Result<(render::Loaded, Program), String> {
    let loaded = render::load(path);
    match loaded.checked.ruleset.clone() {
        Some(r) => Ok((loaded, Program::new(r))),
        None => {
            err!("{}", render::report(&loaded.checked.sources, &loaded.checked.diagnostics, true));
            Err(format!("{}: cannot simulate a ruleset with errors", loaded.name))
        }
    }
}

fn simulate(args: SimArgs) -> Result<ExitCode, String> {
    let (loaded, rules) = load(&args.file)?;
    // The ruleset compared with is read first: one worker compiles both.
    let (other_loaded, other) = match args.compare.as_deref().map(load).transpose()? {
        Some((lb, rb)) => (Some(lb), Some(rb)),
        None => (None, None),
    };
    let (rules, other) = match crate::compiled::programs_for(rules, other, args.engine) {
        Ok(both) => both,
        // The worker for these rules ran this command.
        Err(code) => return Ok(code),
    };
    let (players, seats) = seating(&rules, args.seats.as_deref(), args.players)?;
    for s in &seats {
        bots::make(s, 0)?;
    }
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let (from, to) = match &args.shard {
        None => (0, args.games),
        Some(spec) => shard_range(spec, args.games)?,
    };
    if to - from > MAX_GAMES_PER_RUN {
        return Err(format!(
            "{} games in one run is more than the {MAX_GAMES_PER_RUN} a run keeps; split the run with \
             --shard K/N and combine the parts with `simulate merge`",
            to - from
        ));
    }
    // Everything that could fail after the games is tried before them, so
    // no result is lost to a typo: the other ruleset (read above), the
    // plot's file.
    let other = other_loaded.zip(other);
    if let Some((_, rb)) = &other {
        if players < rb.game.min_players as usize || players > rb.game.max_players as usize {
            return Err(format!("{} is not for {players} players", rb.game.title));
        }
    }
    let plot = match &args.plot {
        Some(path) => Some((
            path,
            std::fs::File::create(path).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?,
        )),
        None => None,
    };
    let jobs =
        args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let named = |l: &render::Loaded| (l.name.clone(), crate::play::script::ruleset_hash(&l.checked.sources));
    let started = std::time::Instant::now();
    // `auto` without a worker in the cache: the first game, timed, says
    // whether building one pays for this run (`compiled::build_pays`); it
    // counts as the run's first game either way. A run of no more games
    // than threads plays them all at once instead: timing one first would
    // take as long as the whole run. A seat that thinks for a time
    // (`mcts:500ms`) thinks as long on compiled rules, so its games would
    // take as long: no build pays for them.
    let timed = seats.iter().any(|s| matches!(bots::parse_mcts(s), Ok(bots::Budget::Millis(_))));
    let mut first = None;
    let mut tried_build = false;
    if args.engine == crate::compiled::Engine::Auto
        && !crate::compiled::in_worker()
        && !rules.is_compiled()
        && !timed
        && to - from > jobs as u64
    {
        first = Some(play_one(&rules, players, &seats, from, args.seed.wrapping_add(from)));
        // The compared ruleset's games too, taken to be as long: the
        // worker plays both.
        let games = (to - from) * if other.is_some() { 2 } else { 1 };
        let left = (games - 1) as f64 * started.elapsed().as_secs_f64() / jobs as f64;
        if crate::compiled::build_pays(left)? {
            tried_build = true;
            errln!(
                "note: the rest of this run would take about {left:.1} s on the interpreter; \
                 the compiled rules play the same games faster"
            );
            match crate::compiled::build_and_run(&rules, other.as_ref().map(|(_, rb)| rb)) {
                Ok(code) => return Ok(code),
                Err(e) => errln!("note: {e}; the interpreter plays instead"),
            }
        }
    }
    let a =
        run_games(&rules, &named(&loaded), players, &seats, args.seed, args.games, (from, to), jobs, first)?;
    // A long run on the interpreter, which `auto` chose because nothing
    // was built: say once what would be faster.
    let took = started.elapsed();
    if args.engine == crate::compiled::Engine::Auto
        && !rules.is_compiled()
        && !tried_build
        && took >= HINT_AFTER
    {
        // Without cargo, `--engine compiled` would only fall back to the
        // interpreter: the hint names what it needs instead.
        let faster = if crate::compiled::toolchain_found() {
            let build = match crate::compiled::build_time() {
                crate::compiled::BuildTime::Cold => "about a minute",
                _ => "a few seconds",
            };
            &format!(
                "`--engine compiled` plays the same games several times as fast once it has compiled these \
                 rules ({build}, once)"
            )
        } else {
            "with a Rust toolchain installed (cargo, from https://rustup.rs), `--engine compiled` plays the \
             same games several times as fast"
        };
        errln!("note: these games took {:.0} s on the interpreter; {faster}", took.as_secs_f64());
    }
    if let Some((lb, rb)) = other {
        let b = run_games(&rb, &named(&lb), players, &seats, args.seed, args.games, (from, to), jobs, None)?;
        if let Some((path, file)) = plot {
            write_plot(path, file, &[&a, &b])?;
        }
        let text = match args.format {
            SimFormat::Json => serde_json::to_string_pretty(&serde_json::json!({
                "a": { "results": a, "summary": summary(&a) },
                "b": { "results": b, "summary": summary(&b) },
                "difference": compare_json(&a, &b),
            }))
            .unwrap_or_default(),
            SimFormat::Csv => format!(
                "{}{}",
                csv(&a),
                csv(&b).lines().skip(1).map(|l| format!("{l}\n")).collect::<String>()
            ),
            SimFormat::Table => format!("{}\n{}\n{}", table(&a), table(&b), compare_table(&a, &b)),
        };
        outln!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    if let Some((path, file)) = plot {
        write_plot(path, file, &[&a])?;
    }
    outln!("{}", render_results(&a, args.format));
    Ok(ExitCode::SUCCESS)
}

/// The largest results file `simulate merge` reads: a shard of the most
/// games one run may play (1,000,000) at about 300 bytes a game for four
/// players, with room to spare.
pub const MAX_RESULTS_BYTES: u64 = 1 << 30;

pub fn merge(files: &[PathBuf], format: SimFormat) -> ExitCode {
    let mut merged: Option<Results> = None;
    for f in files {
        let text = match crate::read_text(f, MAX_RESULTS_BYTES, "results") {
            Ok(t) => t,
            Err(e) => {
                errln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let r: Results = match serde_json::from_str::<Results>(&text) {
            Ok(r) => r,
            Err(e) => {
                errln!("error: `{}` is not a `simulate --format json` result: {e}", f.display());
                return ExitCode::from(2);
            }
        };
        merged = match merged {
            None => Some(r),
            Some(mut m) => {
                if (m.ruleset.as_str(), m.players, &m.seats, m.seed, m.games, &m.rules)
                    != (r.ruleset.as_str(), r.players, &r.seats, r.seed, r.games, &r.rules)
                {
                    errln!(
                        "error: `{}` is a different run (ruleset, players, seats, seed or games differ)",
                        f.display()
                    );
                    return ExitCode::from(2);
                }
                if m.ruleset_hash != r.ruleset_hash {
                    errln!(
                        "error: `{}` was played with another text of `{}` (its rules changed between shards)",
                        f.display(),
                        r.ruleset
                    );
                    return ExitCode::from(2);
                }
                m.records.extend(r.records);
                Some(m)
            }
        };
    }
    let Some(mut m) = merged else {
        errln!("error: nothing to merge");
        return ExitCode::from(2);
    };
    m.records.sort_by_key(|r| r.game);
    let before = m.records.len();
    m.records.dedup_by_key(|r| r.game);
    if m.records.len() != before {
        errln!(
            "warning: {} games appeared in more than one file; each is counted once",
            before - m.records.len()
        );
    }
    // Every game of the run, once: a missing shard would skew every figure.
    if m.records.len() as u64 != m.games || m.records.iter().enumerate().any(|(i, r)| r.game != i as u64) {
        let first = m
            .records
            .iter()
            .enumerate()
            .find(|(i, r)| r.game != *i as u64)
            .map_or(m.records.len(), |(i, _)| i);
        errln!(
            "error: the files hold {} of the run's {} games (game {first} is missing): merge every shard",
            m.records.len(),
            m.games
        );
        return ExitCode::from(2);
    }
    outln!("{}", render_results(&m, format));
    ExitCode::SUCCESS
}

fn render_results(r: &Results, format: SimFormat) -> String {
    match format {
        SimFormat::Json => serde_json::to_string_pretty(&serde_json::json!({
            "ruleset": r.ruleset, "ruleset_hash": r.ruleset_hash, "players": r.players, "seats": r.seats, "seed": r.seed,
            "games": r.games, "rules": r.rules, "records": r.records, "summary": summary(r),
        }))
        .unwrap_or_default(),
        SimFormat::Csv => csv(r),
        SimFormat::Table => table(r),
    }
}

/// `K/N` (1-based K) to the half-open range of games of that shard.
fn shard_range(spec: &str, games: u64) -> Result<(u64, u64), String> {
    let bad = || format!("--shard takes K/N with 1 <= K <= N, not `{spec}`");
    let (k, n) = spec.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || k == 0 || k > n {
        return Err(bad());
    }
    // In 128 bits: a huge count times K must not wrap.
    let at = |k: u64| (u128::from(k) * u128::from(games) / u128::from(n)) as u64;
    Ok((at(k - 1), at(k)))
}

/// The most games one run (or one shard) plays: every game's record is kept
/// until the summary, about 150 bytes each (docs/limits.md).
pub const MAX_GAMES_PER_RUN: u64 = 1_000_000;

#[allow(clippy::too_many_arguments)]
fn run_games(
    rules: &Program,
    (name, hash): &(String, String),
    players: usize,
    seats: &[String],
    seed: u64,
    games: u64,
    (from, to): (u64, u64),
    jobs: usize,
    first: Option<Result<Record, String>>,
) -> Result<Results, String> {
    let n = to - from;
    let mut slots = vec![None; n as usize];
    // A first game already played (`auto` timed it) is not played again.
    let played = first.is_some() as u64;
    if let (Some(record), Some(slot)) = (first, slots.first_mut()) {
        *slot = Some(record);
    }
    let slots: Mutex<Vec<Option<Result<Record, String>>>> = Mutex::new(slots);
    let next = AtomicU64::new(from + played);
    let done = AtomicU64::new(played);
    let progress = std::io::stderr().is_terminal();
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(n as usize).max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= to {
                    break;
                }
                let record = play_one(rules, players, seats, i, seed.wrapping_add(i));
                if let Ok(mut s) = slots.lock() {
                    s[(i - from) as usize] = Some(record);
                }
                done.fetch_add(1, Ordering::Relaxed);
            });
        }
        if progress {
            let mut last = 0;
            while done.load(Ordering::Relaxed) < n {
                std::thread::sleep(std::time::Duration::from_millis(200));
                let d = done.load(Ordering::Relaxed);
                if d != last {
                    last = d;
                    let rate = d as f64 / started.elapsed().as_secs_f64().max(1e-9);
                    let left = (n - d) as f64 / rate.max(1e-9);
                    err!("\r  {d}/{n} games  {rate:.1}/s  {left:.0} s left   ");
                }
            }
            err!("\r{:60}\r", "");
        }
    });
    let slots = slots.into_inner().map_err(|_| "a worker thread failed".to_string())?;
    let mut records = Vec::with_capacity(n as usize);
    for (i, s) in slots.into_iter().enumerate() {
        match s {
            Some(Ok(r)) => records.push(r),
            Some(Err(e)) => {
                return Err(format!(
                    "game {} (seed {}): {e}",
                    from + i as u64,
                    seed.wrapping_add(from + i as u64)
                ))
            }
            None => return Err(format!("game {} did not run", from + i as u64)),
        }
    }
    let rules_names = engine::Game::start(rules, players, seed)
        .ok()
        .and_then(|g| g.scores().ok())
        .map(|s| s.rows.into_iter().map(|(n, _)| n).collect())
        .unwrap_or_default();
    Ok(Results {
        ruleset: name.to_string(),
        ruleset_hash: hash.clone(),
        players,
        seats: seats.to_vec(),
        seed,
        games,
        rules: rules_names,
        records,
    })
}

/// How many play and who sits where: `--players`, else as many as seats are
/// named (at least the game's minimum); unnamed seats are random bots.
pub fn seating(
    rules: &Ruleset,
    seats: Option<&str>,
    players: Option<u32>,
) -> Result<(usize, Vec<String>), String> {
    let named: Vec<String> = seats
        .map(|s| s.split(',').map(|w| w.trim().to_lowercase()).filter(|w| !w.is_empty()).collect())
        .unwrap_or_default();
    let players = players.unwrap_or_else(|| (named.len() as u32).max(rules.game.min_players));
    if players < rules.game.min_players || players > rules.game.max_players {
        return Err(format!(
            "{} is for {} to {} players, not {players}",
            rules.game.title, rules.game.min_players, rules.game.max_players
        ));
    }
    if named.len() > players as usize {
        return Err(format!("{} seats given for {players} players", named.len()));
    }
    let all =
        (0..players as usize).map(|i| named.get(i).cloned().unwrap_or_else(|| "random".into())).collect();
    Ok((players as usize, all))
}

/// The bot seed for a seat: the game seed mixed with the seat, as in `play`.
pub fn bot_seed(seed: u64, seat: usize) -> u64 {
    seed ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(seat as u64 + 1)
}

fn play_one(
    rules: &Program,
    players: usize,
    seats: &[String],
    game: u64,
    seed: u64,
) -> Result<Record, String> {
    let mut g = Game::start(rules, players, seed).map_err(|f| f.message().to_string())?;
    let first = g.current().map_or(0, PlayerId::index);
    let mut bots: Vec<Box<dyn bots::Bot + Send>> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| bots::make(s, bot_seed(seed, i)).expect("seats checked before"))
        .collect();
    // One list for every listing, kept with its room.
    let mut choices = engine::Listing::new();
    while let Some(me) = g.current() {
        g.list_into(&mut choices)
            .map_err(|f| format!("{me} has no legal action, because {}", f.message()))?;
        if choices.is_empty() {
            return Err(format!("{me} has no legal action"));
        }
        let i = bots[me.index()].choose(&bots::Seat::new(&g, me), &choices);
        g.step_listed(&choices, i.min(choices.len() - 1)).map_err(|f| f.message().to_string())?;
    }
    let sheet = g.scores().map_err(|f| f.message().to_string())?;
    Ok(Record {
        game,
        seed,
        actions: g.actions_taken(),
        first,
        totals: sheet.totals.clone(),
        winners: sheet.winners.iter().map(|p| p.index()).collect(),
        rules: sheet.rows.iter().flat_map(|(_, v)| v.iter().copied()).collect(),
    })
}

// ------------------------------------------------------------- statistics

/// Wilson score interval for a proportion, 95%.
fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let z = 1.96f64;
    let p = successes / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).max(0.0)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Each game's win shared equally among its winners.
fn wins(r: &Results) -> Vec<f64> {
    let mut w = vec![0.0; r.players];
    for g in &r.records {
        for p in &g.winners {
            w[*p] += 1.0 / g.winners.len() as f64;
        }
    }
    w
}

fn first_player_wins(r: &Results) -> f64 {
    // From 0.0: `f64`'s `sum` starts from -0.0, which a run the first
    // player never won showed as "-0.0%" (and wrote as -0.0 in JSON).
    r.records
        .iter()
        .filter(|g| g.winners.contains(&g.first))
        .fold(0.0, |sum, g| sum + 1.0 / g.winners.len() as f64)
}

#[derive(Serialize)]
struct SeatSummary {
    seat: String,
    bot: String,
    win_rate: f64,
    win_ci95: (f64, f64),
    mean: f64,
    median: f64,
    sd: f64,
    min: i64,
    max: i64,
}

/// The sum of scores in 128 bits: a million games of scores at the edge of
/// the 64-bit range fit with room to spare.
fn exact_sum(scores: impl IntoIterator<Item = i64>) -> i128 {
    scores.into_iter().map(i128::from).sum()
}

fn summary(r: &Results) -> serde_json::Value {
    let n = r.records.len() as f64;
    let w = wins(r);
    let seats: Vec<SeatSummary> = (0..r.players)
        .map(|p| {
            let mut scores: Vec<i64> = r.records.iter().map(|g| g.totals[p]).collect();
            scores.sort_unstable();
            // Scores may be anywhere in the 64-bit range (arithmetic in a
            // game saturates): sums are taken in 128 bits, never wrapped.
            let mean = exact_sum(scores.iter().copied()) as f64 / n.max(1.0);
            let var = scores.iter().map(|s| (*s as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            let median = if scores.is_empty() {
                0.0
            } else if scores.len() % 2 == 1 {
                scores[scores.len() / 2] as f64
            } else {
                exact_sum([scores[scores.len() / 2 - 1], scores[scores.len() / 2]]) as f64 / 2.0
            };
            SeatSummary {
                seat: format!("P{}", p + 1),
                bot: r.seats[p].clone(),
                win_rate: w[p] / n.max(1.0),
                win_ci95: wilson(w[p], n),
                mean,
                median,
                sd: var.sqrt(),
                min: scores.first().copied().unwrap_or(0),
                max: scores.last().copied().unwrap_or(0),
            }
        })
        .collect();
    let rules: Vec<serde_json::Value> = r
        .rules
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let means: Vec<f64> = (0..r.players)
                .map(|p| {
                    exact_sum(r.records.iter().map(|g| g.rules.get(i * r.players + p).copied().unwrap_or(0)))
                        as f64
                        / n.max(1.0)
                })
                .collect();
            serde_json::json!({ "rule": name, "mean_points": means })
        })
        .collect();
    let fw = first_player_wins(r);
    serde_json::json!({
        "games": r.records.len(),
        "seats": seats,
        "rules": rules,
        "mean_actions": r.records.iter().map(|g| g.actions).sum::<u64>() as f64 / n.max(1.0),
        "first_player": {
            "win_rate": fw / n.max(1.0),
            "win_ci95": wilson(fw, n),
            "fair_share": 1.0 / r.players as f64,
        },
    })
}

fn table(r: &Results) -> String {
    let s = summary(r);
    let mut out = String::new();
    let n = r.records.len();
    let _ = writeln!(
        out,
        "{}: {n} games, {} players, seeds {}..{}",
        r.ruleset,
        r.players,
        r.records.first().map_or(0, |g| g.seed),
        r.records.last().map_or(0, |g| g.seed)
    );
    let _ = writeln!(out, "  seat  bot       win rate (95% CI)        mean  median    sd   min   max");
    for seat in s["seats"].as_array().into_iter().flatten() {
        let ci = &seat["win_ci95"];
        let _ = writeln!(
            out,
            "  {:<5} {:<8} {:>6.1}% ({:>5.1}% - {:>5.1}%)  {:>6.1} {:>7.1} {:>5.1} {:>5} {:>5}",
            seat["seat"].as_str().unwrap_or(""),
            seat["bot"].as_str().unwrap_or(""),
            seat["win_rate"].as_f64().unwrap_or(0.0) * 100.0,
            ci[0].as_f64().unwrap_or(0.0) * 100.0,
            ci[1].as_f64().unwrap_or(0.0) * 100.0,
            seat["mean"].as_f64().unwrap_or(0.0),
            seat["median"].as_f64().unwrap_or(0.0),
            seat["sd"].as_f64().unwrap_or(0.0),
            seat["min"].as_i64().unwrap_or(0),
            seat["max"].as_i64().unwrap_or(0),
        );
    }
    let _ = writeln!(out, "  mean points by rule:");
    for rule in s["rules"].as_array().into_iter().flatten() {
        let means: Vec<String> = rule["mean_points"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| format!("{:>6.2}", m.as_f64().unwrap_or(0.0)))
            .collect();
        let _ = writeln!(out, "    {:<28}{}", rule["rule"].as_str().unwrap_or(""), means.join(""));
    }
    let _ = writeln!(out, "  mean game length: {:.1} actions", s["mean_actions"].as_f64().unwrap_or(0.0));
    let fp = &s["first_player"];
    let _ = writeln!(
        out,
        "  first player wins {:.1}% (95% CI {:.1}% - {:.1}%); a fair share is {:.1}%",
        fp["win_rate"].as_f64().unwrap_or(0.0) * 100.0,
        fp["win_ci95"][0].as_f64().unwrap_or(0.0) * 100.0,
        fp["win_ci95"][1].as_f64().unwrap_or(0.0) * 100.0,
        fp["fair_share"].as_f64().unwrap_or(0.0) * 100.0
    );
    out
}

fn csv(r: &Results) -> String {
    let s = summary(r);
    let mut out =
        String::from("ruleset,seat,bot,games,win_rate,win_ci_low,win_ci_high,mean,median,sd,min,max\n");
    for seat in s["seats"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "{},{},{},{},{:.4},{:.4},{:.4},{:.3},{},{:.3},{},{}",
            r.ruleset,
            seat["seat"].as_str().unwrap_or(""),
            seat["bot"].as_str().unwrap_or(""),
            r.records.len(),
            seat["win_rate"].as_f64().unwrap_or(0.0),
            seat["win_ci95"][0].as_f64().unwrap_or(0.0),
            seat["win_ci95"][1].as_f64().unwrap_or(0.0),
            seat["mean"].as_f64().unwrap_or(0.0),
            seat["median"],
            seat["sd"].as_f64().unwrap_or(0.0),
            seat["min"],
            seat["max"]
        );
    }
    out
}

/// Difference of two proportions with a 95% normal interval.
fn difference(pa: f64, pb: f64, na: f64, nb: f64) -> (f64, f64, f64) {
    let d = pb - pa;
    let se = (pa * (1.0 - pa) / na.max(1.0) + pb * (1.0 - pb) / nb.max(1.0)).sqrt();
    (d, d - 1.96 * se, d + 1.96 * se)
}

fn compare_json(a: &Results, b: &Results) -> serde_json::Value {
    let (na, nb) = (a.records.len() as f64, b.records.len() as f64);
    let (wa, wb) = (wins(a), wins(b));
    let seats: Vec<serde_json::Value> = (0..a.players)
        .map(|p| {
            let (d, lo, hi) = difference(wa[p] / na, wb[p] / nb, na, nb);
            serde_json::json!({ "seat": format!("P{}", p + 1), "win_rate_difference": d, "ci95": (lo, hi) })
        })
        .collect();
    let (d, lo, hi) = difference(first_player_wins(a) / na, first_player_wins(b) / nb, na, nb);
    serde_json::json!({ "seats": seats, "first_player": { "win_rate_difference": d, "ci95": (lo, hi) } })
}

fn compare_table(a: &Results, b: &Results) -> String {
    let c = compare_json(a, b);
    let mut out = format!("{} compared with {} on the same seeds:\n", b.ruleset, a.ruleset);
    let pct = |v: &serde_json::Value| v.as_f64().unwrap_or(0.0) * 100.0;
    for s in c["seats"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "  {} win rate {:+.1} points (95% CI {:+.1} to {:+.1})",
            s["seat"].as_str().unwrap_or(""),
            pct(&s["win_rate_difference"]),
            pct(&s["ci95"][0]),
            pct(&s["ci95"][1])
        );
    }
    let f = &c["first_player"];
    let _ = writeln!(
        out,
        "  first-player advantage {:+.1} points (95% CI {:+.1} to {:+.1})",
        pct(&f["win_rate_difference"]),
        pct(&f["ci95"][0]),
        pct(&f["ci95"][1])
    );
    out
}

/// Tick marks for an axis from `lo` to `hi`: a step of 1, 2 or 5 times a
/// power of ten giving at most about 8 ticks, and the ticks within range.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).abs().max(1.0);
    let raw = span / 8.0;
    let power = 10f64.powf(raw.log10().floor());
    let step =
        [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(10.0 * power).max(1.0);
    let first = (lo / step).ceil() * step;
    (0..=64).map(|k| first + k as f64 * step).take_while(|t| *t <= hi + 1e-9).collect()
}

/// An SVG histogram of final scores: one outline per seat and ruleset (the
/// first ruleset solid, a compared one dashed, a seat's colour the same in
/// both), with a title, both axes ticked and labelled, and a legend.
fn write_plot(path: &Path, mut file: std::fs::File, runs: &[&Results]) -> Result<(), String> {
    let all: Vec<i64> =
        runs.iter().flat_map(|r| r.records.iter().flat_map(|g| g.totals.iter().copied())).collect();
    let (lo, hi) = (all.iter().copied().min().unwrap_or(0), all.iter().copied().max().unwrap_or(1));
    // The spread in 128 bits: `hi - lo` of two 64-bit scores may not fit 64.
    let spread = i128::from(hi) - i128::from(lo) + 1;
    let bins = spread.clamp(1, 40) as usize;
    let width = (spread as f64 / bins as f64).max(1.0);
    let counts: Vec<Vec<Vec<usize>>> = runs
        .iter()
        .map(|r| {
            let mut c = vec![vec![0usize; bins]; r.players];
            for g in &r.records {
                for (p, t) in g.totals.iter().enumerate() {
                    let b = (((i128::from(*t) - i128::from(lo)) as f64 / width) as usize).min(bins - 1);
                    c[p][b] += 1;
                }
            }
            c
        })
        .collect();
    let top = counts.iter().flatten().flatten().copied().max().unwrap_or(1).max(1) as f64;
    // Plot area, with room for the axes' labels and the legend on the right.
    let (w, h) = (900.0, 420.0);
    let (left, right, top_m, bottom) = (70.0, 260.0, 50.0, 60.0);
    let (x0, x1, y0, y1) = (left, w - right, h - bottom, top_m);
    let colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];
    let games = runs.first().map_or(0, |r| r.records.len());
    let players = runs.first().map_or(0, |r| r.players);
    let title = match runs {
        [a, b] => format!(
            "Final scores: {} and {} ({games} games each, {players} players)",
            xml(&a.ruleset),
            xml(&b.ruleset)
        ),
        _ => format!(
            "Final scores: {} ({games} games, {players} players)",
            runs.first().map_or(String::new(), |r| xml(&r.ruleset))
        ),
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"24\" font-size=\"15\">{title}</text>\n"
    );
    let x = |b: f64| x0 + b / bins as f64 * (x1 - x0);
    let y = |c: f64| y0 - c / top * (y0 - y1);
    // Axes, ticks and their labels: scores along x, games along y.
    let _ = writeln!(svg, "<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y0}\" stroke=\"black\"/>");
    let _ = writeln!(svg, "<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x0}\" y2=\"{y1}\" stroke=\"black\"/>");
    let score_at = |v: f64| (v - lo as f64) / width;
    for t in ticks(lo as f64, hi as f64 + 1.0) {
        let tx = x(score_at(t));
        let _ = writeln!(
            svg,
            "<line x1=\"{tx:.1}\" y1=\"{y0}\" x2=\"{tx:.1}\" y2=\"{}\" stroke=\"black\"/><text x=\"{tx:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            y0 + 5.0,
            y0 + 18.0,
            t as i128
        );
    }
    for t in ticks(0.0, top) {
        let ty = y(t);
        let _ = writeln!(
            svg,
            "<line x1=\"{}\" y1=\"{ty:.1}\" x2=\"{x0}\" y2=\"{ty:.1}\" stroke=\"black\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            x0 - 5.0,
            x0 - 8.0,
            ty + 4.0,
            t as u64
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">final score (from {lo} to {hi})</text>",
        (x0 + x1) / 2.0,
        h - 18.0
    );
    let _ = writeln!(
        svg,
        "<text x=\"18\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 18 {:.1})\">games</text>",
        (y0 + y1) / 2.0,
        (y0 + y1) / 2.0
    );
    // One outline per seat and ruleset, and its legend entry.
    let mut entry = 0;
    for (k, (r, c)) in runs.iter().zip(&counts).enumerate() {
        let dash = if k == 0 { "" } else { " stroke-dasharray=\"6 4\"" };
        for (p, row) in c.iter().enumerate() {
            let mut points = format!("{:.1},{:.1}", x(0.0), y(0.0));
            for (b, n) in row.iter().enumerate() {
                let _ = write!(
                    points,
                    " {:.1},{:.1} {:.1},{:.1}",
                    x(b as f64),
                    y(*n as f64),
                    x(b as f64 + 1.0),
                    y(*n as f64)
                );
            }
            let _ = write!(points, " {:.1},{:.1}", x(bins as f64), y(0.0));
            let colour = colours[p % colours.len()];
            let _ = writeln!(
                svg,
                "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash} points=\"{points}\"/>"
            );
            let ly = top_m + 10.0 + 18.0 * entry as f64;
            let lx = x1 + 20.0;
            // Two rulesets: each entry names its file.
            let file = Path::new(&r.ruleset)
                .file_name()
                .map_or(r.ruleset.clone(), |f| f.to_string_lossy().into_owned());
            let name = if runs.len() > 1 { format!(", {}", xml(&file)) } else { String::new() };
            let _ = writeln!(
                svg,
                "<line x1=\"{lx}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/><text x=\"{}\" y=\"{}\">P{} {}{name}</text>",
                lx + 24.0,
                lx + 30.0,
                ly + 4.0,
                p + 1,
                xml(&r.seats[p])
            );
            entry += 1;
        }
    }
    svg.push_str("</svg>\n");
    use std::io::Write as _;
    file.write_all(svg.as_bytes()).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games the first player lost: a rate of 0.0%, with no sign.
    #[test]
    fn a_first_player_who_never_won_wins_0_percent_not_minus_0() {
        let record = |game: u64, first: usize| Record {
            game,
            seed: game,
            actions: 1,
            first,
            totals: vec![0, 1],
            winners: vec![1 - first],
            rules: vec![0, 1],
        };
        let r = Results {
            ruleset: "two.ruleset".into(),
            ruleset_hash: String::new(),
            players: 2,
            seats: vec!["random".into(), "random".into()],
            seed: 1,
            games: 2,
            rules: vec!["points".into()],
            records: vec![record(0, 0), record(1, 1)],
        };
        assert!(first_player_wins(&r).is_sign_positive());
        let text = table(&r);
        assert!(text.contains("first player wins 0.0% (95% CI 0.0% - "), "{text}");
        assert!(!text.contains("-0.0"), "{text}");
    }
}
