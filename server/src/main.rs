/// mimalloc returns freed memory to the system, where glibc's per-thread arenas keep what
/// the analyses of earlier revisions used: the server's memory follows its live documents.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(ppn_ls::cli::run());
}
