#!/usr/bin/env node
// Games between `bookforge uci`, seen through the PolyGlot adapter as an xboard engine (as
// xboard or WinBoard players use UCI engines), and Stockfish over UCI at a low Skill Level.
// This script is the GUI: it speaks xboard protocol 2 to polyglot (xboard, protover, new,
// level or st, hard/easy for pondering, time/otim, usermove, go) and relays the moves to and
// from Stockfish. chess.js judges every move and the end of the game; the script keeps both
// clocks. PolyGlot's own configuration is an .ini file written in --dir.
//
//   node tests/clients/xboard_match.mjs --bookforge build/bin/bookforge --dir /tmp/x
//        [--games 2] [--st 0.1 | --tc 1+0.1] [--ponder 0|1] [--skill 1]
//
// Prints one line per game and `games N (...): illegal moves I, time losses T, no answer A`;
// exits 1 unless all three are 0.
import fs from "node:fs";
import path from "node:path";
import { Chess } from "chess.js";

import { LineProcess, legalMoves, play } from "./line_process.mjs";

const kMaxPlies = 240;  // longer games are adjudicated drawn

function parseArgs(argv) {
  const args = {
    bookforge: "build/bin/bookforge", polyglot: "/usr/games/polyglot", stockfish: "/usr/games/stockfish",
    dir: "", games: 2, st: 0, tc: "", ponder: 0, skill: 1,
    // Seconds a move may overrun its clock: pipe and scheduling delays through the adapter, as
    // match runners allow.
    margin: 0.15,
  };
  for (let i = 2; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in args)) throw new Error(`unknown argument ${argv[i]}`);
    args[key] = typeof args[key] === "number" ? Number(argv[i + 1]) : argv[i + 1];
  }
  if (!args.dir) throw new Error("--dir is required (polyglot's .ini is written there)");
  if (!args.st && !args.tc) args.st = 0.1;
  return args;
}

// The clock of one side: fixed time a move (st) or base + increment (tc).
class Clock {
  constructor(args) {
    this.st = args.st;
    if (!this.st) [this.left, this.inc] = args.tc.split("+").map(Number);
  }
  // Charges a move that took `seconds`; false if it overran by more than `margin`.
  charge(seconds, margin) {
    if (this.st) return seconds <= this.st + margin;
    this.left -= seconds;
    if (this.left < -margin) return false;
    this.left = Math.max(this.left, 0) + this.inc;
    return true;
  }
  ms() {
    return Math.max(1, Math.round((this.st || this.left) * 1000));
  }
}

function writeIni(args) {
  const ini = path.join(args.dir, "bookforge-polyglot.ini");
  fs.writeFileSync(ini, [
    "[PolyGlot]",
    `EngineDir = ${args.dir}`,
    `EngineCommand = ${path.resolve(args.bookforge)} uci`,
    "EngineName = bookforge",
    "Book = false",
    "Log = false",
    "Resign = false",
    "[Engine]",
    "Hash = 16",
    "",
  ].join("\n"));
  return ini;
}

async function startAdapter(args) {
  const adapter = new LineProcess(args.polyglot, [writeIni(args)], { cwd: args.dir });
  adapter.send("xboard\nprotover 2");
  const features = await adapter.readUntil((l) => /\bdone=1\b/.test(l), 20000);
  if (!features) throw new Error("polyglot did not finish its feature list (done=1)");
  adapter.usermove = features.some((l) => /\busermove=1\b/.test(l));
  return adapter;
}

async function startStockfish(args) {
  const sf = new LineProcess(args.stockfish, []);
  sf.send(`uci\nsetoption name Threads value 1\nsetoption name Hash value 16\nsetoption name Skill Level value ${args.skill}\nisready`);
  if (!(await sf.readUntil((l) => l === "readyok", 20000))) throw new Error("stockfish did not answer isready");
  return sf;
}

// Bookforge's move through the adapter: the clocks, then the opponent's last move (or `go` for
// the first move of the game); returns { move } or { forfeit, reason }.
async function adapterMove(args, adapter, game, moves, clocks, ourColor) {
  const ours = clocks[ourColor], theirs = clocks[ourColor === "w" ? "b" : "w"];
  const handover = moves.length === 0 ? "go" : `${adapter.usermove ? "usermove " : ""}${moves[moves.length - 1]}`;
  const start = performance.now();
  adapter.send(`time ${Math.round(ours.ms() / 10)}\notim ${Math.round(theirs.ms() / 10)}\n${handover}`);
  const lines = await adapter.readUntil((l) => /^(move |resign|Illegal move|Error|tellusererror)/.test(l),
                                        ours.ms() + 10000);
  const spent = (performance.now() - start) / 1000;
  if (!lines) return { forfeit: "no answer", reason: "bookforge (through polyglot) gave no move" };
  const last = lines[lines.length - 1];
  if (!last.startsWith("move ")) return { forfeit: "no answer", reason: `polyglot said "${last}"` };
  const move = last.split(/\s+/)[1];
  if (!legalMoves(game).has(move)) return { forfeit: "illegal", reason: `bookforge played ${move} in ${game.fen()}` };
  if (!ours.charge(spent, args.margin))
    return { forfeit: "time", reason: `bookforge took ${spent.toFixed(3)} s on ply ${moves.length + 1}` };
  return { move };
}

// Stockfish's move over UCI; its clock is kept, not judged.
async function stockfishMove(args, sf, game, moves, clocks) {
  const clock = clocks[game.turn()];
  const limit = args.st ? `movetime ${Math.round(args.st * 1000)}`
      : `wtime ${clocks.w.ms()} btime ${clocks.b.ms()} winc ${clocks.w.inc * 1000} binc ${clocks.b.inc * 1000}`;
  const start = performance.now();
  sf.send(`position startpos${moves.length ? " moves " + moves.join(" ") : ""}\ngo ${limit}`);
  const lines = await sf.readUntil((l) => l.startsWith("bestmove"), clock.ms() + 10000);
  if (!lines) throw new Error("stockfish gave no move");
  clock.charge((performance.now() - start) / 1000, Infinity);
  const move = lines[lines.length - 1].split(/\s+/)[1];
  if (!legalMoves(game).has(move)) throw new Error(`stockfish played ${move} in ${game.fen()}`);
  return move;
}

function gameOver(game) {
  if (!game.isGameOver()) return null;
  if (game.isCheckmate()) return { result: game.turn() === "w" ? "0-1" : "1-0", reason: "checkmate" };
  const reason = game.isStalemate() ? "stalemate" : game.isThreefoldRepetition() ? "threefold repetition"
      : game.isInsufficientMaterial() ? "insufficient material" : "fifty-move rule";
  return { result: "1/2-1/2", reason };
}

// One game; bookforge (through polyglot) plays `ourColor` ("w" or "b"). Returns
// { result, reason, plies } or { forfeit, reason, plies }.
async function playGame(args, adapter, sf, ourColor) {
  const game = new Chess();
  const clocks = { w: new Clock(args), b: new Clock(args) };
  const moves = [];
  // After `new` the engine plays Black: it moves on `go` (as White) or on White's first move.
  const level = args.st ? `st ${args.st}` : `level 0 0:${String(clocks.w.left).padStart(2, "0")} ${clocks.w.inc}`;
  adapter.send(`new\n${level}\n${args.ponder ? "hard" : "easy"}\npost`);
  sf.send("ucinewgame");
  for (;;) {
    const over = gameOver(game);
    if (over) return { ...over, plies: moves.length };
    if (moves.length >= kMaxPlies) return { result: "1/2-1/2", reason: `${kMaxPlies}-ply cap`, plies: moves.length };
    let move;
    if (game.turn() === ourColor) {
      const answer = await adapterMove(args, adapter, game, moves, clocks, ourColor);
      if (answer.forfeit) return { ...answer, plies: moves.length };
      move = answer.move;
    } else {
      move = await stockfishMove(args, sf, game, moves, clocks);
    }
    play(game, move);
    moves.push(move);
  }
}

async function main() {
  const args = parseArgs(process.argv);
  fs.mkdirSync(args.dir, { recursive: true });
  const adapter = await startAdapter(args);
  const sf = await startStockfish(args);
  const tally = { illegal: 0, time: 0, "no answer": 0 };
  const score = { win: 0, draw: 0, loss: 0 };
  const label = args.st ? `${args.st} s a move` : `${args.tc}`;
  for (let g = 0; g < args.games; ++g) {
    const ourColor = g % 2 === 0 ? "w" : "b";
    const outcome = await playGame(args, adapter, sf, ourColor);
    let text;
    if (outcome.forfeit) {
      tally[outcome.forfeit] += 1;
      text = `forfeit (${outcome.forfeit}): ${outcome.reason}`;
    } else {
      const ourWin = (outcome.result === "1-0") === (ourColor === "w");
      if (outcome.result === "1/2-1/2") score.draw += 1;
      else if (ourWin) score.win += 1;
      else score.loss += 1;
      text = `${outcome.result} (${outcome.reason})`;
      adapter.send(`result ${outcome.result} {${outcome.reason}}`);
    }
    adapter.send("force");
    console.log(`game ${g + 1}: bookforge ${ourColor === "w" ? "white" : "black"}, ${label}` +
                `${args.ponder ? ", ponder" : ""}: ${text}, ${outcome.plies ?? 0} plies`);
  }
  adapter.send("quit");
  sf.send("quit");
  if (!(await adapter.exit(10000))) adapter.kill();
  if (!(await sf.exit(10000))) sf.kill();
  console.log(`games ${args.games} (${label}${args.ponder ? ", ponder" : ""}; bookforge +${score.win} =${score.draw} -${score.loss}` +
              ` against stockfish skill ${args.skill}): illegal moves ${tally.illegal}, time losses ${tally.time}, no answer ${tally["no answer"]}`);
  process.exit(tally.illegal + tally.time + tally["no answer"] === 0 ? 0 : 1);
}

main().catch((e) => {
  console.log(`error: ${e.message}`);
  process.exit(1);
});
