// The pub screen's script: applies each payload from /events to the fixed elements of
// index.html (text, classes, data attributes and peg positions only; a Pi-class browser takes
// a second or more to re-render a large block of HTML). The board's holes are laid out once per
// variant shape (sides, target, lines). EventSource reconnects by itself (the server's
// `retry:`); if a stream stays dead the script makes a new one. No external resources.
//
// The page speaks the payload's `language` ("en" or "de"): its own words come from WORDS
// below (the German ones are those of the German rules document and of the table's catalogue,
// pegboard/locale/de/LC_MESSAGES/pegboard.po), and the calls from the payload's `calls`, which
// the server renders in that language (the view's own calls are English).
//
// The calls aloud (for a TV with speakers), opt-in: with `?speak` in the page's address a
// button appears, and once it is pressed (browsers speak only after a press) each new peg is
// said with the browser's speech (speechSynthesis) in the payload's language: who, then the
// calls, as the board itself says them; new words cut the old ones short, an undo stops them.
"use strict";

(function () {
  var SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var WORDS = {
    en: {
      // the fixed labels of index.html (its elements with data-word="...")
      crib: "crib", "chance to win": "chance to win", "double skunk": "double skunk",
      lurch: "lurch", count: "count", tonight: "tonight", "head to head": "head to head",
      "tournament: standings only": "\uD83D\uDD12 tournament: standings only",
      "games won": "games won", "matches won": "matches won", "game points": "game points",
      "lurches given / taken": "lurches given / taken",
      "a deal as dealer / pone": "a deal as dealer / pone", "best hand": "best hand",
      // what pub.js writes
      "source play": "the play", "source hand": "hand", "source crib": "crib",
      "source heels": "his heels", "source muggins": "muggins",
      "source three for last": "three for last", "source peg": "pegged",
      lurched: "lurched!", "double-skunked": "double skunk!", wins: "wins!",
      "best-of-three": "best of three", "first-to-two": "first to two", single: "",
      "first-to-three": "first to three",
      "six-card": "six-card", "five-card": "five-card", "three-handed": "three-handed",
      "four-handed": "four-handed", "two-against-one": "two against one",
      "two-in-the-crib": "two in the crib",
      "game {n}": "Game {n}", "{variant} to {target}": "{variant} to {target}",
      "games {n}": "games {n}", "game points {n}": "game points {n}",
      "{name} to lay": "{name} to lay", "cutting for the deal": "cutting for the deal",
      "deal {n} · {name} deals": "deal {n} \u00B7 {name} deals",
      "deal {n} · the play": "deal {n} \u00B7 the play",
      "deal {n} · the show": "deal {n} \u00B7 the show",
      "{name} wins game {n}": "{name} wins game {n}",
      "{n} game point": "{n} game point", "{n} game points": "{n} game points",
      "{name} wins the match": "{name} wins the match",
      "cut for the deal": "cut for the deal", "{name} deals": "{name} deals",
      "waiting for the starter": "waiting for the starter",
      "the play, pegged by hand": "the play, pegged by hand", "go: {names}": "go: {names}",
      "counting {name}'s crib": "counting {name}\u2019s crib",
      "counting {name}'s hand": "counting {name}\u2019s hand",
      "starter {card}": "starter {card}", "no points pegged yet": "no points pegged yet",
      "{name}'s hand": "{name}\u2019s hand", "{name}'s crib": "{name}\u2019s crib",
      "result game {n}": "game {n}", "{winner} beat {others}": "{winner} beat {others}",
      "{winner} won": "{winner} won", "note lurched": "lurched",
      "note double-skunked": "double skunk",
      "{won} of {played}": "{won} of {played}", "crib hand": "{points} (crib)",
      "games {a}–{b} · matches {c}–{d}": "games {a}\u2013{b} \u00B7 matches {c}\u2013{d}",
      "not met yet": "their first game", decimal: ".",
      live: "live", paused: "paused", "connecting…": "connecting\u2026",
      "reconnecting…": "reconnecting\u2026", "updated {ago}": "updated {ago}",
      "{n} min ago": "{n} min ago", "{n} h ago": "{n} h ago",
      "hear the calls": "\uD83D\uDD0A hear the calls", "silence the calls": "\uD83D\uDD07 silence the calls",
    },
    de: {
      crib: "Krippe", "chance to win": "Gewinnchance", "double skunk": "dreifach",
      lurch: "Schneider", count: "Wert", tonight: "heute Abend",
      "tournament: standings only": "\uD83D\uDD12 Turnier: nur der Stand",
      "head to head": "Stand", "games won": "Spiele gewonnen",
      "matches won": "Matches gewonnen", "game points": "Spielpunkte",
      "lurches given / taken": "Schneider: gab / bekam",
      "a deal as dealer / pone": "\u00D8 Runde Geber / Vorhand", "best hand": "beste Hand",
      "source play": "Auslegen", "source hand": "Hand", "source crib": "Krippe",
      "source heels": "Hacken", "source muggins": "T\u00F6ffel",
      "source three for last": "drei als Ausgleich", "source peg": "von Hand",
      lurched: "Schneider!", "double-skunked": "dreifach!", wins: "gewinnt!",
      "best-of-three": "drei Spiele", "first-to-two": "zwei Siege", single: "",
      "first-to-three": "drei Siege",
      "six-card": "sechs Karten", "five-card": "f\u00FCnf Karten", "three-handed": "zu dritt",
      "four-handed": "zu viert", "two-against-one": "zwei gegen einen",
      "two-in-the-crib": "zwei in die Krippe",
      "game {n}": "Spiel {n}", "{variant} to {target}": "{variant} bis {target}",
      "games {n}": "Spiele {n}", "game points {n}": "Spielpunkte {n}",
      "{name} to lay": "{name} legt", "cutting for the deal": "abheben f\u00FCr den Geber",
      "deal {n} · {name} deals": "Runde {n} \u00B7 {name} gibt",
      "deal {n} · the play": "Runde {n} \u00B7 Auslegen",
      "deal {n} · the show": "Runde {n} \u00B7 Z\u00E4hlen",
      "{name} wins game {n}": "{name} gewinnt Spiel {n}",
      "{n} game point": "{n} Spielpunkt", "{n} game points": "{n} Spielpunkte",
      "{name} wins the match": "{name} gewinnt das Match",
      "cut for the deal": "abheben f\u00FCr den Geber", "{name} deals": "{name} gibt",
      "waiting for the starter": "warten auf die Startkarte",
      "the play, pegged by hand": "Auslegen, von Hand gesteckt",
      "go: {names}": "Passe: {names}",
      "counting {name}'s crib": "Krippe von {name} z\u00E4hlen",
      "counting {name}'s hand": "Hand von {name} z\u00E4hlen",
      "starter {card}": "Startkarte {card}", "no points pegged yet": "noch nichts gesteckt",
      "{name}'s hand": "Hand von {name}", "{name}'s crib": "Krippe von {name}",
      "result game {n}": "Spiel {n}", "{winner} beat {others}": "{winner} schl\u00E4gt {others}",
      "{winner} won": "{winner} gewinnt", "note lurched": "Schneider",
      "note double-skunked": "dreifach",
      "{won} of {played}": "{won} von {played}", "crib hand": "{points} (Krippe)",
      "games {a}–{b} · matches {c}–{d}": "Spiele {a}\u2013{b} \u00B7 Matches {c}\u2013{d}",
      "not met yet": "noch kein Spiel gegeneinander", decimal: ",",
      live: "live", paused: "Pause", "connecting…": "verbinde\u2026",
      "reconnecting…": "verbinde neu\u2026", "updated {ago}": "aktualisiert {ago}",
      "{n} min ago": "vor {n} min", "{n} h ago": "vor {n} h",
      "hear the calls": "\uD83D\uDD0A Ansagen h\u00F6ren", "silence the calls": "\uD83D\uDD07 Ansagen stumm",
    },
  };
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
  var recordHeads = $$("#records thead .v");
  var recordRows = $$("#records tbody tr");

  // -- the language --------------------------------------------------------------------------

  var language = "";
  var words = WORDS.en;

  function say(key, vars) {
    var text = words[key];
    if (text == null) text = WORDS.en[key];
    if (text == null) text = key;
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      return vars && vars[name] != null ? String(vars[name]) : all;
    });
  }
  function setLanguage(code) {
    code = WORDS[code] ? code : "en";
    if (code === language) return;
    language = code;
    words = WORDS[code];
    document.documentElement.lang = code;
    $$("[data-word]").forEach(function (el) { setText(el, say(el.dataset.word)); });
  }
  function decimal(value) {
    return value == null ? "\u2013" : value.toFixed(1).replace(".", say("decimal"));
  }

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
  function isBetweenGames(view, evening) {
    // a game over, or a new game before its first deal's play: the evening's results
    return view.phase === "game over" || view.phase === "match over" ||
      (evening.length > 0 && (view.phase === "cut" || (view.phase === "starter" && view.deal <= 1)));
  }
  function hasGamePoints(view) {
    // three separate players win no game points (RULES.md: none are invented for them)
    return view.variant !== "three-handed";
  }
  function variantLine(view) {
    return say("{variant} to {target}", { variant: say(view.variant), target: view.target });
  }

  // -- one payload ---------------------------------------------------------------------------

  function applyView(payload) {
    var view = payload.view;
    var evening = payload.evening || [];
    var chances = payload.win_probability;
    setLanguage(payload.language);
    buildBoard(view);
    var between = isBetweenGames(view, evening);
    body.classList.toggle("between", between);
    setData(body, "phase", view.phase);
    setData(body, "turn", view.turn);
    setData(body, "dealer", view.dealer);

    setText($("#game-no"), say("game {n}", { n: view.game }));
    setText($("#variant"), variantLine(view));
    setText($("#match-format"), say(view.match.format));
    setText($("#phase"), phaseLine(view));
    // the tournament lock: the standings only (the payload has no odds and no figures then)
    $("#lock").hidden = payload.locked !== true;
    setData(body, "locked", payload.locked === true ? "yes" : "no");

    var pointed = hasGamePoints(view);
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
        say("games {n}", { n: side.games_won }));
      setText($(".points", card), pointed ? say("game points {n}", { n: side.game_points }) : "");
      var turnSide = view.turn == null ? null : sideOfSeat(view, view.turn);
      var turn = turnSide === i && view.phase === "play";
      setData(card, "turn", turn ? "yes" : "no");
      setText($(".turn", card), turn ? "\u25B6 " + say("{name} to lay", { name: view.turn_name }) : "");
      var won = view.winner === i;
      setData(card, "won", won ? "yes" : "no");
      var lurch = side.lurch && side.lurch !== "none" ? say(side.lurch) : ""; // "none": not behind
      setText($(".lurch", card), won ? say("wins") : lurch);
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
      var percent = chancePercent(chance, view.winner != null);
      part.style.width = (chance * 100).toFixed(2) + "%";
      setData(part, "percent", percent);
      setText($("span", part), (chance >= 0.2 ? view.names[i] + " " : "") + percent + "%");
    });

    applyState(view);
    applyLast(view, payload.calls);
    speakNew(view, payload);
    applyEvening(evening);
    applyPlayers(view, payload.players);
    fitAll();
    body.dataset.version = String(payload.version);
    // for bench/bench_web.py: when this version reached the DOM, and its next frame, on the
    // wall clock (epoch milliseconds), so a key's time can be taken from the controller's side
    var applied = { version: payload.version, at: performance.timeOrigin + performance.now() };
    window.pegboardApplied = applied;
    requestAnimationFrame(function () {
      applied.frame = performance.timeOrigin + performance.now();
    });
  }

  function chancePercent(chance, over) {
    // a chance in whole percent; a game that is not over is never "100%" nor "0%", which a
    // patron reads as certain: 99.92% is ">99%", 0.08% "<1%"
    var percent = Math.round(chance * 100);
    if (over) return String(percent);
    if (percent >= 100) return ">99";
    if (percent <= 0) return "<1";
    return String(percent);
  }

  function phaseLine(view) {
    switch (view.phase) {
      case "cut": return say("cutting for the deal");
      case "starter": return say("deal {n} · {name} deals", { n: view.deal, name: view.dealer_name });
      case "play": return say("deal {n} · the play", { n: view.deal });
      case "show": return say("deal {n} · the show", { n: view.deal });
      case "game over": return say("{name} wins game {n}", { name: view.winner_name, n: view.game }) +
        (view.game_points == null ? "" : " \u00B7 " +
          say(view.game_points === 1 ? "{n} game point" : "{n} game points", { n: view.game_points }));
      case "match over": return say("{name} wins the match", { name: view.match.winner_name });
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
        title = say("cut for the deal");
        cards = view.cut.map(function (card, i) { return [card, i]; });
        break;
      case "starter":
        title = say("{name} deals", { name: view.dealer_name });
        note = say("waiting for the starter");
        break;
      case "play":
        title = view.turn_name ? say("{name} to lay", { name: view.turn_name }) :
          say("the play, pegged by hand");
        cards = view.series.map(function (card) {
          var seat = null;
          view.laid.forEach(function (laid) { if (laid[1] === card) seat = laid[0]; });
          return [card, seat == null ? null : sideOfSeat(view, seat)];
        });
        if (view.said_go.length) {
          note = say("go: {names}", {
            names: view.said_go.map(function (seat) { return view.seat_names[seat]; }).join(", "),
          });
        }
        break;
      case "show":
        title = view.up_for_counting === "crib" ?
          say("counting {name}'s crib", { name: view.dealer_name }) :
          say("counting {name}'s hand", { name: view.up_for_counting });
        break;
      default:
        title = "";
    }
    if (view.starter && (view.phase === "play" || view.phase === "show")) {
      note = say("starter {card}", { card: cardText(view.starter) }) +
        (note ? "  \u00B7  " + note : "");
    }
    setText($("#state-title"), title);
    setText($("#state-note"), note);
    cardEls.forEach(function (el, i) {
      var card = cards[i];
      showCard(el, card ? card[0] : null, card ? card[1] : null);
    });
  }

  function applyLast(view, calls) {
    var last = view.last;
    var panel = $("#last");
    setData(panel, "side", last ? last.side : "");
    setData(panel, "empty", last ? "no" : "yes");
    body.classList.toggle("no-last", !last);
    if (!last) {
      setText($("#last-who"), say("no points pegged yet"));
      setText($("#last-points"), "");
      setText($("#last-calls"), "");
      return;
    }
    var who = last.seat != null ? view.seat_names[last.seat] : last.name;
    var from;
    if (last.source === "hand" || last.source === "crib") {
      from = say("{name}'s " + last.source, { name: who });
    } else {
      from = who + " \u00B7 " + say("source " + last.source);
    }
    setText($("#last-who"), from);
    setText($("#last-points"), "+" + last.points + " \u2192 " + last.score);
    // the calls in the page's language (the server's); the view's own are English
    setText($("#last-calls"), (Array.isArray(calls) ? calls : last.calls).join(", "));
  }

  function applyEvening(evening) {
    // newest first: on a small screen the oldest rows are the ones cut off
    var games = evening.slice(-resultRows.length).reverse();
    resultRows.forEach(function (row, i) {
      var game = games[i];
      row.hidden = !game;
      setData(row, "game", game ? "yes" : "no");
      if (!game) return;
      var cells = row.cells;
      var names = game.names || [];
      var winner = names.indexOf(game.winner);
      var scores = game.scores.slice();
      if (winner >= 0) scores.unshift(scores.splice(winner, 1)[0]);
      else scores.sort(function (a, b) { return b - a; });
      var others = names.filter(function (name) { return name !== game.winner; });
      // when it was won tells the evening's matches apart; a match's later games say which
      var which = say("result game {n}", { n: game.game });
      setText(cells[0], !game.finished ? which :
        game.game > 1 ? game.finished + " \u00B7 " + which : game.finished);
      setText(cells[1], others.length ?
        say("{winner} beat {others}", { winner: game.winner, others: others.join(", ") }) :
        say("{winner} won", { winner: game.winner }));
      setText(cells[2], scores.join("\u2013"));
      setText(cells[3], (game.game_points == null ? "" : "+" + game.game_points) +
        lurchNote(game.lurch));
      setData(row, "winner", winner);
    });
    setData($("#evening"), "games", evening.length);
  }
  function applyPlayers(view, players) {
    // each side's record over the journal (the match's variant) and their head to head; a
    // double skunk counts among the lurches given and taken here
    var sides = players ? players.sides : [];
    var n = view.sides.length;
    setData($("#players"), "shown", players ? "yes" : "no");
    setText($("#records-variant"), players ? say(players.variant) : "");
    recordHeads.forEach(function (head, i) {
      head.hidden = i >= n;
      setText(head, i < n ? view.names[i] : "");
    });
    recordRows.forEach(function (row) {
      row.hidden = row.dataset.row === "points" && !hasGamePoints(view);
      var cells = $$("td", row);
      cells.forEach(function (cell, i) {
        cell.hidden = i >= n;
        var record = sides[i];
        setText(cell, i < n ? recordCell(row.dataset.row, record) : "");
      });
    });
    setText($("#h2h-text"), headToHead(view, players));
  }
  function recordCell(row, r) {
    if (!r) return "\u2013";
    switch (row) {
      case "games": return say("{won} of {played}", { won: r.games_won, played: r.games_played });
      case "matches": // none decided yet: a dash, not "0 of 0"
        return r.matches_played ?
          say("{won} of {played}", { won: r.matches_won, played: r.matches_played }) : "\u2013";
      case "points": return String(r.game_points);
      case "lurches":
        return (r.lurches_given + r.double_skunks_given) + " / " +
          (r.lurches_taken + r.double_skunks_taken);
      case "deal": return decimal(r.dealer.average) + " / " + decimal(r.pone.average);
      case "best":
        if (!r.best_hand) return "\u2013";
        return r.best_hand.crib ? say("crib hand", { points: r.best_hand.points }) :
          String(r.best_hand.points);
      default: return "";
    }
  }
  function headToHead(view, players) {
    if (!players) return "";
    var pairs = players.head_to_head || [];
    if (view.sides.length === 2) {
      var h = pairs[0];
      if (!h) return say("not met yet");
      return say("games {a}–{b} · matches {c}–{d}", {
        a: h.games_won[0], b: h.games_won[1], c: h.matches_won[0], d: h.matches_won[1],
      });
    }
    if (!pairs.length) return say("not met yet");
    return pairs.map(function (h) { // a pair never breaks across two lines
      var names = h.names[0] + "\u2013\u2060" + h.names[1]; // U+2060: no break after the dash
      return names + "\u00A0" + h.games_won[0] + "\u2013" + h.games_won[1];
    }).join(" \u00B7 ");
  }

  function lurchNote(lurch) {
    // the server gives each side that finished behind a line: {"name", "score", "lurch"}
    var notes = (Array.isArray(lurch) ? lurch : [lurch]).map(function (item) {
      var how = item && typeof item === "object" ? item.lurch : item;
      var word = how === "double-skunked" || how === "lurched" ? say("note " + how) : "";
      return word && item.name ? item.name + " " + word : word;
    }).filter(Boolean);
    return notes.length ? " \u00B7 " + notes.join(", ") : "";
  }

  // -- fitting: words that must show whole shrink until they fit their box ---------------------

  // each element's smallest size, as a share of its size in pub.css; below it the words are cut
  var FITTED = [
    [".side:not([hidden]) .name", 0.5],
    [".side:not([hidden]) .players", 0.6],
    [".side:not([hidden]) .flag", 0.5],
    [".side:not([hidden]) .meta", 0.6],
    ["#records thead th.v:not([hidden])", 0.5],
    ["#h2h", 0.6],
    ["#last-calls", 0.3], // the calls always whole: the total is their last word
    ["#state-title", 0.6], // "Hand von Bartholome zählen"
  ];

  function fits(el, box) {
    if (box) return box.scrollWidth <= box.clientWidth && !overflows(box);
    return el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight &&
      !overflows(el);
  }
  function overflows(el) {
    // scrollWidth and clientWidth are whole pixels: words wider than their box by a fraction
    // of one still end in an ellipsis ("Maximili…"), so compare the words' own width with
    // the box's content width, both in fractions of a pixel
    var words = document.createRange();
    words.selectNodeContents(el);
    var style = getComputedStyle(el);
    var room = el.getBoundingClientRect().width - parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight) - parseFloat(style.borderLeftWidth) -
      parseFloat(style.borderRightWidth);
    return words.getBoundingClientRect().width > room;
  }
  function fit(el, least, box) {
    // from pub.css's size down in steps of 5% (one layout each) until the words fit their
    // box (or el fits the width of *box*)
    el.style.fontSize = "";
    if (fits(el, box)) return;
    var size = parseFloat(getComputedStyle(el).fontSize);
    for (var step = 19; step >= least * 20; step--) {
      el.style.fontSize = (size * step / 20).toFixed(2) + "px";
      if (fits(el, box)) return;
    }
  }
  function fitAll() {
    FITTED.forEach(function (item) {
      var box = item[2] ? $(item[2]) : null;
      $$(item[0]).forEach(function (el) { fit(el, item[1], box); });
    });
    fitEvening();
  }
  function fitEvening() {
    // only whole rows, newest first: the first row that would be cut, and all after it, hide
    var panel = $("#evening");
    var rows = resultRows.filter(function (row) { return row.dataset.game === "yes"; });
    rows.forEach(function (row) { row.hidden = false; });
    if (!panel.offsetParent) return;
    var style = getComputedStyle(panel);
    var bottom = panel.getBoundingClientRect().bottom - parseFloat(style.paddingBottom) -
      parseFloat(style.borderBottomWidth);
    var cut = false;
    rows.forEach(function (row) {
      cut = cut || row.getBoundingClientRect().bottom > bottom + 0.5;
      row.hidden = cut;
    });
    setData(panel, "shown", rows.filter(function (row) { return !row.hidden; }).length);
  }
  window.addEventListener("resize", fitAll);

  // -- the calls aloud (opt-in) ---------------------------------------------------------------

  var speakButton = $("#speak");
  var speaking = false; // pressed on: new pegs are said
  var heard = null; // the last peg and the scores' total the page has seen
  function showSpeak() {
    speakButton.hidden = !/[?&]speak(?:[=&]|$)/.test(location.search) || !window.speechSynthesis;
    setData(speakButton, "on", speaking ? "yes" : "no");
    setText(speakButton, say(speaking ? "silence the calls" : "hear the calls"));
  }
  speakButton.addEventListener("click", function () {
    speaking = !speaking;
    if (!speaking) window.speechSynthesis.cancel();
    showSpeak();
  });
  function speakNew(view, payload) {
    var last = view.last;
    var calls = last ? (Array.isArray(payload.calls) ? payload.calls : last.calls) : [];
    var total = view.sides.reduce(function (sum, side) { return sum + side.score; }, 0);
    var now = {
      peg: last ? JSON.stringify([view.game, last.side, last.score, last.source, calls]) : "",
      total: total, game: view.game, winner: view.winner,
    };
    var before = heard;
    heard = now;
    showSpeak();
    if (!speaking || before === null || before.game !== now.game) return;
    if (now.total < before.total) { // taken back: the words said are wrong now
      window.speechSynthesis.cancel();
      return;
    }
    if (!last || now.peg === before.peg) return; // nothing new pegged
    var who = last.seat != null ? view.seat_names[last.seat] : last.name;
    var text = who + ", " + calls.join(", ");
    if (view.winner != null && before.winner == null) {
      text += ". " + view.names[view.winner] + " " + say("wins");
    }
    var words = new SpeechSynthesisUtterance(text);
    words.lang = payload.language === "de" ? "de-DE" : "en-GB";
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(words);
  }
  showSpeak();

  // -- the connection ------------------------------------------------------------------------

  var source = null;
  var conn = "connecting";
  var paused = false;
  var lastChange = 0; // when the game last changed (this screen's clock)
  var lastViewText = "";
  var errorSince = 0;

  function ago(ms) {
    var minutes = Math.floor(ms / 60000);
    if (minutes < 60) return say("{n} min ago", { n: minutes });
    return say("{n} h ago", { n: Math.floor(minutes / 60) });
  }
  function showConn() {
    var age = lastChange ? Date.now() - lastChange : 0;
    var stale = lastChange && age >= STALE_MS;
    var text;
    if (conn === "reconnecting") {
      text = (paused ? say("paused") + " \u00B7 " : "") + say("reconnecting…") +
        (stale ? " (" + say("updated {ago}", { ago: ago(age) }) + ")" : "");
    } else if (conn === "live" && paused) {
      text = say("paused");
    } else if (conn === "live") {
      text = stale ? say("updated {ago}", { ago: ago(age) }) : say("live");
    } else {
      text = say("connecting…");
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
