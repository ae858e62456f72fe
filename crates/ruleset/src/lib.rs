//! The chronoscope ruleset language: text to a checked [`Ruleset`].
//!
//! Pipeline: [`parser::parse`] (text to [`ast::File`], syntax diagnostics)
//! then [`check::check`] (names resolved, types and shapes checked, lowered
//! to [`model::Ruleset`]). Both phases collect every diagnostic they can
//! instead of stopping at the first. No IO happens here: the caller reads the
//! file and renders the diagnostics.

#![forbid(unsafe_code)]

pub mod ast;
pub mod check;
pub mod diagnostic;
pub mod merge;
pub mod origin;
pub mod outline;
pub mod parser;
pub mod span;
pub mod suggest;

pub use diagnostic::{Code, Diagnostic, Report, Severity};
pub use model::{self, Ruleset};
pub use origin::Origin;
pub use span::Span;

/// How deep `extends` may chain (house rule, edition, base, ...).
pub const MAX_EXTENDS: usize = 16;

/// The result of checking a ruleset: the ruleset when it has no errors,
/// where it came from, every diagnostic (errors and warnings) in file and source order, and the
/// files read (name and text, by file number).
pub struct Checked {
    pub ruleset: Option<Ruleset>,
    /// The files read, what editions changed and the provenance notes
    /// (complete when `ruleset` is there).
    pub origin: Origin,
    pub diagnostics: Vec<Diagnostic>,
    pub sources: Vec<(String, String)>,
    /// Every declared name with where (even when there are errors).
    pub outline: Vec<outline::Declared>,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parse and check ruleset text on its own (it may not `extends` a file).
pub fn check_source(source: &str) -> Checked {
    check_file("input.ruleset", &mut |path| {
        if path == "input.ruleset" {
            Ok(source.as_bytes().to_vec())
        } else {
            Err("text given directly cannot extend a file".to_string())
        }
    })
}

/// Check raw bytes of a single file: refuses text that is not UTF-8 with a
/// diagnostic that points at the first bad byte.
pub fn check_bytes(bytes: &[u8]) -> (String, Checked) {
    let checked = check_file("input.ruleset", &mut |_| Ok(bytes.to_vec()));
    let text = checked.sources.first().map(|(_, t)| t.clone()).unwrap_or_default();
    (text, checked)
}

/// Check a ruleset file and every file it extends. `read` is the only way
/// in to the file system: it gets a path (the one given, then bases joined
/// to the directory of the file that names them) and returns its bytes or a
/// reason it cannot.
pub fn check_file(path: &str, read: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>) -> Checked {
    let mut loader = Loader { read, sources: Vec::new(), diags: Vec::new(), changes: Vec::new() };
    let file = loader.load(path, &mut Vec::new(), None);
    let Loader { sources, mut diags, changes, .. } = loader;
    let syntax_failed = diags.iter().any(Diagnostic::is_error);
    let (ruleset, provenance, more) = check::check(&file, syntax_failed);
    diags.extend(more);
    relate_to_base(&file, &mut diags);
    diags.sort_by_key(|d| (d.label.span.file, d.label.span.start, d.severity));
    let ruleset = if diags.iter().any(Diagnostic::is_error) { None } else { ruleset };
    let origin = Origin { files: sources.iter().map(|(n, _)| n.clone()).collect(), changes, provenance };
    let outline = outline::outline(&file);
    Checked { ruleset, origin, diagnostics: diags, sources, outline }
}

struct Loader<'a> {
    read: &'a mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
    sources: Vec<(String, String)>,
    diags: Vec<Diagnostic>,
    changes: Vec<merge::Change>,
}

impl Loader<'_> {
    /// Read, parse and merge one file with its bases. `chain` holds the
    /// files being loaded (for cycles); `from` is the `extends` that named
    /// this file.
    fn load(&mut self, path: &str, chain: &mut Vec<String>, from: Option<Span>) -> ast::File {
        let id = self.sources.len();
        let bytes = match (self.read)(path) {
            Ok(b) => b,
            Err(reason) => {
                self.sources.push((path.to_string(), String::new()));
                let d = match from {
                    Some(span) => Diagnostic::error(
                        Code::ExtendsUnreadable,
                        span,
                        format!("cannot read `{path}`: {reason}"),
                    )
                    .label("the base ruleset named here")
                    .help("the path is relative to the file that names it"),
                    None => Diagnostic::error(
                        Code::Io,
                        Span::in_file(id, 0, 0),
                        format!("cannot read `{path}`: {reason}"),
                    )
                    .label("cannot read")
                    .help("check the path and the file's permissions"),
                };
                self.diags.push(d);
                return ast::File::default();
            }
        };
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => {
                let (text, first) = mask_controls(t);
                if let Some((at, c)) = first {
                    self.diags.push(
                        Diagnostic::error(
                            Code::ControlCharacter,
                            Span::in_file(id, at, at + c.len_utf8()),
                            format!("the file holds a control character (U+{:04X})", c as u32),
                        )
                        .label("shown as `?`")
                        .help("remove it: a ruleset is plain text (tabs and line breaks are fine)"),
                    );
                }
                text
            }
            Err(e) => {
                let at = e.valid_up_to();
                let (lossy, _) = mask_controls(&String::from_utf8_lossy(&bytes));
                self.sources.push((path.to_string(), lossy));
                // The text kept is the lossy one: the bad byte became U+FFFD
                // there (three bytes), and the span covers all of it.
                let shown = at + char::REPLACEMENT_CHARACTER.len_utf8();
                self.diags.push(
                    Diagnostic::error(Code::NotUtf8, Span::in_file(id, at, shown), "file is not UTF-8 text")
                        .label(format!("byte {at} is not valid UTF-8"))
                        .help("save the ruleset as UTF-8 text; binary files cannot be rulesets"),
                );
                return ast::File::default();
            }
        };
        let (mut file, parse_diags) = parser::parse_file(&text, id);
        self.sources.push((path.to_string(), text));
        self.diags.extend(parse_diags);
        let extends: Vec<(String, Span)> = file
            .items
            .iter()
            .filter_map(|i| match &i.kind {
                ast::ItemKind::Extends(p, span) => Some((p.clone(), *span)),
                _ => None,
            })
            .collect();
        for (_, span) in extends.iter().skip(1) {
            self.diags.push(
                Diagnostic::error(Code::ExtendsTwice, *span, "a ruleset extends one base")
                    .label("second `extends`")
                    .related(extends[0].1, "first `extends`")
                    .help("make a chain instead: this file extends an edition, which extends the base"),
            );
        }
        let Some((base, span)) = extends.first().cloned() else {
            merge::reject_edition_items(&mut file, &mut self.diags);
            return file;
        };
        let base_path = join(path, &base);
        chain.push(normalize(path));
        if let Some(start) = chain.iter().position(|p| *p == normalize(&base_path)) {
            let mut cycle: Vec<String> = chain[start..].to_vec();
            cycle.push(normalize(&base_path));
            self.diags.push(
                Diagnostic::error(
                    Code::ExtendsCycle,
                    span,
                    format!("`extends` goes round in a circle: {}", cycle.join(" -> ")),
                )
                .label("this closes the circle")
                .help("a base cannot extend a file that extends it"),
            );
            chain.pop();
            merge::reject_edition_items(&mut file, &mut self.diags);
            return file;
        }
        if chain.len() > MAX_EXTENDS {
            self.diags.push(
                Diagnostic::error(
                    Code::ExtendsCycle,
                    span,
                    format!("`extends` chains more than {MAX_EXTENDS} files"),
                )
                .label("too deep")
                .help("flatten some editions into their base"),
            );
            chain.pop();
            return file;
        }
        let before = self.diags.len();
        let base_file = self.load(&base_path, chain, Some(span));
        chain.pop();
        if self.diags[before..].iter().any(|d| d.code == Code::ExtendsUnreadable) {
            // Without its base, what this file changes cannot be checked:
            // say nothing more about it than that the base is missing.
            file.items.retain(|i| {
                i.overrides.is_none()
                    && !matches!(i.kind, ast::ItemKind::Remove { .. } | ast::ItemKind::TableCell { .. })
            });
            return file;
        }
        let (merged, changes) = merge::merge(base_file, file, &mut self.diags);
        self.changes.extend(changes);
        merged
    }
}

/// The text with every control character but tab and line breaks replaced
/// by `?` (as many as its bytes, so offsets stay), and the first one found.
/// Such a character would reach the terminal in a diagnostic's snippet, a
/// title or a name, and could rewrite the screen.
fn mask_controls(text: &str) -> (String, Option<(usize, char)>) {
    let is_bad = |c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r');
    let Some(first) = text.char_indices().find(|(_, c)| is_bad(*c)) else {
        return (text.to_string(), None);
    };
    let masked =
        text.chars().map(|c| if is_bad(c) { "?".repeat(c.len_utf8()) } else { c.to_string() }).collect();
    (masked, Some(first))
}

/// `dir(of)/relative`, lexically.
fn join(of: &str, relative: &str) -> String {
    let rel = std::path::Path::new(relative);
    if rel.is_absolute() {
        return relative.to_string();
    }
    let dir = std::path::Path::new(of).parent().unwrap_or(std::path::Path::new(""));
    normalize(&dir.join(rel).to_string_lossy())
}

/// Drop `.` and resolve `..` without touching the file system.
fn normalize(path: &str) -> String {
    use std::path::Component;
    let mut out: Vec<String> = Vec::new();
    let mut absolute = false;
    for c in std::path::Path::new(path).components() {
        match c {
            Component::RootDir => absolute = true,
            Component::CurDir => {}
            Component::ParentDir => {
                if out.last().is_some_and(|l| l != "..") {
                    out.pop();
                } else if !absolute {
                    out.push("..".into());
                }
            }
            Component::Normal(n) => out.push(n.to_string_lossy().into_owned()),
            Component::Prefix(p) => out.push(p.as_os_str().to_string_lossy().into_owned()),
        }
    }
    let joined = out.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// A diagnostic inside an item an edition changed also points at the other
/// file: the base definition an override replaced, or the override that
/// changed part of a base item.
fn relate_to_base(file: &ast::File, diags: &mut [Diagnostic]) {
    // Without an edition nothing was merged: nothing to relate (and no
    // search of every item for every diagnostic).
    if !file.items.iter().any(|i| i.base.is_some() || !i.changed_by.is_empty()) {
        return;
    }
    for d in diags.iter_mut() {
        let at = d.label.span;
        let in_item = file.items.iter().find(|i| i.span.contains(at));
        let in_change = file.items.iter().find(|i| i.changed_by.iter().any(|c| c.contains(at)));
        let mut extra = Vec::new();
        if let Some(item) = in_item {
            if let Some(base) = item.base {
                extra.push((base, "the base definition this overrides"));
            }
            for c in &item.changed_by {
                if c.file != at.file {
                    extra.push((*c, "changed here"));
                }
            }
        } else if let Some(item) = in_change {
            // The mistake is in an override of part of this base item.
            extra.push((merge::item_name_span(item), "the base definition this changes"));
        }
        for (span, text) in extra {
            if !d.related.iter().any(|l| l.span == span) && span != at {
                d.related.push(diagnostic::Label { span, text: text.to_string() });
            }
        }
    }
}
