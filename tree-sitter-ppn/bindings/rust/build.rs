fn main() {
    let src_dir = std::path::Path::new("src");

    let mut c_config = cc::Build::new();
    c_config.std("c11").include(src_dir);

    #[cfg(target_env = "msvc")]
    c_config.flag("-utf-8");

    // For the browser (wasm32-unknown-unknown), which has no C library: tree-sitter-language
    // ships the few headers a parser includes, and the tree-sitter crate links their
    // functions.
    println!("cargo:rerun-if-env-changed=DEP_TREE_SITTER_LANGUAGE_WASM_HEADERS");
    if let Ok(headers) = std::env::var("DEP_TREE_SITTER_LANGUAGE_WASM_HEADERS") {
        c_config.include(headers);
    }

    for file in ["parser.c", "scanner.c"] {
        let path = src_dir.join(file);
        c_config.file(&path);
        println!("cargo:rerun-if-changed={}", path.display());
    }

    c_config.compile("tree-sitter-ppn");
}
