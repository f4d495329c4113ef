#!/usr/bin/env bash
# Games between engines, with an SPRT: `bookforge uci` against a previous build of itself (the
# test of a search or evaluation change) or against Debian's Stockfish held to a fixed strength.
# The games are played by fastchess (Disservin/fastchess, built from its public source by
# scripts/fetch-references.sh, not part of bookforge), which also checks every move, the clocks
# and the connection, and computes the Elo difference, its error bar and the SPRT's LLR.
#
# Openings: the exits of a book that bookforge builds from data-samples/twic0920-2000.pgn
# (max-ply 16), scored by Stockfish at depth 8 and kept within +-80 cp; each opening is played
# twice, colours reversed. Games are adjudicated as on fishtest (resign at 600 cp for 3 moves,
# draw at 20 cp for 8 moves after move 34).
#
#   bench/engine_match.sh --base /path/to/old/bookforge          # SPRT [0, 5] at 8+0.08
#   bench/engine_match.sh --base-rev main --nodes 50000          # a revision, built here
#   bench/engine_match.sh --stockfish-nodes 3000 --nodes 100000 --no-sprt --games 200
#   bench/engine_match.sh --stockfish-skill 5 --no-sprt --games 100
#
# usage: bench/engine_match.sh [options] [path/to/bookforge]
#   opponent (one):
#     --base PATH            another build of bookforge
#     --base-rev REV         the bookforge of a git revision, built in a temporary worktree beside
#                            the repository (with ccache when installed) and kept by commit
#     --stockfish-nodes N    Stockfish searching N nodes a move
#     --stockfish-skill L    Stockfish at "Skill Level" L (0..20) on the clock
#   limits:
#     --tc T                 time control, fastchess's form (default 8+0.08)
#     --nodes N              bookforge (and the base) search N nodes a move; the clock stays as a
#                            backstop. Two copies of one binary then play the same games
#   stop rule:
#     --sprt E0,E1           SPRT bounds in (normalized) Elo (default 0,5)
#     --alpha A, --beta B    error rates (default 0.05 each)
#     --model M              normalized (default), logistic or bayesian
#     --no-sprt              play --games games
#     --games N              at most N games, even (default 2000 with an SPRT, 200 without)
#   other:
#     --openings FILE        an EPD or PGN opening file instead (format by extension)
#     --concurrency N        games at once (default 1)
#     --hash MB              hash of every engine (default 16)
#     --seed N               order of the openings (default 1)
#     --json FILE            write the summary as JSON
#
# Environment: FASTCHESS (default ../references/fastchess/fastchess, where
# scripts/fetch-references.sh puts it), STOCKFISH (default /usr/games/stockfish),
# BOOKFORGE_BENCH_DIR (work folder). The last line is the summary; the exit status is 1 when a
# game was forfeited (illegal move, time loss, disconnect or stall), which is a bug to find.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

die() {
  echo "engine_match: $*" >&2
  exit 2
}

bookforge=build/bin/bookforge
base="" base_rev="" sf_nodes="" sf_skill=""
tc=8+0.08 nodes="" sprt=0,5 alpha=0.05 beta=0.05 model=normalized use_sprt=1 games=""
openings="" concurrency=1 hash=16 seed=1 json=""
while (($#)); do
  case $1 in
    --base) base=${2?} && shift ;;
    --base-rev) base_rev=${2?} && shift ;;
    --stockfish-nodes) sf_nodes=${2?} && shift ;;
    --stockfish-skill) sf_skill=${2?} && shift ;;
    --tc) tc=${2?} && shift ;;
    --nodes) nodes=${2?} && shift ;;
    --sprt) sprt=${2?} && shift ;;
    --alpha) alpha=${2?} && shift ;;
    --beta) beta=${2?} && shift ;;
    --model) model=${2?} && shift ;;
    --no-sprt) use_sprt=0 ;;
    --games) games=${2?} && shift ;;
    --openings) openings=$(realpath "${2?}") && shift ;;
    --concurrency) concurrency=${2?} && shift ;;
    --hash) hash=${2?} && shift ;;
    --seed) seed=${2?} && shift ;;
    --json) json=$(realpath -m "${2?}") && shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' && exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) bookforge=$1 ;;
  esac
  shift
done
bookforge=$(realpath "$bookforge")
[[ -x $bookforge ]] || die "not executable: $bookforge"
opponents=0
for o in "$base" "$base_rev" "$sf_nodes" "$sf_skill"; do [[ -n $o ]] && opponents=$((opponents + 1)); done
((opponents == 1)) || die "name one opponent (see --help)"
games=${games:-$((use_sprt ? 2000 : 200))}
((games >= 2 && games % 2 == 0)) || die "--games must be even: each opening is played twice"
IFS=, read -r elo0 elo1 <<< "$sprt"
[[ -n $elo0 && -n $elo1 ]] || die "--sprt takes E0,E1"

fastchess=${FASTCHESS:-$(realpath -m ../references/fastchess/fastchess)}
stockfish=${STOCKFISH:-/usr/games/stockfish}
[[ -x $fastchess ]] || die "no fastchess at $fastchess: run scripts/fetch-references.sh, then set FASTCHESS"

work=${BOOKFORGE_BENCH_DIR:-${TMPDIR:-/tmp}/bookforge-bench}
mkdir -p "$work"
tmp=$(mktemp -d "$work/engine_match.XXXXXX")

# The bookforge of a revision, built once per commit. The worktree sits beside the repository:
# with CCACHE_BASEDIR at their common parent, both compile to the same relative paths, so ccache
# serves every file the revision did not change.
build_revision() { # rev -> path of its bookforge on stdout
  local commit tree out launcher=()
  commit=$(git rev-parse --verify --quiet "$1^{commit}") || die "no such revision: $1"
  out=$work/bookforge-$commit
  if [[ ! -x $out ]]; then
    tree=$(mktemp -d "$(dirname "$repo")/bookforge-base.XXXXXX")
    git worktree add --quiet --detach "$tree" "$commit"
    # The explorer page's packages (cmake needs them): the current tree's, read-only.
    [[ -d serve/web/node_modules ]] && ln -s "$repo/serve/web/node_modules" "$tree/serve/web/node_modules"
    if command -v ccache > /dev/null; then
      export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$repo")}
      launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    fi
    echo "engine_match: building bookforge at ${commit:0:12} in $tree" >&2
    if cmake -S "$tree" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" > "$tmp/base-build.log" 2>&1 &&
      cmake --build "$tree/build" --target bookforge -j"$(nproc)" >> "$tmp/base-build.log" 2>&1; then
      cp "$tree/build/bin/bookforge" "$out.part" && mv "$out.part" "$out"
    fi
    git worktree remove --force "$tree"
    [[ -x $out ]] || { cat "$tmp/base-build.log" >&2; die "the build of $1 failed"; }
  fi
  echo "$out"
}

if [[ -z $openings ]]; then
  scorer=()
  [[ -x $stockfish ]] && scorer=(--engine "$stockfish")
  "$bookforge" build data-samples/twic0920-2000.pgn -o "$tmp/openings.bin" --max-ply 16 --min-move-games 3 \
    --progress never --quiet
  "$bookforge" exits "$tmp/openings.bin" -o "$tmp/openings.epd" "${scorer[@]}" --depth 8 \
    --eval-min -80 --eval-max 80 --quiet
  openings=$tmp/openings.epd
fi
[[ -s $openings ]] || die "no openings in $openings"
format=epd
[[ $openings == *.pgn ]] && format=pgn

ours=(-engine "cmd=$bookforge" args=uci name=bookforge)
[[ -n $nodes ]] && ours+=("nodes=$nodes")
if [[ -n $base || -n $base_rev ]]; then
  [[ -n $base_rev ]] && base=$(build_revision "$base_rev")
  base=$(realpath "$base")
  [[ -x $base ]] || die "not executable: $base"
  opponent=base
  theirs=(-engine "cmd=$base" args=uci "name=$opponent")
  [[ -n $nodes ]] && theirs+=("nodes=$nodes")
else
  [[ -x $stockfish ]] || die "no Stockfish at $stockfish (apt-get install stockfish)"
  if [[ -n $sf_nodes ]]; then
    opponent=stockfish-n$sf_nodes
    theirs=(-engine "cmd=$stockfish" "name=$opponent" "nodes=$sf_nodes")
  else
    opponent=stockfish-skill$sf_skill
    theirs=(-engine "cmd=$stockfish" "name=$opponent" "option.Skill Level=$sf_skill")
  fi
fi

stop=()
((use_sprt)) && stop=(-sprt "elo0=$elo0" "elo1=$elo1" "alpha=$alpha" "beta=$beta" "model=$model")
echo "engine_match: $(basename "$openings") ($format), tc $tc${nodes:+, bookforge $nodes nodes}, at most $games games;" \
  "output in $tmp" >&2
started=$(date +%s)
# fastchess's own lines go to the screen (without the "Started game" ones) and to a file. It runs
# in the work folder, where it saves its state (config.json) every 20 games and when interrupted.
(cd "$tmp" && exec "$fastchess" "${ours[@]}" "${theirs[@]}" \
  -each proto=uci "tc=$tc" "option.Hash=$hash" option.Threads=1 \
  -openings "file=$openings" "format=$format" order=random -srand "$seed" \
  -repeat -rounds $((games / 2)) -concurrency "$concurrency" "${stop[@]}" \
  -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 \
  -pgnout "file=$tmp/games.pgn" -log "file=$tmp/fastchess.log" level=warn) \
  2>&1 | tee "$tmp/fastchess.out" | grep --line-buffered -v '^Started game' || true
seconds=$(($(date +%s) - started))

# The last report block is the final one; its Elo is bookforge's (the first engine).
out=$tmp/fastchess.out
last() { grep -E "$1" "$out" | tail -1 || true; }
touch "$out" "$tmp/games.pgn"
elo=$(last '^Elo: ' | sed -E 's/^Elo: ([^ ]+) \+\/- ([^,]+),.*/\1 \2/')
read -r elo_diff elo_error <<< "${elo:-nan nan}"
counts=$(last '^Games: ' | sed -E 's/^Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+).*/\1 \2 \3 \4/')
read -r n wins losses draws <<< "${counts:-0 0 0 0}"
llr=$(last '^LLR: ' | awk '{print $2}')
llr_bounds=$(last '^LLR: ' | sed -E 's/^LLR: [^ ]+ \([^)]*\) (\([^)]*\)).*/\1/')
decision=none
if ((use_sprt)); then
  decision=inconclusive
  grep -q 'H1 was accepted' "$out" && decision=H1
  grep -q 'H0 was accepted' "$out" && decision=H0
fi
# Forfeits, from the games' Termination tags; warnings (e.g. an illegal move in a PV line), by kind.
terminations() { grep -c "^\[Termination \"$1\"\]" "$tmp/games.pgn" || true; }
time_losses=$(terminations "time forfeit")
illegal=$(terminations "illegal move")
abandoned=$(terminations "abandoned")
warnings=$(grep -c '^Warning;' "$out" || true)
if ((warnings > 0)); then
  echo "engine_match: fastchess warnings, by kind:" >&2
  grep '^Warning;' "$out" | sed -E 's/ - move [^ ]+ from / from /' | sort | uniq -c >&2
fi

if [[ -n $json ]]; then
  printf '{"opponent": "%s", "tc": "%s", "nodes": %s, "games": %d, "wins": %d, "draws": %d, "losses": %d,' \
    "$opponent" "$tc" "${nodes:-null}" "$n" "$wins" "$draws" "$losses" > "$json"
  printf ' "elo": "%s", "elo_error": "%s", "sprt": %s, "llr": "%s", "decision": "%s",' \
    "$elo_diff" "$elo_error" "$( ((use_sprt)) && echo "[$elo0, $elo1]" || echo null)" "${llr:-}" "$decision" >> "$json"
  printf ' "time_losses": %d, "illegal_moves": %d, "abandoned": %d, "warnings": %d, "seconds": %d}\n' \
    "$time_losses" "$illegal" "$abandoned" "$warnings" "$seconds" >> "$json"
fi
sprt_text=""
((use_sprt)) && sprt_text=", LLR $llr $llr_bounds [$elo0, $elo1]: $decision"
echo "engine_match: bookforge vs $opponent: Elo $elo_diff +- $elo_error, $n games (W $wins D $draws L $losses)$sprt_text;" \
  "forfeits: time $time_losses, illegal $illegal, abandoned $abandoned; warnings $warnings; ${seconds} s"
((time_losses + illegal + abandoned == 0))
