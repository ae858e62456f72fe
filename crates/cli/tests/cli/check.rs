//! `check` and `show`: diagnostics, refused inputs, what a ruleset holds.

use super::*;

#[test]
fn check_passes_thebes() {
    let o = run(&["check", THEBES]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!(stderr(&o), @"rulesets/thebes/thebes.ruleset: ok");
}

#[test]
fn check_fails_on_a_broken_file_and_names_the_code() {
    let o = run(&["check", "tests/fixtures/check/unknown_place_route.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("ruleset::check::unknown_place"), "{err}");
    assert!(err.contains("did you mean `B`?"), "{err}");
    assert!(err.contains("unknown_place_route.ruleset:5:11"), "{err}");
}

#[test]
fn check_reports_every_file_and_fails_if_any_fails() {
    let o = run(&["check", THEBES, "tests/fixtures/check/total_mismatch.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("rulesets/thebes/thebes.ruleset: ok"), "{err}");
    assert!(err.contains("total_mismatch.ruleset: 1 error, 0 warnings"), "{err}");
}

#[test]
fn check_json_gives_codes_lines_and_columns() {
    let o = run(&["check", "--format", "json", "tests/fixtures/check/many_errors_at_once.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    let file = &v["files"][0];
    assert_eq!(file["ok"], false);
    let diags = file["diagnostics"].as_array().unwrap();
    let codes: Vec<&str> = diags.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(
        codes,
        [
            "ruleset::check::unknown_place",
            "ruleset::check::out_of_range",
            "ruleset::check::unknown_zone_kind",
            "ruleset::check::unknown_tag"
        ]
    );
    assert_eq!(diags[0]["line"], 10);
    assert_eq!(diags[0]["column"], 17);
    assert_eq!(diags[0]["severity"], "error");
    assert_eq!(diags[0]["help"], "declare it with `place CLASS NAME`");
}

#[test]
fn check_json_on_a_clean_file_is_ok() {
    let o = run(&["check", "--format", "json", THEBES]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["files"][0]["ok"], true);
    assert_eq!(v["files"][0]["diagnostics"].as_array().unwrap().len(), 0);
}

#[test]
fn check_reports_a_missing_file() {
    let o = run(&["check", "no/such/file.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("ruleset::io::unreadable"), "{err}");
    assert!(err.contains("no such file"), "{err}");
}

#[test]
fn check_reports_a_directory() {
    let o = run(&["check", "rulesets"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("ruleset::io::unreadable"), "{}", stderr(&o));
}

#[test]
fn check_refuses_non_utf8_bytes() {
    let dir = std::env::temp_dir().join(format!("chronoscope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("binary.ruleset");
    std::fs::write(&path, [0x67u8, 0x61, 0xff, 0x00, 0x13]).unwrap();
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("ruleset::io::not_utf8"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn show_thebes_for_two_players() {
    let out = run_ok(&["show", THEBES, "--players", "2"]);
    insta::assert_snapshot!("show_thebes_2p", out);
}

#[test]
fn show_thebes_for_three_players() {
    let out = run_ok(&["show", THEBES, "--players", "3"]);
    insta::assert_snapshot!("show_thebes_3p", out);
}

#[test]
fn show_thebes_for_four_players() {
    let out = run_ok(&["show", THEBES, "--players", "4"]);
    insta::assert_snapshot!("show_thebes_4p", out);
}

#[test]
fn show_lists_provisional_items_alone() {
    let o = run(&["show", THEBES, "--provisional"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("\nProvisional: 15\n"), "{out}");
    assert!(out.contains("table chronoscope row 9"), "{out}");
    assert!(!out.contains("table chronoscope row 8"), "{out}");
}

#[test]
fn show_refuses_an_unsupported_player_count() {
    let o = run(&["show", THEBES, "--players", "5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("Thebes is for 2 to 4 players, not 5"), "{}", stderr(&o));
}

#[test]
fn show_refuses_a_broken_ruleset() {
    let o = run(&["show", "tests/fixtures/check/total_mismatch.ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot show a ruleset with errors"), "{}", stderr(&o));
}

#[test]
#[cfg(target_os = "linux")]
fn a_ruleset_that_is_a_pipe_or_a_device_is_refused_without_waiting() {
    let dir = temp("fifo");
    let fifo = dir.join("base.ruleset");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let edition = dir.join("edition.ruleset");
    std::fs::write(&edition, "extends \"base.ruleset\"\n").unwrap();
    // Opening the pipe would wait for a writer for ever: bound the wait.
    let mut child = Command::new(env!("CARGO_BIN_EXE_chronoscope"))
        .args(["check", edition.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = std::time::Instant::now();
    while child.try_wait().expect("it runs").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("check waited on the pipe");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = child.wait_with_output().expect("it ended");
    assert!(stderr(&o).contains("it is not a regular file"), "{}", stderr(&o));
    let o = run(&["check", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("it is not a regular file"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn thousands_of_diagnostics_are_counted_after_the_first_hundred() {
    let dir = temp("many");
    let file = dir.join("many.ruleset");
    let base = std::fs::read_to_string(root().join("tests/fixtures/valid/mini.ruleset")).unwrap();
    let options: String = (0..20_000).map(|i| format!("option o{i} = {i}\n")).collect();
    std::fs::write(&file, format!("{base}{options}")).unwrap();
    let o = run(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "warnings only");
    let err = stderr(&o);
    assert_eq!(err.matches("ruleset::check::unused").count(), 100, "the first hundred in full");
    assert!(
        err.contains("... and 19900 more (0 errors, 19900 warnings) not shown"),
        "{}",
        &err[err.len() - 300..]
    );
    let json = run(&["check", "--format", "json", file.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let diags = v["files"][0]["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diags.len(), 20_000, "JSON lists them all");
    assert_eq!(diags[19_999]["line"], base.lines().count() + 20_000, "lines counted from an index");
    let _ = std::fs::remove_dir_all(dir);
}
