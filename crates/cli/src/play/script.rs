//! Scripts and saves: `# key value` header lines, then one action a line in
//! the typed notation.
//!
//! A save is a script that `play --save` writes after every action: its
//! header names the seed, the player count, the seats, a hash of the
//! ruleset's text and how many actions follow. Reading one back refuses a
//! changed ruleset and a file cut short; writing one replaces the old file
//! only once the new one is complete on disk. A script written by hand may
//! leave any header line out.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A script or a save, read.
pub struct Script {
    pub seed: Option<u64>,
    pub players: Option<u32>,
    /// `# seats human,random,...`
    pub seats: Option<String>,
    /// `# ruleset HASH`: the hash of the ruleset it was played with.
    pub ruleset: Option<String>,
    /// (line number, text)
    pub actions: Vec<(usize, String)>,
    pub next: usize,
}

/// What a save records besides its actions.
pub struct SaveHeader<'a> {
    pub seed: u64,
    pub players: u32,
    pub seats: &'a [String],
    pub ruleset: &'a str,
}

/// The largest script or save read: a game of the most actions a ruleset
/// may allow (1,000,000) at 64 bytes an action.
pub const MAX_SCRIPT_BYTES: u64 = 64 << 20;

pub fn read_script(path: &Path) -> Result<Script, String> {
    let text = crate::read_text(path, MAX_SCRIPT_BYTES, "script")?;
    parse_script(&text).map_err(|e| format!("script `{}`: {e}", path.display()))
}

/// Read a script's text (see the module's documentation).
pub fn parse_script(text: &str) -> Result<Script, String> {
    let mut s =
        Script { seed: None, players: None, seats: None, ruleset: None, actions: Vec::new(), next: 0 };
    let mut declared: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix('#') {
            let mut words = rest.split_whitespace();
            let bad = |what: &str, n: &str| format!("line {}: bad {what} `{n}`", i + 1);
            match (words.next(), words.next()) {
                (Some("seed"), Some(n)) => s.seed = Some(n.parse().map_err(|_| bad("seed", n))?),
                (Some("players"), Some(n)) => {
                    s.players = Some(n.parse().map_err(|_| bad("player count", n))?)
                }
                (Some("seats"), Some(n)) => s.seats = Some(n.to_string()),
                (Some("ruleset"), Some(n)) => s.ruleset = Some(n.to_string()),
                (Some("actions"), Some(n)) => declared = Some(n.parse().map_err(|_| bad("action count", n))?),
                _ => {}
            }
        } else if !line.is_empty() {
            s.actions.push((i + 1, line.to_string()));
        }
    }
    if let Some(n) = declared {
        // A save ends with a line break: without one, its last line may have
        // been cut (`dig Egypt 1` of `dig Egypt 12`).
        if s.actions.len() != n || !text.ends_with('\n') {
            return Err(format!(
                "the save is cut short: it should hold {n} action{} and holds {}{}",
                crate::plural(n),
                s.actions.len(),
                if text.ends_with('\n') { "" } else { ", the last one cut off" }
            ));
        }
    }
    Ok(s)
}

impl Script {
    /// The next action line, if any is left: (line number, text).
    pub fn next_line(&mut self) -> Option<(usize, String)> {
        let line = self.actions.get(self.next).cloned();
        self.next += 1;
        line
    }

    /// Whether every action line has been played.
    pub fn done(&self) -> bool {
        self.next >= self.actions.len()
    }
}

/// A save's text.
pub fn save_text(header: &SaveHeader, actions: &[String]) -> String {
    let mut text =
        String::from("# chronoscope save: replay with `chronoscope play RULESET --script THIS-FILE`\n");
    let _ = writeln!(text, "# seed {}\n# players {}", header.seed, header.players);
    let _ = writeln!(text, "# seats {}", header.seats.join(","));
    let _ = writeln!(text, "# ruleset {}", header.ruleset);
    let _ = writeln!(text, "# actions {}", actions.len());
    for a in actions {
        let _ = writeln!(text, "{a}");
    }
    text
}

/// Write the game so far as a save. The text goes to a file beside the
/// save, which then replaces it: a save is never left half written, even if
/// the program is killed.
pub fn write_save(path: &Option<PathBuf>, header: &SaveHeader, actions: &[String]) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    let fail = |e: std::io::Error| format!("cannot write save `{}`: {e}", path.display());
    let name = path.file_name().map_or_else(|| "save".into(), |n| n.to_string_lossy().into_owned());
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&temp, save_text(header, actions)).map_err(fail)?;
    std::fs::rename(&temp, path).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        fail(e)
    })
}

/// A hash of a ruleset's text, every file it was read from in order: a save
/// names it, and refuses to replay under another.
pub fn ruleset_hash(sources: &[(String, String)]) -> String {
    // FNV-1a, 64 bits: the same on every machine and Rust version.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (_, text) in sources {
        for b in text.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> (Vec<String>, String) {
        (vec!["human".into(), "random".into()], "0123456789abcdef".into())
    }

    #[test]
    fn a_save_reads_back_with_its_header_and_actions() {
        let (seats, hash) = header();
        let h = SaveHeader { seed: 7, players: 2, seats: &seats, ruleset: &hash };
        let text = save_text(&h, &["change".into(), "dig Egypt 12".into()]);
        let s = parse_script(&text).expect("a whole save reads");
        assert_eq!((s.seed, s.players), (Some(7), Some(2)));
        assert_eq!(s.seats.as_deref(), Some("human,random"));
        assert_eq!(s.ruleset.as_deref(), Some(hash.as_str()));
        let actions: Vec<&str> = s.actions.iter().map(|(_, a)| a.as_str()).collect();
        assert_eq!(actions, ["change", "dig Egypt 12"]);
    }

    #[test]
    fn a_save_cut_anywhere_is_refused() {
        let (seats, hash) = header();
        let h = SaveHeader { seed: 7, players: 2, seats: &seats, ruleset: &hash };
        let text = save_text(&h, &["change".into(), "dig Egypt 12".into()]);
        let body = text.find("change").expect("the first action");
        // Every cut after the action count, but the whole file.
        for cut in body..text.len() {
            let err = parse_script(&text[..cut]).err();
            assert!(err.is_some_and(|e| e.contains("cut short")), "cut at {cut}: {:?}", &text[..cut]);
        }
    }

    #[test]
    fn a_script_written_by_hand_needs_no_header() {
        let s = parse_script("take 1\ndig Egypt 3").expect("a plain script");
        assert_eq!(s.actions.len(), 2);
        assert!(s.ruleset.is_none());
    }
}
