//! A hint to the processor that a value will be read soon. A replay walks records that
//! each live in their own allocation, spread over megabytes: each first read of one waited
//! for memory (a fifth of replaying a long OpenTafl record after an edit). Asked for one
//! record ahead, the wait overlaps the work on the record before.

/// Starts bringing `value` into the cache, every line of it; does nothing where the
/// processor has no such hint here.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        const LINE: usize = 64;
        let start = std::ptr::from_ref(value).cast::<i8>();
        for offset in (0..std::mem::size_of::<T>()).step_by(LINE) {
            // SAFETY: the hint reads nothing and cannot fault, and the address is within
            // `value`; SSE, which it needs, is part of every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Starts bringing into the cache what sharing `value` writes: its counts, which lie just
/// before the value in its allocation (only a hint: elsewhere, it is only slower).
#[inline(always)]
pub fn prefetch_counts<T>(value: &std::sync::Arc<T>) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let counts = std::sync::Arc::as_ptr(value)
            .cast::<i8>()
            .wrapping_sub(2 * std::mem::size_of::<usize>());
        // SAFETY: the hint reads nothing and cannot fault, wherever it points; SSE, which it
        // needs, is part of every x86-64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(counts) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
