/// mimalloc returns freed memory to the system, where glibc's per-thread arenas keep what
/// the analyses of earlier revisions used: the server's memory follows its live documents.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (not named by libmimalloc-sys).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // Freed pages go back to the system at once instead of after a delay that an idle
    // server never reaches: what an editing session dropped must not stay resident.
    // SAFETY: setting an option before any thread is started.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    std::process::exit(ppn_ls::cli::run());
}
