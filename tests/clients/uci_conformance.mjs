#!/usr/bin/env node
// Drives `bookforge uci` as the fastest possible client does: the next `position` and `go` are
// written the moment a `bestmove` is read, with no pause. The rules of chess come from chess.js,
// not from bookforge, so a wrong answer cannot hide behind a shared bug.
//
// Every cycle sends one position and one search command (a depth, a node budget, a move time, a
// clock, infinite + stop, ponder + ponderhit, ponder + stop, or a zero or negative limit) and
// checks the answer: exactly one `bestmove`, legal in the position just sent, preceded by that
// search's own output (its last principal variation starts with the move played). It also checks
// that `isready` is answered while an infinite search runs, that a `stop` sent after a search has
// ended does not cut the next one short, and that `quit` during a search ends the engine.
//
//   node tests/clients/uci_conformance.mjs --bookforge build/bin/bookforge [--cycles 2000] [--seed 1]
//        [--kinds depth,nodes,movetime,clock,zeroOrNegative,infiniteStop,ponderhit,ponderStop,strayStop]
//
// Prints `cycles N, wrong answers W` and exits 1 if W > 0 or the engine hangs or dies.
import { Chess } from "chess.js";

import { LineProcess, legalMoves, play } from "./line_process.mjs";

const kAnswerTimeoutMs = 20000;  // no search below may take this long: longer means a hang
const kMaxGamePlies = 160;

function parseArgs(argv) {
  const args = { bookforge: "build/bin/bookforge", cycles: 2000, seed: 1, kinds: "" };
  for (let i = 2; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in args)) throw new Error(`unknown argument ${argv[i]}`);
    args[key] = typeof args[key] === "number" ? Number(argv[i + 1]) : argv[i + 1];
  }
  return args;
}

// A small deterministic generator (mulberry32), so that a failing run can be replayed by seed.
function makeRandom(seed) {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
}

// The game a cycle's position comes from: chess.js for the rules, with the moves and the FEN
// before each move kept here (chess.js's verbose history replays the whole game on every call).
class Game {
  constructor() {
    this.chess = new Chess();
    this.moves = [];
    this.fens = [];
  }
  play(move) {
    this.fens.push(this.chess.fen());
    this.moves.push(move);
    play(this.chess, move);
  }
  // The game so far, as `startpos moves ...` or, every few cycles, as the FEN of an earlier
  // position followed by the remaining moves.
  positionCommand(random) {
    if (this.moves.length > 4 && random(4) === 0) {
      const cut = random(this.moves.length);
      const rest = this.moves.slice(cut);
      return `position fen ${this.fens[cut]}` + (rest.length ? ` moves ${rest.join(" ")}` : "");
    }
    return "position startpos" + (this.moves.length ? ` moves ${this.moves.join(" ")}` : "");
  }
}

function clockCommand(random, prefix = "go") {
  const wtime = 20 + random(500), btime = 20 + random(500);
  const inc = random(3) === 0 ? 0 : random(30);
  const movestogo = random(4) === 0 ? ` movestogo ${1 + random(30)}` : "";
  return `${prefix} wtime ${wtime} btime ${btime} winc ${inc} binc ${inc}${movestogo}`;
}

// The kinds of cycle, chosen at random. Each gives the text to send after `position` and what to
// check or do: `depth`, the depth the search must report; `readyBeforeBest`, `isready` must be
// answered before the best move (then `stopAfterReady` sends `stop`); `ponderhitOnInfo`, send
// `ponderhit` on the first info line unless it went with the go; `stray`, send a `stop` after the
// answer, when no search runs.
const kinds = {
  depth: (r) => {
    const depth = 1 + r(4);
    return { send: `go depth ${depth}`, depth };
  },
  nodes: (r) => ({ send: `go nodes ${1 + r(2000)}` }),
  movetime: (r) => ({ send: `go movetime ${1 + r(10)}` }),
  clock: (r) => ({ send: clockCommand(r) }),
  zeroOrNegative: (r) => ({
    send: ["go depth 0", "go movetime 0", "go movetime -5", "go nodes 0", "go depth -3", "go wtime 0 btime 0"][r(6)],
  }),
  infiniteStop: () => ({ send: "go infinite\nisready", readyBeforeBest: true, stopAfterReady: true }),
  ponderhit: (r) => ({ send: clockCommand(r, "go ponder") + (r(2) ? "\nponderhit" : ""), ponderhitOnInfo: true }),
  ponderStop: (r) => ({ send: clockCommand(r, "go ponder") + "\nisready", readyBeforeBest: true, stopAfterReady: true }),
  strayStop: () => ({ send: "go depth 2", depth: 2, stray: true }),
};

async function runCycles(args) {
  const random = makeRandom(args.seed);
  // --kinds depth,nodes,... narrows the mix (to chase one failure); all kinds by default.
  const kindNames = args.kinds ? args.kinds.split(",") : Object.keys(kinds);
  const engine = new LineProcess(args.bookforge, ["uci"]);
  const failures = [];
  const counts = Object.fromEntries(kindNames.map((k) => [k, 0]));
  let cycles = 0;
  let wrong = 0;
  const fail = (what) => {
    wrong += 1;
    if (failures.length < 20) failures.push(what);
  };

  engine.send("uci");
  if (!(await engine.readUntil((l) => l === "uciok", 10000))) throw new Error("no uciok");
  engine.send("isready");
  if (!(await engine.readUntil((l) => l === "readyok", 10000))) throw new Error("no readyok");

  let game = new Game();
  let afterStray = false;  // the last cycle ended with a stop sent after its bestmove
  for (; cycles < args.cycles; ++cycles) {
    if (game.chess.isGameOver() || game.moves.length >= kMaxGamePlies) {
      game = new Game();
      engine.send("ucinewgame");
    }
    const kind = afterStray ? "depth" : kindNames[random(kindNames.length)];
    counts[kind] += 1;
    const plan = kinds[kind](random);
    const position = game.positionCommand(random);
    const legal = legalMoves(game.chess);
    // Written in one go, the moment the previous answer was read.
    engine.send(`${position}\n${plan.send}`);

    const lines = [];
    let readyAt = -1;
    let ponderhitSent = !plan.ponderhitOnInfo || plan.send.includes("ponderhit");
    for (;;) {
      const line = await engine.nextLine(kAnswerTimeoutMs);
      if (line === null) {
        fail(`cycle ${cycles} (${kind}): no bestmove after "${position}" / "${plan.send}"`);
        engine.kill();  // a hung engine would outlive this script
        throw Object.assign(new Error("engine hung or died"), { cycles, wrong, failures, counts });
      }
      lines.push(line);
      if (line === "readyok") {
        readyAt = lines.length - 1;
        if (plan.stopAfterReady) engine.send("stop");
      }
      if (!ponderhitSent && line.startsWith("info ")) {
        engine.send("ponderhit");
        ponderhitSent = true;
      }
      if (line.startsWith("bestmove")) break;
    }

    const best = lines[lines.length - 1].split(/\s+/)[1];
    const where = `cycle ${cycles} (${kind}, "${plan.send.replace(/\n/g, " / ")}") after "${position}"`;
    const pvs = lines.filter((l) => l.startsWith("info ") && l.includes(" pv "));
    if (!legal.has(best)) {
      fail(`${where}: bestmove ${best} is not legal here`);
    } else if (pvs.length === 0) {
      fail(`${where}: bestmove ${best} without any search output of its own before it`);
    } else {
      const lastPv = pvs[pvs.length - 1];
      const first = lastPv.split(" pv ")[1].split(" ")[0];
      if (first !== best) fail(`${where}: bestmove ${best} but the last pv starts with ${first}`);
    }
    if (plan.readyBeforeBest && readyAt < 0) {
      fail(`${where}: isready not answered during the search`);
    }
    if (plan.depth && !lines.some((l) => l.startsWith(`info depth ${plan.depth} `)))
      fail(`${where}: the search stopped short of depth ${plan.depth}` + (afterStray ? " (a stop sent after the previous search had ended)" : ""));
    // A stop sent after the search has ended is a no-op: the next search (a depth search, so that
    // being cut short shows) must run in full.
    if (plan.stray) engine.send("stop");
    afterStray = plan.stray === true;

    // Play on: the engine's move when legal, sometimes another, so that games vary.
    const next = legal.has(best) && random(3) !== 0 ? best : [...legal][random(legal.size)];
    game.play(next);
  }

  // No answer left over: the next thing the engine says after isready is readyok.
  engine.send("isready");
  const tail = await engine.nextLine(kAnswerTimeoutMs);
  if (tail !== "readyok") fail(`after the last cycle the engine said "${tail}" instead of readyok`);

  // quit during a search ends the engine at once.
  engine.send("position startpos\ngo infinite\nquit");
  const exit = await engine.exit(10000);
  if (exit === null) {
    fail("quit during an infinite search did not end the engine");
    engine.kill();
  } else if (exit.code !== 0) {
    fail(`quit during a search: exit code ${exit.code} (signal ${exit.signal})`);
  }
  return { cycles, wrong, failures, counts };
}

async function main() {
  const args = parseArgs(process.argv);
  let outcome;
  try {
    outcome = await runCycles(args);
  } catch (e) {
    outcome = { cycles: e.cycles ?? 0, wrong: (e.wrong ?? 0) || 1, failures: [...(e.failures ?? []), e.message], counts: e.counts };
  }
  for (const f of outcome.failures) console.log(`WRONG: ${f}`);
  if (outcome.counts) console.log(`kinds: ${JSON.stringify(outcome.counts)}`);
  console.log(`cycles ${outcome.cycles}, wrong answers ${outcome.wrong}`);
  process.exit(outcome.wrong === 0 ? 0 : 1);
}

main();
