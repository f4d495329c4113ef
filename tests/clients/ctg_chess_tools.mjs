#!/usr/bin/env node
// Reads a ChessBase CTG book with chess-tools (npm, by other authors than bookforge's) and
// prints, as JSON lines, every record the way chess-tools stores it with White to move (the
// book's own orientation): {"board": FEN board field, "fen": its FEN, "moves": [{"code",
// "from_to"}]}. from_to is chess-tools' "e2e4" (or "O-O", "O-O-O"), empty where chess-tools
// decodes no squares. tests/e2e/ctg_outside_reader.py compares these with bookforge's reader.
//
//   node tests/clients/ctg_chess_tools.mjs BOOK.ctg
import { createReadStream } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { OpeningBooks } = require("chess-tools");

const book = new OpeningBooks.CTG();
book.on("error", (error) => {
  console.error(String(error));
  process.exit(1);
});
book.on("loaded", () => {
  const lines = [];
  for (const entry of Object.values(book.entries.w)) {
    lines.push(
      JSON.stringify({
        board: entry.fen.split(" ")[0],
        fen: entry.fen,
        moves: entry.book_moves.map((m) => ({ code: Number(m.move.code), from_to: m.move_notation })),
      }),
    );
  }
  process.stdout.write(lines.join("\n") + "\n");
});
// chess-tools prints "possible duplicate" notes on standard output: keep them off ours.
const log = console.log;
console.log = (...args) => console.error(...args);
book.load_book(createReadStream(process.argv[2]));
process.on("exit", () => {
  console.log = log;
});
