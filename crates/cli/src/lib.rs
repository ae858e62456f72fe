//! The `chronoscope` command line as a library: every command's work, the
//! argument definitions, and `run`, which the binary calls. All file and
//! terminal IO of the project lives in this crate; the library crates below
//! it (model, ruleset, engine, bots) do none.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Print to stdout. Output that cannot be written ends the program (see
/// `output_error`), never silently and never with a panic.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        if let Err(e) = write!(stdout, $($arg)*).and_then(|_| stdout.flush()) {
            $crate::output_error(e);
        }
    }};
}

/// Print to stderr. `eprint!` panics when stderr cannot be written; this
/// notes the failure instead, and the exit code reports it.
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stderr = std::io::stderr().lock();
        if write!(stderr, $($arg)*).and_then(|_| stderr.flush()).is_err() {
            $crate::OUTPUT_FAILED.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }};
}

macro_rules! errln {
    () => { err!("\n") };
    ($($arg:tt)*) => {{ err!($($arg)*); err!("\n"); }};
}

/// `s` after a count other than one: `1 error`, `2 errors`.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Read a text file of at most `max` bytes (a save, a simulation's
/// results): larger is an error said before the memory is spent, and a
/// device that never ends (`/dev/zero`) is read only that far.
pub(crate) fn read_text(path: &std::path::Path, max: u64, what: &str) -> Result<String, String> {
    use std::io::Read as _;
    let shown = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {what} `{shown}`: {e}"))?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {what} `{shown}`: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!("{what} `{shown}` is larger than {} MiB, the most it may be", max >> 20));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!("{what} `{shown}` is not UTF-8 text (byte {} is not)", e.utf8_error().valid_up_to())
    })
}

/// Set when something could not be written to stderr.
#[doc(hidden)]
pub static OUTPUT_FAILED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether some output could not be written: the binary then exits with a
/// failure even if the command itself succeeded.
pub fn output_failed() -> bool {
    OUTPUT_FAILED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Standard output could not be written. A reader that went away
/// (`chronoscope ... | head`) ends the program quietly with the status a
/// closed pipe gives (141, as 128 + SIGPIPE); any other failure (a full
/// disk, /dev/full) is said on stderr and ends it with status 1. Either way
/// the program does not claim success for output nobody got.
#[doc(hidden)]
pub fn output_error(e: std::io::Error) -> ! {
    use std::io::Write as _;
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    let _ = writeln!(std::io::stderr(), "error: cannot write the output: {e}");
    std::process::exit(1);
}

macro_rules! outln {
    () => { out!("\n") };
    ($($arg:tt)*) => {{ out!($($arg)*); out!("\n"); }};
}

/// The engine this command was built with: a worker's generated rules
/// (`compiled`) name it through here when built against this very build.
pub use engine;

pub mod check;
pub mod compiled;
pub mod diff;
pub mod explain;
pub mod lsp;
pub mod play;
pub mod render;
pub mod replay;
pub mod show;
pub mod simulate;
pub mod words;

#[derive(Parser)]
#[command(name = "chronoscope", version, about = "Play, check and study board games written as rulesets")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Format {
    /// Reports for people, with source snippets.
    Human,
    /// One JSON object per file, for editors and scripts.
    Json,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check ruleset files and report every problem at once.
    Check {
        /// Ruleset files (`.ruleset`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
    },
    /// Play a game: humans at this terminal, bots in the other seats.
    Play {
        /// The ruleset (`.ruleset`) to play.
        file: PathBuf,
        /// How many play (default: as many as --seats names, at least the minimum).
        #[arg(long)]
        players: Option<u32>,
        /// Who sits where, comma-separated: `human`, `random`, `greedy`, `mcts` (`mcts:2000`
        /// iterations a move, `mcts:500ms` time a move). Seats not named are random bots.
        #[arg(long)]
        seats: Option<String>,
        /// The seed for all chance; the same seed and actions replay the same game.
        #[arg(long)]
        seed: Option<u64>,
        /// Take actions from this file (one per line, the typed notation) before asking anyone.
        #[arg(long)]
        script: Option<PathBuf>,
        /// Keep the game here after every action: a script with the seed, players, seats, a hash of
        /// the ruleset and the actions, replaced whole each time (`--script` replays it).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Write a JSON-lines event log here (see docs/log-format.md).
        #[arg(long)]
        log: Option<PathBuf>,
        /// Print only the final score.
        #[arg(long)]
        quiet: bool,
        /// Play in lines (prompt and text) even on a terminal; the default when input or output
        /// is not a terminal.
        #[arg(long)]
        plain: bool,
        /// The rules the game runs on, as `simulate --engine` (the bots think faster compiled), but
        /// `auto` builds nothing here: compiled when already built, else interpreted.
        #[arg(long, value_enum, default_value = "auto")]
        engine: compiled::Engine,
    },
    /// The rules behind one action of a saved game or a log (or behind its score), with file:line
    /// and the values they read.
    Explain {
        /// The ruleset the game was played with.
        file: PathBuf,
        /// A save (`play --save`) or a log (`play --log`).
        game: PathBuf,
        /// The action to explain, from 1.
        #[arg(long)]
        action: Option<usize>,
        /// Explain the score after the last action instead (the default without --action).
        #[arg(long)]
        score: bool,
    },
    /// A language server for `.ruleset` files on stdin and stdout, for editors (editors/README.md).
    Lsp,
    /// The table after action N of a saved game or a log, as a seat or an onlooker sees it.
    Replay {
        /// The ruleset the game was played with.
        file: PathBuf,
        /// The game: a save (`play --save`) or a log (`play --log`).
        game: PathBuf,
        /// After this many actions (default: all of them; 0: the table after setup).
        #[arg(long)]
        to: Option<usize>,
        /// As this seat sees it (`P2`); without it, as an onlooker, who sees what lies open.
        #[arg(long = "as")]
        seat: Option<String>,
    },
    /// Compare two rulesets after resolution: what was added, removed, changed.
    Diff {
        a: PathBuf,
        b: PathBuf,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
    },
    /// Play many games with bots and report win rates, scores and game length.
    Simulate(SimulateCmd),
    /// Summarise a ruleset: components, board, tables, setup and provisional data.
    Show {
        file: PathBuf,
        /// Show the setup for this many players.
        #[arg(long)]
        players: Option<u32>,
        /// List only the items marked provisional.
        #[arg(long)]
        provisional: bool,
    },
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SimulateCmd {
    #[command(subcommand)]
    merge: Option<SimulateSub>,
    /// The ruleset to simulate.
    file: Option<PathBuf>,
    /// How many games (the whole run, when sharded).
    #[arg(long, default_value_t = 100)]
    games: u64,
    #[arg(long)]
    players: Option<u32>,
    /// Bots by seat, comma-separated: `random`, `greedy`, `mcts` (`mcts:2000`, `mcts:500ms`);
    /// unnamed seats are random.
    #[arg(long)]
    seats: Option<String>,
    /// Game i uses seed SEED + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    jobs: Option<usize>,
    #[arg(long, value_enum, default_value = "table")]
    format: simulate::SimFormat,
    /// Write an SVG histogram of final scores per seat.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Run only the K-th of N equal slices of the games (for batch schedulers); combine with `simulate merge`.
    #[arg(long)]
    shard: Option<String>,
    /// Run this ruleset on the same seeds too, and report the differences.
    #[arg(long)]
    compare: Option<PathBuf>,
    /// `compiled`: the rules compiled to native code (built once per ruleset with cargo and kept
    /// in a cache; the same games, faster; the interpreter plays when they cannot be built).
    /// `auto`: compiled when already built; else the first game, timed, decides: compiled (built
    /// now) when the rest would take the interpreter longer than about three builds (set the
    /// seconds with CHRONOSCOPE_BUILD_AFTER; never with a seat that thinks for a time, whose games
    /// take as long), else interpreted. `interpreted`: never compiled.
    #[arg(long, value_enum, default_value = "auto")]
    engine: compiled::Engine,
}

#[derive(Subcommand)]
pub enum SimulateSub {
    /// Combine `simulate --format json` results of shards exactly.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "table")]
        format: simulate::SimFormat,
    },
}

/// The whole command: parse the command line, run it, and fail if output
/// could not be written (a closed pipe).
pub fn main_entry() -> ExitCode {
    use clap::Parser;
    let code = run(Cli::parse());
    if output_failed() {
        ExitCode::FAILURE
    } else {
        code
    }
}

/// Run a parsed command line; the exit code is the command's.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Check { files, format } => check::run(&files, format),
        Command::Show { file, players, provisional } => show::run(&file, players, provisional),
        Command::Simulate(cmd) => match (cmd.merge, cmd.file) {
            (Some(SimulateSub::Merge { files, format }), _) => simulate::merge(&files, format),
            (None, Some(file)) => simulate::run(simulate::SimArgs {
                file,
                games: cmd.games,
                players: cmd.players,
                seats: cmd.seats,
                seed: cmd.seed,
                jobs: cmd.jobs,
                format: cmd.format,
                plot: cmd.plot,
                shard: cmd.shard,
                compare: cmd.compare,
                engine: cmd.engine,
            }),
            (None, None) => {
                errln!("error: give a ruleset to simulate, or `simulate merge FILES...`");
                ExitCode::from(2)
            }
        },
        Command::Lsp => lsp::run(),
        Command::Explain { file, game, action, score } => {
            explain::run(explain::ExplainArgs { file, game, action, score })
        }
        Command::Diff { a, b, format } => diff::run(&a, &b, format == Format::Json),
        Command::Replay { file, game, to, seat } => replay::run(replay::ReplayArgs { file, game, to, seat }),
        Command::Play { file, players, seats, seed, script, save, log, quiet, plain, engine } => {
            play::run(play::PlayArgs { file, players, seats, seed, script, save, log, quiet, plain }, engine)
        }
    }
}
