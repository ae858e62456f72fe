//! Any text as a ruleset: what checks is played for a few random actions.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    chronoscope_tests::fuzzing::check_and_play(&String::from_utf8_lossy(data), 1);
});
