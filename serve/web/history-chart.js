// The position's games month by month (lichess's `history`: {month, white, draws, black}) as a
// small stacked bar chart drawn as SVG: one bar per month, its height the month's games, split
// into the same white / draw / black as the table's bars (and their colours). Each bar carries
// its numbers (data-*) and a tooltip; the first and last month label the axis.
import { el } from "./dom.js";
import { count } from "./format.js";

const SVG = "http://www.w3.org/2000/svg";
const HEIGHT = 100; // the chart's own units; the stylesheet sets its size on the page
const BAR = 10;

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

function monthBar(month, index, scale) {
  const bar = svg("g", {
    class: "month",
    "data-month": month.month,
    "data-white": month.white,
    "data-draws": month.draws,
    "data-black": month.black,
  });
  const games = month.white + month.draws + month.black;
  const parts = [`${count(month.white)} white wins`, `${count(month.draws)} draws`, `${count(month.black)} black wins`];
  bar.append(svg("title", {}, `${month.month}: ${count(games)} games (${parts.join(", ")})`));
  // Black at the bottom, white on top, as the table's bar reads from white to black.
  let y = HEIGHT;
  for (const part of ["black", "draws", "white"]) {
    const height = month[part] * scale;
    y -= height;
    if (height <= 0) continue;
    bar.append(svg("rect", { class: part, x: index * BAR + 1, y, width: BAR - 2, height }));
  }
  return bar;
}

// history: the answer's `history` (undefined when it has none, as in the player tab: hidden).
export function renderHistoryChart(section, history) {
  section.hidden = !history;
  if (!history) return;
  const body = section.querySelector(".chart");
  if (!history.length) {
    body.replaceChildren(el("p", { class: "muted" }, "No dated game reaches this position."));
    return;
  }
  const most = Math.max(...history.map((m) => m.white + m.draws + m.black), 1);
  const chart = svg(
    "svg",
    {
      viewBox: `0 0 ${history.length * BAR} ${HEIGHT}`,
      preserveAspectRatio: "none",
      role: "img",
      "aria-label": `Games by month, ${history[0].month} to ${history.at(-1).month}`,
    },
    ...history.map((month, index) => monthBar(month, index, HEIGHT / most)),
  );
  const axis = el(
    "div",
    { class: "axis muted" },
    el("span", {}, history[0].month),
    el("span", {}, `most ${count(most)} a month`),
    el("span", {}, history.at(-1).month),
  );
  body.replaceChildren(chart, axis);
}
