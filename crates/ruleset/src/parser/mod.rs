//! Text to syntax tree: pest parse, error conversion and error recovery.
//!
//! Parsing never fails outright: it returns every item it could build plus a
//! diagnostic for each part it could not. When the whole file does not parse,
//! the file is cut at each line that starts (in column 0) with an item
//! keyword and every piece is parsed on its own, so one typo does not hide the
//! mistakes after it.

//!
//! `lower` turns pest's pairs into the syntax tree, one function per
//! construct (`expr` the expressions); `syntax_error` turns pest's errors
//! into diagnostics; `keywords` is the one table of the language's keywords.

use pest::Parser as _;

use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;

mod expr;
pub mod keywords;
mod lower;
mod syntax_error;

use lower::Lower;
use syntax_error::syntax_error;

#[derive(pest_derive::Parser)]
#[grammar = "../../grammar/ruleset.pest"]
struct RulesetParser;

/// Files larger than this are refused before parsing.
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;
/// Brackets, braces and parentheses nested deeper than this are refused.
pub const MAX_NESTING: usize = 64;
/// Expressions and statements nested deeper than this (counting operators,
/// `.field`, `if ... then ... else` and `else if` chains, which need no
/// brackets) are refused: the checker and the engine walk them recursively.
pub const MAX_DEPTH: usize = 256;
/// Bound on pest's work, so hostile input cannot make it backtrack forever.
const CALL_LIMIT: usize = 400_000_000;

/// pest's settings are process-wide. The call limit is set once, never per
/// parse.
fn configure_pest() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| pest::set_call_limit(std::num::NonZeroUsize::new(CALL_LIMIT)));
}

/// Run `f` with pest's detailed errors on (they name the punctuation a
/// broken file was missing). Collecting them makes every parse about 50%
/// slower (criterion, `check/thebes`), so they are on only while a broken
/// file is parsed again piece by piece. The switch is process-wide: one
/// lock is held for the whole recovery, so two threads recovering at once
/// cannot turn it off under each other; a clean parse never reads it.
fn with_error_detail<T>(f: impl FnOnce() -> T) -> T {
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _held = DETAIL.lock().unwrap_or_else(|e| e.into_inner());
    pest::set_error_detail(true);
    let out = f();
    pest::set_error_detail(false);
    out
}

pub fn parse(source: &str) -> (File, Vec<Diagnostic>) {
    parse_file(source, 0)
}

/// Parse one file of a ruleset; every span carries `file`.
pub fn parse_file(source: &str, file_id: usize) -> (File, Vec<Diagnostic>) {
    // A byte-order mark is blank: blank it out, keeping every offset.
    if let Some(rest) = source.strip_prefix('\u{FEFF}') {
        let blanked = format!("   {rest}");
        return parse_file(&blanked, file_id);
    }
    let mut diags = Vec::new();
    if source.len() > MAX_FILE_BYTES {
        diags.push(
            Diagnostic::error(
                Code::TooLarge,
                Span::new(0, 0),
                format!(
                    "file is {} bytes, more than the {} MiB a ruleset may have",
                    source.len(),
                    MAX_FILE_BYTES / (1024 * 1024)
                ),
            )
            .label("file starts here")
            .help("split the game into a base ruleset and smaller files that extend it"),
        );
        return (File::default(), diags);
    }
    if let Some(d) = nesting_error(source, file_id) {
        diags.push(d);
        return (File::default(), diags);
    }
    configure_pest();

    match RulesetParser::parse(Rule::file, source) {
        Ok(pairs) => {
            let mut lower = Lower { offset: 0, file: file_id, diags: &mut diags };
            let file = lower.file(pairs);
            // Past the depth limit the lowered file has holes: checking it
            // would only report them. The first report says where.
            if let Some(deep) = diags.iter().position(|d| d.code == Code::TooDeep) {
                return (File::default(), vec![diags.swap_remove(deep)]);
            }
            (file, diags)
        }
        // A limit of pest's (its call budget, its stack guard) was reached:
        // parsing the pieces again would take as long and end the same way
        // (the whole-file error stands even when every piece parses).
        Err(whole) if matches!(whole.variant, pest::error::ErrorVariant::CustomError { .. }) => {
            diags.push(syntax_error(&whole, source, file_id, 0, source.len()));
            (File::default(), diags)
        }
        Err(whole) => with_error_detail(|| {
            // Recovery: parse each item on its own.
            let mut file = File::default();
            let starts = chunk_starts(source);
            for (i, &start) in starts.iter().enumerate() {
                let end = starts.get(i + 1).copied().unwrap_or(source.len());
                let chunk = &source[start..end];
                match RulesetParser::parse(Rule::file, chunk) {
                    Ok(pairs) => {
                        let mut lower = Lower { offset: start, file: file_id, diags: &mut diags };
                        file.items.extend(lower.file(pairs).items);
                    }
                    Err(e) => diags.push(syntax_error(&e, source, file_id, start, end)),
                }
            }
            if !diags.iter().any(Diagnostic::is_error) {
                // Every piece parsed alone (the whole file hit a limit, say):
                // the whole-file error still stands.
                diags.push(syntax_error(&whole, source, file_id, 0, source.len()));
            }
            (file, diags)
        }),
    }
}

/// Offsets of the lines that begin an item, plus 0.
fn chunk_starts(source: &str) -> Vec<usize> {
    let mut starts = vec![0];
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        if offset > 0 {
            let word: String = line.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if keywords::item_words().any(|k| k == word) {
                starts.push(offset);
            }
        }
        offset += line.len();
    }
    starts
}

/// Refuse input nested deeper than `MAX_NESTING`, before pest recurses into it.
fn nesting_error(source: &str, file: usize) -> Option<Diagnostic> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut in_comment = false;
    let bytes = source.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if in_comment {
            in_comment = b != b'\n';
            continue;
        }
        if in_string {
            in_string = !(b == b'"' || b == b'\n');
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'/' if bytes.get(i + 1) == Some(&b'/') => in_comment = true,
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(
                        Diagnostic::error(
                            Code::TooDeep,
                            Span::in_file(file, i, i + 1),
                            format!("brackets nested more than {MAX_NESTING} deep"),
                        )
                        .label("this one is too deep")
                        .help("name the inner part with `let` and use the name"),
                    );
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}
