// The position in the address bar, in the lichess explorer's parameters: `?play=e2e4,c7c5`
// from the start, plus `fen=` when the line starts elsewhere. A link reopens the position.
import { positionParams } from "./api.js";

export function readLocation(search = window.location.search) {
  const params = new URLSearchParams(search);
  return {
    fen: params.get("fen") || "",
    play: (params.get("play") || "").split(",").filter(Boolean),
  };
}

export function locationFor(position) {
  // Commas and slashes are legal in a query; keeping them makes the link readable.
  const query = positionParams(position).toString().replaceAll("%2C", ",").replaceAll("%2F", "/");
  return query ? `?${query}` : window.location.pathname;
}
