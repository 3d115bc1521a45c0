// The league's screen: each payload from the league service (GET /events, Server-Sent Events)
// redraws the standings, the boards and the latest games. Names are set as text only. The
// body's data-version is the payload's version, so a test can wait for it (it is set once the
// page is laid out).
//
// Fitting, on one TV at any size: nothing is cut. Up to MAX_BOARDS board cards show (online
// boards first), laid out in 1 to 4 columns and shrunk together until they all fit above the
// latest games with every name whole; past MAX_BOARDS a line says how many more. The standings
// shrink (to 60%) until every row fits, and the rows still past the panel hide whole, a line
// saying how many; the latest games show only whole lines, and their heading says how many
// more games there are (the payload's `more`, past the games it lists, and the lines that did
// not fit), in the payload's `language` ("en" or "de"; WORDS below).
"use strict";

const MAX_BOARDS = 12;
const MAX_COLUMNS = 4;
const LEAST_BOARDS = 0.4; // the cards' smallest scale
const LEAST_TABLE = 0.6; // the standings' smallest scale
const RECENT_ROOM = 12; // --u the latest games keep at least: their heading and a line

const $ = (id) => document.getElementById(id);

// the page's words that change with the league's language (the rest is English for now)
const WORDS = {
  en: { "more games": "+{n} more" },
  de: { "more games": "+{n} weitere" },
};
let language = "en";
let moreGames = 0; // the payload's `more`: games stored past those it lists

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

const PHASES = {
  cut: "the cut for deal", deal: "the deal", discard: "the discard", starter: "the start card",
  play: "the play", show: "the show", "game over": "game over", "match over": "match over",
};

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function renderStandings(lines) {
  $("standings").replaceChildren(...lines.map((s, i) => {
    const tr = el("tr");
    tr.dataset.name = s.name;
    const spread = el("td", "spread", signed(s.spread));
    spread.dataset.sign = s.spread > 0 ? "up" : s.spread < 0 ? "down" : "even";
    tr.append(
      el("td", "rank", i + 1), el("td", "name", s.name), el("td", "played", s.played),
      el("td", "won", s.won), el("td", "lost", s.lost), el("td", "mp", s.match_points), spread,
    );
    return tr;
  }));
  $("no-games").hidden = lines.length > 0;
}

function renderBoard(b) {
  const card = el("div", "board");
  card.dataset.venue = b.venue;
  card.dataset.board = b.board;
  card.dataset.status = b.status;
  const where = el("div", "where");
  const place = el("span", "place");
  place.append(el("span", "venue", `${b.venue} · `), el("span", "board-name", b.board));
  const status = el("span", "status");
  status.append(el("span", "dot"), el("span", "", b.status));
  where.append(place, status);
  card.append(where);
  const view = b.view;
  if (!view) {
    card.append(el("div", "game", "no game yet"));
    return card;
  }
  view.sides.forEach((s, i) => {
    const row = el("div", "side");
    row.dataset.side = String(i);
    row.append(el("span", "name", s.name));
    if (s.is_dealer) row.append(el("span", "crib", "crib"));
    row.append(el("span", "score", s.score));
    card.append(row);
  });
  const chances = b.win_probability;
  if (chances && chances.length === view.sides.length && view.winner === null) {
    const bar = el("div", "odds");
    chances.forEach((p, i) => {
      const part = el("span", "", `${Math.round(p * 100)}%`);
      part.dataset.side = String(i);
      part.style.width = `${p * 100}%`;
      bar.append(part);
    });
    card.append(bar);
  }
  const game = el("div", "game");
  if (view.winner_name) game.append(el("span", "won", `${view.winner_name} won · `));
  game.append(`${view.variant} · game ${view.game} · ${PHASES[view.phase] || view.phase}`);
  card.append(game);
  return card;
}

function renderRecent(games) {
  $("recent").replaceChildren(...games.map((g) => {
    const li = el("li");
    g.sides.forEach((s, i) => {
      if (i > 0) li.append(" – ");
      li.append(el("span", s.name === g.winner ? "winner" : "", `${s.name} ${s.score}`));
      if (s.lurch && s.lurch !== "none") li.append(" ", el("span", "lurch", s.lurch));
    });
    li.append(el("span", "where", ` · ${g.venue}/${g.board}`));
    return li;
  }));
}

function setConn(state, text) {
  $("conn").dataset.state = state;
  $("conn-text").textContent = text;
}

// -- fitting ------------------------------------------------------------------------------------

function unit() {
  return Math.min(window.innerHeight / 100, window.innerWidth * 0.005625); // house.css's --u
}

function cut(el) {
  return el.scrollWidth > el.clientWidth + 0.5;
}

function innerBottom(panel) {
  const style = getComputedStyle(panel);
  return panel.getBoundingClientRect().bottom - parseFloat(style.paddingBottom) -
    parseFloat(style.borderBottomWidth);
}

let boardsFit = "";

function fitBoards() {
  // the fewest columns at the largest scale that fits: the cards above the latest games' room
  const grid = $("boards");
  const cards = [...grid.children];
  // anything that can change a card's size: its whole text (scores, odds, badges), its
  // classes and data (online or offline) and which of its parts are hidden
  const key = JSON.stringify([window.innerWidth, window.innerHeight,
    cards.map((c) => [c.textContent, c.className, JSON.stringify(c.dataset),
      [...c.querySelectorAll("*")].map((e) => (e.hidden ? 1 : 0)).join("")]),
    $("more-boards").hidden]);
  if (key === boardsFit) return;
  const right = $("right");
  const budget = right.getBoundingClientRect().bottom - grid.getBoundingClientRect().top -
    unit() * (RECENT_ROOM + 2) - ($("more-boards").hidden ? 0 : $("more-boards").offsetHeight);
  const names = cards.flatMap((c) => [...c.querySelectorAll(".side .name")]);
  const fits = () => grid.getBoundingClientRect().height <= budget && !names.some(cut);
  let best = null;
  for (let cols = 1; cols <= Math.min(MAX_COLUMNS, Math.max(cards.length, 1)); cols++) {
    grid.style.setProperty("--cols", String(cols));
    for (let step = 0; 1 - step * 0.05 >= LEAST_BOARDS - 1e-9; step++) {
      const scale = 1 - step * 0.05;
      if (best && scale <= best.scale) break;
      grid.style.setProperty("--bs", scale.toFixed(2));
      if (fits()) {
        best = { cols, scale };
        break;
      }
    }
  }
  best = best || { cols: Math.min(MAX_COLUMNS, Math.max(cards.length, 1)), scale: LEAST_BOARDS };
  grid.style.setProperty("--cols", String(best.cols));
  grid.style.setProperty("--bs", best.scale.toFixed(2));
  grid.dataset.cols = String(best.cols);
  grid.dataset.scale = best.scale.toFixed(2);
  boardsFit = key;
}

function fitStandings() {
  const panel = $("table-panel");
  const rows = [...$("standings").children];
  const more = $("more-rows");
  rows.forEach((tr) => { tr.hidden = false; });
  more.hidden = true;
  const names = rows.map((tr) => tr.querySelector(".name"));
  const over = () => panel.scrollHeight > panel.clientHeight + 0.5 || names.some(cut);
  let scale = 1;
  panel.style.setProperty("--ts", "1");
  while (over() && scale > LEAST_TABLE + 1e-9) {
    scale = Math.max(LEAST_TABLE, scale - 0.05);
    panel.style.setProperty("--ts", scale.toFixed(2));
  }
  if (panel.scrollHeight <= panel.clientHeight + 0.5) return;
  // still too many: only whole rows, and a line saying how many more
  more.hidden = false;
  more.textContent = "+00 more";
  const key = panel.querySelector(".key");
  const bottom = innerBottom(panel) - key.offsetHeight - more.offsetHeight -
    parseFloat(getComputedStyle(more).marginTop);
  let hidden = 0;
  rows.forEach((tr) => {
    tr.hidden = hidden > 0 || tr.getBoundingClientRect().bottom > bottom + 0.5;
    hidden += tr.hidden ? 1 : 0;
  });
  more.textContent = `+${hidden} more (pegboard league standings)`;
}

function fitRecent() {
  const items = [...$("recent").children];
  const more = $("more-games");
  items.forEach((li) => { li.hidden = false; });
  const bottom = innerBottom($("recent-panel"));
  let gone = 0;
  items.forEach((li) => {
    li.hidden = gone > 0 || li.getBoundingClientRect().bottom > bottom + 0.5;
    gone += li.hidden ? 1 : 0;
  });
  const n = moreGames + gone;
  more.hidden = n === 0;
  more.textContent = n ? say("more games", { n }) : "";
}

function fitAll() {
  fitBoards();
  fitStandings();
  fitRecent();
  document.body.dataset.fitted = `${window.innerWidth}x${window.innerHeight}`; // for the tests
}

function show(payload) {
  const boards = payload.boards || [];
  renderStandings(payload.standings || []);
  // online boards first, each group in the service's order; past MAX_BOARDS a line says so
  const shown = [...boards.filter((b) => b.status === "online"),
    ...boards.filter((b) => b.status !== "online")].slice(0, MAX_BOARDS);
  const order = new Map(boards.map((b, i) => [b, i]));
  shown.sort((a, b) => order.get(a) - order.get(b));
  $("boards").replaceChildren(...shown.map(renderBoard));
  const more = boards.length - shown.length;
  $("more-boards").hidden = more === 0;
  $("more-boards").textContent = more ? `+${more} more board${more === 1 ? "" : "s"}` : "";
  language = WORDS[payload.language] ? payload.language : "en";
  moreGames = payload.more || 0;
  document.documentElement.lang = language;
  renderRecent(payload.recent || []);
  const online = boards.filter((b) => b.status === "online").length;
  const games = payload.games || 0;
  $("summary").textContent =
    `${games} game${games === 1 ? "" : "s"} · ${online} of ${boards.length} boards online`;
  setConn(payload.status === "paused" ? "paused" : "live", payload.status === "paused" ? "paused" : "live");
  fitAll();
  document.body.dataset.version = String(payload.version || 0);
}

window.addEventListener("resize", () => {
  boardsFit = "";
  fitAll();
});

const events = new EventSource("/events");
events.addEventListener("view", (e) => show(JSON.parse(e.data)));
events.onerror = () => setConn("reconnecting", "reconnecting");
