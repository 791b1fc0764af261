#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from the project's test data:
#   analyze  every test file in a notation ppn-ls reads (up to 64 KiB), its extension on
#            a first line of its own (the target reads that line to choose the notation),
#            and the longer PPN games again with their movetext on one line
#   updates  the same seeds as analyze (its last bytes choose the edits)
#   braces   every distinct movetext word with a brace in the PPN test files
#   split_windows  the PPN test files (up to 16 KiB), after a byte that sets the window size
#   ppn_diagnostics  the PPN test files (up to 16 KiB) as they are
#   otn      the OpenTafl test records, and the games of tests/otn/*.csv written as records
#   xiangqi  the xiangqi-setup test files (annoFEN, XAY, FEN, WXF) as they are
# The structured targets (macros, lsp_edits) start from nothing: libFuzzer builds theirs.
# Corpora go to fuzz/corpus/<target>/ and are not committed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=fuzz/corpus
mkdir -p "$root/analyze" "$root/updates" "$root/braces" "$root/macros" "$root/lsp_edits" "$root/split_windows" \
    "$root/ppn_diagnostics" "$root/otn" "$root/xiangqi"

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
# Documents built to hurt: unclosed braces, nests, long expansions, many games.
for document in "---\n...\n1. $(printf '{%.0s' {1..20})\n" \
    "---\n...\n1. S@{1..9999}$(printf 'a%.0s' {1..300}) 2. S@a1\n" \
    "---\n...\n1. S@$(printf '{%.0s' {1..100})a,b$(printf '}%.0s' {1..100})\n" \
    "$(printf -- '---\n...\n%.0s' {1..300})" \
    "---\nMacros:\n  m0: S@a1\n  m1: \`m0' \`m0'\n  m2: \`m1' \`m1'\n...\n1. \`m2'\n"; do
    printf 'ppn\n%b' "$document" | seed analyze
    count=$((count + 1))
done
# PPN games with their movetext on one line, repeated past 4 KiB: a line that long is cut
# into syntax segments before its MoveNumbers.
one_line='joined { body = body $0 " "; next } { print } /^\.\.\.[ \t\r]*$/ { joined = 1 }
    END { if (length(body) > 300) { line = body; while (length(line) < 6000) line = line body; print line } }'
while IFS= read -r -d '' path; do
    seed_text=$(awk "$one_line" "$path")
    [ ${#seed_text} -gt 6000 ] || continue
    printf 'ppn\n%s\n' "$seed_text" | seed analyze
    count=$((count + 1))
done < <(find tests -type f -iname '*.ppn' -size -65k -print0 2>/dev/null)
echo "analyze: $count files"
cp "$root"/analyze/* "$root/updates/"

count=0
while IFS= read -r word; do
    printf '%s' "$word" | seed braces
    count=$((count + 1))
done < <(find tests examples -type f -iname '*.ppn' -print0 2>/dev/null \
    | xargs -0 cat | tr -s ' \t\r' '\n\n\n' | grep -F '{' | sort -u | head -n 5000)
# Words built to hurt: long ranges, deep nests, long lists of alternatives, escapes.
for word in 'S@{1..9999}aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' \
    "x$(printf '{%.0s' {1..80})a,b$(printf '}%.0s' {1..80})" \
    "S@$(printf '{a,%.0s' {1..200})x$(printf '}%.0s' {1..200})" \
    '{a..z}{1..9}{A..Z}{0..9..2}' 'x{-9223372036854775808..9223372036854775807..1}' \
    'a{b\,c,d\{e}\}{,}' '{{{{{' '}}}}' '{1..10..-3}{Y..b}{001..9..4}'; do
    printf '%s' "$word" | seed braces
    count=$((count + 1))
done
echo "braces: $count words"

count=0
while IFS= read -r -d '' path; do
    # shellcheck disable=SC2059 # the format is the window-size byte, as an escape
    { printf "$(printf '\\x%02x' $((count % 64 + 1)))"; cat "$path"; } | seed split_windows
    count=$((count + 1))
done < <(find tests server/tests examples -type f -size -17k -iname '*.ppn' -print0 2>/dev/null)
echo "split_windows: $count files"

count=0
while IFS= read -r -d '' path; do
    seed ppn_diagnostics <"$path"
    count=$((count + 1))
done < <(find tests server/tests examples -type f -size -17k -iname '*.ppn' -print0 2>/dev/null)
echo "ppn_diagnostics: $count files"

count=0
while IFS= read -r -d '' path; do
    seed otn <"$path"
    count=$((count + 1))
done < <(find tests server/tests examples -type f -size -65k \( -iname '*.otg' -o -iname '*.otn' \) -print0 2>/dev/null)
# Real games, two moves a turn, under the rules they were played by (the first 300 of the
# Copenhagen data, and the Brandubh games with captures written `xg6xg4`).
copenhagen='dim:11 name:Copenhagen atkf:y tfr:w corh:tT sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/'
brandubh='dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/'
as_record='{ n = split($1, moves, " "); printf "[rules:%s]\n\n", rules;
    for (i = 1; i <= n; i += 2) printf "%d. %s %s\n", (i + 1) / 2, moves[i], moves[i + 1] }'
while IFS= read -r line; do
    printf '%s\n' "$line" | awk -F, -v rules="$copenhagen" "$as_record" | seed otn
    count=$((count + 1))
done < <(grep -v '^#' tests/otn/copenhagen.csv | head -n 300)
while IFS= read -r line; do
    printf '%s\n' "$line" | awk -F, -v rules="$brandubh" "$as_record" | seed otn
    count=$((count + 1))
done < <(grep -v '^#' tests/otn/brandubh-multicaptures.csv)
echo "otn: $count files"

count=0
while IFS= read -r -d '' path; do
    seed xiangqi <"$path"
    count=$((count + 1))
done < <(find tests server/tests examples -type f -size -65k \( -iname '*.annofen' -o -iname '*.xay' \
    -o -iname '*.fen' -o -iname '*.wxf' \) -print0 2>/dev/null)
echo "xiangqi: $count files"
