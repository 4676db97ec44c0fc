//! The primitive operations on `Int#` (rule 14), shared by both engines so
//! that they compute the same values.

use crate::stg::syntax::PrimOp;

/// `x op y` (for `negate#`, `y` is ignored). Arithmetic wraps around on
/// overflow, as GHC's `Int#` does; `/#` and `%#` truncate toward zero;
/// comparisons give `1#` or `0#`. `None` is a division by zero.
#[inline(always)]
pub fn apply(op: PrimOp, x: i64, y: i64) -> Option<i64> {
    let b = |c: bool| c as i64;
    Some(match op {
        PrimOp::Add => x.wrapping_add(y),
        PrimOp::Sub => x.wrapping_sub(y),
        PrimOp::Mul => x.wrapping_mul(y),
        PrimOp::Quot | PrimOp::Rem if y == 0 => return None,
        PrimOp::Quot => x.wrapping_div(y),
        PrimOp::Rem => x.wrapping_rem(y),
        PrimOp::Eq => b(x == y),
        PrimOp::Ne => b(x != y),
        PrimOp::Lt => b(x < y),
        PrimOp::Le => b(x <= y),
        PrimOp::Gt => b(x > y),
        PrimOp::Ge => b(x >= y),
        PrimOp::Negate => x.wrapping_neg(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_truncates_toward_zero_and_zero_divisor_is_none() {
        assert_eq!(apply(PrimOp::Quot, -7, 2), Some(-3));
        assert_eq!(apply(PrimOp::Rem, -7, 2), Some(-1));
        assert_eq!(apply(PrimOp::Quot, 1, 0), None);
        assert_eq!(apply(PrimOp::Rem, 1, 0), None);
    }

    #[test]
    fn arithmetic_wraps_and_comparisons_give_one_or_zero() {
        assert_eq!(apply(PrimOp::Add, i64::MAX, 1), Some(i64::MIN));
        assert_eq!(apply(PrimOp::Quot, i64::MIN, -1), Some(i64::MIN));
        assert_eq!(apply(PrimOp::Negate, i64::MIN, 0), Some(i64::MIN));
        assert_eq!(apply(PrimOp::Lt, 1, 2), Some(1));
        assert_eq!(apply(PrimOp::Ge, 1, 2), Some(0));
    }
}
