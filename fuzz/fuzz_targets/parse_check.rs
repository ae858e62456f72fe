//! Any bytes as a ruleset: parsed, checked, diagnostics rendered.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    chronoscope_tests::fuzzing::parse_and_check_bytes(data);
});
