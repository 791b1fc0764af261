#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from the project's test data:
#   analyze  every test file in a notation ppn-ls reads (up to 64 KiB), its extension on
#            a first line of its own (the target reads that line to choose the notation)
#   braces   every distinct movetext word with a brace in the PPN test files
# The structured targets (macros, lsp_edits) start from nothing: libFuzzer builds theirs.
# Corpora go to fuzz/corpus/<target>/ and are not committed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=fuzz/corpus
mkdir -p "$root/analyze" "$root/braces" "$root/macros" "$root/lsp_edits"

seed() { # seed TARGET: the seed's bytes on standard input, named by their hash
    local file
    file=$(mktemp)
    cat >"$file"
    mv "$file" "$root/$1/$(sha1sum <"$file" | cut -c1-16)"
}

count=0
while IFS= read -r -d '' path; do
    extension=${path##*.}
    { printf '%s\n' "${extension,,}"; cat "$path"; } | seed analyze
    count=$((count + 1))
done < <(find tests server/tests examples -type f -size -65k \
    \( -iname '*.ppn' -o -iname '*.otg' -o -iname '*.otn' -o -iname '*.annofen' \
       -o -iname '*.xay' -o -iname '*.fen' -o -iname '*.wxf' \) -print0 2>/dev/null)
echo "analyze: $count files"

count=0
while IFS= read -r word; do
    printf '%s' "$word" | seed braces
    count=$((count + 1))
done < <(find tests examples -type f -iname '*.ppn' -print0 2>/dev/null \
    | xargs -0 cat | tr -s ' \t\r' '\n\n\n' | grep -F '{' | sort -u | head -n 5000)
echo "braces: $count words"
