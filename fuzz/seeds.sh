#!/usr/bin/env bash
# Fill fuzz/corpus/<target>/ with seed inputs from the repository: every
# ruleset file for the ruleset targets, saves of bot games for `save`, and
# their moves for `notation`. Run from anywhere; needs the stable toolchain
# (it plays the games with the chronoscope binary).
set -euo pipefail
cd "$(dirname "$0")/.."
for t in parse_check check_play save notation; do mkdir -p "fuzz/corpus/$t"; done
find rulesets tests/fixtures -name '*.ruleset' | while read -r f; do
  name=$(echo "$f" | tr '/' '_')
  cp "$f" "fuzz/corpus/parse_check/$name"
  cp "$f" "fuzz/corpus/check_play/$name"
done
cargo build -q --release -p chronoscope-cli
for players in 2 3 4; do
  save="fuzz/corpus/save/thebes-$players"
  target/release/chronoscope play rulesets/thebes/thebes.ruleset --players "$players" \
    --seed "$players" --quiet --save "$save" > /dev/null
  # A move is a byte (how many random actions come first) and a line.
  grep -v '^#' "$save" | head -40 | nl -ba | while read -r n line; do
    printf "$(printf '\\x%02x' "$((n % 64))")%s" "$line" > "fuzz/corpus/notation/thebes-$players-$n"
  done
done
echo "seeded: $(ls fuzz/corpus/parse_check | wc -l) rulesets, $(ls fuzz/corpus/save | wc -l) saves, $(ls fuzz/corpus/notation | wc -l) moves"
