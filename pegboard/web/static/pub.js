// The pub screen's script: applies each payload from /events to the fixed elements of
// index.html (text, classes, data attributes and peg positions only; a Pi-class browser takes
// a second or more to re-render a large block of HTML). The board's holes are laid out once per
// variant shape (sides, target, lines). EventSource reconnects by itself (the server's
// `retry:`); if a stream stays dead the script makes a new one. No external resources.
"use strict";

(function () {
  var SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var SOURCE_WORDS = {
    play: "the play", hand: "hand", crib: "crib", heels: "his heels",
    muggins: "muggins", "three for last": "three for last", peg: "pegged",
  };
  var LURCH_WORDS = { lurched: "lurched!", "double-skunked": "double skunk!" };
  var FORMAT_WORDS = { "best-of-three": "best of three", "first-to-two": "first to two", single: "" };
  var STALE_MS = 60000; // "updated N min ago" once nothing new came for this long
  var DEAD_MS = 10000; // a stream in error this long is replaced by a new EventSource

  var body = document.body;
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };

  var sideEls = $$("#sides .side");
  var trackEls = $$("#tracks .track");
  var oddsParts = $$("#odds-bar .odds-part");
  var cardEls = $$("#series .card");
  var resultRows = $$("#results tr");

  function setText(el, text) {
    text = text == null ? "" : String(text);
    if (el.textContent !== text) el.textContent = text;
  }
  function setData(el, key, value) {
    value = value == null ? "" : String(value);
    if (el.dataset[key] !== value) el.dataset[key] = value;
  }

  // -- the board: holes in streets of five, a wider gap every thirty, two start holes -----

  var shape = "";
  var holeX = {};
  var holeTotal = 1;

  function layoutHoles(target) {
    var x = {};
    var u = 0.9;
    x[-1] = u; u += 1.1; x[0] = u; u += 2.2;
    for (var h = 1; h < target; h++) {
      x[h] = u;
      u += h % 30 === 0 ? 2.4 : h % 5 === 0 ? 1.7 : 1;
    }
    u += 0.4; x[target] = u; u += 1.6;
    holeX = x;
    holeTotal = u;
  }
  function pct(units) { return (units / holeTotal * 100).toFixed(3) + "%"; }
  function between(line) { return (holeX[line - 1] + holeX[line]) / 2; }

  function buildBoard(view) {
    var n = view.sides.length;
    var key = [n, view.target, view.lurch_line, view.double_skunk_line].join(":");
    if (key === shape) return;
    shape = key;
    layoutHoles(view.target);
    body.dataset.sides = String(n);
    sideEls.forEach(function (card, side) { card.hidden = side >= n; });
    trackEls.forEach(function (track, side) {
      var holes = $(".holes", track);
      holes.textContent = "";
      track.hidden = side >= n;
      if (side >= n) return;
      var frag = document.createDocumentFragment();
      for (var h = -1; h <= view.target; h++) {
        var dot = document.createElement("i");
        dot.style.left = pct(holeX[h]);
        if (h <= 0) dot.className = "start";
        else if (h === view.target) dot.className = "game";
        frag.appendChild(dot);
      }
      holes.appendChild(frag);
    });
    var scale = $("#scale");
    scale.textContent = "";
    var step = view.target > 61 ? 10 : 5;
    for (var s = step; holeX[view.target] - holeX[s] > 4; s += step) addMark(scale, s, String(s));
    addMark(scale, view.target, String(view.target)).className = "game";
    placeLine($("#lurch-line"), view.lurch_line);
    placeLine($("#skunk-line"), view.double_skunk_line);
  }
  function addMark(scale, hole, text) {
    var mark = document.createElement("span");
    mark.textContent = text;
    mark.style.left = pct(holeX[hole]);
    scale.appendChild(mark);
    return mark;
  }
  function placeLine(el, line) {
    var shown = line != null && holeX[line] !== undefined && holeX[line - 1] !== undefined;
    el.hidden = !shown;
    if (shown) el.style.left = pct(between(line));
    setData(el, "hole", shown ? line : "");
  }

  function placePegs(track, side) {
    var front = side.front;
    var rear = Math.min(side.rear, front);
    // both pegs start in the two start holes; the rear peg leaves its own once the front moves
    var rearAt = front === 0 ? -1 : rear;
    var f = $(".front", track), r = $(".rear", track);
    f.style.left = pct(holeX[front]);
    r.style.left = pct(holeX[rearAt]);
    setData(f, "hole", front);
    setData(r, "hole", side.rear);
  }

  // -- words -------------------------------------------------------------------------------

  function cardText(card) {
    var suit = card.slice(-1);
    return card.slice(0, -1) + (SUITS[suit] || suit);
  }
  function showCard(el, card, side) {
    if (card == null) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    setText(el, cardText(card));
    setData(el, "card", card);
    setData(el, "side", side == null ? "" : side);
    var red = /[HD]$/.test(card);
    el.classList.toggle("red", red);
  }
  function sideOfSeat(view, seat) {
    for (var i = 0; i < view.sides.length; i++) {
      if (view.sides[i].seats.indexOf(seat) >= 0) return i;
    }
    return null;
  }
  function possessive(name) { return name + "\u2019s"; }
  function isBetweenGames(view, evening) {
    // a game over, or a new game before its first deal's play: the evening's results
    return view.phase === "game over" || view.phase === "match over" ||
      (evening.length > 0 && (view.phase === "cut" || (view.phase === "starter" && view.deal <= 1)));
  }
  function variantLine(view) {
    return view.variant + " to " + view.target;
  }

  // -- one payload ---------------------------------------------------------------------------

  function applyView(payload) {
    var view = payload.view;
    var evening = payload.evening || [];
    var chances = payload.win_probability;
    buildBoard(view);
    var between = isBetweenGames(view, evening);
    body.classList.toggle("between", between);
    setData(body, "phase", view.phase);
    setData(body, "turn", view.turn);
    setData(body, "dealer", view.dealer);

    setText($("#game-no"), "Game " + view.game);
    setText($("#variant"), variantLine(view));
    setText($("#match-format"), FORMAT_WORDS[view.match.format] || view.match.format);
    setText($("#phase"), phaseLine(view));

    sideEls.forEach(function (card, i) {
      var side = view.sides[i];
      card.hidden = !side;
      if (!side) return;
      setText($(".name", card), side.name);
      var players = side.seats.map(function (seat) { return view.seat_names[seat]; });
      setText($(".players", card), side.seats.length > 1 ? players.join(" & ") : "");
      var score = $(".score", card);
      setText(score, side.score);
      setData(score, "score", side.score);
      setData(card, "dealer", side.is_dealer ? "yes" : "no");
      setText($(".games", card), view.match.format === "single" ? "" :
        "games " + side.games_won);
      setText($(".points", card), "game points " + side.game_points);
      var turnSide = view.turn == null ? null : sideOfSeat(view, view.turn);
      var turn = turnSide === i && view.phase === "play";
      setData(card, "turn", turn ? "yes" : "no");
      setText($(".turn", card), turn ? "\u25B6 " + view.turn_name + " to lay" : "");
      var won = view.winner === i;
      setData(card, "won", won ? "yes" : "no");
      var lurch = LURCH_WORDS[side.lurch] || "";
      setText($(".lurch", card), won ? "wins!" : lurch);
      setData(card, "lurch", side.lurch || "");
    });

    trackEls.forEach(function (track, i) {
      var side = view.sides[i];
      track.hidden = !side;
      if (side) placePegs(track, side);
      setData(track, "dealer", side && side.is_dealer ? "yes" : "no");
    });

    var odds = $("#odds");
    var shown = Array.isArray(chances) && chances.length === view.sides.length;
    setData(odds, "shown", shown ? "yes" : "no");
    oddsParts.forEach(function (part, i) {
      var chance = shown && i < chances.length ? chances[i] : null;
      part.hidden = chance == null;
      if (chance == null) return;
      var percent = Math.round(chance * 100);
      part.style.width = (chance * 100).toFixed(2) + "%";
      setData(part, "percent", percent);
      setText($("span", part), (chance >= 0.2 ? view.names[i] + " " : "") + percent + "%");
    });

    applyState(view);
    applyLast(view);
    applyEvening(evening);
    body.dataset.version = String(payload.version);
    // for bench/bench_web.py: when this version reached the DOM, and its next frame, on the
    // wall clock (epoch milliseconds), so a key's time can be taken from the controller's side
    var applied = { version: payload.version, at: performance.timeOrigin + performance.now() };
    window.pegboardApplied = applied;
    requestAnimationFrame(function () {
      applied.frame = performance.timeOrigin + performance.now();
    });
  }

  function phaseLine(view) {
    switch (view.phase) {
      case "cut": return "cutting for the deal";
      case "starter": return "deal " + view.deal + " \u00B7 " + view.dealer_name + " deals";
      case "play": return "deal " + view.deal + " \u00B7 the play";
      case "show": return "deal " + view.deal + " \u00B7 the show";
      case "game over": return view.winner_name + " wins game " + view.game +
        (view.game_points == null ? "" : " \u00B7 " + view.game_points + " game point" +
          (view.game_points === 1 ? "" : "s"));
      case "match over": return view.match.winner_name + " wins the match";
      default: return view.phase;
    }
  }

  function applyState(view) {
    var title = "", note = "", cards = [];
    var counting = view.phase === "play";
    setData($("#count-box"), "shown", counting ? "yes" : "no");
    var count = $("#count");
    setText(count, counting ? view.count : "");
    setData(count, "count", counting ? view.count : "");
    switch (view.phase) {
      case "cut":
        title = "cut for the deal";
        cards = view.cut.map(function (card, i) { return [card, i]; });
        break;
      case "starter":
        title = view.dealer_name + " deals";
        note = "waiting for the starter";
        break;
      case "play":
        title = view.turn_name ? view.turn_name + " to lay" : "the play, pegged by hand";
        cards = view.series.map(function (card) {
          var seat = null;
          view.laid.forEach(function (laid) { if (laid[1] === card) seat = laid[0]; });
          return [card, seat == null ? null : sideOfSeat(view, seat)];
        });
        if (view.said_go.length) {
          note = "go: " + view.said_go.map(function (seat) { return view.seat_names[seat]; })
            .join(", ");
        }
        break;
      case "show":
        title = view.up_for_counting === "crib" ?
          "counting " + possessive(view.dealer_name) + " crib" :
          "counting " + possessive(view.up_for_counting) + " hand";
        break;
      default:
        title = "";
    }
    if (view.starter && (view.phase === "play" || view.phase === "show")) {
      note = "starter " + cardText(view.starter) + (note ? "  \u00B7  " + note : "");
    }
    setText($("#state-title"), title);
    setText($("#state-note"), note);
    cardEls.forEach(function (el, i) {
      var card = cards[i];
      showCard(el, card ? card[0] : null, card ? card[1] : null);
    });
  }

  function applyLast(view) {
    var last = view.last;
    var panel = $("#last");
    setData(panel, "side", last ? last.side : "");
    setData(panel, "empty", last ? "no" : "yes");
    body.classList.toggle("no-last", !last);
    if (!last) {
      setText($("#last-who"), "no points pegged yet");
      setText($("#last-points"), "");
      setText($("#last-calls"), "");
      return;
    }
    var who = last.seat != null ? view.seat_names[last.seat] : last.name;
    var from = SOURCE_WORDS[last.source] || last.source;
    if (last.source === "hand" || last.source === "crib") from = possessive(who) + " " + from;
    else from = who + " \u00B7 " + from;
    setText($("#last-who"), from);
    setText($("#last-points"), "+" + last.points + " \u2192 " + last.score);
    setText($("#last-calls"), last.calls.join(", "));
  }

  function applyEvening(evening) {
    // newest first: on a small screen the oldest rows are the ones cut off
    var games = evening.slice(-resultRows.length).reverse();
    resultRows.forEach(function (row, i) {
      var game = games[i];
      row.hidden = !game;
      if (!game) return;
      var cells = row.cells;
      var names = game.names || [];
      var winner = names.indexOf(game.winner);
      var scores = game.scores.slice();
      if (winner >= 0) scores.unshift(scores.splice(winner, 1)[0]);
      else scores.sort(function (a, b) { return b - a; });
      var others = names.filter(function (name) { return name !== game.winner; });
      setText(cells[0], "game " + game.game);
      setText(cells[1], others.length ? game.winner + " beat " + others.join(", ") :
        game.winner + " won");
      setText(cells[2], scores.join("\u2013"));
      setText(cells[3], (game.game_points == null ? "" : "+" + game.game_points) +
        lurchNote(game.lurch));
      setData(row, "winner", winner);
    });
    setData($("#evening"), "games", evening.length);
  }
  function lurchNote(lurch) {
    // the server gives each side that finished behind a line: {"name", "score", "lurch"}
    var notes = (Array.isArray(lurch) ? lurch : [lurch]).map(function (item) {
      var how = item && typeof item === "object" ? item.lurch : item;
      var word = how === "double-skunked" ? "double skunk" : how === "lurched" ? "lurched" : "";
      return word && item.name ? item.name + " " + word : word;
    }).filter(Boolean);
    return notes.length ? " \u00B7 " + notes.join(", ") : "";
  }

  // -- the connection ------------------------------------------------------------------------

  var source = null;
  var conn = "connecting";
  var paused = false;
  var lastChange = 0; // when the game last changed (this screen's clock)
  var lastViewText = "";
  var errorSince = 0;

  function ago(ms) {
    var minutes = Math.floor(ms / 60000);
    if (minutes < 60) return minutes + " min ago";
    return Math.floor(minutes / 60) + " h ago";
  }
  function showConn() {
    var age = lastChange ? Date.now() - lastChange : 0;
    var stale = lastChange && age >= STALE_MS;
    var text;
    if (conn === "reconnecting") {
      text = (paused ? "paused \u00B7 " : "") + "reconnecting\u2026" +
        (stale ? " (updated " + ago(age) + ")" : "");
    } else if (conn === "live" && paused) {
      text = "paused";
    } else if (conn === "live") {
      text = stale ? "updated " + ago(age) : "live";
    } else {
      text = "connecting\u2026";
    }
    var state = conn === "live" && paused ? "paused" : conn === "live" && stale ? "stale" : conn;
    setData($("#conn"), "state", state);
    setData(body, "conn", state);
    setText($("#conn-text"), text);
  }

  function onPayload(event) {
    var payload;
    try {
      payload = JSON.parse(event.data);
    } catch (e) {
      return; // a broken event is skipped; the next one carries the whole view again
    }
    errorSince = 0;
    conn = "live";
    paused = payload.status === "paused";
    var viewText = JSON.stringify(payload.view);
    if (viewText !== lastViewText) {
      lastViewText = viewText;
      lastChange = Date.now();
    }
    try {
      applyView(payload);
    } finally {
      showConn();
    }
  }

  function connect() {
    if (source) source.close();
    source = new EventSource("events");
    source.addEventListener("view", onPayload);
    source.onopen = function () {
      errorSince = 0;
      conn = "live";
      showConn();
    };
    source.onerror = function () {
      if (!errorSince) errorSince = Date.now();
      conn = "reconnecting";
      showConn();
    };
  }

  setInterval(function () {
    // EventSource retries by itself (every `retry:` ms) while it is CONNECTING; one that gave
    // up (CLOSED) or stayed dead for a while is replaced
    if (source && (source.readyState === 2 || (errorSince && Date.now() - errorSince > DEAD_MS))) {
      errorSince = Date.now();
      connect();
    }
    showConn();
  }, 1000);

  buildBoard({ sides: [0, 0], target: 121, lurch_line: 91, double_skunk_line: 61 });
  showConn();
  connect();
})();
