//! `chronoscope`: the binary. Everything it does is in the library
//! (`chronoscope_cli`), where tests can reach it without a process.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let code = chronoscope_cli::run(chronoscope_cli::Cli::parse());
    if chronoscope_cli::output_failed() {
        ExitCode::FAILURE
    } else {
        code
    }
}
