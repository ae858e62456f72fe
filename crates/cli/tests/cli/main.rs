//! End-to-end: the `chronoscope` binary as a user runs it. One test
//! program, a module per group of commands; the helpers here serve them all.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod check;
mod compiled;
mod editions;
mod games;
mod play;
mod simulate;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chronoscope"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        // An empty cache: `--engine auto` finds no compiled rules there.
        .env("CHRONOSCOPE_CACHE", std::env::temp_dir().join("chronoscope-cli-tests-empty-cache"))
        .output()
        .expect("the binary runs")
}

/// `run`, which must succeed (exit 0; its errors shown otherwise): its
/// output.
fn run_ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const THEBES: &str = "rulesets/thebes/thebes.ruleset";

const GRABRAUBER: &str = "rulesets/grabrauber/grabrauber.ruleset";

fn run_with_input(args: &[&str], input: &str) -> Output {
    run_with_input_in(&root(), args, input)
}

/// `run_with_input` from another working directory.
fn run_with_input_in(dir: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chronoscope"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chronoscope-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run with stdout or stderr sent to a file (a full device, say).
#[cfg(target_os = "linux")]
fn run_into(args: &[&str], stdout_to: Option<&str>, stderr_to: Option<&str>) -> Output {
    let open = |p: &str| std::fs::OpenOptions::new().write(true).open(p).expect("the device opens");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chronoscope"));
    cmd.args(args).current_dir(root()).env("NO_COLOR", "1");
    if let Some(p) = stdout_to {
        cmd.stdout(open(p));
    }
    if let Some(p) = stderr_to {
        cmd.stderr(open(p));
    }
    cmd.output().expect("the binary runs")
}
