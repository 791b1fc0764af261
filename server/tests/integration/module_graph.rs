//! The library's modules import each other as `ARCHITECTURE.md` draws them: no two files in a
//! circle (but for PPN's grammar recursion, a Location holding PieceIds and a PieceId
//! Locations), and no arrow from a lower layer up to a higher one.
//!
//! Imports are read from the source: `crate::` paths, `super::` paths and the child modules a
//! file uses, outside comments and test modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module's layer: a module may import only from lower layers (and from
/// itself). `ppn` sits above the other notations because it converts to and from them.
const LAYERS: &[(&str, u8)] = &[
    ("diagnostic", 0),
    ("exit_code", 0),
    ("yaml_errors", 1),
    ("model", 1),
    ("render", 2),
    ("otn", 3),
    ("xiangqi", 3),
    ("ppn", 4),
    ("ide", 5),
    ("config", 5),
    ("memory", 5),
    ("lsp", 6),
    ("cli", 7),
];

/// The one circle allowed: PPN's grammar is recursive.
const ALLOWED_CIRCLE: &[&str] = &["ppn::reader::location", "ppn::reader::piece_id"];

fn source_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(folder: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).expect("a source folder is read") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// `ppn/reader/mod.rs` → `ppn::reader`; `lib.rs` → ``.
fn module_of(relative: &Path) -> String {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

/// The text of a file without comments and without its test module.
fn code_of(text: &str) -> String {
    let before_tests = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |at| &text[..at]);
    let code = before_tests
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    // `pub(in crate::lsp)` says who may see an item, not what is imported.
    code.replace("pub(in crate::", "pub(in ")
}

/// The paths (`a::b::c`) that follow `prefix` in `code`; a group (`a::{b, c::d}`) gives
/// a path for each of its items.
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let is_path_char = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let boundary = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !is_path_char(c));
        let after = &rest[at + prefix.len()..];
        let end = after
            .find(|c: char| !is_path_char(c))
            .unwrap_or(after.len());
        let path = after[..end].trim_end_matches(':');
        if boundary {
            match after[end..].strip_prefix('{') {
                Some(group) => {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    for item in group.split(',') {
                        let item: String = item
                            .trim()
                            .chars()
                            .take_while(|&c| is_path_char(c))
                            .collect();
                        let item = item.trim_end_matches(':');
                        if item.is_empty() || item == "self" {
                            paths.push(path.to_string());
                        } else if path.is_empty() {
                            paths.push(item.to_string());
                        } else {
                            paths.push(format!("{path}::{item}"));
                        }
                    }
                }
                None => paths.push(path.to_string()),
            }
        }
        rest = &after[end..];
    }
    paths
}

/// The longest known module that `path` (a module path, perhaps followed by an item) names.
fn known_prefix(path: &str, known: &BTreeSet<String>) -> Option<String> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find(|candidate| known.contains(candidate))
}

fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = source_root();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let modules: BTreeMap<String, String> = files
        .iter()
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            !name.ends_with("tests.rs") && name != "main.rs"
        })
        .map(|path| {
            let relative = path.strip_prefix(&root).unwrap();
            let text = std::fs::read_to_string(path).expect("a source file is read");
            (module_of(relative), code_of(&text))
        })
        .collect();
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, code) in &modules {
        let mut imports = BTreeSet::new();
        for path in paths_after(code, "crate::") {
            imports.extend(known_prefix(&path, &known));
        }
        let parent = module.rsplit_once("::").map_or("", |(parent, _)| parent);
        for path in paths_after(code, "super::") {
            let absolute = if parent.is_empty() {
                path.clone()
            } else {
                format!("{parent}::{path}")
            };
            imports.extend(known_prefix(&absolute, &known));
        }
        for child in known.iter().filter(|m| {
            m.strip_prefix(&format!("{module}::"))
                .is_some_and(|rest| !rest.contains("::"))
        }) {
            let name = child.rsplit("::").next().unwrap();
            if !paths_after(code, &format!("{name}::")).is_empty() {
                imports.insert(child.clone());
            }
        }
        imports.remove(module);
        // A module's own descendants are not imports upwards or in a circle with it.
        graph.insert(module.clone(), imports);
    }
    graph
}

/// The strongly connected components of more than one module (Tarjan's, on a stack).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let names: Vec<&String> = graph.keys().collect();
    let index_of: BTreeMap<&String, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|n| {
            graph[*n]
                .iter()
                .filter_map(|m| index_of.get(m).copied())
                .collect()
        })
        .collect();
    let count = names.len();
    let (mut index, mut low, mut on_stack) =
        (vec![usize::MAX; count], vec![0; count], vec![false; count]);
    let (mut stack, mut next, mut found) = (Vec::new(), 0, Vec::new());
    for start in 0..count {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(start, 0)];
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[node] == usize::MAX {
                index[node] = next;
                low[node] = next;
                next += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&target) = edges[node].get(*edge) {
                *edge += 1;
                if index[target] == usize::MAX {
                    work.push((target, 0));
                } else if on_stack[target] {
                    low[node] = low[node].min(index[target]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(names[member].clone());
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    found.push(component);
                }
            }
        }
    }
    found
}

fn layer_of(module: &str) -> Option<u8> {
    let top = module.split("::").next()?;
    LAYERS
        .iter()
        .find(|(name, _)| *name == top)
        .map(|&(_, layer)| layer)
}

#[test]
fn no_two_modules_import_each_other() {
    let graph = import_graph();
    assert!(graph.len() > 100, "only {} modules read", graph.len());
    let found: Vec<Vec<String>> = circles(&graph)
        .into_iter()
        .filter(|circle| *circle != ALLOWED_CIRCLE)
        .collect();
    assert!(found.is_empty(), "modules in a circle: {found:#?}");
}

#[test]
fn no_module_imports_from_a_layer_above_its_own() {
    let graph = import_graph();
    let mut upwards = Vec::new();
    for (module, imports) in &graph {
        // Test helpers and the library's root are outside the layers.
        let Some(layer) = layer_of(module) else {
            continue;
        };
        for import in imports {
            let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
            let Some(imported_layer) = layer_of(import) else {
                continue;
            };
            if top(import) != top(module) && imported_layer >= layer {
                upwards.push(format!("{module} → {import}"));
            }
        }
    }
    assert!(
        upwards.is_empty(),
        "imports upwards or sideways: {upwards:#?}"
    );
}

#[test]
fn every_top_level_module_has_a_layer() {
    let graph = import_graph();
    let tops: BTreeSet<&str> = graph
        .keys()
        .filter_map(|m| m.split("::").next())
        .filter(|top| !top.is_empty() && !["fixture", "test_random"].contains(top))
        .collect();
    for top in tops {
        assert!(layer_of(top).is_some(), "{top} has no layer in LAYERS");
    }
}
