//! Gives the command a mark of its own build: `OUT_DIR`, the folder cargo
//! makes for this package's build script, one per checkout of the source
//! and toolchain. A worker for compiled rules is linked against this very
//! build's library, which the mark (with the time it was built) tells
//! apart from the other builds a target folder keeps
//! (`compiled::BUILD_MARK`, `compiled::own_build`).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
}
