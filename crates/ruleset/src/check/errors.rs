//! Diagnostics of the checker.
