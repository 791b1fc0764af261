/// mimalloc returns freed memory to the system, where glibc's per-thread arenas keep what
/// the analyses of earlier revisions used: the server's memory follows its live documents.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (not named by libmimalloc-sys).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // Syntax trees are allocated by tree-sitter's C code: through mimalloc too, so that
    // their memory is reused and returned like the rest instead of being trimmed and
    // faulted in again by the C library's allocator with every tree.
    // SAFETY: mimalloc's four functions are one family with malloc's alignment and never
    // return null; this is set before tree-sitter is used.
    unsafe {
        tree_sitter::set_allocator(Some(tree_sitter::Allocator {
            malloc: libmimalloc_sys::mi_malloc,
            calloc: libmimalloc_sys::mi_calloc,
            realloc: libmimalloc_sys::mi_realloc,
            free: libmimalloc_sys::mi_free,
        }))
    };
    std::process::exit(ppn_ls::cli::run(return_freed_memory_at_once));
}

/// For the language server: freed pages go back to the system at once instead of after a
/// delay that an idle server never reaches, so what an editing session dropped does not stay
/// resident. (The command-line tools keep the delay: they free and reuse memory batch after
/// batch, and returning it each time would cost them page faults.)
fn return_freed_memory_at_once() {
    // SAFETY: setting an option before the server starts any thread.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}
