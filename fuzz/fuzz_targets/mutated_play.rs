//! A bundled ruleset or fixture that checks, changed a little as the input
//! says, checked and played: unlike `check_play`, most inputs reach the
//! engine.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    chronoscope_tests::fuzzing::mutate_and_play(data);
});
