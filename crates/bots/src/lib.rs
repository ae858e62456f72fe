//! Players that choose actions (issue 3 and 6): random, greedy, search.

#![forbid(unsafe_code)]
