// The filter controls, shown only for what /api/info says the store can filter on; their
// values are the lichess explorer's parameters (speeds, ratings, since, until), with the
// classes bookforge adds: the unknown speed (no TimeControl), the 2800 band and unrated games.
import { el } from "./dom.js";

const SPEEDS = ["ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence", "unknown"];
const RATINGS = ["0", "1000", "1200", "1400", "1600", "1800", "2000", "2200", "2500", "2800", "unrated"];

function checkboxGroup(name, legend, values) {
  const boxes = values.map((value) =>
    el("label", {}, el("input", { type: "checkbox", name, value }), value === "0" ? "<1000" : value),
  );
  return el("fieldset", {}, el("legend", {}, legend), ...boxes);
}

function monthField(name, label) {
  return el("label", { class: "month" }, `${label} `, el("input", { type: "month", name }));
}

// available: the `filters` of /api/info; onChange(filters) gets {speeds, ratings, since, until}.
export function setUpFilters(form, available, onChange) {
  const groups = [];
  if (available.speeds) groups.push(checkboxGroup("speeds", "Speed", SPEEDS));
  if (available.ratings) groups.push(checkboxGroup("ratings", "Rating", RATINGS));
  if (available.months) {
    const months = [monthField("since", "from"), monthField("until", "to")];
    groups.push(el("fieldset", {}, el("legend", {}, "Months"), ...months));
  }
  // Folded by default, so the table keeps its place; the summary counts the filters in use.
  const summary = el("summary", {}, "Filters");
  form.replaceChildren(el("details", {}, summary, el("div", { class: "groups" }, ...groups)));
  form.hidden = groups.length === 0;
  form.addEventListener("change", () => {
    const data = new FormData(form);
    const inUse = [...data.values()].filter(Boolean).length;
    summary.textContent = inUse ? `Filters (${inUse})` : "Filters";
    onChange({
      speeds: data.getAll("speeds").join(","),
      ratings: data.getAll("ratings").join(","),
      since: data.get("since") || "",
      until: data.get("until") || "",
    });
  });
}
