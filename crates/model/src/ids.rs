//! Typed IDs: one type per kind of thing a ruleset numbers, so a place can
//! never be used where a zone is meant.
//!
//! Each is an index into one of [`crate::Ruleset`]'s lists, which can be
//! indexed by it directly (`r.places[p]`). Players are [`PlayerId`]s, counted
//! from 0 everywhere inside and shown from 1 (`P1`) only to people.

use std::fmt;
use std::ops::{Index, IndexMut};

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(usize);

        impl $name {
            /// The ID of the `i`-th entry of its list.
            #[inline]
            pub const fn new(i: usize) -> Self {
                $name(i)
            }

            /// The position in its list.
            #[inline]
            pub const fn index(self) -> usize {
                self.0
            }

            /// Every ID of a list of `len` entries, in order.
            pub fn all(len: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator + Clone {
                (0..len).map(Self::new)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self.0)
            }
        }

    )*};
}

/// `list[id]` for a list of `$item`s.
macro_rules! index {
    ($name:ident => $item:ty) => {
        impl Index<$name> for [$item] {
            type Output = $item;
            #[inline]
            fn index(&self, id: $name) -> &$item {
                &self[id.index()]
            }
        }

        impl IndexMut<$name> for [$item] {
            #[inline]
            fn index_mut(&mut self, id: $name) -> &mut $item {
                &mut self[id.index()]
            }
        }

        impl Index<$name> for Vec<$item> {
            type Output = $item;
            #[inline]
            fn index(&self, id: $name) -> &$item {
                &self[id.index()]
            }
        }

        impl IndexMut<$name> for Vec<$item> {
            #[inline]
            fn index_mut(&mut self, id: $name) -> &mut $item {
                &mut self[id.index()]
            }
        }
    };
}

ids! {
    /// A place on the board (`Ruleset::places`).
    PlaceId;
    /// A class of places (`Ruleset::classes`).
    ClassId;
    /// A tag (`Ruleset::tags`).
    TagId;
    /// A kind of component (`Ruleset::kinds`).
    KindId;
    /// An attribute name (`Ruleset::attr_names`).
    AttrId;
    /// A group of components (`Ruleset::groups`).
    GroupId;
    /// A zone as declared (`Ruleset::zones`); one declaration may have an
    /// instance per player or per place, numbered by the engine.
    ZoneId;
    /// A counter as declared (`Ruleset::counters`).
    CounterId;
    /// A piece as declared (`Ruleset::pieces`).
    PieceId;
    /// A lookup table (`Ruleset::tables`).
    TableId;
    /// A let (`Ruleset::lets`).
    LetId;
    /// A procedure (`Ruleset::procedures`).
    ProcedureId;
    /// An action (`Ruleset::actions`).
    ActionId;
    /// An option (`Ruleset::options`).
    OptionId;
}

/// One physical component (`Ruleset::components`). Kept as its index plus
/// one, so that `Option<ComponentId>` (a slot of a zone: a row's may be
/// empty) takes four bytes, not eight: zones are copied, and moved up as
/// components are drawn, at every action.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ComponentId(std::num::NonZeroU32);

impl ComponentId {
    /// The ID of the `i`-th component (the checker keeps far fewer than
    /// `u32::MAX`).
    #[inline]
    pub const fn new(i: usize) -> Self {
        assert!(i < u32::MAX as usize, "a component number past u32::MAX");
        match std::num::NonZeroU32::new(i as u32 + 1) {
            Some(n) => ComponentId(n),
            None => unreachable!(),
        }
    }

    /// The position in the ruleset's list of components.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }

    /// Every ID of a list of `len` components, in order.
    pub fn all(len: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator + Clone {
        (0..len).map(Self::new)
    }
}

impl Default for ComponentId {
    fn default() -> Self {
        ComponentId::new(0)
    }
}

impl fmt::Debug for ComponentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ComponentId({})", self.index())
    }
}

index!(PlaceId => crate::Place);
index!(ClassId => crate::PlaceClass);
index!(TagId => String);
index!(KindId => crate::Kind);
index!(GroupId => crate::Group);
index!(ComponentId => crate::Component);
index!(ZoneId => crate::Zone);
index!(CounterId => crate::Counter);
index!(PieceId => crate::Piece);
index!(TableId => crate::Table);
index!(LetId => crate::Let);
index!(ProcedureId => crate::Procedure);
index!(ActionId => crate::Action);
index!(OptionId => crate::OptionDef);

/// A player (their seat): 0 for the first player inside the program; shown to
/// people as `P1` (see the `Display` impl).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PlayerId(usize);

impl PlayerId {
    #[inline]
    pub const fn new(i: usize) -> Self {
        PlayerId(i)
    }

    /// The seat's position, from 0.
    #[inline]
    pub const fn index(self) -> usize {
        self.0
    }

    /// The number people see: 1 for the first player.
    pub const fn number(self) -> usize {
        self.0 + 1
    }

    /// Every seat of a game of `players`, in order.
    pub fn all(players: usize) -> impl DoubleEndedIterator<Item = PlayerId> + ExactSizeIterator + Clone {
        (0..players).map(PlayerId)
    }
}

impl fmt::Debug for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PlayerId({})", self.0)
    }
}

/// `P1`, `P2`, ...: how players are named to people.
impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0 + 1)
    }
}
