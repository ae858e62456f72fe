//! Gives the command a mark of its own build: `OUT_DIR`, the folder cargo
//! makes for each build of this package with its own settings. A worker
//! for compiled rules is linked against this very build's library, which
//! the mark tells apart from the other builds a target folder keeps
//! (`compiled::own_build`).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
}
