# Sourced by the package tests: what `bookforge <command...> --help` lists, as CLI11 prints it
# from the same definitions the manual page and the completion are written from.
# Needs BOOKFORGE_BIN.

# The subcommands, one per line; with --aliases, their other names too ("analyse, analyze").
help_subcommands() {
  local aliases=0
  if [[ ${1-} == --aliases ]]; then
    aliases=1
    shift
  fi
  "$BOOKFORGE_BIN" "$@" --help | sed -n '/^Subcommands:/,$p' | tail -n +2 |
    awk -v aliases="$aliases" '/^  [a-z]/ {
      for (i = 1; i <= NF; i++) { name = $i; more = sub(/,$/, "", name); print name; if (!more || !aliases) break }
    }'
}

# The flags ("-o,--output TEXT" gives -o and --output), one per line.
help_flags() {
  "$BOOKFORGE_BIN" "$@" --help | grep -E '^  -' | awk '{ print $1 }' | tr ',' '\n' | sed 's/{.*//'
}
