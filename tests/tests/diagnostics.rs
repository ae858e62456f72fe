//! One snapshot per broken ruleset in `fixtures/check/`: the file's source and
//! the rendered report. Each fixture's first line says what it expects, in
//! words and as the codes it must produce: `// expect: WORDS [CODE, CODE]`.

use chronoscope_tests::render;

/// The codes a fixture's first line promises, in order.
fn expected_codes(name: &str, source: &str) -> Vec<String> {
    let first = source.lines().next().unwrap_or_default();
    assert!(first.starts_with("// expect: "), "{name}: the first line says what it expects");
    let codes = first.rsplit_once('[').and_then(|(_, rest)| rest.strip_suffix(']'));
    let codes = codes.unwrap_or_else(|| panic!("{name}: the first line ends with its codes in brackets"));
    codes.split(',').map(|c| c.trim().to_string()).collect()
}

/// The distinct codes reported, in order of first appearance.
fn reported_codes(checked: &ruleset::Checked) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in &checked.diagnostics {
        if !out.iter().any(|c| c == d.code.as_str()) {
            out.push(d.code.as_str().to_string());
        }
    }
    out
}

#[test]
fn every_broken_fixture_reports_its_mistake() {
    insta::glob!("../fixtures/check", "*.ruleset", |path| {
        let source = std::fs::read_to_string(path).expect("fixture is readable");
        let name = format!("fixtures/check/{}", path.file_name().unwrap().to_string_lossy());
        let checked = ruleset::check_source(&source);
        assert_eq!(reported_codes(&checked), expected_codes(&name, &source), "{name}: the codes it promises");
        let warnings_only = checked.diagnostics.iter().all(|d| !d.is_error());
        assert_eq!(checked.has_errors(), !warnings_only, "{name}: fails unless it only warns");
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
        let source = std::fs::read_to_string(path).unwrap();
        assert_eq!(reported_codes(&checked), expected_codes(&name, &source), "{name}: the codes it promises");
        let report = chronoscope_tests::render_all(&checked);
        insta::assert_snapshot!(format!("{source}\n----- report -----\n{report}"));
    });
}

#[test]
fn the_edition_fixtures_base_checks_clean() {
    let checked = check_fixture("fixtures/extends/base.ruleset");
    assert!(checked.diagnostics.is_empty(), "{}", chronoscope_tests::render_all(&checked));
}
