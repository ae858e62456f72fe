//! `chronoscope lsp` spoken to as an editor does: JSON-RPC with
//! `Content-Length` headers over the process's stdin and stdout.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chronoscope"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut c = Client { child, stdin, stdout, next_id: 1 };
        let init = c.request("initialize", json!({ "processId": null, "rootUri": null, "capabilities": {} }));
        assert_eq!(init["capabilities"]["hoverProvider"], json!(true), "{init}");
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, message: &Value) {
        let text = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{text}", text.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Send a request and return its result, setting aside notifications.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.read();
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{m}");
                return m["result"].clone();
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let m = self.read();
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    fn open(&mut self, path: &Path, text: &str) -> String {
        let uri = uri(path);
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "ruleset", "version": 1, "text": text } }),
        );
        uri
    }

    fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Where `needle` starts in `text`, as LSP's line and character.
fn at(text: &str, needle: &str) -> Value {
    let offset = text.find(needle).unwrap_or_else(|| panic!("no `{needle}`"));
    let line = text[..offset].matches('\n').count();
    let character = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": character })
}

#[test]
fn diagnostics_while_typing_carry_the_same_codes_and_lines_as_check() {
    let mut c = Client::start();
    // A house rule of Thebes, not saved anywhere yet: its base is read from disk.
    let path = root().join("rulesets/thebes/house/typing.ruleset");
    let broken = "extends \"../thebes.ruleset\"\noverride option majority_minimum = nobody\n";
    let uri = c.open(&path, broken);
    let diags = c.diagnostics_for(&uri);
    // `check` on the same text names the same codes on the same lines.
    let dir = std::env::temp_dir().join(format!("chronoscope-lsp-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("house")).unwrap();
    std::fs::copy(root().join("rulesets/thebes/thebes.ruleset"), dir.join("thebes.ruleset")).unwrap();
    std::fs::write(dir.join("house/typing.ruleset"), broken).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chronoscope"))
        .args(["check", "--format", "json"])
        .arg(dir.join("house/typing.ruleset"))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected: Vec<(String, u64)> = report["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_string(), d["line"].as_u64().unwrap() - 1))
        .collect();
    let got: Vec<(String, u64)> = diags
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_string(), d["range"]["start"]["line"].as_u64().unwrap()))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(got, expected, "{diags:?}");
    // Typing the fix clears them.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 },
                "contentChanges": [{ "text": "extends \"../thebes.ruleset\"\noverride option majority_minimum = 2\n" }] }),
    );
    assert_eq!(c.diagnostics_for(&uri), Vec::<Value>::new());
    c.stop();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hover_definition_completion_and_symbols_follow_names_across_files() {
    let mut c = Client::start();
    let path = root().join("rulesets/thebes/house/hover.ruleset");
    let text = "extends \"../thebes.ruleset\"\noverride option majority_minimum = 2\nlet twice_minimum = majority_minimum * 2\n";
    let uri = c.open(&path, text);
    // Only the warning `check` gives too: the new let is not used yet.
    let codes: Vec<Value> = c.diagnostics_for(&uri).iter().map(|d| d["code"].clone()).collect();
    assert_eq!(codes, [json!("ruleset::check::unused")]);
    let doc = json!({ "uri": uri });

    // Hover on the option's use: the override, what it replaced, its note.
    let hover = c.request(
        "textDocument/hover",
        json!({ "textDocument": doc, "position": at(text, "majority_minimum * 2") }),
    );
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("**option** `majority_minimum`"), "{shown}");
    assert!(shown.contains("override option majority_minimum = 2"), "{shown}");
    assert!(shown.contains("(overrides ") && shown.contains("thebes.ruleset:28"), "{shown}");

    // Hover on a name declared only in the base: its declaration and notes.
    let dig_text = "extends \"../thebes.ruleset\"\nlet digs = count(c in me.tableau where c has shovel)\n";
    let dig_uri = c.open(&root().join("rulesets/thebes/house/dig.ruleset"), dig_text);
    c.diagnostics_for(&dig_uri);
    let hover = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": dig_uri }, "position": at(dig_text, "tableau") }),
    );
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("**zone** `tableau`") && shown.contains("tableau per player"), "{shown}");

    // Go to definition: the override here and the base's line in thebes.ruleset.
    let def = c.request(
        "textDocument/definition",
        json!({ "textDocument": doc, "position": at(text, "majority_minimum * 2") }),
    );
    let targets: Vec<(String, u64)> = def
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["uri"].as_str().unwrap().to_string(), l["range"]["start"]["line"].as_u64().unwrap()))
        .collect();
    let base = format!("file://{}", root().join("rulesets/thebes/thebes.ruleset").display());
    assert_eq!(targets, vec![(uri.clone(), 1), (base, 27)], "{def}");

    // Completion: keywords and the names of the whole chain.
    let items =
        c.request("textDocument/completion", json!({ "textDocument": doc, "position": at(text, "let") }));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    for expected in ["dig", "chronoscope", "majority_minimum", "twice_minimum", "require", "override"] {
        assert!(labels.contains(&expected), "{expected} in {labels:?}");
    }

    // Symbols: what this file declares.
    let symbols = c.request("textDocument/documentSymbol", json!({ "textDocument": doc }));
    let names: Vec<&str> = symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["majority_minimum", "twice_minimum"]);
    c.stop();
}

#[test]
fn a_named_rule_is_hovered_as_overridden_and_its_definition_is_the_bases_rule() {
    let mut c = Client::start();
    let path = root().join("rulesets/archaeology/house/hands.ruleset");
    let text = "extends \"../archaeology.ruleset\"\noverride rule hands { for p in players { draw 5 from deck to p.hand } }\n";
    let house = c.open(&path, text);
    assert_eq!(c.diagnostics_for(&house), Vec::<Value>::new());
    let doc = json!({ "uri": house });
    let hover =
        c.request("textDocument/hover", json!({ "textDocument": doc, "position": at(text, "hands") }));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("**rule** `hands`") && shown.contains("draw 5 from deck"), "{shown}");
    let def =
        c.request("textDocument/definition", json!({ "textDocument": doc, "position": at(text, "hands") }));
    let base_path = root().join("rulesets/archaeology/archaeology.ruleset");
    let base_text = std::fs::read_to_string(&base_path).unwrap();
    assert_eq!(def[0]["uri"], json!(uri(&base_path)), "{def}");
    assert_eq!(def[0]["range"]["start"], at(&base_text, "hands {"), "{def}");
    c.stop();
}

#[test]
fn a_malformed_request_gets_an_error_and_the_server_goes_on() {
    let mut c = Client::start();
    c.send(&json!({ "jsonrpc": "2.0", "id": 99, "method": "textDocument/hover", "params": { "textDocument": {} } }));
    let answer = loop {
        let m = c.read();
        if m["id"] == json!(99) {
            break m;
        }
    };
    assert!(answer["error"]["message"].as_str().is_some(), "{answer}");
    let path = root().join("rulesets/thebes/thebes.ruleset");
    let symbols = c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri(&path) } }));
    assert!(symbols.as_array().unwrap().len() > 50, "{symbols}");
    c.stop();
}

#[test]
fn the_editor_grammar_highlights_exactly_the_languages_keywords() {
    let text =
        std::fs::read_to_string(root().join("editors/vscode/syntaxes/ruleset.tmLanguage.json")).unwrap();
    let grammar: Value = serde_json::from_str(&text).unwrap();
    let pattern = grammar["repository"]["keyword"]["match"].as_str().unwrap();
    let inner = pattern.strip_prefix("\\b(?:").and_then(|p| p.strip_suffix(")\\b")).unwrap();
    let mut highlighted: Vec<&str> = inner.split('|').collect();
    let mut keywords: Vec<&str> = ruleset::parser::keywords::all_words().collect();
    highlighted.sort_unstable();
    keywords.sort_unstable();
    keywords.dedup();
    assert_eq!(highlighted, keywords);
}

#[test]
fn a_message_larger_than_the_limit_is_skipped_unread_and_the_server_goes_on() {
    let mut c = Client::start();
    // A body one byte over the limit: refused with an error, its bytes
    // skipped (not held), and the next message read as usual.
    let size = chronoscope_cli::lsp::MAX_MESSAGE + 1;
    write!(c.stdin, "Content-Length: {size}\r\n\r\n").unwrap();
    let chunk = vec![b' '; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len());
        c.stdin.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    let refused = c.read();
    assert!(refused["error"]["message"].as_str().unwrap().contains("larger than"), "{refused}");
    let path = root().join("rulesets/thebes/thebes.ruleset");
    let symbols = c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri(&path) } }));
    assert!(symbols.as_array().is_some_and(|s| !s.is_empty()), "{symbols}");
    c.stop();
}
