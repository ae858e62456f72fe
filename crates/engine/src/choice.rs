//! A choice: one action with its parameters chosen, as the engine lists
//! them and a player (or a bot) picks one.

use model::{ActionId, ComponentId};

use crate::state::V;

/// One action with its parameters chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub action: ActionId,
    pub args: Args,
    /// The components of each set-valued argument (`V::Set(i)` is
    /// `sets[i]`), in the order they lie in their zone.
    pub sets: Vec<Vec<ComponentId>>,
}

impl Choice {
    /// A choice without set-valued parameters.
    pub fn new(action: ActionId, args: impl Into<Args>) -> Choice {
        Choice { action, args: args.into(), sets: Vec::new() }
    }
}

/// How many parameter values a choice keeps in place, without a list of
/// its own on the heap: a listing makes one choice per legal combination,
/// thousands a game, and the actions of the bundled games take at most 7.
pub const INLINE_ARGS: usize = 7;

/// A choice's parameter values, read as a slice (`&args[..]`, `iter`,
/// `len`). Up to [`INLINE_ARGS`] lie in place; more in a list on the heap.
#[derive(Clone)]
pub struct Args(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, values: [V; INLINE_ARGS] },
    Heap(Vec<V>),
}

impl Args {
    /// No values.
    pub fn new() -> Args {
        Args(Repr::Inline { len: 0, values: [V::None; INLINE_ARGS] })
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[V]) -> Args {
        if values.len() <= INLINE_ARGS {
            let mut inline = [V::None; INLINE_ARGS];
            inline[..values.len()].copy_from_slice(values);
            Args(Repr::Inline { len: values.len() as u8, values: inline })
        } else {
            Args(Repr::Heap(values.to_vec()))
        }
    }

    /// One more value at the end.
    pub fn push(&mut self, v: V) {
        match &mut self.0 {
            Repr::Inline { len, values } if (*len as usize) < INLINE_ARGS => {
                values[*len as usize] = v;
                *len += 1;
            }
            Repr::Inline { len, values } => {
                let mut list = values[..*len as usize].to_vec();
                list.push(v);
                self.0 = Repr::Heap(list);
            }
            Repr::Heap(list) => list.push(v),
        }
    }
}

impl Default for Args {
    fn default() -> Args {
        Args::new()
    }
}

impl std::ops::Deref for Args {
    type Target = [V];
    fn deref(&self) -> &[V] {
        match &self.0 {
            Repr::Inline { len, values } => &values[..*len as usize],
            Repr::Heap(list) => list,
        }
    }
}

impl std::ops::DerefMut for Args {
    fn deref_mut(&mut self) -> &mut [V] {
        match &mut self.0 {
            Repr::Inline { len, values } => &mut values[..*len as usize],
            Repr::Heap(list) => list,
        }
    }
}

impl From<Vec<V>> for Args {
    fn from(values: Vec<V>) -> Args {
        if values.len() <= INLINE_ARGS {
            Args::from_slice(&values)
        } else {
            Args(Repr::Heap(values))
        }
    }
}

impl From<&[V]> for Args {
    fn from(values: &[V]) -> Args {
        Args::from_slice(values)
    }
}

impl<const N: usize> From<[V; N]> for Args {
    fn from(values: [V; N]) -> Args {
        Args::from_slice(&values)
    }
}

impl FromIterator<V> for Args {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Args {
        let mut args = Args::new();
        for v in iter {
            args.push(v);
        }
        args
    }
}

impl<'a> IntoIterator for &'a Args {
    type Item = &'a V;
    type IntoIter = std::slice::Iter<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Equal when the values are, however they are kept.
impl PartialEq for Args {
    fn eq(&self, other: &Args) -> bool {
        self[..] == other[..]
    }
}

impl PartialEq<[V]> for Args {
    fn eq(&self, other: &[V]) -> bool {
        self[..] == *other
    }
}

impl<const N: usize> PartialEq<[V; N]> for Args {
    fn eq(&self, other: &[V; N]) -> bool {
        self[..] == other[..]
    }
}

impl PartialEq<Vec<V>> for Args {
    fn eq(&self, other: &Vec<V>) -> bool {
        self[..] == other[..]
    }
}

/// As a list of the values, as a `Vec` shows.
impl std::fmt::Debug for Args {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the room in place, values go on in a list on the heap: a
    /// choice of many parameters keeps every value, in order, and compares
    /// equal to the same values however they were gathered.
    #[test]
    fn args_past_the_inline_room_keep_every_value_in_order() {
        let values: Vec<V> = (0..INLINE_ARGS as i64 + 3).map(V::Int).collect();
        let pushed: Args = values.iter().copied().collect();
        assert_eq!(&pushed[..], &values[..]);
        assert_eq!(Args::from(values.clone()), pushed);
        assert_eq!(Args::from_slice(&values), pushed);
        let few = Args::from_slice(&values[..2]);
        assert_eq!(few.len(), 2);
        assert_eq!(few, [V::Int(0), V::Int(1)]);
        assert_ne!(few, pushed);
        assert_eq!(format!("{pushed:?}"), format!("{values:?}"), "shown as a list");
    }
}
