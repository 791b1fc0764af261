//! How the process takes memory from the system and gives it back: settings of the
//! allocator (mimalloc) and of the kernel, made once at start by the binary and by the
//! benches that measure it.

/// mimalloc's `mi_option_purge_delay` (not named by libmimalloc-sys).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// No transparent huge pages for this process. A 2 MiB page stays resident whole while a
/// few bytes of it are in use, and the kernel may stop the process to compact memory before
/// it hands one out: with them the server held twice the memory after an editing session,
/// and `--check` on a long game took 0.09 to 0.38 s depending on the state of the system's
/// memory; without them, 0.13 s every time. (mimalloc's own `allow_thp` option comes too
/// late: its heap is reserved before `main`.)
pub fn keep_to_small_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE only sets a flag of this process; when it fails (an old
    // kernel) huge pages stay on, which is only slower.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// How long the language server's allocator keeps pages freed before it may return them:
/// longer than an analysis of a long game takes, so that the next analysis, started by the
/// next keystroke, reuses what the one before freed instead of asking the system for pages
/// again (their faults and the `madvise` calls were a fifth of an edit that replays every
/// later move of a 100,000-move game). [`return_freed_memory`], called once the server is
/// idle, returns them without waiting.
const FREED_MEMORY_HELD_MS: std::ffi::c_long = 250;

/// For the language server: freed pages are kept a while for the next analysis, then given
/// back (see [`FREED_MEMORY_HELD_MS`]). mimalloc returns expired pages only when the thread
/// that holds them allocates again, which an idle server never does: the server calls
/// [`return_freed_memory`] when it has been idle a while, so that what an editing session
/// dropped does not stay resident. (The command-line tools keep the allocator's defaults:
/// they free and reuse memory batch after batch.) Call it before any thread is started.
pub fn hold_freed_memory_until_idle() {
    // SAFETY: setting an option; the caller does it before the server starts any thread.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, FREED_MEMORY_HELD_MS) };
}

/// Gives the pages freed so far back to the system now, whatever the delay. Harmless where
/// mimalloc is not the allocator (its heaps are then empty).
pub fn return_freed_memory() {
    // SAFETY: `mi_collect` may be called from any thread at any time.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

/// How many times the threads have been asked to return their freed memory.
static RETURN_ASKED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

thread_local! {
    /// The last ask this thread answered.
    static RETURN_ANSWERED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Asks each thread that calls [`return_freed_memory_if_asked`] to return what it holds,
/// once. mimalloc keeps a thread's freed pages with that thread: [`return_freed_memory`]
/// reaches only the calling thread's, and the memory the whole process has let go of.
pub fn ask_threads_to_return_freed_memory() {
    RETURN_ASKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// For a thread that goes idle now and then (a runtime's worker, when it parks): returns
/// its freed memory if it was asked to since it last did.
pub fn return_freed_memory_if_asked() {
    let asked = RETURN_ASKED.load(std::sync::atomic::Ordering::Relaxed);
    RETURN_ANSWERED.with(|answered| {
        if answered.get() != asked {
            answered.set(asked);
            return_freed_memory();
        }
    });
}
