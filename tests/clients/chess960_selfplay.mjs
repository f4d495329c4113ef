// Makes a sample of Chess960 games for bookforge's tests: Debian's Stockfish plays itself with
// UCI_Chess960 from start positions drawn from the 960, and chessops (lichess's rules library,
// not bookforge's) keeps the board, writes the moves in SAN and decides how a game ends. The games
// are Stockfish's; nothing of bookforge is used to make them.
//
//   node chess960_selfplay.mjs --games N [--nodes K] [--seed S] [--stockfish PATH] > games.pgn
//
// Stockfish searches a fixed number of nodes a move, so the sample is the same for the same seed
// and Stockfish. Start positions are numbered as Scharnagl numbers them (518 is the standard one). Half of the
// games give their FEN's castling field in X-FEN (KQkq), the other half in Shredder-FEN (the
// rooks' files), and one game in eight is tagged "Fischerandom" instead of "Chess960", as real
// databases mix them.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Chess } from "chessops/chess";
import { makeFen, parseFen } from "chessops/fen";
import { makeSanAndPlay } from "chessops/san";
import { parseUci } from "chessops/util";

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const games = Number(option("games", "10"));
const nodes = Number(option("nodes", "3000"));  // per move, on average
let seed = BigInt(option("seed", "960"));
const stockfishPath = option("stockfish", "/usr/games/stockfish");
const maxPlies = Number(option("max-plies", "300"));

// A 64-bit linear congruential generator: the same seed gives the same sample.
function random(n) {
  seed = (seed * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
  return Number((seed >> 33n) % BigInt(n));
}

// The back rank of start position `n` (0..959), as letters from file a to h.
function backRank(n) {
  const rank = Array(8).fill(null);
  rank[2 * (n % 4) + 1] = "B"; // light-squared bishop: b, d, f or h
  n = Math.floor(n / 4);
  rank[2 * (n % 4)] = "B"; // dark-squared bishop: a, c, e or g
  n = Math.floor(n / 4);
  const empty = () => rank.map((p, i) => (p ? -1 : i)).filter((i) => i >= 0);
  rank[empty()[n % 6]] = "Q";
  n = Math.floor(n / 6);
  const knights = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]][n];
  const free = empty();
  for (const k of knights) rank[free[k]] = "N";
  const [r1, k, r2] = empty();
  rank[r1] = "R";
  rank[k] = "K";
  rank[r2] = "R";
  return rank.join("");
}

function startFen(n, shredder) {
  const white = backRank(n);
  const rooks = [...white].map((p, i) => (p === "R" ? "abcdefgh"[i] : "")).join("");
  const castling = shredder ? (rooks[1] + rooks[0]).toUpperCase() + rooks[1] + rooks[0] : "KQkq";
  return `${white.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${white} w ${castling} - 0 1`;
}

class Engine {
  constructor(path) {
    this.proc = spawn(path, [], { stdio: ["pipe", "pipe", "inherit"] });
    this.lines = createInterface({ input: this.proc.stdout });
    this.waiting = [];
    this.lines.on("line", (line) => {
      const w = this.waiting[0];
      if (w && line.startsWith(w.prefix)) {
        this.waiting.shift();
        w.resolve(line);
      }
    });
  }
  send(text) {
    this.proc.stdin.write(text + "\n");
  }
  until(prefix) {
    return new Promise((resolve) => this.waiting.push({ prefix, resolve }));
  }
  quit() {
    this.send("quit");
  }
}

function result(pos, plies, seen) {
  const outcome = pos.outcome();
  if (outcome) return outcome.winner === "white" ? "1-0" : outcome.winner === "black" ? "0-1" : "1/2-1/2";
  if (pos.halfmoves >= 100) return "1/2-1/2";
  if (seen.get(makeFen(pos.toSetup()).split(" ").slice(0, 4).join(" ")) >= 3) return "1/2-1/2";
  if (plies >= maxPlies) return "*";
  return null;
}

async function playGame(engine, round) {
  const number = random(960);
  const fen = startFen(number, round % 2 === 0);
  // Each game its own node budget (within a third of --nodes): a game that starts from a
  // position an earlier one started from then still takes its own course.
  const budget = Math.round(nodes * (2 / 3 + random(1000) / 1500));
  const pos = Chess.fromSetup(parseFen(fen).unwrap(), "chess960").unwrap();
  engine.send("ucinewgame");
  const moves = [];
  const sans = [];
  const seen = new Map();
  let outcome = null;
  while (!(outcome = result(pos, moves.length, seen))) {
    engine.send(`position fen ${fen} moves ${moves.join(" ")}`.trimEnd());
    engine.send(`go nodes ${budget}`);
    const best = (await engine.until("bestmove")).split(" ")[1];
    const move = parseUci(best);
    if (!move || !pos.isLegal(move)) throw new Error(`game ${round}: Stockfish played ${best}, not legal in ${makeFen(pos.toSetup())}`);
    sans.push(makeSanAndPlay(pos, move));
    moves.push(best);
    const key = makeFen(pos.toSetup()).split(" ").slice(0, 4).join(" ");
    seen.set(key, (seen.get(key) || 0) + 1);
  }
  const variant = round % 8 === 7 ? "Fischerandom" : "Chess960";
  const tags = [
    ["Event", "bookforge Chess960 sample: Stockfish self-play"],
    ["Site", "local"],
    ["Date", "2026.11.27"],
    ["Round", String(round + 1)],
    ["White", "Stockfish"],
    ["Black", "Stockfish"],
    ["Result", outcome],
    ["Variant", variant],
    ["SetUp", "1"],
    ["FEN", fen],
    ["StartPosition", String(number)],
  ];
  let text = tags.map(([k, v]) => `[${k} "${v}"]`).join("\n") + "\n\n";
  let line = "";
  sans.forEach((san, i) => {
    const word = (i % 2 === 0 ? `${i / 2 + 1}. ` : "") + san;
    if (line.length + word.length + 1 > 79) {
      text += line.trimEnd() + "\n";
      line = "";
    }
    line += word + " ";
  });
  return text + (line + outcome).trim() + "\n\n";
}

const engine = new Engine(stockfishPath);
engine.send("uci");
await engine.until("uciok");
engine.send("setoption name UCI_Chess960 value true");
engine.send("setoption name Threads value 1");
engine.send("setoption name Hash value 16");
engine.send("isready");
await engine.until("readyok");
for (let round = 0; round < games; ++round) process.stdout.write(await playGame(engine, round));
engine.quit();
