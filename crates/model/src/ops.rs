//! Operators and small words shared by the syntax tree and the model.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteKind {
    Source,
    Provisional,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// Where the zone puts things by default (top of a pile, first free
    /// slot of a row, anywhere in a bag).
    Default,
    Top,
    Bottom,
    /// The first slot of a row, pushing the others along.
    Front,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Has,
}

impl BinaryOp {
    /// `x OP y` as `y OP' x`: a comparison turned round (`<` and `>`,
    /// `<=` and `>=`), which is also what multiplying both sides by -1
    /// does to it; any other operator as it is.
    #[inline]
    pub fn flipped(self) -> BinaryOp {
        match self {
            BinaryOp::Lt => BinaryOp::Gt,
            BinaryOp::Le => BinaryOp::Ge,
            BinaryOp::Gt => BinaryOp::Lt,
            BinaryOp::Ge => BinaryOp::Le,
            other => other,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Has => "has",
        }
    }
}
