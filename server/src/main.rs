/// mimalloc returns freed memory to the system, where glibc's per-thread arenas keep what
/// the analyses of earlier revisions used: the server's memory follows its live documents.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    ppn_ls::memory::keep_to_small_pages();
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
    std::process::exit(ppn_ls::cli::run(
        ppn_ls::memory::hold_freed_memory_until_idle,
    ));
}
