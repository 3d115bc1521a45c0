// The tournament night's projector: each payload from the league service (GET /events,
// Server-Sent Events) redraws the standings, the round's tables and the latest results.
// Names are set as text only. The body's data-version is the payload's version, set once the
// page is laid out, so a test can wait for it.
//
// Fitting: every standings row shows whole, with every name whole: the rows are split into
// 1 to 3 columns and the type shrunk (--ts, down to LEAST) until they fit; the round's tables
// the same way (--tt, 1 or 2 columns). The words are the payload's language's (WORDS).
"use strict";

const LEAST = 0.45;
const MAX_COLUMNS = 3;
const $ = (id) => document.getElementById(id);

const WORDS = {
  en: {
    standings: "Standings", round: "Round {n} of {of}", "not seated": "No round seated yet",
    tables: "Round {n}: {playing} playing", "no tables": "No tables yet", recent: "Latest results",
    bye: "Bye: {name}", locked: "TOURNAMENT",
    player: "player", gp: "GP", wl: "W-L", spread: "spread",
    key: "GP: 2 a win, 3 a skunk · ties: games won, spread, plus points, head to head · " +
      "= playoff · * corrected · top {cut} qualify",
    beat: " beat {loser} 121-{score} (round {round}, table {table})", corrected: "corrected",
  },
  de: {
    standings: "Tabelle", round: "Runde {n} von {of}", "not seated": "Noch keine Runde gesetzt",
    tables: "Runde {n}: {playing} spielen", "no tables": "Noch keine Tische", recent: "Letzte Ergebnisse",
    bye: "Freilos: {name}", locked: "TURNIER",
    player: "Spieler", gp: "SP", wl: "G-V", spread: "Diff.",
    key: "SP: 2 für einen Sieg, 3 für einen Schneider · Gleichstand: Siege, Differenz, " +
      "Pluspunkte, direkter Vergleich · = Stechen · * berichtigt · die besten {cut} kommen weiter",
    beat: " schlug {loser} 121-{score} (Runde {round}, Tisch {table})", corrected: "berichtigt",
  },
};
let language = "en";

function say(key, vars) {
  const text = (WORDS[language] || WORDS.en)[key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (all, name) => (vars && name in vars ? String(vars[name]) : all));
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function standingsTable(lines, start, cut) {
  const table = el("table", "standings");
  const head = el("tr");
  head.append(el("th", "place", "#"), el("th", "name", say("player")), el("th", "gp", say("gp")),
    el("th", "wl", say("wl")), el("th", "spread", say("spread")));
  table.append(el("thead"));
  table.tHead.append(head);
  const body = el("tbody");
  lines.forEach((s, i) => {
    const tr = el("tr");
    tr.dataset.name = s.name;
    if (start + i < cut) tr.classList.add("qualify");
    if (start + i === cut && i > 0) tr.classList.add("cut");
    const place = el("td", "place", `${s.place}${s.playoff ? "=" : ""}`);
    const name = el("td", "name", s.name);
    if (s.corrected) name.append(el("span", "flag", " *"));
    const spread = el("td", "spread", signed(s.spread));
    spread.dataset.sign = s.spread > 0 ? "up" : s.spread < 0 ? "down" : "even";
    tr.append(place, name, el("td", "gp", s.game_points), el("td", "wl", `${s.won}-${s.lost}`), spread);
    body.append(tr);
  });
  table.append(body);
  return table;
}

function overflows(box) {
  // anything past the box, side by side parts overlapping, a row or a name cut
  if (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1) return true;
  const outer = box.getBoundingClientRect();
  const parts = [...box.children].map((e) => e.getBoundingClientRect());
  if (parts.some((r) => r.right > outer.right + 1 || r.bottom > outer.bottom + 1)) return true;
  for (let i = 1; i < parts.length; i++) {
    if (parts[i].top < parts[i - 1].bottom - 1 && parts[i].left < parts[i - 1].right - 1 &&
        parts[i].left > parts[i - 1].left) return true;
  }
  for (const cell of box.querySelectorAll(".name, .who, .table")) {
    if (cell.scrollWidth > cell.clientWidth + 1) return true;
  }
  return false;
}

const SCALES = [];
for (let k = 0; 1 - 0.05 * k >= LEAST - 1e-9; k++) SCALES.push((1 - 0.05 * k).toFixed(2));

// The largest scale (then the fewest columns) at which fits() holds, trying the last choice
// first: a new result rarely changes what fits, so a redraw usually lays out twice, not dozens
// of times (each try is a layout of the whole panel). For one number of columns a larger
// scale never fits where a smaller one does not, so each is a binary search.
function choose(key, columns, apply, fits) {
  const was = chosen[key];
  if (was) {
    apply(was.cols, was.scale);
    const bigger = SCALES[SCALES.indexOf(was.scale) - 1];
    if (fits()) {
      if (!bigger) return;
      apply(was.cols, bigger);
      if (!fits()) { apply(was.cols, was.scale); return; }
    }
  }
  let best = null;
  for (const cols of columns) {
    let lo = 0, hi = SCALES.length - 1, found = -1; // SCALES[0] is the largest
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      apply(cols, SCALES[mid]);
      if (fits()) { found = mid; hi = mid - 1; } else { lo = mid + 1; }
    }
    if (found >= 0 && (!best || found < best.index)) best = { cols, index: found };
  }
  const pick = best ? { cols: best.cols, scale: SCALES[best.index] }
    : { cols: columns[columns.length - 1], scale: SCALES[SCALES.length - 1] };
  apply(pick.cols, pick.scale);
  chosen[key] = pick;
}
const chosen = {};

function fitStandings(lines, cut) {
  const panel = $("standings-panel");
  const box = $("columns");
  const layouts = new Map();
  let shown = 0;
  const apply = (cols, scale) => {
    if (!layouts.has(cols)) {
      const per = Math.ceil(lines.length / cols) || 1;
      const tables = [];
      for (let c = 0; c < cols && (c === 0 || c * per < lines.length); c++) {
        tables.push(standingsTable(lines.slice(c * per, (c + 1) * per), c * per, cut));
      }
      layouts.set(cols, tables);
    }
    if (shown !== cols) {
      box.style.setProperty("--cols", layouts.get(cols).length);
      box.replaceChildren(...layouts.get(cols));
      shown = cols;
    }
    panel.style.setProperty("--ts", scale);
  };
  choose("standings", [1, 2, 3].slice(0, MAX_COLUMNS), apply, () => !overflows(box));
}

function renderTables(payload) {
  const panel = $("tables-panel");
  const box = $("tables");
  const playing = payload.tables.filter((t) => t.playing).length;
  $("tables-title").textContent = payload.round
    ? say("tables", { n: payload.round, playing }) : say("no tables");
  box.replaceChildren(...payload.tables.map((t) => {
    const row = el("div", "table");
    row.dataset.table = t.table;
    row.dataset.playing = String(t.playing);
    const who = el("span", "who");
    for (const [i, name] of [t.first, t.second].entries()) {
      if (i) who.append(" v ");
      who.append(el("span", name === t.winner ? "won" : "", name));
    }
    row.append(el("span", "no", t.table), who, el("span", "state", t.playing ? "●" : "✓"));
    return row;
  }));
  $("bye").hidden = !payload.bye;
  $("bye").textContent = payload.bye ? say("bye", { name: payload.bye }) : "";
  const apply = (cols, scale) => {
    box.style.setProperty("--tcols", cols);
    panel.style.setProperty("--tt", scale);
  };
  const fits = () => panel.scrollHeight <= panel.clientHeight + 1 && !overflows(box);
  choose("tables", [1, 2], apply, fits);
}

function fitRecent() {
  const panel = $("recent-panel");
  for (let rt = 1; rt >= LEAST - 1e-9; rt -= 0.05) {
    panel.style.setProperty("--rt", rt.toFixed(2));
    const items = [...$("recent").children];
    if (items.every((li) => li.scrollWidth <= li.clientWidth + 1)) return;
  }
}

function renderRecent(recent) {
  $("recent").replaceChildren(...recent.slice(0, 6).map((r) => {
    const li = el("li");
    li.append(el("span", "winner", r.winner), say("beat", { loser: r.loser, score: r.loser_score, round: r.round, table: r.table }));
    if (r.corrected) li.append(el("span", "flag", ` (${say("corrected")})`));
    return li;
  }));
}

let last = null;

function render(payload, version) {
  last = payload;
  language = payload.language === "de" ? "de" : "en";
  document.documentElement.lang = language;
  $("night").textContent = payload.name;
  $("round").textContent = payload.round ? say("round", { n: payload.round, of: payload.games }) : say("not seated");
  $("lock").hidden = !payload.locked;
  $("lock").textContent = say("locked");
  $("standings-title").textContent = say("standings");
  $("recent-title").textContent = say("recent");
  $("key").textContent = say("key", { cut: payload.cut });
  renderRecent(payload.recent);
  fitRecent();
  renderTables(payload);
  fitStandings(payload.standings, payload.cut);
  document.body.dataset.version = String(version);
}

const events = new EventSource("/events");
events.addEventListener("view", (e) => {
  const payload = JSON.parse(e.data);
  $("conn").dataset.state = payload.status === "paused" ? "reconnecting" : "live";
  render(payload, payload.version || 0);
});
events.onerror = () => { $("conn").dataset.state = "reconnecting"; };
window.addEventListener("resize", () => { if (last) render(last, last.version || 0); });
