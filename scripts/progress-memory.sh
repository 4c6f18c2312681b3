#!/usr/bin/env bash
# Peak memory of loading a long history: writes a progress file with N answers (default 10^6)
# into a temporary data folder and runs `locklab progress` on it under /usr/bin/time -v.
# Usage: scripts/progress-memory.sh [N] [LOCKLAB_BINARY]
set -euo pipefail
n="${1:-1000000}"
bin="${2:-target/release/locklab}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
awk -v n="$n" 'BEGIN {
    srand(7)
    split("fencing leases zk-recipes redis herd ids task-leases basics", decks, " ")
    split("recall choice order model", kinds, " ")
    split("again hard good easy", ratings, " ")
    print "schema_version = 1\n"
    t = 1790000000
    for (i = 0; i < n; i++) {
        t += 5 + int(rand() * 600)
        d = decks[1 + int(rand() * 8)]
        k = kinds[1 + int(rand() * 4)]
        max = (k == "recall") ? 3 : 1
        printf "[[answers]]\nat = %d\nquestion = \"%s-q%02d\"\ndeck = \"%s\"\nkind = \"%s\"\n", t, d, 1 + int(rand() * 30), d, k
        printf "score = %d\nmax = %d\nrating = \"%s\"\n", int(rand() * (max + 1)), max, ratings[1 + int(rand() * 4)]
        if (k == "recall") printf "self_rating = \"partial\"\nmissed = [%d]\n", int(rand() * 3)
        if (rand() < 0.05) print "note = \"forgot the zxid part\""
        print ""
    }
}' > "$dir/progress.toml"
echo "$(ls -l "$dir/progress.toml" | awk '{print $5}') bytes, $n answers"
/usr/bin/time -v "$bin" --lang en --data-dir "$dir" progress 2>&1 \
    | grep -E "answers to|Maximum resident|Elapsed"
