//! The Fx hash of rustc, for hash maps whose keys are identifiers or ids
//! the program's own text determines: a multiply-rotate per word, many
//! times faster than the standard library's SipHash, whose protection
//! against collision attacks is not needed for code the user runs anyway.

use std::hash::Hasher;

/// The Fx hasher; use it as `HashMap<K, V, BuildHasherDefault<FxHasher>>`.
#[derive(Default)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        // The product's low bits depend only on the word's low bits, and
        // hash tables index by the low bits: keys that differ only in their
        // high half (the pairs of `profile::stacks`) would all collide. The
        // rotation brings the well-mixed high bits down (as rustc-hash 2's
        // `finish` does).
        self.0.rotate_left(26)
    }
}
