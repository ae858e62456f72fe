//! Any text as a save of the bundled Thebes, replayed as `play --script`
//! replays it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    chronoscope_tests::fuzzing::replay_save(&String::from_utf8_lossy(data));
});
