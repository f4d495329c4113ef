// The explorer table: one row per move with its share of the games, the game count, the
// white / draw / black bar, the mover's average (the opponents' in its tooltip) and performance
// ratings, the years it was played and the opening the move leads to; a total row for the
// position. Percentages are of the games with a result. In the player tab the figures are the
// player's: the opponents' average rating, and the player's performance and score.
import { el } from "./dom.js";
import { count, orDash, percent } from "./format.js";

// Each segment's label is its own element: the stylesheet hides it when the segment is too
// narrow to hold it (a container query on the segment's width); the tooltip always has it.
function resultBar({ white, draws, black }) {
  const games = white + draws + black;
  const bar = el("div", { class: "bar" });
  for (const [name, part] of [["white", white], ["draws", draws], ["black", black]]) {
    const text = percent(part, games);
    const label = el("span", { class: "label" }, text);
    bar.append(el("span", { class: name, style: `width: ${text}`, title: `${name}: ${text}` }, label));
  }
  return bar;
}

// "B20 Sicilian Defense" with the ECO code dimmed; name: the part of the name to show.
export const openingLabel = (opening, name = opening.name) => [el("span", { class: "eco" }, opening.eco), ` ${name}`];

// An opening's name, most general part first: "Sicilian Defense: Najdorf Variation, English
// Attack" is the family and then its variations.
function nameParts(name) {
  const [family, variations] = name.split(": ");
  return [family, ...(variations ? variations.split(", ") : [])];
}

// A move's opening as far as it says more than the position's own: after 1.e4 c5 (Sicilian
// Defense), 2.Nc3 leads to "Closed". A name that adds nothing keeps its last part; one of
// another family (a transposition) stays whole.
function variationName(name, positionName) {
  const parts = nameParts(name);
  const known = positionName ? nameParts(positionName) : [];
  let shared = 0;
  while (shared < parts.length - 1 && parts[shared] === known[shared]) ++shared;
  return shared ? parts.slice(shared).join(", ") : name;
}

function openingCell(opening, positionOpening) {
  if (!opening) return el("td", { class: "name" });
  const label = openingLabel(opening, variationName(opening.name, positionOpening?.name));
  return el("td", { class: "name", title: `${opening.eco} ${opening.name}` }, ...label);
}

// "2019–2023", "2021" for a single year, a dash when no game's date is known (or the answer
// is lichess's, which has no years).
function yearsText({ firstYear, lastYear } = {}) {
  if (firstYear === null || firstYear === undefined) return orDash(null);
  return firstYear === lastYear ? String(firstYear) : `${firstYear}–${lastYear}`;
}

function ratingCell(move, view) {
  const opponents = move.averageOpponentRating;
  if (view) return el("td", { class: "rating", title: "Opponents' average" }, orDash(opponents));
  const title = opponents === null || opponents === undefined ? {} : { title: `Opponents' average: ${opponents}` };
  return el("td", { class: "rating", ...title }, orDash(move.averageRating));
}

// Every game, with those without a result: the server's `games` (a lichess answer has none).
const gamesOf = (counts) => counts.games ?? counts.white + counts.draws + counts.black;

// The player's score with the move: wins and half the draws, from their side.
function playerScore(move, view) {
  const won = view.color === "white" ? move.white : move.black;
  return percent(won + move.draws / 2, move.white + move.draws + move.black);
}

function perfCell(move, view) {
  const title = view ? { title: `${view.player} scored ${playerScore(move, view)}` } : {};
  return el("td", { class: "perf", ...title }, orDash(move.performance));
}

function moveRow(move, position, onPlay, view) {
  const games = gamesOf(move);
  const row = el(
    "tr",
    { "data-uci": move.uci, tabindex: "0", title: `Play ${move.san}` },
    el("td", { class: "move" }, move.san),
    el("td", { class: "share" }, percent(games, position.games)),
    el("td", { class: "games" }, count(games)),
    el("td", { class: "result" }, resultBar(move)),
    ratingCell(move, view),
    perfCell(move, view),
    el("td", { class: "years" }, yearsText(move.bookforge)),
    openingCell(move.opening, position.opening),
  );
  // Enter on a focused row is the page's (explorer.js), for every table of moves.
  row.addEventListener("click", () => onPlay(move.uci));
  return row;
}

// explorer: the answer of /api/explorer, or of /player for the player tab's view ({player,
// color}, else null); onPlay(uci) plays a move of the table.
export function renderExplorer(table, explorer, onPlay, view = null) {
  const positionGames = gamesOf(explorer.bookforge ?? explorer);
  const position = { games: positionGames, opening: explorer.opening };
  const rows = explorer.moves.map((move) => moveRow(move, position, onPlay, view));
  table.classList.toggle("player-view", Boolean(view));
  const rating = table.querySelector("th.rating");
  rating.textContent = view ? "Opp" : "Avg";
  rating.title = view ? "Average rating of the player's opponents" : "Average rating of the mover";
  const perf = table.querySelector("th.perf");
  perf.title = view ? "The player's performance rating" : "Performance rating of the mover";
  if (!rows.length) {
    const note = view
      ? `No game of ${view.player} as ${view.color} reaches this position.`
      : "No game in the store reaches this position.";
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
