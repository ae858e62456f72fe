//! Scripts and saves: `# seed N` and `# players N` lines, then one action
//! a line in the typed notation.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A script: `# seed N` and `# players N` lines, then one action per line.
pub struct Script {
    pub seed: Option<u64>,
    pub players: Option<u32>,
    /// (line number, text)
    pub actions: Vec<(usize, String)>,
    pub next: usize,
}

pub fn read_script(path: &Path) -> Result<Script, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read script `{}`: {e}", path.display()))?;
    let mut s = Script { seed: None, players: None, actions: Vec::new(), next: 0 };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix('#') {
            let mut words = rest.split_whitespace();
            match (words.next(), words.next()) {
                (Some("seed"), Some(n)) => {
                    s.seed = Some(n.parse().map_err(|_| format!("script line {}: bad seed `{n}`", i + 1))?)
                }
                (Some("players"), Some(n)) => {
                    s.players = Some(
                        n.parse().map_err(|_| format!("script line {}: bad player count `{n}`", i + 1))?,
                    )
                }
                _ => {}
            }
        } else if !line.is_empty() {
            s.actions.push((i + 1, line.to_string()));
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
}

/// Write the game so far as a script that replays it.
pub fn write_save(path: &Option<PathBuf>, seed: u64, players: u32, actions: &[String]) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    let mut text =
        format!("# chronoscope save: replay with `chronoscope play RULESET --script {}`\n", path.display());
    let _ = writeln!(text, "# seed {seed}\n# players {players}");
    for a in actions {
        let _ = writeln!(text, "{a}");
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write save `{}`: {e}", path.display()))
}
