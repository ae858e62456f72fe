//! `--engine compiled` and `auto`: the worker built once (linked against
//! this build, or by cargo from the source), without a toolchain, and when
//! `auto` builds.

use super::*;

/// A command with `--engine compiled`, this cache folder and these extra
/// environment variables.
fn run_compiled(args: &[&str], cache: &Path, env: &[(&str, &str)]) -> Output {
    run_compiled_by(Path::new(env!("CARGO_BIN_EXE_chronoscope")), args, cache, env)
}

/// `run_compiled` with this program.
fn run_compiled_by(program: &Path, args: &[&str], cache: &Path, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(program);
    cmd.args(args).arg("--engine").arg("compiled").current_dir(root()).env("NO_COLOR", "1");
    // Built by cargo, the worker is built unoptimised: half the build time
    // (68 s against 144 s on two cores), the same games.
    cmd.env("CHRONOSCOPE_CACHE", cache).env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

/// A copy of the command outside its target folder, as `cargo install`
/// places one: no build of its own to link a worker against, so cargo
/// builds workers from the source tree. Copied once per folder: the
/// copy's workers in the cache are its own (a new copy is a new build).
fn copied_program(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let copy = dir.join(format!("chronoscope{}", std::env::consts::EXE_SUFFIX));
    if !copy.is_file() {
        std::fs::copy(env!("CARGO_BIN_EXE_chronoscope"), &copy).unwrap();
    }
    copy
}

fn fresh_cache(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chronoscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The first compiled run builds a worker, linked against this very build
/// (its library beside the program): only the generated rules are
/// compiled. The second starts it from the cache, and so does `play`; all
/// give exactly the results of the interpreter, bots' choices included.
#[test]
fn compiled_links_a_worker_against_this_build_once_and_simulate_and_play_give_the_interpreters_games() {
    let cache = fresh_cache("compiled");
    let args = [
        "simulate",
        THEBES,
        "--games",
        "4",
        "--players",
        "3",
        "--seats",
        "greedy,mcts:10",
        "--format",
        "json",
    ];
    let interpreted = run(&args);
    assert!(interpreted.status.success(), "{}", stderr(&interpreted));
    let first = run_compiled(&args, &cache, &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stderr(&first).contains("compiling the rules of Thebes"), "{}", stderr(&first));
    assert!(stderr(&first).contains("a few seconds"), "linked against this build: {}", stderr(&first));
    assert!(!stderr(&first).contains("cargo"), "{}", stderr(&first));
    assert!(!stderr(&first).contains("interpreter plays instead"), "{}", stderr(&first));
    assert!(!cache.join("target").exists(), "nothing built with cargo");
    assert_eq!(stdout(&first), stdout(&interpreted));
    let second = run_compiled(&args, &cache, &[]);
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(!stderr(&second).contains("compiling"), "the cached worker is used: {}", stderr(&second));
    assert_eq!(stdout(&second), stdout(&interpreted));
    // `play` runs in the same worker: the same game, bots' choices included.
    let play = ["play", THEBES, "--players", "3", "--seats", "greedy,mcts:10", "--seed", "7", "--quiet"];
    let played = run_compiled(&play, &cache, &[]);
    assert!(played.status.success(), "{}", stderr(&played));
    assert!(!stderr(&played).contains("compiling"), "{}", stderr(&played));
    assert_eq!(stdout(&played), stdout(&run(&play)));
    let _ = std::fs::remove_dir_all(&cache);
}

/// A program copied out of its target folder (`cargo install`) has no
/// build of its own to link against: cargo builds the worker from the
/// source tree, dependencies and all (about a minute on two cores,
/// unoptimised). The same games as the interpreter.
#[test]
fn a_copied_program_builds_its_worker_with_cargo_and_simulate_gives_the_interpreters_games() {
    let dir = fresh_cache("compiled-cargo");
    let (program, cache) = (copied_program(&dir.join("bin")), dir.join("workers"));
    let args = ["simulate", THEBES, "--games", "4", "--players", "3", "--format", "json"];
    let built = run_compiled_by(&program, &args, &cache, &[]);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(stderr(&built).contains("about a minute the first time"), "{}", stderr(&built));
    assert!(!stderr(&built).contains("interpreter plays instead"), "{}", stderr(&built));
    assert!(cache.join("target").join("release").is_dir(), "cargo built it");
    assert_eq!(stdout(&built), stdout(&run(&args)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without a toolchain (no rustc, no cargo) the compiled rules cannot be
/// built: one line says so and the interpreter plays the same games.
#[test]
fn simulate_compiled_without_a_toolchain_says_so_and_the_interpreter_plays() {
    let cache = fresh_cache("no-cargo");
    let args = ["simulate", GRABRAUBER, "--games", "5", "--format", "json"];
    let o = run_compiled(&args, &cache, &[("CARGO", "/no/such/cargo"), ("RUSTC", "/no/such/rustc")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot run cargo"), "{}", stderr(&o));
    assert!(stderr(&o).contains("the interpreter plays instead"), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&run(&args)));
    let _ = std::fs::remove_dir_all(&cache);
}

/// A stand-in for cargo that "builds" a worker in an instant: a script
/// that prints its command line, so a test sees which command ran where.
#[cfg(unix)]
fn fake_cargo(dir: &Path) -> PathBuf {
    script(
        &dir.join("fake-cargo"),
        "#!/bin/sh\n\
         # As cargo build --manifest-path DIR/Cargo.toml: a program named after DIR.\n\
         while [ $# -gt 0 ]; do [ \"$1\" = --manifest-path ] && manifest=\"$2\"; shift; done\n\
         name=$(basename \"$(dirname \"$manifest\")\")\n\
         mkdir -p \"$CARGO_TARGET_DIR/release\"\n\
         printf '#!/bin/sh\\necho \"worker ran: $*\"\\n' > \"$CARGO_TARGET_DIR/release/$name\"\n\
         chmod +x \"$CARGO_TARGET_DIR/release/$name\"\n",
    )
}

/// A shell script at `path` (its folder made), ready to run.
#[cfg(unix)]
fn script(path: &Path, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_path_buf()
}

/// A fresh folder named for `name` with a stand-in cargo in it: the
/// folder, the stand-in, and the cache folder to give the command.
#[cfg(unix)]
fn with_fake_cargo(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = fresh_cache(name);
    let cargo = fake_cargo(&dir.join("bin"));
    let cache = dir.join("workers");
    (dir, cargo, cache)
}

/// The command, copied out of its target folder so that cargo builds its
/// workers (`copied_program`), with `cache` as its cache, `cargo` as cargo
/// and `env` set.
#[cfg(unix)]
fn with_cargo(args: &[&str], cache: &Path, cargo: &Path, env: &[(&str, &str)]) -> Output {
    let program = copied_program(&cargo.parent().unwrap().join("copy"));
    with_cargo_by(&program, args, cache, cargo, env)
}

/// `with_cargo` with this program.
#[cfg(unix)]
fn with_cargo_by(program: &Path, args: &[&str], cache: &Path, cargo: &Path, env: &[(&str, &str)]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("CHRONOSCOPE_CACHE", cache)
        .env("CARGO", cargo)
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs")
}

/// `--engine auto` (the default) builds nothing for a short run: with an
/// empty cache the interpreter plays, even with cargo at hand; once
/// `--engine compiled` has put the worker in the cache, `auto` runs
/// `simulate` and `play` in it. The worker here is a stand-in that says
/// it ran.
#[cfg(unix)]
#[test]
fn engine_auto_uses_a_worker_already_in_the_cache_and_builds_none_for_a_short_run() {
    let (cache, cargo, cache_s) = with_fake_cargo("auto");
    let with = |args: &[&str]| with_cargo(args, &cache_s, &cargo, &[]);
    let sim = ["simulate", GRABRAUBER, "--games", "3", "--format", "json"];
    let before = with(&sim);
    assert!(before.status.success(), "{}", stderr(&before));
    assert_eq!(stdout(&before), stdout(&run(&sim)), "the interpreter played");
    assert!(!stderr(&before).contains("compiling"), "{}", stderr(&before));
    assert!(!cache_s.join("rules").exists(), "auto built nothing");

    let built = with(&[&sim[..], &["--engine", "compiled"]].concat());
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(stdout(&built).starts_with("worker ran: simulate"), "{}", stdout(&built));

    let after = with(&sim);
    assert!(after.status.success(), "{}", stderr(&after));
    assert!(!stderr(&after).contains("compiling"), "{}", stderr(&after));
    assert!(stdout(&after).starts_with("worker ran: simulate"), "{}", stdout(&after));
    let play = with(&["play", GRABRAUBER, "--players", "2", "--seed", "1", "--quiet"]);
    assert!(play.status.success(), "{}", stderr(&play));
    assert!(stdout(&play).starts_with("worker ran: play"), "{}", stdout(&play));

    let interpreted = with(&[&sim[..], &["--engine", "interpreted"]].concat());
    assert_eq!(stdout(&interpreted), stdout(&before), "--engine interpreted never uses the worker");
    let _ = std::fs::remove_dir_all(&cache);
}

/// With no worker in the cache, `auto` times a run's first game: when the
/// rest would take the interpreter at least `CHRONOSCOPE_BUILD_AFTER`
/// seconds, it builds the worker and the run goes on there; below that
/// the interpreter plays, and the timed game is the run's first (the
/// results are those of `--engine interpreted`). Nothing is built for a
/// run with a seat that thinks for a time, nor when the setting is not a
/// number of seconds (an error).
#[cfg(unix)]
#[test]
fn engine_auto_builds_the_worker_when_the_rest_of_the_run_would_take_the_interpreter_long_enough() {
    let (cache, cargo, cache_s) = with_fake_cargo("auto-build");
    let sim = ["simulate", GRABRAUBER, "--games", "6", "--jobs", "2", "--format", "json"];
    let interpreted = run(&[&sim[..], &["--engine", "interpreted"]].concat());
    assert!(interpreted.status.success(), "{}", stderr(&interpreted));

    let bad = with_cargo(&sim, &cache_s, &cargo, &[("CHRONOSCOPE_BUILD_AFTER", "soon")]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("CHRONOSCOPE_BUILD_AFTER is `soon`"), "{}", stderr(&bad));
    assert!(!cache_s.join("rules").exists(), "nothing built");

    let long_wait = with_cargo(&sim, &cache_s, &cargo, &[("CHRONOSCOPE_BUILD_AFTER", "100000")]);
    assert!(long_wait.status.success(), "{}", stderr(&long_wait));
    assert_eq!(stdout(&long_wait), stdout(&interpreted), "the interpreter's results");
    assert!(!cache_s.join("rules").exists(), "nothing built");

    // A seat that thinks for a time thinks as long on compiled rules: the
    // run would not be shorter, so nothing is built for it.
    let timed = [&sim[..], &["--seats", "mcts:2ms"]].concat();
    let timed = with_cargo(&timed, &cache_s, &cargo, &[("CHRONOSCOPE_BUILD_AFTER", "0")]);
    assert!(timed.status.success(), "{}", stderr(&timed));
    assert!(!stdout(&timed).starts_with("worker ran"), "{}", stdout(&timed));
    assert!(!cache_s.join("rules").exists(), "nothing built");

    let built = with_cargo(&sim, &cache_s, &cargo, &[("CHRONOSCOPE_BUILD_AFTER", "0")]);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(stderr(&built).contains("the rest of this run would take about"), "{}", stderr(&built));
    assert!(stderr(&built).contains("compiling the rules of Die Grabräuber"), "{}", stderr(&built));
    assert!(stdout(&built).starts_with("worker ran: simulate"), "{}", stdout(&built));
    let _ = std::fs::remove_dir_all(&cache);
}

/// A rustc that cannot compile the rules against this build (another
/// toolchain's, say): one line says why, and cargo builds the worker.
#[cfg(unix)]
#[test]
fn compiled_says_why_linking_against_this_build_failed_and_builds_with_cargo() {
    let (dir, cargo, cache) = with_fake_cargo("bad-rustc");
    let rustc = script(
        &dir.join("bin").join("bad-rustc"),
        "#!/bin/sh\necho 'error[E0514]: found crate compiled by an incompatible version of rustc' >&2\nexit 1\n",
    );
    let rustc = rustc.to_str().unwrap();
    let sim = ["simulate", GRABRAUBER, "--games", "3", "--engine", "compiled"];
    let program = Path::new(env!("CARGO_BIN_EXE_chronoscope"));
    let o = with_cargo_by(program, &sim, &cache, &cargo, &[("RUSTC", rustc)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("cannot compile the rules against this build of chronoscope"), "{err}");
    assert!(err.contains("incompatible version of rustc"), "{err}");
    assert!(err.contains("building with cargo instead"), "{err}");
    assert!(stdout(&o).starts_with("worker ran: simulate"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cargo that fails without a word: the note gives its exit status, and
/// the interpreter plays the same games.
#[cfg(unix)]
#[test]
fn a_cargo_failing_without_a_message_is_named_by_its_exit_status() {
    let (dir, _, cache) = with_fake_cargo("silent-cargo");
    let program = copied_program(&dir.join("copy"));
    let sim = ["simulate", GRABRAUBER, "--games", "3", "--format", "json"];
    let compiled = [&sim[..], &["--engine", "compiled"]].concat();
    let o = with_cargo_by(&program, &compiled, &cache, Path::new("/bin/false"), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("building the compiled rules failed (cargo exit status: 1, without a message)"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("the interpreter plays instead"), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&run(&sim)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `simulate --compare` on compiled rules: one worker holds both rulesets'
/// compiled rules (the compared one's too, not the interpreter's), built
/// once for the pair, and the comparison is the interpreter's to the byte.
#[test]
fn compiled_compare_builds_one_worker_with_both_rulesets_and_gives_the_interpreters_comparison() {
    let cache = fresh_cache("compare");
    let house = "rulesets/thebes/house/no-zeppelins.ruleset";
    let args = ["simulate", THEBES, "--compare", house, "--games", "4", "--players", "3", "--format", "json"];
    let interpreted = run(&args);
    assert!(interpreted.status.success(), "{}", stderr(&interpreted));
    let first = run_compiled(&args, &cache, &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(stderr(&first).matches("compiling the rules of Thebes").count(), 1, "{}", stderr(&first));
    assert!(!stderr(&first).contains("interpreter plays"), "{}", stderr(&first));
    assert_eq!(stdout(&first), stdout(&interpreted));
    let workers: Vec<PathBuf> =
        std::fs::read_dir(cache.join("rules")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(workers.len(), 1, "{workers:?}");
    let sources = workers[0].join("src");
    assert!(
        sources.join("rules0.rs").is_file() && sources.join("rules1.rs").is_file(),
        "both rulesets compiled"
    );
    let again = run_compiled(&args, &cache, &[]);
    assert!(!stderr(&again).contains("compiling"), "the pair's worker is cached: {}", stderr(&again));
    assert_eq!(stdout(&again), stdout(&interpreted));
    // A ruleset compared with itself is compiled once.
    let same = ["simulate", GRABRAUBER, "--compare", GRABRAUBER, "--games", "3", "--format", "json"];
    let o = run_compiled(&same, &cache, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&run(&same)));
    let grab =
        std::fs::read_dir(cache.join("rules")).unwrap().map(|e| e.unwrap().path()).find(|p| *p != workers[0]);
    let grab = grab.expect("a second worker").join("src");
    assert!(grab.join("rules0.rs").is_file() && !grab.join("rules1.rs").exists());
    let _ = std::fs::remove_dir_all(&cache);
}
