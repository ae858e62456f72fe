//! The generic game engine (issue 3): interprets a checked
//! `ruleset::Ruleset`. It will know no game by name.

#![forbid(unsafe_code)]
