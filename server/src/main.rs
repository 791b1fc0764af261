fn main() {
    std::process::exit(ppn_ls::cli::run());
}
