// The panels beside the explorer table: the moves of each loaded book, the top games, and the
// engine's line.
import { el } from "./dom.js";
import { count, moveNumbering, numberedLine } from "./format.js";

// books: the answer of /api/books, or null when the server has no book loaded.
export function renderBooks(section, books, onPlay) {
  const parts = [el("h2", {}, "Books")];
  if (!books) parts.push(el("p", { class: "muted" }, "No book loaded (bookforge serve --book a.bin)."));
  for (const book of books?.books ?? []) {
    parts.push(el("h3", {}, book.name));
    if (!book.moves.length) {
      parts.push(el("p", { class: "muted" }, "No move for this position."));
      continue;
    }
    const rows = book.moves.map((move) => {
      const share = `${move.share.toFixed(1)}%`;
      const row = el(
        "tr",
        { "data-uci": move.uci, tabindex: "0", title: `Play ${move.san}` },
        el("td", { class: "move" }, move.san),
        el("td", { class: "weight" }, count(move.weight)),
        el("td", { class: "share" }, el("span", { class: "meter", style: `width: ${share}` }), share),
      );
      row.addEventListener("click", () => onPlay(move.uci));
      return row;
    });
    parts.push(el("table", { class: "book" }, el("tbody", {}, ...rows)));
  }
  section.replaceChildren(...parts);
}

const RESULT_OF_WINNER = { white: "1-0", black: "0-1" };

function player(side) {
  const rating = side.rating ? el("span", { class: "muted" }, ` ${side.rating}`) : "";
  return el("span", { class: "player" }, side.name, rating);
}

// games: the topGames of /api/explorer, or the player tab's recentGames (view set); onOpen(id)
// shows a game's PGN.
export function renderTopGames(section, games, onOpen, view = null) {
  section.hidden = games.length === 0;
  section.querySelector("h2").textContent = view ? `${view.player}'s recent games` : "Top games";
  const rows = games.map((game) => {
    const row = el(
      "tr",
      { tabindex: "0", title: "Show the game" },
      el("td", {}, player(game.white)),
      el("td", { class: "result" }, RESULT_OF_WINNER[game.winner] ?? "½-½"),
      el("td", {}, player(game.black)),
      el("td", { class: "year muted" }, String(game.year ?? "")),
    );
    row.addEventListener("click", () => onOpen(game.id));
    return row;
  });
  section.querySelector("tbody").replaceChildren(...rows);
}

// The score from white's side (as players read it); the engine gives the side to move's, or
// null for a search that never ran (a newer request of this tab overtook it).
function whiteScore(score, whiteToMove) {
  if (score === null) return "…";
  const sign = whiteToMove ? 1 : -1;
  if (score.mate !== undefined) return `#${sign * score.mate}`;
  const pawns = (sign * score.cp) / 100;
  return `${pawns > 0 ? "+" : ""}${pawns.toFixed(2)}`;
}

export function engineSummary(analysis, fen) {
  const { whiteToMove } = moveNumbering(fen);
  const line = numberedLine(analysis.pvSan, fen)
    .map(({ label, san }) => label + san)
    .join(" ");
  return [
    el("strong", { class: "score" }, whiteScore(analysis.score, whiteToMove)),
    el("span", { class: "muted" }, ` depth ${analysis.depth}, ${count(analysis.nodes)} nodes `),
    el("span", { class: "pv" }, line),
  ];
}
