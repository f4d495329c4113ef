// A third-party lichess opening-explorer client pointed at `bookforge serve`: the npm package
// lichess-opening-explorer (a wrapper written for explorer.lichess.ovh). It has no setting for
// its server, so its HTTP library is handed our URL in place of lichess's host, as a hosts file
// would; everything else (the query it builds, the JSON it parses) is the package's own.
//
//   node lichess_explorer_client.mjs URL
//
// Asks the masters and lichess databases about a few positions as the package's README shows,
// and checks that what the client returns is our answer, with lichess's fields. Prints one
// summary line; exits 1 with the first failure.
import { createRequire } from "node:module";
import Module from "node:module";

const require = createRequire(import.meta.url);
const base = process.argv[2];
if (!base) {
  console.error("usage: node lichess_explorer_client.mjs URL");
  process.exit(2);
}
const LICHESS = "https://explorer.lichess.ovh/";
const asked = [];

// The package requires request-promise and calls it with {uri, json}: the uri gets our host.
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  if (request !== "request-promise") return loaded;
  return (options) => {
    const uri = options.uri.startsWith(LICHESS) ? base + options.uri.slice(LICHESS.length) : options.uri;
    asked.push(uri);
    return loaded({ ...options, uri });
  };
};
const LichessOpeningExplorer = require("lichess-opening-explorer");

function fail(message) {
  console.log("FAIL: " + message);
  process.exit(1);
}

function expectLichessShape(answer, where) {
  for (const name of ["white", "draws", "black"])
    if (!Number.isInteger(answer[name])) fail(`${where}: ${name} is ${answer[name]}`);
  if (!Array.isArray(answer.moves) || answer.moves.length === 0) fail(`${where}: no moves`);
  for (const move of answer.moves) {
    if (typeof move.uci !== "string" || typeof move.san !== "string") fail(`${where}: a move ${JSON.stringify(move)}`);
    if (move.averageRating === null) fail(`${where}: averageRating null`);
  }
  for (const game of answer.topGames) {
    if (typeof game.uci !== "string" || !/^[0-9A-Za-z]{8}$/.test(game.id)) fail(`${where}: a game ${JSON.stringify(game)}`);
  }
}

const positions = [
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
  "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
  "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
];
const explorer = new LichessOpeningExplorer();
let answers = 0;
for (const fen of positions) {
  for (const options of [
    { master: true, variant: "standard" },
    { variant: "standard", speeds: ["blitz", "rapid"], ratings: [1600, 1800] },
  ]) {
    const where = `${JSON.stringify(options)} ${fen}`;
    let got;
    try {
      got = await explorer.analyze(fen, options);
    } catch (error) {
      fail(`${where}: ${error.message}`);
    }
    const uri = asked[asked.length - 1];
    if (!uri.startsWith(base)) fail(`${where}: asked ${uri}`);
    // The same request by fetch: the client must hand back exactly that answer.
    const response = await fetch(uri);
    if (response.status !== 200) fail(`${uri}: status ${response.status}`);
    const ours = await response.json();
    if (JSON.stringify(got) !== JSON.stringify(ours)) fail(`${where}: the client's answer differs from ours`);
    if (options.master && "recentGames" in got) fail(`${where}: masters with recentGames`);
    expectLichessShape(got, where);
    ++answers;
  }
}
console.log(`lichess-opening-explorer: ${answers} answers, each ours in lichess's shape`);
