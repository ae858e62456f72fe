//! `chronoscope lsp`: a language server for `.ruleset` files over stdio.
//!
//! Diagnostics as the author types (the checker's own codes, labels and
//! help, across `extends` chains: a file's bases are read from the editor's
//! open copies first, then from disk), hover (what a name is, its
//! declaration after editions, its `source` and `provisional` notes), go to
//! definition across files, completion of keywords and declared names, and
//! the document's symbols. Everything is answered from
//! `ruleset::check_file`, whose `outline` is there even when the file has
//! errors.
//!
//! The transport is written here (headers and JSON bodies on stdin and
//! stdout, one message at a time): a header line longer than 64 KiB or a
//! body larger than `MAX_MESSAGE` is refused (the body skipped, not
//! held), so a client cannot make the server hold more than that. Positions
//! are UTF-16 code units, as LSP says by default. A malformed request gets
//! an error response, never a panic.

use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

use ruleset::outline::Declared;
use ruleset::{Checked, Severity};
use serde_json::{json, Value};

use crate::play::prompt::{read_line, Line};

/// The largest message body read: a few times the largest ruleset.
pub const MAX_MESSAGE: usize = 4 * ruleset::parser::MAX_FILE_BYTES + 64 * 1024;

pub fn run() -> ExitCode {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match serve(&mut stdin.lock(), &mut stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("chronoscope lsp: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One message read: a JSON body, or why it was refused (answered with an
/// error, the server going on).
enum Incoming {
    Body(Value),
    Refused(String),
}

/// Read one message; `None` at the end of the input. Headers that cannot
/// be read leave no way to find the next message: an error.
fn read_message(input: &mut dyn BufRead) -> Result<Option<Incoming>, String> {
    let mut length: Option<usize> = None;
    let mut length_text = String::new();
    loop {
        let line = match read_line(input, 64 * 1024).map_err(|e| e.to_string())? {
            None if length.is_none() && length_text.is_empty() => return Ok(None),
            None => return Err("the input ended inside a message's headers".into()),
            Some(Line::Text(t)) => t,
            Some(Line::TooLong) => return Err("a header line is longer than 64 KiB".into()),
            Some(Line::NotUtf8) => return Err("a header line is not UTF-8".into()),
        };
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            if length.is_none() && length_text.is_empty() {
                continue;
            }
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length_text = value.trim().to_string();
                length = length_text.parse().ok();
            }
        }
    }
    let Some(length) = length else {
        return Err(format!("a message without a readable Content-Length (`{length_text}`)"));
    };
    if length > MAX_MESSAGE {
        // Skipped, not held: the next message starts after it.
        std::io::copy(&mut input.take(length as u64), &mut std::io::sink()).map_err(|e| e.to_string())?;
        return Ok(Some(Incoming::Refused(format!(
            "a message of {length} bytes is larger than the {MAX_MESSAGE} this server reads"
        ))));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body).map_err(|e| format!("the input ended inside a message: {e}"))?;
    Ok(Some(match serde_json::from_slice(&body) {
        Ok(v) => Incoming::Body(v),
        Err(e) => Incoming::Refused(format!("the message is not JSON: {e}")),
    }))
}

fn write_message(output: &mut dyn Write, message: &Value) -> Result<(), String> {
    let text = message.to_string();
    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len()).map_err(|e| e.to_string())?;
    output.flush().map_err(|e| e.to_string())
}

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// Answer one client until it says `exit` or the input ends.
pub fn serve(input: &mut dyn BufRead, output: &mut dyn Write) -> Result<(), String> {
    let capabilities = json!({
        "positionEncoding": "utf-16",
        "textDocumentSync": { "openClose": true, "change": 1 },
        "hoverProvider": true,
        "definitionProvider": true,
        "completionProvider": { "triggerCharacters": ["."] },
        "documentSymbolProvider": true,
    });
    let mut server = Server::default();
    let mut initialized = false;
    while let Some(incoming) = read_message(input)? {
        let message = match incoming {
            Incoming::Body(v) => v,
            Incoming::Refused(why) => {
                write_message(output, &error_response(Value::Null, -32700, &why))?;
                continue;
            }
        };
        let method = message["method"].as_str().unwrap_or_default().to_string();
        let params = &message["params"];
        match message.get("id").cloned() {
            // A request.
            Some(id) if !method.is_empty() => {
                let answer = match method.as_str() {
                    "initialize" => {
                        initialized = true;
                        Ok(json!({ "capabilities": capabilities, "serverInfo": { "name": "chronoscope" } }))
                    }
                    "shutdown" => Ok(Value::Null),
                    _ if !initialized => Err((-32002, "the server is not initialized yet".to_string())),
                    _ => server.request(&method, params),
                };
                let reply = match answer {
                    Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                    Err((code, why)) => error_response(id, code, &why),
                };
                write_message(output, &reply)?;
            }
            // A notification.
            None if !method.is_empty() => {
                if method == "exit" {
                    return Ok(());
                }
                for n in server.notification(&method, params) {
                    write_message(output, &n)?;
                }
            }
            // A response to nothing the server asked, or no method.
            _ => {}
        }
    }
    Ok(())
}

/// The open documents, by path.
#[derive(Default)]
pub struct Server {
    open: BTreeMap<String, String>,
}

impl Server {
    /// Check a file as the editor sees it: open documents first, then disk.
    fn check(&self, path: &str) -> Checked {
        let open = &self.open;
        ruleset::check_file(path, &mut |p| match open.get(&normal(p)) {
            Some(text) => Ok(text.clone().into_bytes()),
            None => crate::render::read_file(p),
        })
    }

    /// A notification from the client; the answer is what to publish.
    pub fn notification(&mut self, method: &str, params: &Value) -> Vec<Value> {
        let doc = &params["textDocument"];
        let Some(path) = doc["uri"].as_str().and_then(uri_to_path) else { return Vec::new() };
        match method {
            "textDocument/didOpen" => {
                let text = doc["text"].as_str().unwrap_or_default().to_string();
                self.open.insert(normal(&path), text);
            }
            "textDocument/didChange" => {
                // Full sync: the last change holds the whole text.
                let changes = params["contentChanges"].as_array();
                if let Some(text) = changes.and_then(|c| c.last()).and_then(|c| c["text"].as_str()) {
                    self.open.insert(normal(&path), text.to_string());
                }
            }
            "textDocument/didClose" => {
                self.open.remove(&normal(&path));
                return vec![publish(&path, Vec::new())];
            }
            _ => return Vec::new(),
        }
        // A change to a base changes what its editions are told.
        self.open.keys().map(|p| publish(p, self.diagnostics(p))).collect()
    }

    /// A request: hover, definition, completion, symbols; an error is
    /// JSON-RPC's code and a message.
    pub fn request(&self, method: &str, params: &Value) -> Result<Value, (i64, String)> {
        const INVALID_PARAMS: i64 = -32602;
        let served = [
            "textDocument/hover",
            "textDocument/definition",
            "textDocument/completion",
            "textDocument/documentSymbol",
        ];
        if !served.contains(&method) {
            return Err((-32601, format!("`{method}` is not served")));
        }
        let doc = &params["textDocument"];
        let Some(path) = doc["uri"].as_str().and_then(uri_to_path) else {
            return Err((INVALID_PARAMS, "no textDocument.uri with a file:// path".into()));
        };
        let checked = self.check(&path);
        let Some((_, text)) = checked.sources.first() else { return Ok(Value::Null) };
        let at = || {
            let line = params["position"]["line"].as_u64()?;
            let character = params["position"]["character"].as_u64()?;
            Some(offset_of(text, usize::try_from(line).ok()?, usize::try_from(character).ok()?))
        };
        let no_position = || (INVALID_PARAMS, "no position".to_string());
        Ok(match method {
            "textDocument/hover" => hover(&checked, text, at().ok_or_else(no_position)?),
            "textDocument/definition" => definition(&checked, text, at().ok_or_else(no_position)?),
            "textDocument/completion" => completion(&checked),
            _ => symbols(&checked),
        })
    }

    /// The diagnostics of an open file: its own where they are, and those
    /// in its bases on its first line, naming file and line.
    fn diagnostics(&self, path: &str) -> Vec<Value> {
        let checked = self.check(path);
        let Some((_, text)) = checked.sources.first() else { return Vec::new() };
        checked
            .diagnostics
            .iter()
            .map(|d| {
                let span = d.label.span;
                let mut message = d.message.clone();
                let range = if span.file == 0 {
                    range(text, span.start, span.end)
                } else {
                    message = format!("{}: {message}", place(&checked, span));
                    range(text, 0, 0)
                };
                if !d.label.text.is_empty() {
                    message.push_str(&format!("\n{}", d.label.text));
                }
                if let Some(h) = &d.help {
                    message.push_str(&format!("\nhelp: {h}"));
                }
                let related: Vec<Value> = d
                    .related
                    .iter()
                    .filter_map(|l| {
                        Some(json!({ "location": location(&checked, l.span)?, "message": l.text }))
                    })
                    .collect();
                json!({
                    "range": range,
                    "severity": if d.severity == Severity::Error { 1 } else { 2 },
                    "code": d.code.as_str(),
                    "source": "chronoscope",
                    "message": message,
                    "relatedInformation": related,
                })
            })
            .collect()
    }
}

fn publish(path: &str, diagnostics: Vec<Value>) -> Value {
    json!({
        "jsonrpc": "2.0",
        "method": "textDocument/publishDiagnostics",
        "params": { "uri": path_to_uri(path), "diagnostics": diagnostics },
    })
}

/// `thebes.ruleset:224`.
fn place(checked: &Checked, span: ruleset::Span) -> String {
    match checked.sources.get(span.file) {
        Some((name, text)) => format!("{name}:{}", line_of(text, span.start) + 1),
        None => "?".into(),
    }
}

fn location(checked: &Checked, span: ruleset::Span) -> Option<Value> {
    let (name, text) = checked.sources.get(span.file)?;
    Some(json!({ "uri": path_to_uri(name), "range": range(text, span.start, span.end) }))
}

/// The declarations of the name under the cursor.
fn named_at<'c>(checked: &'c Checked, text: &str, offset: usize) -> Vec<&'c Declared> {
    let word = word_at(text, offset);
    if word.is_empty() {
        return Vec::new();
    }
    checked.outline.iter().filter(|d| d.name == word).collect()
}

fn hover(checked: &Checked, text: &str, offset: usize) -> Value {
    let found = named_at(checked, text, offset);
    if found.is_empty() {
        return Value::Null;
    }
    let mut parts = Vec::new();
    for d in found {
        let mut s = format!("**{}** `{}` — {}", d.what, d.name, place(checked, d.name_span));
        if let Some(base) = d.base {
            s.push_str(&format!(" (overrides {})", place(checked, base)));
        }
        let source = checked.sources.get(d.item.file).map_or("", |(_, t)| t.as_str());
        let item = source.get(d.item.start..d.item.end).unwrap_or("");
        let lines: Vec<&str> = item.lines().collect();
        let mut shown = lines.iter().take(8).copied().collect::<Vec<_>>().join("\n");
        if lines.len() > 8 {
            shown.push_str(&format!("\n  … {} more lines", lines.len() - 8));
        }
        s.push_str(&format!("\n```\n{shown}\n```"));
        for (kind, note) in &d.notes {
            let word = match kind {
                model::NoteKind::Source => "source",
                model::NoteKind::Provisional => "provisional",
            };
            s.push_str(&format!("\n\n*{word}*: {note}"));
        }
        parts.push(s);
    }
    json!({ "contents": { "kind": "markdown", "value": parts.join("\n\n---\n\n") } })
}

fn definition(checked: &Checked, text: &str, offset: usize) -> Value {
    let mut out = Vec::new();
    for d in named_at(checked, text, offset) {
        out.extend(location(checked, d.name_span));
        if let Some(base) = d.base {
            out.extend(location(checked, base));
        }
    }
    Value::Array(out)
}

fn completion(checked: &Checked) -> Value {
    let mut items = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for d in &checked.outline {
        if seen.insert(d.name.clone()) {
            items.push(json!({ "label": d.name, "kind": completion_kind(d.what), "detail": d.what }));
        }
    }
    for word in ruleset::parser::keywords::all_words() {
        if seen.insert(word.to_string()) {
            items.push(json!({ "label": word, "kind": 14, "detail": "keyword" }));
        }
    }
    Value::Array(items)
}

fn symbols(checked: &Checked) -> Value {
    let out: Vec<Value> = checked
        .outline
        .iter()
        .filter(|d| d.name_span.file == 0)
        .filter_map(|d| {
            Some(json!({
                "name": d.name,
                "kind": symbol_kind(d.what),
                "containerName": d.what,
                "location": location(checked, d.name_span)?,
            }))
        })
        .collect();
    Value::Array(out)
}

/// LSP's `SymbolKind` for a declaration.
fn symbol_kind(what: &str) -> u32 {
    match what {
        "game" => 2,
        "option" => 14,
        "class" => 5,
        "enum" => 10,
        "place" | "value" => 22,
        "tag" => 20,
        "kind" => 23,
        "attribute" => 8,
        "group" | "table" => 18,
        "counter" => 13,
        "let" | "procedure" => 12,
        "action" => 24,
        "score" => 16,
        _ => 19,
    }
}

/// LSP's `CompletionItemKind` for a declaration.
fn completion_kind(what: &str) -> u32 {
    match what {
        "option" => 21,
        "class" => 7,
        "enum" => 13,
        "place" | "value" => 20,
        "kind" => 22,
        "attribute" => 5,
        "counter" => 6,
        "let" | "procedure" => 3,
        "action" => 23,
        _ => 12,
    }
}

/// The name (letters, digits, `_`) around byte `offset`.
fn word_at(text: &str, offset: usize) -> &str {
    let offset = offset.min(text.len());
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end =
        text[offset..].char_indices().find(|(_, c)| !is_word(*c)).map_or(text.len(), |(i, _)| offset + i);
    &text[start..end]
}

fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|b| **b == b'\n').count()
}

/// A byte offset as LSP's line and UTF-16 character.
fn position(text: &str, offset: usize) -> Value {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let character = text[line_start..offset].encode_utf16().count();
    json!({ "line": line_of(text, offset), "character": character })
}

fn range(text: &str, start: usize, end: usize) -> Value {
    json!({ "start": position(text, start), "end": position(text, end) })
}

/// LSP's line and UTF-16 character as a byte offset (clamped to the line
/// and the text).
fn offset_of(text: &str, line: usize, character: usize) -> usize {
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        if units >= character {
            return start + i;
        }
        units += c.len_utf16();
    }
    end
}

/// `file:///a/b%20c.ruleset` as `/a/b c.ruleset`; `None` for other schemes.
pub fn uri_to_path(uri: &str) -> Option<String> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&rest[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    let path = String::from_utf8(out).ok()?;
    // `file:///C:/x` on Windows.
    let windows = path.len() > 2 && path.as_bytes()[2] == b':' && path.starts_with('/');
    Some(if windows { path[1..].to_string() } else { path })
}

/// A path with `.` and `..` worked out by its text (`a/b/../c` is `a/c`),
/// as editions name their bases.
fn normal(path: &str) -> String {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in std::path::Path::new(path).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out.display().to_string()
}

/// A path as a `file://` URI, bytes outside the unreserved set escaped.
pub fn path_to_uri(path: &str) -> String {
    let normal = normal(path);
    let absolute = std::path::Path::new(&normal);
    let absolute = if absolute.is_absolute() {
        absolute.to_path_buf()
    } else {
        std::env::current_dir().map(|d| d.join(absolute)).unwrap_or_else(|_| absolute.to_path_buf())
    };
    let text = absolute.display().to_string().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
