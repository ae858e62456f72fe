//! The compiled backend from the command line (`--engine` of `simulate`
//! and `play`).
//!
//! Compiled rules run inside a process that was built with them: a
//! *worker*, the chronoscope command itself plus one ruleset's generated
//! code (`chronoscope-compile`). The first run for a ruleset generates the
//! code and builds the worker, and keeps it in a cache keyed by the rules'
//! fingerprint and this program's build; later runs start the cached
//! worker at once. The worker runs the same command line, and `simulate`
//! or `play` there plays on the compiled rules (bots included).
//! `--engine auto`, the default, uses a worker already in the cache; a
//! `simulate` run whose first game shows it would take longer on the
//! interpreter than a build saves (`build_pays`) builds one too.
//!
//! A worker is built one of two ways:
//! - **linked against this build** (`own_build`, `link_against`): where
//!   this program lies in the target folder cargo built it in (`cargo run`,
//!   `cargo build`), rustc compiles only the generated rules, against the
//!   command's library beside it: a few seconds (3.9 s for Thebes on the
//!   2-core development machine);
//! - **by cargo from the source tree** (`build_with_cargo`), for a program
//!   copied elsewhere (`cargo install`) or when rustc fails (another
//!   toolchain's): chronoscope and its dependencies are built too, once
//!   for every ruleset, about a minute the first time.
//!
//! Anything missing (no toolchain, no source tree, a failed build) is said
//! in one line and the interpreter plays instead: the results are the
//! same, only slower.

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
    programs_for(program, None, engine).map(|(program, _)| program)
}

/// `program_for` for a run and the ruleset it is compared with
/// (`simulate --compare`): one worker holds the compiled rules of both.
pub fn programs_for(
    program: Program,
    compared: Option<Program>,
    engine: Engine,
) -> Result<(Program, Option<Program>), ExitCode> {
    if engine == Engine::Interpreted {
        return Ok((program, compared));
    }
    // This process is the worker built for these rules.
    if let Some(all) = NATIVES.get() {
        return Ok((compiled_here(program, all), compared.map(|c| compiled_here(c, all))));
    }
    let rules = played(&program, compared.as_ref());
    let worker = match engine {
        Engine::Compiled => worker_for(&rules).map(Some),
        _ => Ok(cached_worker(&rules)),
    };
    match worker.and_then(|w| w.map(|w| run_worker(&w)).transpose()) {
        Ok(Some(code)) => Err(code),
        Ok(None) => Ok((program, compared)),
        Err(e) => {
            errln!("note: {e}; the interpreter plays instead");
            Ok((program, compared))
        }
    }
}

/// `program` on this worker's compiled rules made from it; the
/// interpreter's, after a note, when it has none.
fn compiled_here(program: Program, all: &[&'static Natives]) -> Program {
    let fingerprint = engine::native::fingerprint(program.rules());
    // Without a match, the first: `with_natives` says how they differ.
    let Some(natives) = all.iter().find(|n| n.fingerprint == fingerprint).or(all.first()) else {
        return program;
    };
    match Program::with_natives(program.rules().clone(), natives) {
        Ok(compiled) => compiled,
        Err(e) => {
            errln!("note: {e}; the interpreter plays instead");
            program
        }
    }
}

/// The rules of a run and of the one it is compared with, which a worker
/// holds.
fn played<'p>(program: &'p Program, compared: Option<&'p Program>) -> Vec<&'p Ruleset> {
    std::iter::once(program.rules()).chain(compared.map(|c| c.rules())).collect()
}

/// Build the worker for `program` and the one it is compared with (or
/// take it from the cache) and run this command line in it: the worker's
/// exit code, or why it could not run.
pub fn build_and_run(program: &Program, compared: Option<&Program>) -> Result<ExitCode, String> {
    run_worker(&worker_for(&played(program, compared))?)
}

/// Environment variable: from how many seconds of interpreted play
/// (estimated from a run's first game) `--engine auto` builds the
/// compiled rules first. `0` builds for any run that has a game left to
/// gain from it.
pub const BUILD_AFTER_VAR: &str = "CHRONOSCOPE_BUILD_AFTER";

/// From how long an interpreted run `auto` builds the worker, by how long
/// a build takes here (`build_time`; the 2-core development machine):
/// - linked against this command's own build: 1.9 to 7.6 s for the
///   bundled games (Thebes 3.9 s);
/// - with cargo once the cache has its build of chronoscope's
///   dependencies: 4.6 s for one more ruleset, 11.2-13.2 s when
///   chronoscope itself changed since;
/// - with cargo and no such build yet (cold): 49 s for Thebes.
///
/// About three times the build, so that a run the compiled rules play
/// only twice as fast (the least of the bundled games, Archaeology) still
/// gains more than the build costs.
const BUILD_AFTER_LINKED: f64 = 15.0;
const BUILD_AFTER_WARM: f64 = 30.0;
const BUILD_AFTER_COLD: f64 = 150.0;

/// Whether building the compiled rules pays for a run estimated at
/// `estimate` seconds on the interpreter: `BUILD_AFTER_VAR` when set,
/// else as the `BUILD_AFTER_*` for this build time say. An unreadable
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
        // How long a build takes, asked only where the answer matters:
        // finding this command's own build reads a folder.
        Err(std::env::VarError::NotPresent) if (BUILD_AFTER_LINKED..BUILD_AFTER_COLD).contains(&estimate) => {
            match build_time() {
                BuildTime::Linked => BUILD_AFTER_LINKED,
                BuildTime::Warm => BUILD_AFTER_WARM,
                BuildTime::Cold => BUILD_AFTER_COLD,
            }
        }
        Err(std::env::VarError::NotPresent) => BUILD_AFTER_COLD,
    };
    Ok(estimate >= after)
}

/// How a worker would be built here, which says how long it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildTime {
    /// Linked against this command's own build: seconds.
    Linked,
    /// By cargo, with chronoscope's dependencies already built in the
    /// cache: seconds.
    Warm,
    /// By cargo, dependencies and all: about a minute.
    Cold,
}

/// How a worker would be built here (see `worker_for`).
pub fn build_time() -> BuildTime {
    if own_build().is_some() {
        BuildTime::Linked
    } else if cache_dir().is_ok_and(|c| c.join("target").join("release").is_dir()) {
        BuildTime::Warm
    } else {
        BuildTime::Cold
    }
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

/// The compiled rules this process was built with (a worker), if any: a
/// ruleset's, or a run's and the one it is compared with.
static NATIVES: OnceLock<&'static [&'static Natives]> = OnceLock::new();

/// Whether this process is a worker.
pub fn in_worker() -> bool {
    NATIVES.get().is_some()
}

/// The entry point of a worker: the command line, with these compiled rules.
pub fn run_with_natives(natives: &'static [&'static Natives]) -> ExitCode {
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

/// How many workers the cache keeps: those used last. A ruleset's author
/// builds one at each change of the rules they simulate, a rebuilt
/// chronoscope one for each ruleset again; the others are removed as a new
/// one is built (6 MB each, linked against the command's build).
const KEPT_WORKERS: usize = 32;

/// Run this command line in `worker`: its exit code, or why it cannot
/// run. Its time is set to now: the cache keeps the workers used last.
fn run_worker(worker: &Path) -> Result<ExitCode, String> {
    // Not when another process runs it (the file is busy): it was just used.
    if let Ok(file) = std::fs::File::options().write(true).open(worker) {
        let _ = file.set_modified(std::time::SystemTime::now());
    }
    let status = Command::new(worker)
        .args(std::env::args_os().skip(1))
        .status()
        .map_err(|e| format!("cannot start the compiled rules ({}): {e}", worker.display()))?;
    Ok(match status.code() {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}

/// The rulesets a worker is built for, with their fingerprints: each
/// once, in order.
fn distinct<'r>(rules: &[&'r Ruleset]) -> Vec<(u64, &'r Ruleset)> {
    let mut out: Vec<(u64, &Ruleset)> = Vec::new();
    for r in rules {
        let fingerprint = engine::native::fingerprint(r);
        if out.iter().all(|(f, _)| *f != fingerprint) {
            out.push((fingerprint, r));
        }
    }
    out
}

/// Where the worker for `rules` lies in the cache: the cache, the
/// worker's name, its folder and its program.
fn worker_place(rules: &[(u64, &Ruleset)]) -> Result<(PathBuf, String, PathBuf, PathBuf), String> {
    let cache = cache_dir()?;
    let fingerprints: String = rules.iter().map(|(f, _)| format!("{f:016x}-")).collect();
    let name = format!("chronoscope-rules-{fingerprints}{:016x}", build_id());
    let dir = cache.join("rules").join(&name);
    let exe = worker_program(&dir);
    Ok((cache, name, dir, exe))
}

/// The program of the worker kept in `dir`.
fn worker_program(dir: &Path) -> PathBuf {
    dir.join(format!("chronoscope-compiled{}", std::env::consts::EXE_SUFFIX))
}

/// The worker for `rules` if the cache has it.
pub fn cached_worker(rules: &[&Ruleset]) -> Option<PathBuf> {
    worker_place(&distinct(rules)).ok().map(|(.., exe)| exe).filter(|exe| exe.is_file())
}

/// The worker's program: each ruleset's generated rules (`rules0.rs`,
/// `rules1.rs` beside it) in a module, which names the engine through the
/// command's library, and the command's entry point with all of them.
fn worker_main(rulesets: usize) -> String {
    let mut main = String::new();
    for i in 0..rulesets {
        main += &format!(
            "#[allow(unused, clippy::all, unreachable_code)]\nmod rules{i} {{\n    use chronoscope_cli::engine;\n    \
             include!(\"rules{i}.rs\");\n}}\n\n"
        );
    }
    let all: Vec<String> = (0..rulesets).map(|i| format!("&rules{i}::NATIVES")).collect();
    main += &format!(
        "static ALL: [&chronoscope_cli::engine::native::Natives; {rulesets}] = [{}];\n\n\
         fn main() -> std::process::ExitCode {{\n    chronoscope_cli::compiled::run_with_natives(&ALL)\n}}\n",
        all.join(", ")
    );
    main
}

/// The worker for `rules` (a ruleset, or one and the one it is compared
/// with): from the cache, or built now.
pub fn worker_for(rules: &[&Ruleset]) -> Result<PathBuf, String> {
    let rules = distinct(rules);
    let (cache, name, dir, exe) = worker_place(&rules)?;
    if exe.is_file() {
        return Ok(exe);
    }
    let write = |path: PathBuf, text: &str| {
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    std::fs::create_dir_all(dir.join("src")).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    write(dir.join("src").join("main.rs"), &worker_main(rules.len()))?;
    for (i, (_, r)) in rules.iter().enumerate() {
        write(dir.join("src").join(format!("rules{i}.rs")), &compile::generate(r))?;
    }
    // Built under a temporary name, then renamed: a worker in the cache is
    // always whole, even with two builds at once.
    let partial = dir.join(format!("partial-{}{}", std::process::id(), std::env::consts::EXE_SUFFIX));
    let started = std::time::Instant::now();
    let mut titles: Vec<&str> = Vec::new();
    for (_, r) in &rules {
        if !titles.contains(&r.game.title.as_str()) {
            titles.push(&r.game.title);
        }
    }
    let title = titles.join(" and ");
    let linked = match own_build() {
        Some(own) => {
            errln!("compiling the rules of {title} to native code (once for these rules; a few seconds)");
            match link_against(&own, &dir, &partial) {
                Ok(()) => true,
                Err(e) => {
                    errln!("note: {e}; building with cargo instead (about a minute the first time)");
                    false
                }
            }
        }
        None => {
            errln!(
                "compiling the rules of {title} to native code (once for these rules; it takes about a minute the first time)"
            );
            false
        }
    };
    if !linked {
        build_with_cargo(&cache, &name, &dir, &partial, write)?;
    }
    std::fs::rename(&partial, &exe).map_err(|e| format!("cannot place {}: {e}", exe.display()))?;
    errln!("compiled in {:.1} s; kept in {}", started.elapsed().as_secs_f64(), dir.display());
    prune(&cache.join("rules"), KEPT_WORKERS);
    Ok(exe)
}

/// Remove the workers in `rules` (the cache's folder of them) but the
/// `keep` used last (by their program's time, `run_worker`). A folder
/// without a program (a build under way, or one that failed) stays; what
/// cannot be removed (a worker running, on some systems) stays too.
fn prune(rules: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(rules) else { return };
    let mut workers: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(|entry| {
            let dir = entry.ok()?.path();
            let used = std::fs::metadata(worker_program(&dir)).ok()?.modified().ok()?;
            Some((used, dir))
        })
        .collect();
    workers.sort_by_key(|w| std::cmp::Reverse(w.0));
    for (_, dir) in workers.into_iter().skip(keep) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// This command's own build, which a worker is linked against instead of
/// building chronoscope anew: the library of the crate this is
/// (`deps/libchronoscope_cli-HASH.rlib` beside the program, where cargo
/// put it) and the folder of what it was built with.
struct OwnBuild {
    deps: PathBuf,
    library: PathBuf,
}

/// This command's own build, when this program lies where cargo built it
/// (`None` for a program copied elsewhere, `cargo install`, or a target
/// folder cleaned since).
fn own_build() -> Option<OwnBuild> {
    let program = std::env::current_exe().ok()?;
    let linked = std::fs::metadata(&program).ok()?.modified().ok()?;
    // `target/release/chronoscope` is a link to the program cargo built in
    // `target/release/deps`, which may be run as it is too.
    let folder = program.parent()?;
    let deps = if folder.file_name().is_some_and(|n| n == "deps") {
        folder.to_path_buf()
    } else {
        folder.join("deps")
    };
    let library = library_of_build(&deps, linked)?;
    Some(OwnBuild { deps, library })
}

/// Of the command's libraries in `deps`, the one a program linked at
/// `linked` was built from: the newest not newer than the program. Cargo
/// links the program right after building its library; one built since
/// is another build's (`cargo bench` builds one with other features of
/// its dependencies beside it), and one from another toolchain rustc
/// refuses (`link_against`: cargo then builds the worker). What this
/// cannot tell: a library rebuilt after the program without relinking it
/// (`cargo build --lib`) leaves an older one of the command to be taken.
fn library_of_build(deps: &Path, linked: std::time::SystemTime) -> Option<PathBuf> {
    std::fs::read_dir(deps)
        .ok()?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name();
            let name = name.to_str()?;
            if !(name.starts_with("libchronoscope_cli-") && name.ends_with(".rlib")) {
                return None;
            }
            let built = entry.metadata().ok()?.modified().ok()?;
            (built <= linked).then(|| (built, entry.path()))
        })
        .max_by_key(|(built, _)| *built)
        .map(|(_, path)| path)
}

/// The rustc that links workers: `$RUSTC` when set (as cargo reads it),
/// else the one beside `$CARGO` (the toolchain that built this command,
/// when cargo started it), else `rustc` on the path.
fn rustc_program() -> std::ffi::OsString {
    if let Some(rustc) = std::env::var_os("RUSTC") {
        return rustc;
    }
    let beside = std::env::var_os("CARGO")
        .map(PathBuf::from)
        .and_then(|cargo| Some(cargo.parent()?.join(format!("rustc{}", std::env::consts::EXE_SUFFIX))))
        .filter(|rustc| rustc.is_file());
    beside.map(Into::into).unwrap_or_else(|| "rustc".into())
}

/// Compile the worker in `dir` against `own` into `out`: only the
/// generated rules are compiled, everything else is this build's. `Err`
/// says why it failed.
fn link_against(own: &OwnBuild, dir: &Path, out: &Path) -> Result<(), String> {
    let mut dependency = std::ffi::OsString::from("dependency=");
    dependency.push(&own.deps);
    let mut library = std::ffi::OsString::from("chronoscope_cli=");
    library.push(&own.library);
    let rustc = rustc_program();
    let output = Command::new(&rustc)
        .args(["--edition", "2021", "--crate-type", "bin", "--crate-name", "chronoscope_compiled"])
        // The rules at full optimisation, as cargo's release profile builds
        // them; `panic=abort` as this build's library is (release), or may
        // be linked (a debug build's); without the libraries' debug
        // information, as a worker cargo builds: 6 MB in the cache, not 45.
        .args(["-C", "opt-level=3", "-C", "panic=abort", "-C", "strip=debuginfo", "--cap-lints", "allow"])
        .arg("-L")
        .arg(dependency)
        .arg("--extern")
        .arg(library)
        .arg("-o")
        .arg(out)
        .arg(dir.join("src").join("main.rs"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run rustc ({}): {e}", Path::new(&rustc).display()))?;
    if output.status.success() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&output.stderr);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message");
    Err(format!("cannot compile the rules against this build of chronoscope ({first})"))
}

/// Build the worker in `dir`, named `name`, with cargo from chronoscope's
/// source tree, into `out`: chronoscope and its dependencies are built
/// too, once for every ruleset (the cache's `target` folder).
fn build_with_cargo(
    cache: &Path,
    name: &str,
    dir: &Path,
    out: &Path,
    write: impl Fn(PathBuf, &str) -> Result<(), String>,
) -> Result<(), String> {
    let root = source_root()?;
    write(
        dir.join("Cargo.toml"),
        &format!(
            "# A chronoscope worker: the command with one ruleset's compiled rules (see chronoscope_cli::compiled).\n\
             [package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nchronoscope-cli = {{ path = {} }}\n\n\
             [profile.release]\ndebug = 0\npanic = \"abort\"\n\n{}\n[workspace]\n",
            toml_path(&root.join("crates").join("cli")),
            worker_opt_levels(),
        ),
    )?;
    // The versions chronoscope itself was built with, so the build needs
    // no registry when they are already downloaded.
    if let Ok(lock) = std::fs::read_to_string(root.join("Cargo.lock")) {
        write(dir.join("Cargo.lock"), &lock)?;
    }
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
        let tail: Vec<&str> = text.lines().rev().filter(|l| !l.trim().is_empty()).take(12).collect();
        if tail.is_empty() {
            return Err(format!(
                "building the compiled rules failed (cargo {}, without a message)",
                output.status
            ));
        }
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!("building the compiled rules failed:\n{}", tail.join("\n")));
    }
    let built = cache.join("target").join("release").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(&built, out).map_err(|e| format!("cannot copy {}: {e}", built.display()))?;
    Ok(())
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

    #[test]
    fn pruning_keeps_the_workers_used_last_and_folders_without_a_program() {
        let rules = std::env::temp_dir().join(format!("chronoscope-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&rules);
        let t0 = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        let worker = |name: &str, used: Option<u64>| {
            let dir = rules.join(name);
            std::fs::create_dir_all(dir.join("src")).unwrap();
            if let Some(secs) = used {
                let exe = worker_program(&dir);
                std::fs::write(&exe, "program").unwrap();
                let file = std::fs::File::options().write(true).open(&exe).unwrap();
                file.set_modified(t0 + std::time::Duration::from_secs(secs)).unwrap();
            }
            dir
        };
        let (a, b, c, d) =
            (worker("a", Some(40)), worker("b", Some(10)), worker("c", Some(30)), worker("d", Some(20)));
        let building = worker("e", None);
        prune(&rules, 2);
        assert!(a.is_dir() && c.is_dir(), "the two used last stay");
        assert!(!b.exists() && !d.exists(), "the others go");
        assert!(building.is_dir(), "a folder without a program stays");
        prune(&rules.join("missing"), 2);
        let _ = std::fs::remove_dir_all(&rules);
    }

    #[test]
    fn the_library_of_a_build_is_the_newest_not_newer_than_the_program() {
        let deps = std::env::temp_dir().join(format!("chronoscope-deps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&deps);
        std::fs::create_dir_all(&deps).unwrap();
        let t0 = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        let at = |secs: u64| t0 + std::time::Duration::from_secs(secs);
        let lib = |name: &str, built: std::time::SystemTime| {
            let path = deps.join(name);
            std::fs::write(&path, "library").unwrap();
            std::fs::File::options().write(true).open(&path).unwrap().set_modified(built).unwrap();
            path
        };
        let old = lib("libchronoscope_cli-aaaa.rlib", at(10));
        let ours = lib("libchronoscope_cli-bbbb.rlib", at(20));
        // Another build's library, built after the program (a bench build's).
        lib("libchronoscope_cli-cccc.rlib", at(40));
        // Not the command's library, or not a library.
        lib("libengine-eeee.rlib", at(28));
        lib("libchronoscope_cli-ffff.rmeta", at(29));
        assert_eq!(library_of_build(&deps, at(30)), Some(ours));
        assert_eq!(library_of_build(&deps, at(15)), Some(old));
        assert_eq!(library_of_build(&deps, at(5)), None);
        assert_eq!(library_of_build(&deps.join("missing"), at(30)), None);
        let _ = std::fs::remove_dir_all(&deps);
    }
}
