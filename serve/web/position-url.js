// The position in the address bar, in the lichess explorer's parameters: `?play=e2e4,c7c5`
// from the start, plus `fen=` when the line starts elsewhere, and the player tab's `player` and
// `color` (lichess's /player parameters) when it shows a player's games. A link reopens them.
import { positionParams } from "./api.js";

// view: {player, color} for the player tab with a name, else null (the whole store).
export function readLocation(search = window.location.search) {
  const params = new URLSearchParams(search);
  const player = params.get("player") || "";
  return {
    fen: params.get("fen") || "",
    play: (params.get("play") || "").split(",").filter(Boolean),
    view: player ? { player, color: params.get("color") === "black" ? "black" : "white" } : null,
  };
}

export function locationFor(position, view = null) {
  const params = positionParams(position);
  if (view) {
    params.set("player", view.player);
    params.set("color", view.color);
  }
  // Commas and slashes are legal in a query; keeping them makes the link readable.
  const query = params.toString().replaceAll("%2C", ",").replaceAll("%2F", "/");
  return query ? `?${query}` : window.location.pathname;
}
