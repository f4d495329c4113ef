// The client of `bookforge serve`'s HTTP API. A position is a start FEN (empty: the standard
// start) and the UCI moves played from it, sent as the lichess explorer's `fen` and `play`.

export function positionParams({ fen, play }) {
  const params = new URLSearchParams();
  if (fen) params.set("fen", fen);
  if (play.length) params.set("play", play.join(","));
  return params;
}

async function request(path, params) {
  const response = await fetch(`${path}?${params}`);
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.error || `${path}: HTTP ${response.status}`);
  }
  return response;
}

async function getJson(path, params = new URLSearchParams()) {
  return (await request(path, params)).json();
}

export const fetchInfo = () => getJson("/api/info");

export const fetchPosition = (position) => getJson("/api/position", positionParams(position));

export const fetchBooks = (position) => getJson("/api/books", positionParams(position));

// `filters` holds the lichess explorer's filter parameters the store supports (speeds, ratings,
// since, until).
function setFilters(params, filters) {
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
}

// The page lists every move the store has, as lichess's own page does, and the position's
// games month by month (`history`) for its chart.
export function fetchExplorer(position, filters) {
  const params = positionParams(position);
  params.set("moves", "100");
  params.set("history", "true");
  setFilters(params, filters);
  return getJson("/api/explorer", params);
}

// The player tab's tree: lichess's /player for `player` playing `color`, under the same filters.
export function fetchPlayer(position, { player, color }, filters) {
  const params = positionParams(position);
  params.set("player", player);
  params.set("color", color);
  params.set("moves", "100");
  params.set("recentGames", "8");
  setFilters(params, filters);
  return getJson("/player", params);
}

export const fetchPlayers = (prefix) => getJson("/api/players", new URLSearchParams({ prefix, limit: "10" }));

// Where a game (PGN text) left the store's tree, under the filters.
export function fetchNovelty(pgn, minGames, filters) {
  const params = new URLSearchParams({ pgn, minGames: String(minGames) });
  setFilters(params, filters);
  return getJson("/api/novelty", params);
}

// One id per tab: the server runs one search per client, and a tab's new request stops its own
// older search, never another tab's on the same machine.
const engineClient = crypto.getRandomValues(new Uint32Array(2)).join("-");

export function fetchEngine(position) {
  const params = positionParams(position);
  params.set("client", engineClient);
  return getJson("/api/engine", params);
}

export async function fetchGamePgn(id) {
  return (await request("/api/game", new URLSearchParams({ id }))).text();
}
