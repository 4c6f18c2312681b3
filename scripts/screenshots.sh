#!/usr/bin/env bash
# Runs locklab's screens (the labs, home, the quiz, interview and self-test results, progress)
# in tmux, captures each one with its colours, renders it to PNG through headless Chromium and
# writes a contact sheet, so the screens can be looked at the way a learner sees them.
#
#   scripts/screenshots.sh [OUT_DIR] [SIZES]     (default: target/screens, "80x24 140x42")
#   ONLY='abc-*' scripts/screenshots.sh ...       (only the screens whose name matches)
#   scripts/screenshots.sh --readme               (the README's pictures, into assets/)
#
# Needs tmux, Chromium and a CJK font: apt-get install -y chromium fonts-noto-cjk tmux
set -euo pipefail
cd "$(dirname "$0")/.."
readme=""
if [ "${1:-}" = "--readme" ]; then
  readme=1
  shift
fi
out="${1:-target/screens}"
sizes="${2:-80x24 140x42}"
langs="en zh"
scale=1
mkdir -p "$out"
nice cargo build --release --quiet
bin="$(pwd)/target/release/locklab"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] || ! command -v tmux >/dev/null; then
  echo "needs chromium and tmux: apt-get install -y chromium fonts-noto-cjk tmux" >&2
  exit 1
fi
work=$(mktemp -d)
sock="locklab-shots-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT

repeat() { # N WORDS: WORDS N times over
  local i out=""
  for ((i = 0; i < $1; i++)); do out+="$2 "; done
  echo "$out"
}
# "@answers" in a screen's keys answers every question and follow-up as it comes, reading the
# status line (English or Chinese) to know what the screen waits for: show the answer, tick the
# first point and confirm, rate it "partial", go on; it stops at the result.
answer_all() {
  local n hint
  for ((n = 0; n < 400; n++)); do
    hint=$(tmux -L "$sock" capture-pane -p | grep -v '^ *$' | tail -1 || true)
    case "$hint" in
      "") keys=() && sleep 0.2 ;; # not drawn yet
      *"reveal"* | *"next question"* | *"显示答案"* | *"下一题"*) keys=(Enter) ;;
      *"tick the points"* | *"勾选答到的要点"*) keys=(1 Enter) ;;
      *"2 partial"* | *"2 部分"*) keys=(2) ;;
      *) return 0 ;;
    esac
    for k in "${keys[@]+"${keys[@]}"}"; do
      tmux -L "$sock" send-keys "$k"
      sleep 0.15
    done
  done
}

# name | arguments | keys sent one by one after start ("" for none) | language (empty: both)
screens=(
  "frozen|frozen|"
  "frozen-revealed|frozen|v"
  "frozen-moments|frozen|n n n n"
  "frozen-compare|frozen|c v"
  "frozen-sequence|frozen|m v"
  "frozen-help|frozen|?"
  "abc-chain|abc chain|v"
  "abc-herd-stepping|abc herd|n n n n"
  "abc-lost-create-blind|abc lost-create-blind|v"
  "abc-compare|abc lost-create-blind|c v"
  "abc-sequence|abc watch-race|m v"
  "abc-help|abc|?"
  "herd|herd|"
  "present-frozen|present frozen-fenced|Space"
  "present-abc|present lost-create-blind|Space Space r"
  "present-question-hidden|present frozen-fenced|Space Space Space"
  "present-predict|present frozen-fenced|P Space Space Space"
  "present-predicted|present frozen-fenced|P Space Space Space 2"
  "abc-watch-race-story|abc watch-race|n n"
  "frozen-danger-open|frozen|n . . . . . ."
  "frozen-preset|frozen frozen-early-write|"
  "frozen-predict|frozen frozen-fenced|P"
  "frozen-predict-playing|frozen frozen-fenced|P 2"
  "lab-rwlock-predict|lab rwlock --preset rwlock-starved|P"
  "abc-predict|abc chain|P"
  "frozen-compare-cursor|frozen|c"
  "frozen-story|frozen frozen-no-fencing|n n n"
  "abc-overview|abc watch-race|n n n"
  "abc-badges-whole-run|abc lost-create-blind|v"
  "lab-rwlock-tracks|lab rwlock --preset rwlock-starved|n n n n"
  "home||"
  "home-end||End"
  "home-live||$(repeat 23 Down) Enter"
  "lab-tasks|lab tasks|v"
  # The results, each saved into the run's progress file, then progress showing them.
  "quiz-result|quiz --kind recall --count 2 --seed 5|@answers"
  "interview-result|interview --count 1 --seed 5|@answers"
  "selftest-result|self-test|@answers"
  "progress||End Enter"
)
if [ -n "$readme" ]; then
  # Two pictures a newcomer sees first, sharp enough to project: the A/B/C lab with the whole
  # run shown, and the presenter answering its question.
  out=assets
  sizes="120x30"
  scale=2
  screens=(
    "screenshot-abc|abc lost-create-blind|End|en"
    "screenshot-presenter|present lost-create-blind|Space Space r|en"
    "screenshot-home||End|en"
    "screenshot-home-zh||End|zh"
    "screenshot-quiz-result|quiz --kind recall --count 3 --seed 5|@answers|en"
    "screenshot-quiz-result-zh|quiz --kind recall --count 3 --seed 5|@answers|zh"
    "screenshot-progress||End Enter|en"
    "screenshot-progress-zh||End Enter|zh"
  )
fi

shoot() { # html png cols rows
  local w h
  w=$(( $3 * 10 + 24 ))
  h=$(( $4 * 19 + 16 ))
  "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$(mktemp -d -p "$work")" --window-size="$w,$h" \
    --force-device-scale-factor="$scale" \
    --screenshot="$2" "file://$(realpath "$1")" >"$work/chromium.log" 2>&1 \
    || { cat "$work/chromium.log" >&2; exit 1; }
}

sheet="$out/index.html"
[ -n "$readme" ] && sheet="$work/index.html"
echo '<!doctype html><meta charset="utf-8"><title>locklab screens</title><style>body{background:#333;color:#eee;font-family:sans-serif} figure{display:inline-block;margin:8px;vertical-align:top} img{width:560px;border:1px solid #666}</style>' >"$sheet"
for size in $sizes; do
  cols=${size%x*}
  rows=${size#*x}
  for lang in $langs; do
    for entry in "${screens[@]}"; do
      IFS='|' read -r name args keys only_lang <<<"$entry"
      [ -n "${ONLY:-}" ] && [[ "$name" != $ONLY ]] && continue
      if [ -n "$only_lang" ] && [ "$only_lang" != "$lang" ]; then continue; fi
      # A progress file of the run's own, per size and language: the quiz result saves into
      # it and the progress screen after it shows that session.
      data="$work/data.$lang.$size"
      mkdir -p "$data"
      tmux -L "$sock" -f /dev/null new-session -d -x "$cols" -y "$rows" \
        "TERM=xterm-256color LOCKLAB_DATA_DIR=$data $bin --lang $lang $args"
      tmux -L "$sock" set -g escape-time 0 >/dev/null
      # Keys go in once the first screen is drawn (a busy machine starts slower).
      for ((t = 0; t < 100; t++)); do
        [ -n "$(tmux -L "$sock" capture-pane -p | tr -d ' \n')" ] && break
        sleep 0.1
      done
      sleep 0.3
      for k in $keys; do
        if [ "$k" = "@answers" ]; then
          answer_all
          continue
        fi
        tmux -L "$sock" send-keys "$k"
        sleep 0.15
      done
      sleep 0.3
      base="$out/$name.$lang.$size"
      [ -n "$readme" ] && base="$work/$name"
      tmux -L "$sock" capture-pane -p -e -N >"$base.ansi"
      tmux -L "$sock" kill-server 2>/dev/null || true
      # The next screen may open the same progress file: wait for this one to have let go.
      for ((t = 0; t < 50; t++)); do
        pgrep -f "^$bin --lang" >/dev/null || break
        sleep 0.1
      done
      python3 scripts/ansi2html.py "$base.ansi" "$base.html" "$name $lang $size" "$cols"
      shoot "$base.html" "$base.png" "$cols" "$rows"
      if [ -n "$readme" ]; then
        mv "$base.png" "$out/$name.png"
        echo "$out/$name.png"
        continue
      fi
      echo "<figure><img src=\"$(basename "$base.png")\"><figcaption>$name · $lang · $size</figcaption></figure>" >>"$sheet"
      echo "$base.png"
    done
  done
done
[ -n "$readme" ] && exit 0
shoot "$sheet" "$out/contact-sheet.png" 200 $(( ${#screens[@]} * 8 ))
echo "$out/contact-sheet.png"
