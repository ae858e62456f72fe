//! `chronoscope`: the binary. Everything it does is in the library
//! (`chronoscope_cli`), where tests can reach it without a process.

use std::process::ExitCode;

fn main() -> ExitCode {
    chronoscope_cli::main_entry()
}
