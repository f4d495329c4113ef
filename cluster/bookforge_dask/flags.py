"""Which of `bookforge build`'s flags go to which step of a build spread over a cluster.

The driver takes build's own flags and hands each to the step it shapes: the counting (`count`
on every shard), the rules (the final `build --from-counts`), the rescoring (its plan, batches
and final build) or the exit positions (`exits` batches). tests/cluster checks this table
against `bookforge build --help` and `bookforge count --help`, so a flag added to bookforge and
not sorted here is found.
"""

from dataclasses import dataclass, field

# How many values a flag takes: 0, 1, or MANY (every following token up to the next flag, as
# bookforge's own parser takes them).
MANY = -1

# Counting: given to `count` (bookforge applies them as it reads the games).
COUNTING = {
    "--min-elo": 1,
    "--min-avg-elo": 1,
    "--max-elo-diff": 1,
    "--min-white-elo": 1,
    "--min-black-elo": 1,
    "--exclude-unrated": 0,
    "--results": MANY,
    "--min-plies": 1,
    "--date-from": 1,
    "--date-to": 1,
    "--speed": MANY,
    "--tag": MANY,
    "--exclude-tag": MANY,
    "--no-setup": 0,
    "--variant": 1,
    "--strict": 0,
    "--memory": 1,
}

# Counting flags the final build takes as well (it checks them against the counts).
COUNTING_AND_RULES = {
    "--max-ply": 1,
    "--count-repeats": 0,
    "--no-count-repeats": 0,
    "--keep-duplicates": 0,
    "--drop-duplicates": 0,
    # The preset shapes the counting too: `count --rules NAME` counts as that build does.
    "--rules": 1,
    # A book weighted by rating needs the players' ratings counted.
    "--weight": 1,
}

# The rules: given to the final `build --from-counts`.
RULES = {
    "--min-games": 1,
    "--min-move-games": 1,
    "--min-move-share": 1,
    "--drop-losing": 0,
    "--no-drop-losing": 0,
    "--max-score-drop": 1,
    "--min-score": 1,
    "--side": 1,
    "--prune-unreachable": 0,
    "--allow-empty": 0,
}

# Rescoring: the plan, the batches and the final build. --suspicious names a file the final
# build writes (the driver puts it in place).
RESCORING = {
    "--rescore-depth": 1,
    "--rescore-nodes": 1,
    "--rescore-margin": 1,
    "--rescore-repair": 0,
    "--rescore-propagate": 0,
    "--rescore-blend": 1,
    "--rescore-engine-alone": 0,
    "--rescore-engine": 1,
    "--rescore-hash": 1,
    "--rescore-eval": 1,
    "--suspicious": 1,
    "--suspicious-share": 1,
    "--suspicious-margin": 1,
}

# Exit positions: `--exits FILE` with `build`; the others are `bookforge exits`'s own flags
# under build's names.
EXITS = {
    "--exits": 1,
    "--exit-depth": 1,
    "--exit-nodes": 1,
    "--exit-eval-min": 1,
    "--exit-eval-max": 1,
    "--exit-engine": 1,
}
EXIT_FLAG_FOR_EXITS_COMMAND = {
    "--exit-engine": "--engine",
    "--exit-depth": "--depth",
    "--exit-nodes": "--nodes",
    "--exit-eval-min": "--eval-min",
    "--exit-eval-max": "--eval-max",
}

# Build flags the driver answers itself, or refuses with the reason.
REFUSED = {
    "--from-db": "the cluster builds from PGN files: give them as inputs",
    "--speeds": "--speeds filters a store's slices (build --from-db); use --speed to filter games",
    "--ratings": "--ratings filters a store's slices (build --from-db); use --min-avg-elo and friends",
    "--since": "--since filters a store's slices (build --from-db); use --date-from",
    "--until": "--until filters a store's slices (build --from-db); use --date-to",
    "--config": "give the flags on the command line (the steps take different ones)",
    "--tmp-dir": "each task spills into the work folder (--work-dir)",
    "--threads": "each task runs on one core of its worker; give workers with --local N or to the cluster",
    "--rescore-plan": "the driver plans the rescoring and spreads its batches itself",
    "--rescore-verdicts": "the driver collects the rescoring's verdicts itself",
    "--key-range": "the driver builds the key ranges itself (--partitions K of them)",
}

ALL = {**COUNTING, **COUNTING_AND_RULES, **RULES, **RESCORING, **EXITS}


class FlagError(ValueError):
    pass


@dataclass
class SortedFlags:
    """build's flags, sorted by the step they shape, each as the tokens given."""

    counting: list = field(default_factory=list)  # for count
    rules: list = field(default_factory=list)  # for the final build (counting flags it checks too)
    rescoring: list = field(default_factory=list)
    exits: dict = field(default_factory=dict)  # flag -> value
    build: list = field(default_factory=list)  # all but the exits', in order: for one build of it all

    def rescores(self):
        return any(t in ("--rescore-depth", "--rescore-nodes") for t in self.rescoring)

    def suspicious_path(self):
        return _value_of(self.rescoring, "--suspicious")


def _value_of(tokens, flag):
    for i, t in enumerate(tokens):
        if t == flag and i + 1 < len(tokens):
            return tokens[i + 1]
    return None


def _split_equals(token):
    if token.startswith("--") and "=" in token:
        name, value = token.split("=", 1)
        return name, [value]
    return token, []


def sort_flags(tokens):
    """Sorts build flags (a list of tokens) by step; a FlagError names a flag the cluster
    cannot take or a flag missing its value."""
    out = SortedFlags()
    i = 0
    while i < len(tokens):
        name, values = _split_equals(tokens[i])
        i += 1
        if name in REFUSED:
            raise FlagError(f"{name}: {REFUSED[name]}")
        if name not in ALL:
            raise FlagError(f"{name}: not a flag of bookforge build (see bookforge build --help)")
        arity = ALL[name]
        if arity == MANY:
            while i < len(tokens) and not tokens[i].startswith("--"):
                values.append(tokens[i])
                i += 1
            if not values:
                raise FlagError(f"{name} needs at least one value")
        elif arity == 1 and not values:
            if i >= len(tokens):
                raise FlagError(f"{name} needs a value")
            values = [tokens[i]]
            i += 1
        group = [name] + values
        if name not in EXITS:
            out.build += group
        if name in COUNTING:
            out.counting += group
        elif name in COUNTING_AND_RULES:
            out.counting += group
            out.rules += group
        elif name in RULES:
            out.rules += group
        elif name in RESCORING:
            out.rescoring += group
        else:
            out.exits[name] = values[0] if values else None
    if out.exits and "--exits" not in out.exits:
        raise FlagError(f"{sorted(out.exits)[0]} needs --exits FILE")
    if any(t.startswith("--suspicious") for t in out.rescoring) and not out.rescores():
        raise FlagError("--suspicious needs rescoring (--rescore-depth or --rescore-nodes)")
    return out


def exits_command_flags(exits):
    """`bookforge exits`'s flags for build's --exit-* flags."""
    tokens = []
    for name, value in exits.items():
        if name in EXIT_FLAG_FOR_EXITS_COMMAND:
            tokens += [EXIT_FLAG_FOR_EXITS_COMMAND[name], value]
    return tokens
