//! Compiles the bundled rulesets' expressions to Rust (the compiled
//! backend, `chronoscope-compile`) for the lockstep tests and the
//! benchmark: `src/compiled.rs` includes one module per ruleset.

use std::fmt::Write as _;
use std::path::Path;

/// (module name, ruleset path from the repository root)
const RULESETS: &[(&str, &str)] = &[
    ("thebes", "rulesets/thebes/thebes.ruleset"),
    ("thebes_es", "rulesets/thebes/editions/es.ruleset"),
    ("thebes_fr", "rulesets/thebes/editions/fr.ruleset"),
    ("thebes_ru", "rulesets/thebes/editions/ru.ruleset"),
    ("grabrauber", "rulesets/grabrauber/grabrauber.ruleset"),
    ("archaeology", "rulesets/archaeology/archaeology.ruleset"),
    ("akrotiri", "rulesets/akrotiri/akrotiri.ruleset"),
    // Small generic games, for constructs the games above use little.
    ("fixture_effects", "tests/fixtures/valid/effects.ruleset"),
    ("fixture_enumerations", "tests/fixtures/valid/enumerations.ruleset"),
    ("fixture_filters", "tests/fixtures/valid/filters.ruleset"),
    ("fixture_heights", "tests/fixtures/valid/heights.ruleset"),
    ("fixture_folding", "tests/fixtures/valid/folding.ruleset"),
    ("fixture_kept", "tests/fixtures/valid/kept.ruleset"),
    ("fixture_lets", "tests/fixtures/valid/lets.ruleset"),
    ("fixture_market", "tests/fixtures/valid/market.ruleset"),
    ("fixture_mini", "tests/fixtures/valid/mini.ruleset"),
    ("fixture_monotone", "tests/fixtures/valid/monotone.ruleset"),
    ("fixture_pins", "tests/fixtures/valid/pins.ruleset"),
    ("fixture_reef", "tests/fixtures/valid/reef.ruleset"),
    ("fixture_scores_at_the_edge", "tests/fixtures/valid/scores_at_the_edge.ruleset"),
    ("fixture_sets", "tests/fixtures/valid/sets.ruleset"),
    ("fixture_tallies", "tests/fixtures/valid/tallies.ruleset"),
    ("fixture_turns_and_asks", "tests/fixtures/valid/turns_and_asks.ruleset"),
    // Rules that run past the work limit.
    ("fixture_blowup", "tests/fixtures/work/blowup.ruleset"),
];

fn main() {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ sits in the repository").to_path_buf();
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={}", root.join("rulesets").display());
    println!("cargo:rerun-if-changed={}", root.join("tests/fixtures/valid").display());
    println!("cargo:rerun-if-changed={}", root.join("tests/fixtures/work").display());
    let mut list = String::new();
    for (name, path) in RULESETS {
        let full = root.join(path);
        let checked = ruleset::check_file(&full.display().to_string(), &mut |p| {
            println!("cargo:rerun-if-changed={p}");
            std::fs::read(p).map_err(|e| e.to_string())
        });
        let Some(rules) = checked.ruleset else { panic!("{path} does not check clean") };
        std::fs::write(out.join(format!("{name}.rs")), compile::generate(&rules))
            .expect("OUT_DIR is writable");
        writeln!(list, "    (\"{path}\", &{name}::NATIVES),").unwrap();
    }
    std::fs::write(out.join("compiled_list.rs"), format!("&[\n{list}]")).expect("OUT_DIR is writable");
}
