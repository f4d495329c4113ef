#!/usr/bin/env bash
# ctest package.completion: the bash completion script the build wrote (from `bookforge
# completion bash`), sourced into a real bash and asked as bash asks it: COMP_WORDS and
# COMP_CWORD set, the completion function called, COMPREPLY read. It offers the commands, a
# command's flags by prefix, the choices CLI11 checks, file names where a file goes, nothing
# after a numeric flag; and it offers every command and every flag that --help lists.
# Environment: BOOKFORGE_BIN, COMPLETION, SOURCE_DIR.
set -euo pipefail
# shellcheck source=help_words.sh
source "$(dirname "$0")/help_words.sh"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

[[ -f $COMPLETION ]] || fail "no $COMPLETION: the build writes it after linking bookforge"
# shellcheck source=/dev/null
source "$COMPLETION"
[[ $(complete -p bookforge) == *"-F _bookforge "* ]] || fail "bookforge has no completion function"

# The words offered for the command line "$@", the last word being the one completed.
offered() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _bookforge
  if ((${#COMPREPLY[@]})); then printf '%s\n' "${COMPREPLY[@]}"; fi
}
expect() {  # expect WORD offered for the command line after --
  local word=$1 got
  shift 2
  got=$(offered "$@")
  grep -qxF -- "$word" <<<"$got" || fail "'$*' does not offer $word (offers: $(tr '\n' ' ' <<<"$got"))"
}
expect_only() {  # expect_only "WORDS" -- command line: exactly these, in this order
  local words=$1
  shift 2
  local got
  got=$(offered "$@" | tr '\n' ' ')
  [[ $got == "$words" ]] || fail "'$*' offers '$got', expected '$words'"
}

cd "$SOURCE_DIR"
expect build -- bookforge ''
expect_only "bench build " -- bookforge b
expect --min-elo -- bookforge build --min
expect --min-avg-elo -- bookforge build --min
expect_only "auto always " -- bookforge build --progress a
expect_only "white black both " -- bookforge build --side ''
expect '*' -- bookforge build --results ''
expect_only "" -- bookforge build --min-elo ''
expect_only "data-samples/twic0920-2000.pgn " -- bookforge build data-samples/twic
expect_only "data-samples/twic0920-2000.pgn " -- bookforge build -o data-samples/twic
expect_only "data-samples/twic0920-2000.pgn " -- bookforge build --output = data-samples/twic
# A flag's value is not a command: "db" after --output is a file name.
expect --min-elo -- bookforge build --output db --min
expect_only "add explore game novelty stats " -- bookforge db ''
expect --db -- bookforge db add --d
expect --min-games -- bookforge db novelty --min
expect --depth -- bookforge analyze --de
expect_only "bash " -- bookforge completion ''

# Everything --help lists, at every level: each command's flags after `bookforge <command> -`,
# its subcommands (and their aliases) after `bookforge <command>`.
checked=0
check_command() {
  local flag sub
  for flag in $(help_flags "$@"); do
    expect "$flag" -- bookforge "$@" -
    checked=$((checked + 1))
  done
  for sub in $(help_subcommands --aliases "$@"); do
    expect "$sub" -- bookforge "$@" ''
    check_command "$@" "$sub"
  done
}
check_command
((checked > 200)) || fail "only $checked flags checked: the --help parsing found too few"
echo "PASS: the cases above and $checked flags of every command"
