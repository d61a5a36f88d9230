//! What the native test files share (each includes it with `mod native_support;`): the
//! deterministic generator of the fuzz and property tests.
#![allow(dead_code)]

/// SplitMix64: small, fast and reproducible from one seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
    /// Small sizes far more often than large ones: `1..=max`, log-uniform.
    pub fn size(&mut self, max: usize) -> usize {
        let bits = usize::BITS - max.leading_zeros();
        let cap = (1usize << self.below(bits as usize + 1)).min(max).max(1);
        self.range(1, cap)
    }
}
