// The league's screen: each payload from the league service (GET /events, Server-Sent Events)
// redraws the standings, the boards and the latest games. Names are set as text only. The
// body's data-version is the payload's version, so a test can wait for it.
"use strict";

const $ = (id) => document.getElementById(id);

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

function show(payload) {
  const boards = payload.boards || [];
  renderStandings(payload.standings || []);
  $("boards").replaceChildren(...boards.map(renderBoard));
  renderRecent(payload.recent || []);
  const online = boards.filter((b) => b.status === "online").length;
  const games = payload.games || 0;
  $("summary").textContent =
    `${games} game${games === 1 ? "" : "s"} · ${online} of ${boards.length} boards online`;
  setConn(payload.status === "paused" ? "paused" : "live", payload.status === "paused" ? "paused" : "live");
  document.body.dataset.version = String(payload.version || 0);
}

const events = new EventSource("/events");
events.addEventListener("view", (e) => show(JSON.parse(e.data)));
events.onerror = () => setConn("reconnecting", "reconnecting");
