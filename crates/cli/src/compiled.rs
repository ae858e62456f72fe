//! The compiled backend from the command line (`--engine` of `simulate`
//! and `play`).
//!
//! Compiled rules run inside a process that was built with them: a
//! *worker*, the chronoscope command itself plus one ruleset's generated
//! code (`chronoscope-compile`). The first run for a ruleset generates the
//! code, has cargo build the worker against chronoscope's own source (the
//! tree this program was built from), and keeps it in a cache keyed by the
//! rules' fingerprint and this program's build; later runs start the
//! cached worker at once. The worker runs the same command line, and
//! `simulate` or `play` there plays on the compiled rules (bots included).
//! `--engine auto`, the default, uses a worker already in the cache; a
//! `simulate` run whose first game shows it would take longer on the
//! interpreter than a build saves (`build_pays`) builds one too.
//!
//! Anything missing (no cargo, no source tree, a failed build) is said in
//! one line and the interpreter plays instead: the results are the same,
//! only slower.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::OnceLock;

use engine::native::Natives;
use engine::Program;
use model::Ruleset;

/// Which engine plays (`--engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// The compiled rules when this ruleset's worker is already in the
    /// cache, else the interpreter; `simulate` builds the worker first
    /// when the run would take the interpreter long enough.
    Auto,
    /// The interpreter, the reference semantics.
    Interpreted,
    /// The compiled rules, built now if the cache lacks them.
    Compiled,
}

/// The program `engine` asks for, in this process; `Err` with the exit
/// code when the command ran in this ruleset's worker instead. Whatever
/// keeps the compiled rules from playing is said in one line and the
/// interpreter plays: the same games, only slower.
pub fn program_for(program: Program, engine: Engine) -> Result<Program, ExitCode> {
    if engine == Engine::Interpreted {
        return Ok(program);
    }
    // This process is the worker built for these rules.
    if let Some(natives) = natives() {
        return match Program::with_natives(program.rules().clone(), natives) {
            Ok(compiled) => Ok(compiled),
            Err(e) => {
                errln!("note: {e}; the interpreter plays instead");
                Ok(program)
            }
        };
    }
    let worker = match engine {
        Engine::Compiled => worker_for(program.rules()).map(Some),
        _ => Ok(cached_worker(program.rules())),
    };
    match worker.and_then(|w| w.map(|w| run_worker(&w)).transpose()) {
        Ok(Some(code)) => Err(code),
        Ok(None) => Ok(program),
        Err(e) => {
            errln!("note: {e}; the interpreter plays instead");
            Ok(program)
        }
    }
}

/// Build the worker for `rules` (or take it from the cache) and run this
/// command line in it: the worker's exit code, or why it could not run.
pub fn build_and_run(rules: &Ruleset) -> Result<ExitCode, String> {
    run_worker(&worker_for(rules)?)
}

/// Environment variable: from how many seconds of interpreted play
/// (estimated from a run's first game) `--engine auto` builds the
/// compiled rules first. `0` builds for any run that has a game left to
/// gain from it.
pub const BUILD_AFTER_VAR: &str = "CHRONOSCOPE_BUILD_AFTER";

/// From how long an interpreted run `auto` builds the worker: when the
/// cache has no build of chronoscope's dependencies yet (a cold build,
/// 49 s for Thebes on the 2-core development machine) and when it has
/// (4.6 s for one more ruleset, 11.6-13.2 s when chronoscope itself
/// changed since). About three times the build, so that a run the
/// compiled rules play only twice as fast (the least of the bundled
/// games, Archaeology) still gains more than the build costs.
const BUILD_AFTER_COLD: f64 = 150.0;
const BUILD_AFTER_WARM: f64 = 30.0;

/// Whether building the compiled rules pays for a run estimated at
/// `estimate` seconds on the interpreter: `BUILD_AFTER_VAR` when set,
/// else as `BUILD_AFTER_COLD` or `BUILD_AFTER_WARM` says. An unreadable
/// setting is an error, so that a typo is not silently the default.
pub fn build_pays(estimate: f64) -> Result<bool, String> {
    let after = match std::env::var(BUILD_AFTER_VAR) {
        Ok(text) => match text.trim().parse::<f64>() {
            Ok(secs) if secs >= 0.0 && !secs.is_nan() => secs,
            _ => return Err(format!("{BUILD_AFTER_VAR} is `{text}`, not a number of seconds (0 or more)")),
        },
        Err(std::env::VarError::NotUnicode(_)) => {
            return Err(format!("{BUILD_AFTER_VAR} is not a number of seconds"))
        }
        Err(std::env::VarError::NotPresent) => {
            let warm = cache_dir().is_ok_and(|c| c.join("target").join("release").is_dir());
            if warm {
                BUILD_AFTER_WARM
            } else {
                BUILD_AFTER_COLD
            }
        }
    };
    Ok(estimate >= after)
}

/// The cargo that builds workers: `$CARGO` when set, else `cargo` on
/// the path.
fn cargo_program() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// Whether that cargo runs here, which building compiled rules needs.
pub fn toolchain_found() -> bool {
    runs(&cargo_program())
}

/// Whether `cargo --version` runs and succeeds with this cargo.
fn runs(cargo: &std::ffi::OsStr) -> bool {
    Command::new(cargo)
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The compiled rules this process was built with (a worker), if any.
static NATIVES: OnceLock<&'static Natives> = OnceLock::new();

/// The compiled rules of this process, when it is a worker.
pub fn natives() -> Option<&'static Natives> {
    NATIVES.get().copied()
}

/// The entry point of a worker: the command line, with these compiled rules.
pub fn run_with_natives(natives: &'static Natives) -> ExitCode {
    let _ = NATIVES.set(natives);
    crate::main_entry()
}

/// Environment variable naming the cache folder (default: the user's
/// cache folder, `chronoscope` in it).
pub const CACHE_VAR: &str = "CHRONOSCOPE_CACHE";

/// Where workers are kept.
fn cache_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(CACHE_VAR).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir).join("chronoscope"));
    }
    match std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache").join("chronoscope")),
        None => Err(format!("no cache folder: set {CACHE_VAR}")),
    }
}

/// chronoscope's source tree, which workers are built from.
fn source_root() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..");
    if root.join("crates").join("engine").join("Cargo.toml").is_file() {
        Ok(root.canonicalize().unwrap_or(root))
    } else {
        Err(format!("chronoscope's source is no longer at {}", root.display()))
    }
}

/// What identifies this program's build: a worker is built from the same
/// source, so a rebuilt program builds new workers.
fn build_id() -> u64 {
    let exe = std::env::current_exe().ok().and_then(|p| std::fs::metadata(p).ok());
    let stamp = exe.map(|m| {
        let modified = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
        format!("{}:{:?}", m.len(), modified)
    });
    engine::native::fnv1a(format!("{}:{}", env!("CARGO_PKG_VERSION"), stamp.unwrap_or_default()).as_bytes())
}

/// The worker's optimisation, part by part: what runs once per command
/// (reading the rules, the command line, the screen and its reports) is
/// built with less, so that the first build, which compiles all of
/// chronoscope's dependencies, takes less time. The engine, the bots and
/// the generated rules keep full optimisation: the games run there.
/// Measured on Thebes, 2-core development machine:
/// - the command at `opt-level = 1`, the command line's and the screen's
///   crates at 0: 58.5 s against 66.7 s, for 11 M more instructions
///   (about 3 ms) reading the rules at each start;
/// - then the rules' reader at 0 too, with what the diagnostics pull in
///   (backtraces and their symbol readers, text wrapping and the Unicode
///   data it reads): 64.9 s -> 54.3 s building the worker alone, 58.0 ->
///   49.2 s through `simulate` (two cold builds each, one after the
///   other), a worker's start 6.9 -> 11.4 ms (the mean of 20), the
///   largest bundled rules (Akrotiri) read in 19 ms against 12; 20,000
///   games 1.864 s against 1.866 s.
const WORKER_OPT_LEVELS: &[(&str, u8)] = &[
    ("chronoscope-ruleset", 0),
    ("chronoscope-cli", 1),
    ("clap_builder", 0),
    ("ratatui", 0),
    ("crossterm", 0),
    ("miette", 0),
    ("backtrace", 0),
    ("backtrace-ext", 0),
    ("addr2line", 0),
    ("gimli", 0),
    ("object", 0),
    ("textwrap", 0),
    ("icu_segmenter", 0),
    ("icu_locale_core", 0),
    ("icu_locale_fallback", 0),
    ("icu_provider", 0),
    ("zerotrie", 0),
    ("zerovec", 0),
];

/// `WORKER_OPT_LEVELS` as the worker's `Cargo.toml` states them.
fn worker_opt_levels() -> String {
    WORKER_OPT_LEVELS
        .iter()
        .map(|(package, level)| format!("[profile.release.package.{package}]\nopt-level = {level}\n"))
        .collect()
}

/// A path as a TOML string.
fn toml_path(p: &Path) -> String {
    format!("\"{}\"", p.display().to_string().replace('\\', "\\\\").replace('"', "\\\""))
}

/// Run this command line in `worker`: its exit code, or why it cannot
/// run.
fn run_worker(worker: &Path) -> Result<ExitCode, String> {
    let status = Command::new(worker)
        .args(std::env::args_os().skip(1))
        .status()
        .map_err(|e| format!("cannot start the compiled rules ({}): {e}", worker.display()))?;
    Ok(match status.code() {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}

/// Where the worker for `rules` lies in the cache: the cache, the
/// worker's name, its folder and its program.
fn worker_place(rules: &Ruleset) -> Result<(PathBuf, String, PathBuf, PathBuf), String> {
    let fingerprint = engine::native::fingerprint(rules);
    let cache = cache_dir()?;
    let name = format!("chronoscope-rules-{fingerprint:016x}-{:016x}", build_id());
    let dir = cache.join("rules").join(&name);
    let exe = dir.join(format!("chronoscope-compiled{}", std::env::consts::EXE_SUFFIX));
    Ok((cache, name, dir, exe))
}

/// The worker for `rules` if the cache has it.
pub fn cached_worker(rules: &Ruleset) -> Option<PathBuf> {
    worker_place(rules).ok().map(|(.., exe)| exe).filter(|exe| exe.is_file())
}

/// The worker for `rules`: from the cache, or built now.
pub fn worker_for(rules: &Ruleset) -> Result<PathBuf, String> {
    let (cache, name, dir, exe) = worker_place(rules)?;
    if exe.is_file() {
        return Ok(exe);
    }
    let root = source_root()?;
    let write = |path: PathBuf, text: &str| {
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    std::fs::create_dir_all(dir.join("src")).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let crate_path = |c: &str| toml_path(&root.join("crates").join(c));
    write(
        dir.join("Cargo.toml"),
        &format!(
            "# A chronoscope worker: the command with one ruleset's compiled rules (see chronoscope_cli::compiled).\n\
             [package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nchronoscope-cli = {{ path = {} }}\nchronoscope-engine = {{ path = {} }}\n\n\
             [profile.release]\ndebug = 0\npanic = \"abort\"\n\n{}\n[workspace]\n",
            crate_path("cli"),
            crate_path("engine"),
            worker_opt_levels(),
        ),
    )?;
    write(
        dir.join("src").join("main.rs"),
        "#[allow(unused, clippy::all, unreachable_code)]\nmod rules {\n    include!(\"rules.rs\");\n}\n\n\
         fn main() -> std::process::ExitCode {\n    chronoscope_cli::compiled::run_with_natives(&rules::NATIVES)\n}\n",
    )?;
    write(dir.join("src").join("rules.rs"), &compile::generate(rules))?;
    // The versions chronoscope itself was built with, so the build needs
    // no registry when they are already downloaded.
    if let Ok(lock) = std::fs::read_to_string(root.join("Cargo.lock")) {
        write(dir.join("Cargo.lock"), &lock)?;
    }
    errln!(
        "compiling the rules of {} to native code (once for these rules; it takes about a minute the first time)",
        rules.game.title
    );
    let started = std::time::Instant::now();
    let cargo = cargo_program();
    let target = cache.join("target");
    let build = |offline: bool| {
        let mut cmd = Command::new(&cargo);
        cmd.arg("build").arg("--release").arg("--quiet").arg("--manifest-path").arg(dir.join("Cargo.toml"));
        if offline {
            cmd.arg("--offline");
        }
        cmd.env("CARGO_TARGET_DIR", &target).stdout(std::process::Stdio::null());
        cmd.output()
    };
    let output = match build(true) {
        Ok(out) if out.status.success() => out,
        Ok(_) => build(false).map_err(|e| format!("cannot run cargo: {e}"))?,
        Err(e) => return Err(format!("cannot run cargo ({}): {e}", Path::new(&cargo).display())),
    };
    if !output.status.success() {
        let text = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = text.lines().rev().take(12).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!("building the compiled rules failed:\n{}", tail.join("\n")));
    }
    let built = target.join("release").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    // Copied under a temporary name, then renamed: a worker in the cache is
    // always whole, even with two builds at once.
    let partial = dir.join(format!("partial-{}", std::process::id()));
    std::fs::copy(&built, &partial).map_err(|e| format!("cannot copy {}: {e}", built.display()))?;
    std::fs::rename(&partial, &exe).map_err(|e| format!("cannot place {}: {e}", exe.display()))?;
    errln!("compiled in {:.1} s; kept in {}", started.elapsed().as_secs_f64(), dir.display());
    Ok(exe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toolchain_is_found_where_cargo_runs_and_not_where_it_is_missing() {
        // The cargo building these tests runs; a path with nothing there does not.
        assert!(runs(std::ffi::OsStr::new(env!("CARGO"))));
        let missing = std::env::temp_dir().join("chronoscope-no-such-cargo").join("cargo");
        assert!(!runs(missing.as_os_str()));
    }
}
