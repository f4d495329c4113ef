#!/usr/bin/env bash
# ctest package.manual: the manual page the build wrote (share/man/man1/bookforge.1.gz, from
# `bookforge manual`) renders through man(1) without a warning, and holds what --help shows,
# which CLI11 prints from the same definitions: a section for every command and subcommand,
# and every flag of every command in its section.
# Environment: BOOKFORGE_BIN, MAN_PAGE.
set -euo pipefail
# shellcheck source=help_words.sh
source "$(dirname "$0")/help_words.sh"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

command -v man >/dev/null || fail "no man (Debian's man-db, installed by scripts/install-deps.sh)"
[[ -f $MAN_PAGE ]] || fail "no $MAN_PAGE: the build writes it after linking bookforge"
warnings=$(mktemp)
trap 'rm -f "$warnings"' EXIT
page=$(MANWIDTH=200 man --warnings -l "$MAN_PAGE" 2>"$warnings")
[[ ! -s $warnings ]] || fail "man warns: $(cat "$warnings")"
[[ $page == *"BOOKFORGE(1)"* ]] || fail "no title line"

# The rendered section headed "$*" (OPTIONS, bookforge build): from its heading to the next one.
section() {
  awk -v heading="$*" '$0 == heading { inside = 1; next } /^[^ ]/ { inside = 0 } inside' <<<"$page"
}

options=$(section OPTIONS | sed 's/^ *//')
for flag in -h --help --version; do
  grep -qE -- "(^|, )$flag(,|$)" <<<"$options" || fail "OPTIONS does not list $flag"
done

checked=0
check_command() {
  local text
  text=$(section bookforge "$@")
  [[ -n $text ]] || fail "no section 'bookforge $*'"
  local flag
  for flag in $(help_flags "$@"); do
    # -h, --help and --version are listed once, in OPTIONS, for every command.
    [[ $flag == -h || $flag == --help || $flag == --version ]] && continue
    grep -qE -- "(^|[ ,])$flag( |,|$)" <<<"$text" || fail "bookforge $*: $flag is not in its section"
    checked=$((checked + 1))
  done
  local sub
  for sub in $(help_subcommands "$@"); do check_command "$@" "$sub"; done
}
for command in $(help_subcommands); do check_command "$command"; done
((checked > 100)) || fail "only $checked flags checked: the --help parsing found too few"
echo "PASS: every command's section and $checked flags found in the rendered page"
