// The player tab: the tree of one player's games with one colour (the server's /player), as
// lichess's player tab and openingtree show it. A name is typed with suggestions from the
// store (/api/players); the colour is a toggle, so "what does X play as Black against 1.e4"
// is the Black button with the board at 1.e4.
import { fetchPlayers } from "./api.js";
import { el } from "./dom.js";
import { count } from "./format.js";

// parts: {tabs (the two tab buttons' container), form (the name and colour controls),
// names (the datalist of suggestions)}; view: the {player, color} shown at first, or null;
// onChange(view) gets the new view: null for the whole store's games, or a named player's.
// Returns show(view), which sets the controls to a view (one the browser's history went back to).
export function setUpPlayerTab({ tabs, form, names }, view, onChange) {
  const [storeTab, playerTab] = tabs.querySelectorAll("[role=tab]");
  const nameInput = form.elements.player;
  let playerShown = false;

  const current = () => {
    const player = nameInput.value.trim();
    return playerShown && player ? { player, color: form.elements.color.value } : null;
  };
  const showTab = (isPlayer) => {
    playerShown = isPlayer;
    storeTab.setAttribute("aria-selected", String(!isPlayer));
    playerTab.setAttribute("aria-selected", String(isPlayer));
    form.hidden = !isPlayer;
  };
  const show = (shown) => {
    if (shown) {
      nameInput.value = shown.player;
      form.elements.color.value = shown.color;
    }
    showTab(Boolean(shown));
  };
  show(view);

  storeTab.addEventListener("click", () => {
    showTab(false);
    onChange(null);
  });
  playerTab.addEventListener("click", () => {
    showTab(true);
    if (!nameInput.value) nameInput.focus();
    onChange(current());
  });
  // The list follows the typing; an answer for an older prefix is dropped.
  let asked = 0;
  nameInput.addEventListener("input", async () => {
    const prefix = nameInput.value.trim();
    const mine = ++asked;
    if (!prefix) return names.replaceChildren();
    // Suggestions are a help: without them (a failed request) the name is typed in full.
    const players = await fetchPlayers(prefix).then((answer) => answer.players, () => []);
    if (mine !== asked) return;
    names.replaceChildren(
      ...players.map((p) => el("option", { value: p.name, label: `${count(p.games)} games` })),
    );
  });
  // A name is taken when the field is left or Enter pressed (a picked suggestion too); the
  // colour as soon as it is toggled.
  form.addEventListener("change", () => onChange(current()));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onChange(current());
  });
  return show;
}
