// Finding a game's novelty: a PGN pasted into the form is sent to /api/novelty, which walks it
// through the store's tree (as `db novelty`), and the board goes to the position the game left
// the tree from, with the game's moves kept after it (the next one is the novelty).
import { fetchNovelty } from "./api.js";
import { count } from "./format.js";

// The server only reads the moves: comments (a lichess game's clock times) are dropped first,
// so that a long game stays within the request size the server takes.
const withoutComments = (pgn) => pgn.replace(/\{[^}]*\}/g, " ").replace(/^;.*$/gm, "");

// The start position of a game with a [FEN] tag, else "" (the standard start).
const startFen = (pgn) => /^\s*\[FEN\s+"([^"]*)"\s*\]/m.exec(pgn)?.[1] ?? "";

function summary(found) {
  const { novelty, path } = found;
  if (!novelty) {
    return path.length ? `Stayed in the tree for all its ${path.length} plies.` : "The game has no move.";
  }
  const moveName = `${novelty.move_number}${novelty.side === "black" ? "..." : "."}${novelty.san}`;
  const played = novelty.games ? `played in ${count(novelty.games)} of them` : "never played there";
  const reached = `${count(novelty.position_games)} games reached the position`;
  return `Left the tree at ${moveName}: ${reached}, the move ${played}.`;
}

// getFilters(): the explorer's filters; onFound({fen, line, sans, cursor}) shows the game.
export function setUpNovelty(form, getFilters, onFound) {
  const output = form.querySelector("output");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const pgn = form.elements.pgn.value;
    output.textContent = "Looking…";
    try {
      const found = await fetchNovelty(withoutComments(pgn), form.elements.minGames.value || 1, getFilters());
      output.textContent = summary(found);
      const line = found.path.map((move) => move.uci);
      onFound({
        fen: startFen(pgn),
        line,
        sans: found.path.map((move) => move.san),
        cursor: found.novelty ? line.length - 1 : line.length,
      });
    } catch (error) {
      output.textContent = error.message;
    }
  });
}
