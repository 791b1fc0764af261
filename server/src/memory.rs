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

/// For the language server: freed pages go back to the system at once instead of after a
/// delay that an idle server never reaches, so what an editing session dropped does not stay
/// resident. (The command-line tools keep the delay: they free and reuse memory batch after
/// batch, and returning it each time would cost them page faults.) Call it before any thread
/// is started.
pub fn return_freed_memory_at_once() {
    // SAFETY: setting an option; the caller does it before the server starts any thread.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}
