// The explorer table: one row per move with its share of the games, the game count, the
// white / draw / black bar, the mover's average (the opponents' in its tooltip) and performance
// ratings, the years it was played and the opening name after the move; a total row for the
// position. Percentages are of the games with a result.
import { el } from "./dom.js";
import { count, orDash, percent } from "./format.js";

// Below this share a bar segment is too narrow for its label, which stays as the tooltip.
const LABEL_MIN_PERCENT = 15;

function resultBar({ white, draws, black }) {
  const games = white + draws + black;
  const bar = el("div", { class: "bar" });
  for (const [name, part] of [["white", white], ["draws", draws], ["black", black]]) {
    const text = percent(part, games);
    const segment = el("span", { class: name, style: `width: ${text}`, title: `${name}: ${text}` }, text);
    if (!games || (100 * part) / games < LABEL_MIN_PERCENT) segment.classList.add("narrow");
    bar.append(segment);
  }
  return bar;
}

// "B20 Sicilian Defense" with the ECO code dimmed.
export const openingLabel = (opening) => [el("span", { class: "eco" }, opening.eco), ` ${opening.name}`];

function openingCell(opening) {
  if (!opening) return el("td", { class: "name" });
  return el("td", { class: "name", title: `${opening.eco} ${opening.name}` }, ...openingLabel(opening));
}

// "2019–2023", "2021" for a single year, a dash when no game's date is known (or the answer
// is lichess's, which has no years).
function yearsText({ firstYear, lastYear } = {}) {
  if (firstYear === null || firstYear === undefined) return orDash(null);
  return firstYear === lastYear ? String(firstYear) : `${firstYear}–${lastYear}`;
}

function ratingCell(move) {
  const opponents = move.averageOpponentRating;
  const title = opponents === null || opponents === undefined ? {} : { title: `Opponents' average: ${opponents}` };
  return el("td", { class: "rating", ...title }, orDash(move.averageRating));
}

// Every game, with those without a result: the server's `games` (a lichess answer has none).
const gamesOf = (counts) => counts.games ?? counts.white + counts.draws + counts.black;

function moveRow(move, positionGames, onPlay) {
  const games = gamesOf(move);
  const row = el(
    "tr",
    { "data-uci": move.uci, tabindex: "0", title: `Play ${move.san}` },
    el("td", { class: "move" }, move.san),
    el("td", { class: "share" }, percent(games, positionGames)),
    el("td", { class: "games" }, count(games)),
    el("td", { class: "result" }, resultBar(move)),
    ratingCell(move),
    el("td", { class: "perf" }, orDash(move.performance)),
    el("td", { class: "years" }, yearsText(move.bookforge)),
    openingCell(move.opening),
  );
  row.addEventListener("click", () => onPlay(move.uci));
  row.addEventListener("keydown", (event) => {
    if (event.key === "Enter") onPlay(move.uci);
  });
  return row;
}

// explorer: the answer of /api/explorer; onPlay(uci) plays a move of the table.
export function renderExplorer(table, explorer, onPlay) {
  const positionGames = gamesOf(explorer.bookforge ?? explorer);
  const rows = explorer.moves.map((move) => moveRow(move, positionGames, onPlay));
  if (!rows.length) {
    const note = "No game in the store reaches this position.";
    rows.push(el("tr", { class: "empty" }, el("td", { colspan: "8" }, note)));
  }
  table.tBodies[0].replaceChildren(...rows);

  table.querySelector("#total").replaceChildren(
    el("td", { class: "move" }, "Σ"),
    el("td", { class: "share" }, positionGames ? "100%" : ""),
    el("td", { class: "games" }, count(positionGames)),
    el("td", { class: "result" }, resultBar(explorer)),
    el("td", { class: "rating" }),
    el("td", { class: "perf" }),
    el("td", { class: "years" }),
    el("td", { class: "name" }),
  );
}
