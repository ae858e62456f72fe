//! The full-screen table: what a seat sees, the choices grouped by action
//! with what each would do, and the recent events, on one screen drawn
//! with ratatui; keys to pick. The line mode (`prompt`) stays for pipes and
//! scripts.
//!
//! Everything shown comes from the same functions as the line mode
//! (`view::table_parts`, `prompt::listing`, the play loop's own lines), so
//! the screen shows nothing the seat may not see that the line mode would
//! not. A [`Page`] is built once per decision; [`Ui`] holds where the
//! cursor is and what is being typed; [`draw`] paints both. Keys go through
//! [`Ui::on_key`], so a test can drive the screen with no terminal.

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use ratatui::backend::Backend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::{Frame, Terminal};

use engine::{notation, Choice, Game};

use super::prompt::{listing, Answer, Group};
use super::view::{fail_text, table_parts, wrap};
use super::Stop;

/// The keys, as the help overlay lists them.
const KEYS: &str = "\
↑ ↓ or j k   move through the choices (PgUp PgDn Home End)
← →          previous / next action
Enter        play the chosen choice
: or a digit type a choice as the line mode takes it (`dig Egypt 3`, `12`)
Tab          move the focus: choices, table, log (↑ ↓ scroll it)
u            undo your last decision, when nobody has moved since
?            this help          q   stop the game (asks first)";

/// The question `q` asks.
const QUIT: &str = "\
y   stop, and keep the game in a save file to go on later
n   stop without keeping it
Esc go on playing";

/// Where the loop meets a full screen: asked for a decision.
pub trait Screen {
    fn ask(&mut self, game: &Game, choices: &[Choice], sources: &[(String, String)]) -> Result<Answer, Stop>;
}

/// What the play loop writes while a screen is up: kept for the log pane,
/// and passed straight through to `echo` while the screen is not open
/// (bots playing before the first human decision, a script replayed).
#[derive(Clone, Default)]
pub struct Transcript {
    inner: Rc<RefCell<TranscriptInner>>,
}

#[derive(Default)]
struct TranscriptInner {
    text: Vec<u8>,
    /// Where the text stood when the screen last closed or opened: what
    /// came after is printed when the screen closes for good.
    mark: usize,
    echo: Option<Box<dyn Write>>,
}

impl Transcript {
    /// A transcript that also writes to `echo` until the screen opens.
    pub fn echoing(echo: Box<dyn Write>) -> Transcript {
        let t = Transcript::default();
        t.inner.borrow_mut().echo = Some(echo);
        t
    }

    /// The last `n` lines written, without empty ones.
    pub fn last_lines(&self, n: usize) -> Vec<String> {
        let inner = self.inner.borrow();
        let text = String::from_utf8_lossy(&inner.text);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(n)..].iter().map(|l| (*l).to_string()).collect()
    }

    /// What was written since the screen last opened (the end of a game,
    /// a quit), to print once the screen is closed.
    pub fn since_mark(&self) -> String {
        let inner = self.inner.borrow();
        String::from_utf8_lossy(&inner.text[inner.mark.min(inner.text.len())..]).into_owned()
    }

    fn stop_echo(&self) {
        let mut inner = self.inner.borrow_mut();
        if let Some(mut e) = inner.echo.take() {
            let _ = e.flush();
        }
        inner.mark = inner.text.len();
    }

    fn set_mark(&self) {
        let mut inner = self.inner.borrow_mut();
        inner.mark = inner.text.len();
    }
}

impl Write for Transcript {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut inner = self.inner.borrow_mut();
        if let Some(e) = inner.echo.as_mut() {
            e.write_all(buf)?;
        }
        // Keep the last 256 KiB: the log pane shows only the end.
        inner.text.extend_from_slice(buf);
        const KEEP: usize = 256 * 1024;
        if inner.text.len() > 2 * KEEP {
            let cut = inner.text.len() - KEEP;
            inner.text.drain(..cut);
            inner.mark = inner.mark.saturating_sub(cut);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.inner.borrow_mut().echo.as_mut() {
            Some(e) => e.flush(),
            None => Ok(()),
        }
    }
}

/// One decision's screen, built once from the game as the seat sees it.
pub struct Page {
    /// `Thebes · action 12 · P1 (you) to move`.
    pub heading: String,
    /// The table, one entry per line before wrapping; the first `heads`
    /// (not indented) are the turn order, the score and the standings.
    pub table: Vec<String>,
    pub heads: usize,
    /// The players' lines in `table` (not indented; the seat's own bold).
    pub players: std::ops::Range<usize>,
    pub groups: Vec<Group>,
    /// Every listed choice, in screen order: (group, entry).
    pub rows: Vec<(usize, usize)>,
}

impl Page {
    pub fn new(game: &Game, choices: &[Choice]) -> Page {
        let me = game.current();
        let parts = table_parts(game, me);
        let mut heading = parts.heading.clone();
        if let Some(p) = me {
            heading = heading.replace(&format!("{p} to move"), &format!("{p} (you) to move"));
            if let Some((_, a)) = game.asks().first() {
                heading.push_str(&format!(" · the rules ask you to `{}`", game.rules.actions[*a].name));
            }
        }
        // What changes most from turn to turn first: whose turn, the score,
        // what lies on the table; then the players' numbers and what is
        // hidden, which the pane scrolls to.
        let mut table: Vec<String> = Vec::new();
        table.extend(parts.order);
        table.extend(parts.score);
        table.extend(parts.standings);
        let heads = table.len();
        table.extend(parts.maps);
        table.extend(parts.zones);
        let players = table.len();
        table.extend(parts.players);
        table.extend(parts.unseen);
        let groups = listing(game, choices, None);
        let rows = groups
            .iter()
            .enumerate()
            .flat_map(|(g, group)| (0..group.entries.len()).map(move |e| (g, e)))
            .collect();
        let players_end = players + game.players();
        Page { heading, table, heads, players: players..players_end, groups, rows }
    }
}

/// Which pane the arrow keys scroll.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Focus {
    Choices,
    Table,
    Log,
}

/// The screen's own state between keys.
pub struct Ui {
    /// The chosen row of `Page::rows`.
    pub selected: usize,
    pub focus: Focus,
    pub table_scroll: usize,
    /// Lines scrolled back from the end of the log.
    pub log_back: usize,
    /// A choice being typed, after `:`.
    pub input: Option<String>,
    /// A message for the footer (why a typed choice is not allowed, ...).
    pub message: Option<String>,
    pub help: bool,
    /// `q` was pressed: stop, keeping the game or not, or go on?
    pub quitting: bool,
}

/// What a key asks for.
#[derive(Debug)]
pub enum Outcome {
    Play(Choice),
    Undo,
    /// Stop, and whether to keep the game in a save file.
    Quit {
        keep: bool,
    },
    /// Ctrl-C: stop without the question.
    Interrupt,
    Nothing,
}

impl Ui {
    pub fn new() -> Ui {
        Ui {
            selected: 0,
            focus: Focus::Choices,
            table_scroll: 0,
            log_back: 0,
            input: None,
            message: None,
            help: false,
            quitting: false,
        }
    }

    /// Act on one key.
    pub fn on_key(
        &mut self,
        key: KeyEvent,
        page: &Page,
        game: &Game,
        choices: &[Choice],
        sources: &[(String, String)],
    ) -> Outcome {
        if key.modifiers.contains(KeyModifiers::CONTROL) && matches!(key.code, KeyCode::Char('c' | 'd')) {
            return Outcome::Interrupt;
        }
        if self.help {
            self.help = false;
            return Outcome::Nothing;
        }
        if self.quitting {
            match key.code {
                KeyCode::Char('y' | 'Y') => return Outcome::Quit { keep: true },
                KeyCode::Char('n' | 'N') => return Outcome::Quit { keep: false },
                KeyCode::Esc => self.quitting = false,
                _ => {}
            }
            return Outcome::Nothing;
        }
        if let Some(input) = self.input.as_mut() {
            match key.code {
                KeyCode::Esc => self.input = None,
                KeyCode::Backspace => {
                    input.pop();
                }
                KeyCode::Char(c) => input.push(c),
                KeyCode::Enter => {
                    let text = self.input.take().unwrap_or_default();
                    return self.typed(text.trim(), game, choices, sources);
                }
                _ => {}
            }
            return Outcome::Nothing;
        }
        self.message = None;
        let rows = page.rows.len();
        match key.code {
            KeyCode::Char('q') => self.quitting = true,
            KeyCode::Char('u') => return Outcome::Undo,
            KeyCode::Char('?') | KeyCode::F(1) => self.help = true,
            KeyCode::Char(':') => self.input = Some(String::new()),
            KeyCode::Char(c) if c.is_ascii_digit() => self.input = Some(c.to_string()),
            KeyCode::Tab => {
                self.focus = match self.focus {
                    Focus::Choices => Focus::Table,
                    Focus::Table => Focus::Log,
                    Focus::Log => Focus::Choices,
                }
            }
            KeyCode::BackTab => {
                self.focus = match self.focus {
                    Focus::Choices => Focus::Log,
                    Focus::Table => Focus::Choices,
                    Focus::Log => Focus::Table,
                }
            }
            KeyCode::Enter => {
                if let Some((g, e)) = page.rows.get(self.selected) {
                    let number = page.groups[*g].entries[*e].number;
                    if let Some(c) = choices.get(number - 1) {
                        return Outcome::Play(c.clone());
                    }
                }
            }
            KeyCode::Left | KeyCode::Char('h') if self.focus == Focus::Choices => {
                let group = page.rows.get(self.selected).map_or(0, |r| r.0);
                let target =
                    if self.selected > 0 && page.rows.get(self.selected - 1).is_some_and(|r| r.0 == group) {
                        group
                    } else {
                        group.saturating_sub(1)
                    };
                self.selected = page.rows.iter().position(|r| r.0 == target).unwrap_or(0);
            }
            KeyCode::Right | KeyCode::Char('l') if self.focus == Focus::Choices => {
                let group = page.rows.get(self.selected).map_or(0, |r| r.0);
                if let Some(i) = page.rows.iter().position(|r| r.0 > group) {
                    self.selected = i;
                }
            }
            code => {
                let step: isize = match code {
                    KeyCode::Up | KeyCode::Char('k') => -1,
                    KeyCode::Down | KeyCode::Char('j') => 1,
                    KeyCode::PageUp => -10,
                    KeyCode::PageDown => 10,
                    KeyCode::Home => -1_000_000,
                    KeyCode::End => 1_000_000,
                    _ => 0,
                };
                let moved = |at: usize, len: usize| at.saturating_add_signed(step).min(len.saturating_sub(1));
                match self.focus {
                    Focus::Choices => self.selected = moved(self.selected, rows),
                    Focus::Table => self.table_scroll = moved(self.table_scroll, page.table.len() * 4),
                    // The log counts back from its end: up goes further back.
                    Focus::Log => {
                        self.log_back = self.log_back.saturating_add_signed(-step).min(LOG_LINES);
                    }
                }
            }
        }
        Outcome::Nothing
    }

    /// A line typed after `:`: a choice's number, a choice as the line
    /// mode writes it, or `undo`, `quit`, `help`.
    fn typed(
        &mut self,
        text: &str,
        game: &Game,
        choices: &[Choice],
        sources: &[(String, String)],
    ) -> Outcome {
        match text {
            "" => return Outcome::Nothing,
            "undo" => return Outcome::Undo,
            "quit" | "exit" => {
                self.quitting = true;
                return Outcome::Nothing;
            }
            "help" | "?" => {
                self.help = true;
                return Outcome::Nothing;
            }
            _ => {}
        }
        if let Ok(n) = text.parse::<usize>() {
            return match choices.get(n.wrapping_sub(1)) {
                Some(c) => Outcome::Play(c.clone()),
                None => {
                    self.message = Some(format!("no choice {n}; choices run from 1 to {}", choices.len()));
                    Outcome::Nothing
                }
            };
        }
        match notation::parse(game, text) {
            Err(e) => self.message = Some(e.to_string()),
            Ok(c) => match game.check(&c) {
                Ok(()) => return Outcome::Play(c),
                Err(f) => self.message = Some(format!("not allowed: {}", fail_text(&f, sources))),
            },
        }
        Outcome::Nothing
    }
}

impl Default for Ui {
    fn default() -> Ui {
        Ui::new()
    }
}

/// How many lines of the log the pane may scroll back through.
const LOG_LINES: usize = 400;

/// Paint one decision's screen: the heading, the table, the choices with
/// the chosen one's consequences, the log and the footer. Two columns from
/// 110 columns on, else one; every pane scrolls.
pub fn draw(frame: &mut Frame, page: &Page, ui: &Ui, log: &[String]) {
    let area = frame.area();
    let [head, middle, foot] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    let reversed = Style::new().add_modifier(Modifier::REVERSED);
    frame.render_widget(Paragraph::new(fit(&format!(" {}", page.heading), head.width)).style(reversed), head);

    let (table_area, choices_area, log_area) = if middle.width >= 110 {
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(middle);
        let [c, l] = Layout::vertical([Constraint::Percentage(62), Constraint::Fill(1)]).areas(right);
        (left, c, l)
    } else {
        let [t, c, l] =
            Layout::vertical([Constraint::Percentage(36), Constraint::Percentage(44), Constraint::Fill(1)])
                .areas(middle);
        (t, c, l)
    };
    draw_table(frame, page, ui, table_area);
    draw_choices(frame, page, ui, choices_area);
    draw_log(frame, ui, log, log_area);

    let footer = match (&ui.input, &ui.message) {
        (Some(input), _) => format!(" choice: {input}_   (Enter play · Esc back)"),
        (None, Some(m)) => format!(" {m}"),
        (None, None) => " ↑↓ choose · Enter play · : type · Tab pane · u undo · ? help · q quit".into(),
    };
    let style = if ui.message.is_some() && ui.input.is_none() {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    frame.render_widget(Paragraph::new(fit(&footer, foot.width)).style(style), foot);

    if ui.help {
        overlay(frame, " Keys (any key closes) ", KEYS, area);
    }
    if ui.quitting {
        overlay(frame, " Stop the game? ", QUIT, area);
    }
}

/// A pane's frame: a rule on top with its title, bold when it has the focus.
fn pane(title: String, focused: bool) -> Block<'static> {
    let style = if focused { Style::new().add_modifier(Modifier::BOLD) } else { Style::new() };
    Block::new().borders(Borders::TOP).title(Span::styled(title, style))
}

fn draw_table(frame: &mut Frame, page: &Page, ui: &Ui, area: Rect) {
    let width = usize::from(area.width.max(20));
    let mut lines: Vec<Line> = Vec::new();
    for (i, entry) in page.table.iter().enumerate() {
        let player = page.players.contains(&i);
        let indent = if i < page.heads || player { "" } else { "  " };
        let style = if player && entry.contains("(you)") {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        for l in wrap(&format!("{indent}{entry}"), width).lines() {
            lines.push(Line::styled(l.to_string(), style));
        }
    }
    let inner = usize::from(area.height.saturating_sub(1));
    let scroll = ui.table_scroll.min(lines.len().saturating_sub(inner));
    let more = lines.len().saturating_sub(scroll + inner);
    let title =
        if more > 0 { format!(" Table · {more} more lines (Tab, ↓) ") } else { " Table ".to_string() };
    let p = Paragraph::new(lines).block(pane(title, ui.focus == Focus::Table)).scroll((clamp16(scroll), 0));
    frame.render_widget(p, area);
}

fn draw_choices(frame: &mut Frame, page: &Page, ui: &Ui, area: Rect) {
    let block = pane(format!(" Choices · {} ", count_choices(page)), ui.focus == Focus::Choices);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // The chosen choice in full below the list: all it would do.
    let chosen = page.rows.get(ui.selected).map(|(g, e)| &page.groups[*g].entries[*e]);
    let width = usize::from(inner.width.max(20));
    let detail: Vec<String> = match chosen {
        Some(e) => {
            let what = e.preview.trim().trim_start_matches('(').trim_end_matches(')');
            let what = if what.is_empty() { "no change that can be counted in advance" } else { what };
            wrap(&format!("{}. {}: {what}", e.number, e.text), width).lines().map(str::to_string).collect()
        }
        None => Vec::new(),
    };
    let detail_height = detail.len().min(usize::from(inner.height) / 3).max(usize::from(!detail.is_empty()));
    let [list_area, detail_area] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(clamp16(detail_height))]).areas(inner);

    // Group headings, then one line per choice; the chosen one reversed.
    let mut lines: Vec<Line> = Vec::new();
    let mut selected_line = 0;
    let mut row = 0;
    for g in &page.groups {
        let n = g.entries.len();
        let mut heading = format!("{} · {n} choice{}", g.name, crate::plural(n));
        if g.ranked {
            heading.push_str(", most points first");
        }
        if !g.wasted.is_empty() {
            heading.push_str(&format!(" · {} spending a card for nothing left out", g.wasted.len()));
        }
        lines.push(Line::styled(heading, Style::new().add_modifier(Modifier::BOLD)));
        for e in &g.entries {
            let chosen = row == ui.selected;
            if chosen {
                selected_line = lines.len();
            }
            let style = if chosen { Style::new().add_modifier(Modifier::REVERSED) } else { Style::new() };
            lines.push(Line::from(vec![
                Span::styled(format!("{:>4}. {}", e.number, e.text), style),
                Span::styled(e.preview.clone(), Style::new().add_modifier(Modifier::DIM)),
            ]));
            row += 1;
        }
    }
    let height = usize::from(list_area.height);
    // Keep the chosen line in sight, with its group's heading when it fits.
    let scroll =
        selected_line.saturating_sub(height.saturating_sub(1) / 2).min(lines.len().saturating_sub(height));
    frame.render_widget(Paragraph::new(lines).scroll((clamp16(scroll), 0)), list_area);
    let detail: Vec<Line> = detail.into_iter().map(Line::from).collect();
    frame.render_widget(
        Paragraph::new(detail).style(Style::new().add_modifier(Modifier::ITALIC)),
        detail_area,
    );
}

fn count_choices(page: &Page) -> String {
    let wasted: usize = page.groups.iter().map(|g| g.wasted.len()).sum();
    let n = page.rows.len();
    let mut text = format!("{n} listed");
    if wasted > 0 {
        text.push_str(&format!(", {wasted} left out"));
    }
    text
}

fn draw_log(frame: &mut Frame, ui: &Ui, log: &[String], area: Rect) {
    let width = usize::from(area.width.max(20));
    let lines: Vec<String> =
        log.iter().flat_map(|l| wrap(l, width).lines().map(str::to_string).collect::<Vec<_>>()).collect();
    let height = usize::from(area.height.saturating_sub(1));
    let back = ui.log_back.min(lines.len().saturating_sub(height));
    let end = lines.len() - back;
    let start = end.saturating_sub(height);
    let title = if back > 0 { format!(" Log · {back} lines back ") } else { " Log ".to_string() };
    let shown: Vec<Line> = lines[start..end].iter().map(|l| Line::from(l.clone())).collect();
    frame.render_widget(Paragraph::new(shown).block(pane(title, ui.focus == Focus::Log)), area);
}

/// A box in the middle of the screen over what lies below.
fn overlay(frame: &mut Frame, title: &str, text: &str, area: Rect) {
    let width = text.lines().map(|l| l.chars().count()).max().unwrap_or(0) + 4;
    let width = clamp16(width).min(area.width);
    let height = clamp16(text.lines().count() + 2).min(area.height);
    let rect =
        Rect { x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width, height };
    frame.render_widget(Clear, rect);
    let body: Vec<Line> = text.lines().map(|l| Line::from(format!(" {l}"))).collect();
    frame.render_widget(Paragraph::new(body).block(Block::bordered().title(title.to_string())), rect);
}

/// `text` cut to `width` columns.
fn fit(text: &str, width: u16) -> String {
    text.chars().take(usize::from(width)).collect()
}

fn clamp16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// A full screen on a ratatui terminal, opened at the first decision (so
/// bots and a replayed script print as lines until a human is asked) and
/// closed when dropped. `keys` gives the terminal's events.
pub struct FullScreen<B: Backend> {
    terminal: Option<Terminal<B>>,
    open: Box<dyn FnMut() -> std::io::Result<Terminal<B>>>,
    close: Box<dyn FnMut()>,
    keys: Box<dyn FnMut() -> std::io::Result<Event>>,
    transcript: Transcript,
}

impl<B: Backend> FullScreen<B> {
    pub fn new(
        open: Box<dyn FnMut() -> std::io::Result<Terminal<B>>>,
        close: Box<dyn FnMut()>,
        keys: Box<dyn FnMut() -> std::io::Result<Event>>,
        transcript: Transcript,
    ) -> FullScreen<B> {
        FullScreen { terminal: None, open, close, keys, transcript }
    }

    /// The terminal, opening it first; the transcript stops echoing.
    fn terminal(&mut self) -> Result<&mut Terminal<B>, Stop> {
        if self.terminal.is_none() {
            self.transcript.stop_echo();
            self.terminal = Some((self.open)()?);
        }
        Ok(self.terminal.as_mut().expect("opened above"))
    }

    /// The terminal as last drawn (for tests on a `TestBackend`).
    pub fn backend(&self) -> Option<&B> {
        self.terminal.as_ref().map(Terminal::backend)
    }

    /// Wait for the next key press (other events redraw).
    fn key(&mut self) -> Result<Option<KeyEvent>, Stop> {
        match (self.keys)()? {
            Event::Key(k) if k.kind != KeyEventKind::Release => Ok(Some(k)),
            _ => Ok(None),
        }
    }

    fn paint(&mut self, page: &Page, ui: &Ui) -> Result<(), Stop> {
        let log = self.transcript.last_lines(LOG_LINES);
        self.terminal()?.draw(|f| draw(f, page, ui, &log))?;
        Ok(())
    }
}

impl<B: Backend> Screen for FullScreen<B> {
    fn ask(&mut self, game: &Game, choices: &[Choice], sources: &[(String, String)]) -> Result<Answer, Stop> {
        let page = Page::new(game, choices);
        let mut ui = Ui::new();
        loop {
            self.paint(&page, &ui)?;
            let Some(key) = self.key()? else { continue };
            match ui.on_key(key, &page, game, choices, sources) {
                Outcome::Nothing => {}
                Outcome::Play(c) => {
                    self.transcript.set_mark();
                    return Ok(Answer::Choice(c));
                }
                Outcome::Undo => return Ok(Answer::Undo),
                Outcome::Quit { keep } => return Ok(Answer::Quit { typed: true, keep: Some(keep) }),
                Outcome::Interrupt => return Ok(Answer::Quit { typed: false, keep: Some(false) }),
            }
        }
    }
}

impl<B: Backend> Drop for FullScreen<B> {
    fn drop(&mut self) {
        if self.terminal.take().is_some() {
            (self.close)();
        }
    }
}
