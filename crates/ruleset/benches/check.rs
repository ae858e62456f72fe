//! `cargo bench -p chronoscope-ruleset`: how fast `check` is.
//!
//! Goals (issue 2): Thebes checks in under 5 ms; at least 20 MB/s on a
//! generated 1 MB ruleset.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const THEBES: &str = include_str!("../../../rulesets/thebes/thebes.ruleset");

/// Thebes plus a large, valid component list: about `bytes` long. The extra
/// cards exercise the parser, value checking and component expansion.
fn generated(bytes: usize) -> String {
    let mut extra = String::new();
    let mut n = 0usize;
    let cities = ["London", "Paris", "Berlin", "Vienna", "Rome", "Warsaw", "Moscow"];
    let sites = ["Greece", "Crete", "Egypt", "Palestine", "Mesopotamia"];
    while THEBES.len() + extra.len() < bytes {
        extra.push_str(&format!(
            "  \"Generated {n}\" x2 {{ city: {}  weeks: {}  site: {}  books: {}  tags: [specialized] }}  // generated\n",
            cities[n % cities.len()],
            1 + n % 6,
            sites[n % sites.len()],
            n % 4
        ));
        n += 1;
    }
    let group = format!("cards generated of research total {} {{\n{extra}}}\n", n * 2);
    // Put the generated cards into play so the checker sees them used.
    THEBES.replacen(
        "  move all c in research_cards to deck\n",
        "  move all c in research_cards to deck\n  move all c in generated to pile3\n",
        1,
    ) + &group
}

fn bench(c: &mut Criterion) {
    let checked = ruleset::check_source(THEBES);
    assert!(checked.ruleset.is_some(), "Thebes checks clean");
    let big = generated(1024 * 1024);
    let checked = ruleset::check_source(&big);
    assert!(
        checked.ruleset.is_some(),
        "the generated ruleset checks clean: {:?}",
        checked.diagnostics.first()
    );

    let mut group = c.benchmark_group("check");
    for (name, text) in [("thebes", THEBES.to_string()), ("generated_1mb", big)] {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, text| {
            b.iter(|| ruleset::check_source(text))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
