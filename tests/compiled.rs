//! The bundled rulesets compiled by `chronoscope-compile` (see
//! `build.rs`): one module per ruleset, each exporting `NATIVES`.

macro_rules! compiled {
    ($($name:ident),*) => {$(
        #[allow(unused, clippy::all, unreachable_code)]
        pub mod $name {
            include!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".rs"));
        }
    )*};
}

compiled!(
    thebes,
    thebes_es,
    thebes_fr,
    thebes_ru,
    grabrauber,
    archaeology,
    akrotiri,
    fixture_effects,
    fixture_enumerations,
    fixture_filters,
    fixture_heights,
    fixture_folding,
    fixture_kept,
    fixture_lets,
    fixture_market,
    fixture_mini,
    fixture_monotone,
    fixture_pins,
    fixture_reef,
    fixture_scores_at_the_edge,
    fixture_sets,
    fixture_tallies,
    fixture_turns_and_asks,
    fixture_blowup
);

/// Every compiled ruleset, by its path from the repository root.
pub const ALL: &[(&str, &engine::native::Natives)] = include!(concat!(env!("OUT_DIR"), "/compiled_list.rs"));

/// The compiled rules for a ruleset path, if it is among them.
pub fn natives(path: &str) -> Option<&'static engine::native::Natives> {
    ALL.iter().find(|(p, _)| *p == path).map(|(_, n)| *n)
}

/// The program of a bundled ruleset running its compiled rules.
pub fn load(path: &str) -> engine::Program {
    let natives = natives(path).unwrap_or_else(|| panic!("{path} is compiled by tests/build.rs"));
    let full = crate::repo_root().join(path).display().to_string();
    let checked = ruleset::check_file(&full, &mut |p| std::fs::read(p).map_err(|e| e.to_string()));
    let rules = checked.ruleset.unwrap_or_else(|| panic!("{path} checks clean"));
    engine::Program::with_natives(rules, natives).unwrap_or_else(|e| panic!("{path}: {e}"))
}
