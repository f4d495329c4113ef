#!/usr/bin/env bash
# Book quality, judged by Stockfish: from the same games, four books side by side,
#
#   polyglot      polyglot make-book -pgn GAMES.pgn -bin B -max-ply N
#   default       bookforge build GAMES -o B --max-ply N
#   depth8        bookforge build GAMES -o B --max-ply N --rescore-depth 8 --rescore-margin 50
#   depth8-repair the same with --rescore-repair
#   depth8-propagate  the same as depth8 with --rescore-propagate
#   depth8-propagate-repair  and with --rescore-repair too
#   depth10-tight the setting for amateur games: --rescore-depth 10 --rescore-margin 25 --rescore-repair
#   depth12-tight the same at depth 12
#   depth10-m35, depth10-m50  depth10-tight at a margin of 35 and 50 cp
#   depth10-blend50, depth10-blend100  depth10-tight with --rescore-blend 0.5 and 1 (the
#                 weights shared half or wholly by the engine's preference)
#   depth8-classical, depth10-tight-classical  depth8 and depth10-tight with the hand-written
#                 evaluation (--rescore-eval classical) instead of the network
#   stockfish     bookforge build GAMES -o B --max-ply N --rescore-engine STOCKFISH --rescore-nodes R
#   stockfish-repair  the same with --rescore-repair
#   stockfish-tight   the amateur setting with Stockfish as the engine: --rescore-margin 25
#                 --rescore-repair (the reference row of the embedded depth10-tight)
#
# and each book scored by bench/book_quality.cpp (build/bin/book_quality; its header says how):
# for the positions an engine playing both sides by book weight reaches most often, the regret
# of every book move (the best value among the position's moves, the judge's own best move and
# the book's, minus the move's value; a move's value is minus Stockfish's eval of the position
# after it, at a fixed node count), weighted by how often the book plays it. Prints, per data
# set, the mean regret per book move and the share of play on moves losing more than 50 and
# 100 cp, each with a 95% bootstrap interval over the judged positions, and the book's length
# (expected plies played from it: the regret alone would reward a book that shrinks); then the
# regret against the position's own eval (the best value is the higher of that eval and the
# book moves' values), and the judge's own move's regret by that reading (a position's eval and
# the eval after its best move disagree by a few cp, a floor no book goes below). After the table, per data set, how often the embedded
# engine searching to the rescoring depth (8) plays the judge's best move on the positions
# judged, and the mean regret of its move by the judge's evals.
#
# Evals are cached by position and node count in the work folder (evals.tsv), so a rerun, or
# another book from the same games, costs only the positions not judged yet. Books are kept
# there too and rebuilt only when missing. Cost: about 1,000-1,700 evals per data set for the
# four books (most positions are shared), and the Stockfish-rescored book searches every
# position with two or more candidates at --rescore-nodes (35 on lichess 2016-05, about 21,000
# on part 1: hours at 100k nodes on one core).
#
# usage: bench/book_quality.sh [options] [data set...]
#   data sets: part1 (pgnmentor part 1, max-ply 30), lichess-2016-05 and lichess-2017-05
#              (max-ply 20); all three when none is named; lichess-prod500 (max-ply 20) only
#              when named: 500 lichess games of as many players (scalachess's test games, move
#              lists without tags or results), held out from every setting: 2016-05 and
#              2017-05 are each one amateur's games
#   --nodes N          judge's nodes per eval [300000] (50000 for a quick run)
#   --positions N      positions judged per book [300]
#   --rescore-nodes N  nodes per position for the Stockfish-rescored book [100000]
#   --books LIST       which books, comma-separated [polyglot,default,depth8,stockfish]
#   --work DIR         books and eval cache [${TMPDIR:-/tmp}/bookforge-quality]
# Everything runs under nice -n 19: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."

nodes=300000
positions=300
rescore_nodes=100000
books=polyglot,default,depth8,stockfish
work=${TMPDIR:-/tmp}/bookforge-quality
sets=()
while (($#)); do
  case $1 in
    --nodes) nodes=$2; shift 2 ;;
    --positions) positions=$2; shift 2 ;;
    --rescore-nodes) rescore_nodes=$2; shift 2 ;;
    --books) books=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    part1 | lichess-2016-05 | lichess-2017-05 | lichess-prod500) sets+=("$1"); shift ;;
    *) echo "book_quality.sh: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
done
((${#sets[@]})) || sets=(part1 lichess-2016-05 lichess-2017-05)

bin=${BOOKFORGE_BIN_DIR:-build/bin}
bookforge=$bin/bookforge
judge=$bin/book_quality
stockfish=${STOCKFISH:-/usr/games/stockfish}
polyglot=${POLYGLOT:-/usr/games/polyglot}
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
for tool in "$bookforge" "$judge" "$stockfish" "$polyglot"; do
  [[ -x $tool ]] || { echo "book_quality.sh: not executable: $tool (build the bookforge and book_quality targets)" >&2; exit 1; }
done
mkdir -p "$work"

# data set -> "file max-ply description"
describe() {
  case $1 in
    part1) echo "$data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst 30 pgnmentor part 1 (masters), max-ply 30" ;;
    lichess-2016-05) echo "$data/games/lichess-org-database_2016-05.pgn 20 lichess 2016-05 sample (amateurs), max-ply 20" ;;
    lichess-2017-05) echo "$data/games/lichess-org-database_2017-05.pgn 20 lichess 2017-05 sample (amateurs), max-ply 20" ;;
    lichess-prod500) echo "$work/lichess-prod500.pgn 20 lichess, 500 games of many players (amateurs), max-ply 20" ;;
  esac
}

# The 500 games come as one move list a line: each becomes a game of unknown result (*), which
# a book counts as played, and weighs by how often it was played. Written only when asked for.
if [[ " ${sets[*]} " == *" lichess-prod500 "* ]]; then
  prod500=$data/pgn-tricky/scalachess/prod500standard_sanlines.txt
  [[ -f $prod500 ]] || { echo "book_quality.sh: missing $prod500 (../shared/data)" >&2; exit 1; }
  awk '{ printf "[Event \"lichess game %d\"]\n[Site \"lichess.org\"]\n[Result \"*\"]\n\n%s *\n\n", NR, $0 }' \
    "$prod500" > "$work/lichess-prod500.pgn"
fi

# bookforge book -> the flags its build adds to the default rules ("stockfish" stands for the
# judge's engine, $stockfish); the table's label shows them as they are
rescore_flags() {
  case $1 in
    default) ;;
    depth8) echo "--rescore-depth 8 --rescore-margin 50" ;;
    depth8-repair) echo "--rescore-depth 8 --rescore-margin 50 --rescore-repair" ;;
    depth8-propagate) echo "--rescore-depth 8 --rescore-margin 50 --rescore-propagate" ;;
    depth8-propagate-repair) echo "--rescore-depth 8 --rescore-margin 50 --rescore-propagate --rescore-repair" ;;
    depth10-tight) echo "--rescore-depth 10 --rescore-margin 25 --rescore-repair" ;;
    depth12-tight) echo "--rescore-depth 12 --rescore-margin 25 --rescore-repair" ;;
    depth10-m35) echo "--rescore-depth 10 --rescore-margin 35 --rescore-repair" ;;
    depth10-m50) echo "--rescore-depth 10 --rescore-margin 50 --rescore-repair" ;;
    depth10-blend50) echo "--rescore-depth 10 --rescore-margin 25 --rescore-repair --rescore-blend 0.5" ;;
    depth10-blend100) echo "--rescore-depth 10 --rescore-margin 25 --rescore-repair --rescore-blend 1" ;;
    depth8-classical) echo "--rescore-depth 8 --rescore-margin 50 --rescore-eval classical" ;;
    depth10-tight-classical) echo "--rescore-depth 10 --rescore-margin 25 --rescore-repair --rescore-eval classical" ;;
    stockfish) echo "--rescore-engine stockfish --rescore-nodes $rescore_nodes" ;;
    stockfish-repair) echo "--rescore-engine stockfish --rescore-nodes $rescore_nodes --rescore-repair" ;;
    stockfish-tight) echo "--rescore-engine stockfish --rescore-nodes $rescore_nodes --rescore-margin 25 --rescore-repair" ;;
    *) echo "book_quality.sh: unknown book '$1'" >&2; return 2 ;;
  esac
}

# set book -> builds $work/<set>-<book>.bin unless it is there
build_book() {
  local set=$1 book=$2 games ply
  read -r games ply _ <<< "$(describe "$set")"
  local out=$work/$set-$book.bin
  [[ $book == stockfish* ]] && out=$work/$set-$book-$rescore_nodes.bin
  [[ -s $out ]] && { echo "$out"; return; }
  if [[ $book == polyglot ]]; then
    local pgn=$games
    if [[ $games == *.zst ]]; then
      pgn=$work/$set.pgn
      [[ -s $pgn ]] || zstd -q -dc "$games" > "$pgn"
    fi
    nice -n 19 "$polyglot" make-book -pgn "$pgn" -bin "$out" -max-ply "$ply" > /dev/null
  else
    local text flags
    text=$(rescore_flags "$book") || exit 2
    read -ra flags <<< "$text"
    flags=("${flags[@]/#stockfish/$stockfish}")
    nice -n 19 "$bookforge" build "$games" -o "$out" --max-ply "$ply" --progress never "${flags[@]}" > /dev/null
  fi
  echo "$out"
}

label() {
  case $1 in
    polyglot) echo "polyglot make-book" ;;
    default) echo "bookforge default rules" ;;
    *) echo "bookforge \`$(rescore_flags "$1")\`" ;;
  esac
}

echo "judge: $stockfish at $nodes nodes per eval, $positions positions per book; cache $work/evals.tsv"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
echo
header=--header
agreement=$work/agreement.txt
rm -f "$agreement"
for set in "${sets[@]}"; do
  read -r games _ description <<< "$(describe "$set")"
  [[ -f $games ]] || { echo "book_quality.sh: missing $games (../shared/data)" >&2; exit 1; }
  specs=()
  IFS=, read -ra chosen <<< "$books"
  for book in "${chosen[@]}"; do
    start=$(date +%s)
    path=$(build_book "$set" "$book")
    echo "$set/$book: $path ($(($(date +%s) - start)) s)" >&2
    specs+=("$(label "$book")=$path")
  done
  nice -n 19 "$judge" --engine "$stockfish" --nodes "$nodes" --positions "$positions" \
    --cache "$work/evals.tsv" --games "$description" --agreement-depth 8 --agreement-out "$agreement" \
    $header "${specs[@]}"
  header=--no-header
done
echo
cat "$agreement"
