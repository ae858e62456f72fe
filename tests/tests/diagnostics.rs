//! One snapshot per broken ruleset in `fixtures/check/`: the file's source and
//! the rendered report. Each fixture's first line says what it expects.

use chronoscope_tests::render;

#[test]
fn every_broken_fixture_reports_its_mistake() {
    insta::glob!("../fixtures/check", "*.ruleset", |path| {
        let source = std::fs::read_to_string(path).expect("fixture is readable");
        let name = format!("fixtures/check/{}", path.file_name().unwrap().to_string_lossy());
        let checked = ruleset::check_source(&source);
        let expect_line = source.lines().next().unwrap_or_default();
        if !expect_line.contains("warnings only") {
            assert!(checked.has_errors(), "{name} should fail to check");
        }
        assert!(!checked.diagnostics.is_empty(), "{name} should report something");
        let report = render(&name, &source, &checked);
        insta::assert_snapshot!(format!("{source}\n----- report -----\n{report}"));
    });
}

#[test]
fn the_valid_base_of_the_fixtures_checks_clean() {
    let path = chronoscope_tests::repo_root().join("tests/fixtures/valid/mini.ruleset");
    let source = std::fs::read_to_string(&path).expect("fixture is readable");
    let checked = ruleset::check_source(&source);
    assert!(checked.diagnostics.is_empty(), "{}", render("mini.ruleset", &source, &checked));
    assert!(checked.ruleset.is_some());
}

/// Check a fixture through the file loader, naming files relative to
/// `tests/` so snapshots do not depend on where the repository lies.
fn check_fixture(relative: &str) -> ruleset::Checked {
    let root = chronoscope_tests::repo_root().join("tests");
    ruleset::check_file(relative, &mut |p| std::fs::read(root.join(p)).map_err(|e| e.to_string()))
}

#[test]
fn every_broken_edition_fixture_reports_its_mistake() {
    insta::glob!("../fixtures/extends", "case_*.ruleset", |path| {
        let name = format!("fixtures/extends/{}", path.file_name().unwrap().to_string_lossy());
        let checked = check_fixture(&name);
        assert!(checked.has_errors(), "{name} should fail to check");
        let report = chronoscope_tests::render_all(&checked);
        let source = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(format!("{source}\n----- report -----\n{report}"));
    });
}

#[test]
fn the_edition_fixtures_base_checks_clean() {
    let checked = check_fixture("fixtures/extends/base.ruleset");
    assert!(checked.diagnostics.is_empty(), "{}", chronoscope_tests::render_all(&checked));
}
