// The explorer page: a board, the store's statistics for the position on it (or one player's,
// in the player tab), the position's games by month, the loaded books' moves and the engine on
// demand. The address bar holds the position and the player shown (position-url.js), so links,
// reloads and the browser's history all work.
import {
  fetchBooks,
  fetchEngine,
  fetchExplorer,
  fetchGamePgn,
  fetchInfo,
  fetchPlayer,
  fetchPosition,
} from "./api.js";
import { ExplorerBoard } from "./board.js";
import { el } from "./dom.js";
import { openingLabel, renderExplorer } from "./explorer-table.js";
import { setUpFilters } from "./filters.js";
import { count, numberedLine } from "./format.js";
import { renderHistoryChart } from "./history-chart.js";
import { setUpNovelty } from "./novelty.js";
import { engineSummary, renderBooks, renderTopGames } from "./panels.js";
import { setUpPlayerTab } from "./player.js";
import { locationFor, readLocation } from "./position-url.js";

const $ = (selector) => document.querySelector(selector);

// line: the UCI moves from fen (they stay after stepping back, until another move replaces
// them); sans: their SAN as far as known; cursor: how many of them the board shows; view: the
// player tab's {player, color}, or null for the whole store.
let state = { fen: "", line: [], sans: [], cursor: 0, view: null };
let info = null;
let filters = {};
let shown = null; // the /api/position answer for the board
let board = null;
let showPlayerControls = () => {}; // sets the player tab's controls to a view (player.js)
// Answers for a position that is no longer shown are dropped: only the newest request counts.
let generation = 0;

const shownPosition = () => ({ fen: state.fen, play: state.line.slice(0, state.cursor) });

function stateFromLocation() {
  const { fen, play, view } = readLocation();
  return { fen, line: play, sans: [], cursor: play.length, view };
}

function remember() {
  history.pushState(state, "", locationFor(shownPosition(), state.view));
}

function go(cursor) {
  const target = Math.max(0, Math.min(cursor, state.line.length));
  if (target === state.cursor) return; // already there: no history entry, no request
  state.cursor = target;
  remember();
  refresh();
}

function showView(view) {
  if (JSON.stringify(view) === JSON.stringify(state.view)) return;
  state.view = view;
  // The player's side at the bottom, as they saw their games.
  if (view) board.orient(view.color);
  remember();
  refresh();
}

// A game from the novelty form: its line, shown at the position where it left the tree.
function showGameLine(game) {
  state = { ...state, ...game };
  remember();
  refresh();
}

function play(uci) {
  if (state.line[state.cursor] !== uci) {
    const san = shown?.legal.find((move) => move.uci === uci)?.san ?? uci;
    state.line = [...state.line.slice(0, state.cursor), uci];
    state.sans = [...state.sans.slice(0, state.cursor), san];
  }
  go(state.cursor + 1);
}

async function refresh() {
  const asked = ++generation;
  const position = shownPosition();
  const { view } = state;
  const movesTable = $("#moves");
  movesTable.setAttribute("aria-busy", "true");
  resetEngine();
  try {
    const [answer, explorer, books] = await Promise.all([
      fetchPosition(position),
      view ? fetchPlayer(position, view, filters) : fetchExplorer(position, filters),
      info.books.length ? fetchBooks(position) : null,
    ]);
    if (asked !== generation) return;
    shown = answer;
    answer.line.forEach((move, ply) => (state.sans[ply] = move.san));
    const boardSettled = board.show(answer, position.play.at(-1));
    renderExplorer(movesTable, explorer, play, view);
    renderHistoryChart($("#history"), explorer.history);
    renderBooks($("#books"), books, play);
    renderTopGames($("#games"), (view ? explorer.recentGames : explorer.topGames) ?? [], showGame, view);
    renderHeading(explorer, answer);
    renderLine();
    // The table is marked as showing the position once the board can take the next move too.
    await boardSettled;
    if (asked !== generation) return;
    movesTable.dataset.play = position.play.join(",");
    movesTable.dataset.filter = explorer.bookforge?.filter ?? "";
    movesTable.dataset.player = view ? `${view.player}|${view.color}` : "";
    movesTable.setAttribute("aria-busy", "false");
    $("#engine-go").disabled = false;
  } catch (error) {
    if (asked === generation) showStatus(error.message);
  }
}

function showStatus(message) {
  $("#status").textContent = message;
}

function renderHeading(explorer, answer) {
  const unnamed = state.cursor ? "" : "Start position";
  $("#opening").replaceChildren(...(explorer.opening ? openingLabel(explorer.opening) : [unnamed]));
  const notes = [];
  if (answer.result) notes.push(answer.result === "checkmate" ? "Checkmate" : "Stalemate");
  else if (answer.check) notes.push("Check");
  // Transpositions: how many of the games here came by this line's last move.
  const { byLine, byOtherOrders, mostlyTransposed } = explorer.bookforge ?? {};
  if (mostlyTransposed) notes.push(`Mostly reached by another move order (${byOtherOrders} games; ${byLine} by this line)`);
  const filter = explorer.bookforge?.filter;
  if (filter && filter !== "none") notes.push(`Only games of ${filter}`);
  if (state.view) notes.push(`${state.view.player}'s games as ${state.view.color}; performance is theirs`);
  showStatus(notes.join(" · "));
}

// The moves played, numbered; the current ply is marked and moves after it (kept after
// stepping back) are dimmed. Clicking a move goes to it.
function renderLine() {
  const items = numberedLine(state.sans, state.fen).map(({ label, san }, index) => {
    const ply = index + 1;
    const button = el("button", { class: "ply", "data-ply": String(ply) }, san || state.line[index]);
    if (ply === state.cursor) button.classList.add("current");
    if (ply > state.cursor) button.classList.add("future");
    button.addEventListener("click", () => go(ply));
    return el("li", {}, label ? el("span", { class: "number" }, label) : "", button);
  });
  $("#line").replaceChildren(...items);
  $("#back").disabled = state.cursor === 0;
  $("#start").disabled = state.cursor === 0;
  $("#forward").disabled = state.cursor === state.line.length;
  $("#end").disabled = state.cursor === state.line.length;
}

// Until the new position is shown, the engine button waits (it analyses the board's position).
function resetEngine() {
  const hint = el("span", { class: "muted" }, "Ask the built-in engine for its line here.");
  $("#engine-line").replaceChildren(hint);
  $("#engine-go").disabled = true;
}

async function analyse() {
  const asked = generation;
  const { fen } = shown;
  $("#engine-go").disabled = true;
  $("#engine-line").replaceChildren(el("span", { class: "muted" }, "Thinking…"));
  try {
    const analysis = await fetchEngine(shownPosition());
    if (asked === generation) $("#engine-line").replaceChildren(...engineSummary(analysis, fen));
  } catch (error) {
    if (asked === generation) $("#engine-line").replaceChildren(error.message);
  } finally {
    if (asked === generation) $("#engine-go").disabled = false;
  }
}

async function showGame(id) {
  const dialog = $("#pgn");
  try {
    dialog.querySelector("pre").textContent = await fetchGamePgn(id);
  } catch (error) {
    dialog.querySelector("pre").textContent = error.message;
  }
  dialog.showModal();
}

// Up and down walk the rows of the table the focus is in, Enter plays the focused row's move
// (any table's: the explorer's or a book's).
function onRowKey(event) {
  const row = event.target.closest("tr[data-uci]");
  if (!row) return false;
  const rows = [...row.closest("tbody").querySelectorAll("tr[data-uci]")];
  const steps = { ArrowDown: 1, ArrowUp: -1 };
  if (event.key === "Enter") play(row.dataset.uci);
  else if (event.key in steps) rows[rows.indexOf(row) + steps[event.key]]?.focus();
  else return false;
  return true;
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest("input, select, textarea")) return;
  if (onRowKey(event)) {
    event.preventDefault();
    return;
  }
  const moves = {
    ArrowLeft: () => go(state.cursor - 1),
    ArrowRight: () => go(state.cursor + 1),
    Home: () => go(0),
    End: () => go(state.line.length),
    f: () => board.flip(),
  };
  const move = moves[event.key];
  if (!move) return;
  event.preventDefault();
  move();
}

async function start() {
  board = new ExplorerBoard($("#board"), play);
  $("#start").addEventListener("click", () => go(0));
  $("#back").addEventListener("click", () => go(state.cursor - 1));
  $("#forward").addEventListener("click", () => go(state.cursor + 1));
  $("#end").addEventListener("click", () => go(state.line.length));
  $("#flip").addEventListener("click", () => board.flip());
  $("#engine-go").addEventListener("click", analyse);
  document.addEventListener("keydown", onKey);
  // A move row of any table (explorer or book) under the pointer shows its arrow on the board.
  $(".data").addEventListener("mouseover", (event) => {
    board.pointAt(event.target.closest("tr[data-uci]")?.dataset.uci ?? null);
  });
  $(".data").addEventListener("mouseleave", () => board.pointAt(null));
  window.addEventListener("popstate", (event) => {
    state = event.state ?? stateFromLocation();
    showPlayerControls(state.view);
    if (state.view) board.orient(state.view.color);
    refresh();
  });

  info = await fetchInfo();
  $("#store").textContent = `${info.store.path} · ${count(info.store.games)} games`;
  setUpFilters($("#filters"), info.filters, (chosen) => {
    filters = chosen;
    refresh();
  });
  state = stateFromLocation();
  if (state.view) board.orient(state.view.color);
  const parts = { tabs: $("#tabs"), form: $("#player"), names: $("#player-names") };
  showPlayerControls = setUpPlayerTab(parts, state.view, showView);
  setUpNovelty($("#novelty"), () => filters, showGameLine);
  history.replaceState(state, "", window.location.href);
  await refresh();
}

start().catch((error) => showStatus(error.message));
