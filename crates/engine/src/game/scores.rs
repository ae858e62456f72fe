//! The final score: by rule, totals, majorities and tiebreaks.

use model::*;

use super::Game;
use crate::interp::{Fail, Frame, Interp, Traced};
use crate::state::V;

/// The final score, by rule, with a total per player.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreSheet {
    /// `(rule, points per player)`; an indexed rule gives one row per place.
    pub rows: Vec<(String, Vec<i64>)>,
    pub totals: Vec<i64>,
    /// Everyone with the highest total.
    pub winners: Vec<PlayerId>,
    /// For each row of a majority rule, by the row's name: what each player
    /// has of what it measures (the standings).
    pub measures: Vec<(String, Vec<i64>)>,
}

impl Game<'_> {
    /// The score by rule, as things stand.
    pub fn scores(&self) -> Result<ScoreSheet, Fail> {
        self.scores_with(None)
    }

    /// `scores`, noting every let called and table entry read (`explain`).
    pub fn scores_traced(&self) -> Result<(ScoreSheet, Vec<Traced>), Fail> {
        let trace = std::cell::RefCell::new(Vec::new());
        let sheet = self.scores_with(Some(&trace))?;
        Ok((sheet, trace.into_inner()))
    }

    fn scores_with(&self, trace: Option<&std::cell::RefCell<Vec<Traced>>>) -> Result<ScoreSheet, Fail> {
        self.work.set(0);
        let n = self.players();
        let it = Interp { trace, ..self.interp(false) };
        let mut rows = Vec::new();
        let mut measures = Vec::new();
        for s in &self.rules.scores {
            let indexes: Vec<Option<PlaceId>> = match s.index {
                Some(c) => self.rules.classes[c].places.iter().map(|p| Some(*p)).collect(),
                None => vec![None],
            };
            for index in indexes {
                let name = match index {
                    Some(p) => format!("{}[{}]", s.name, self.rules.places[p].name),
                    None => s.name.clone(),
                };
                let frame = |me: PlayerId| {
                    let mut f = Frame::new(Some(me));
                    if let Some(p) = index {
                        f.set(0, V::Place(p));
                    }
                    f
                };
                let points = match &s.form {
                    ScoreForm::Expr(e) => {
                        let mut v = Vec::with_capacity(n);
                        for p in PlayerId::all(n) {
                            v.push(it.int(e, &self.state, &mut frame(p))?);
                        }
                        v
                    }
                    ScoreForm::Majority { measure, alone, tied, minimum } => {
                        let mut m = Vec::with_capacity(n);
                        for p in PlayerId::all(n) {
                            m.push(it.int(measure, &self.state, &mut frame(p))?);
                        }
                        let first = PlayerId::new(0);
                        let alone = it.int(alone, &self.state, &mut frame(first))?;
                        let tied = it.int(tied, &self.state, &mut frame(first))?;
                        let minimum = it.int(minimum, &self.state, &mut frame(first))?;
                        let best = m.iter().copied().max().unwrap_or(0);
                        let leaders = m.iter().filter(|x| **x == best).count();
                        let points = m
                            .iter()
                            .map(|x| {
                                if *x != best || best < minimum {
                                    0
                                } else if leaders == 1 {
                                    alone
                                } else {
                                    tied
                                }
                            })
                            .collect();
                        measures.push((name.clone(), m));
                        points
                    }
                };
                rows.push((name, points));
            }
        }
        // Exact, then clamped into range (`interp::clamped`).
        let totals: Vec<i64> = (0..n)
            .map(|p| crate::interp::clamped(rows.iter().map(|(_, v)| i128::from(v[p])).sum()))
            .collect();
        let best = totals.iter().copied().max().unwrap_or(0);
        let mut winners: Vec<PlayerId> = PlayerId::all(n).filter(|p| totals[p.index()] == best).collect();
        // Each tiebreak key in turn keeps the tied players who do best on it.
        for key in &self.rules.tiebreaks {
            if winners.len() < 2 {
                break;
            }
            let mut values = Vec::with_capacity(winners.len());
            for p in &winners {
                let mut f = Frame::new(Some(*p));
                values.push(it.int(&key.by, &self.state, &mut f)?);
            }
            let target = if key.lowest { values.iter().min() } else { values.iter().max() };
            let target = target.copied().unwrap_or(0);
            winners = winners.into_iter().zip(values).filter(|(_, v)| *v == target).map(|(p, _)| p).collect();
        }
        Ok(ScoreSheet { rows, totals, winners, measures })
    }
}
