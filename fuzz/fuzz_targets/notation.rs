//! Any line as a move in the notation: the first byte says how many random
//! actions of a seeded Thebes game come first, the rest is the line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((before, line)) = data.split_first() {
        chronoscope_tests::fuzzing::read_move(*before, &String::from_utf8_lossy(line));
    }
});
