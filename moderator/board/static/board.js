// The phone board: follows the table's public snapshot (Server-Sent Events) and draws it.
// Every name is set with textContent, never as HTML. EventSource reconnects by itself.
"use strict";

// The page's words come from the server in the table's language (words/<lang>.json, made
// from the app's own catalogues): the page holds no sentence of its own. Until the first
// words arrive the status line shows "…".
let words = null;
let wordsLang = null;
let seriesWords = [];
let queue = [];
let loading = false;

// The sentence `key` with its {placeholders} filled in (values are set as text, never HTML).
function say(key, values) {
  const template = words ? words[key] || "" : "";
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    values && name in values ? String(values[name]) : whole,
  );
}

let vibrate = false;
let last = null;

const $ = (id) => document.getElementById(id);

function show(id, visible) {
  $(id).hidden = !visible;
}

function text(id, value) {
  $(id).textContent = value;
}

function buzz(pattern) {
  if (vibrate && typeof navigator.vibrate === "function") {
    navigator.vibrate(pattern);
  }
}

function seatItem(seat) {
  const item = document.createElement("li");
  item.textContent = seat.name;
  if (seat.current) item.classList.add("current");
  if (!seat.in_play) item.classList.add("out");
  const note = !seat.in_play ? say("knockedOut") : seat.sitting_out ? say("sitsOut") : "";
  if (note) {
    const span = document.createElement("span");
    span.className = "note";
    span.textContent = note;
    item.appendChild(span);
  }
  return item;
}

function row(cells, header) {
  const tr = document.createElement("tr");
  for (const cell of cells) {
    const td = document.createElement(header ? "th" : "td");
    td.textContent = cell === null || cell === undefined ? "" : String(cell);
    if (typeof cell === "number") td.className = "num";
    tr.appendChild(td);
  }
  return tr;
}

function drawGame(s) {
  const inGame = s.seats.length > 0;
  show("game", inGame);
  if (!inGame) return;
  text("game-number", s.game_number ? say("gameOf", { game: s.game_number, games: s.series.games }) : "");
  text("turn-label", say("turn"));
  text("turn", String(s.turn));
  show("current-label", s.current !== null);
  show("current", s.current !== null);
  text("current-label", say("yourTurn"));
  text("current", s.current || "");
  text("meetings", say("meetings", { done: s.meetings_done, meetings: s.meetings_total }));
  text("pips", "●".repeat(s.meetings_done) + "○".repeat(s.meetings_total - s.meetings_done));
  show("eyes", s.eyes_closed);
  text("eyes", say("eyesClosed"));
  show("over", s.over !== null && s.phase !== "series");
  const overText = s.over === "few_in_play" ? say("overFew") : say("overThird");
  text("over", s.phase === "result" ? say("results") : overText);
  show("meeting", s.meeting !== null);
  if (s.meeting) {
    text("meeting-title", say("meeting", { number: s.meeting.number }));
    const out = s.meeting.sitting_out;
    text("sitting-out", out.length ? say("sittingOut", { names: out.join(", ") }) : say("nobodySitsOut"));
    text("chart-giver", say("giver"));
    text("chart-left", say("left"));
    text("chart-right", say("right"));
    const body = $("chart").tBodies[0];
    body.replaceChildren(...s.meeting.chart.map((p) => row([p.giver, p.left, p.right])));
  }
  $("seats").replaceChildren(...s.seats.map(seatItem));
}

function drawSeries(s) {
  const series = s.series;
  const visible = s.phase === "series" && series.played > 0;
  show("series", visible);
  if (!visible) return;
  const played = seriesWords[series.played] || "";
  text("series-title", played.replace("{played}", series.played).replace("{games}", series.games));
  text("series-winner", resultLine(series));
  const table = $("series-board");
  const heads = [say("player")];
  for (let n = 1; n <= series.games; n++) heads.push(say("game", { number: n }));
  heads.push(say("total"));
  table.tHead.replaceChildren(row(heads, true));
  table.tBodies[0].replaceChildren(
    ...series.rows.map((r) => row([r.name + (r.leading ? " ★" : ""), ...r.points, r.total])),
  );
  const link = $("bgstats");
  const safe = typeof s.bgstats_link === "string" && /^(bgstats|https):/i.test(s.bgstats_link);
  link.hidden = !safe;
  if (safe) {
    link.href = s.bgstats_link;
    link.textContent = say("bgstats");
  }
}

// Tonight's table's leaderboard between games: lines the app drew in the table's language
// (its catalogues), shown as text (names stay literal).
function drawLeaderboard(s) {
  const board = s.phase === "series" ? s.leaderboard : null;
  show("leaderboard", Boolean(board));
  if (!board) return;
  text("leaderboard-title", board.title);
  text("leaderboard-lines", board.lines.join("\n"));
}

// What a phone's screen reader is told (the live region): each public change once.
function announce(s) {
  const lines = [];
  if (s.eyes_closed && !(last && last.eyes_closed)) lines.push(say("announceEyes"));
  for (const name of knockedOutNow(s)) lines.push(say("announceOut", { name }));
  if (s.meeting && !(last && last.meeting))
    lines.push(say("announceMeeting", { number: s.meeting.number }));
  else if (s.over && !(last && last.over)) lines.push(say("announceOver"));
  else if (s.phase === "series" && last && last.phase !== "series" && s.series.played)
    lines.push(resultLine(s.series));
  else if (s.current && (!last || last.turn !== s.turn || last.current !== s.current))
    lines.push(say("announceTurn", { turn: s.turn, name: s.current }));
  if (lines.length) text("live", lines.join(". "));
}

// Who left play since the last snapshot (same seat, same name, in play before).
function knockedOutNow(s) {
  if (!last) return [];
  return s.seats
    .filter((seat, i) => {
      const before = last.seats[i];
      return !seat.in_play && before && before.in_play && before.name === seat.name;
    })
    .map((seat) => seat.name);
}

// The game's result as the series board shows it: the series' winners, else the team.
function resultLine(series) {
  if (series.winners.length) return say("seriesWon", { names: series.winners.join(" & ") });
  return series.last_winner === "sane" ? say("saneWin") : say("possessedWin");
}

// The words of `lang`, fetched once per change of the table's language.
async function learn(lang) {
  const response = await fetch(`words/${encodeURIComponent(lang)}.json`, { cache: "no-store" });
  if (!response.ok) throw new Error(`words: ${response.status}`);
  const got = await response.json();
  words = got.words;
  seriesWords = got.series;
  wordsLang = lang;
  document.documentElement.lang = got.lang;
  document.title = say("title");
  labelVibration();
}

// Draws each snapshot in order (the reveal's buzz needs every change), once the words of
// its language are here; while they load, later snapshots wait their turn.
async function pump() {
  if (loading) return;
  loading = true;
  try {
    while (queue.length) {
      const s = queue[0];
      if (s.lang !== wordsLang) await learn(s.lang);
      queue.shift();
      draw(s);
    }
  } catch (error) {
    text("status", words ? say("lost") : "…");
    setTimeout(pump, 1000); // the words again in a second
  } finally {
    loading = false;
  }
}

function receive(s) {
  queue.push(s);
  pump();
}

function draw(s) {
  if (last && s.eyes_closed !== last.eyes_closed) buzz(s.eyes_closed ? [300] : [150, 100, 150]);
  drawGame(s);
  drawSeries(s);
  drawLeaderboard(s);
  if (!s.seats.length && s.phase !== "series") text("status", say("waiting"));
  else text("status", say("live"));
  announce(s);
  document.body.dataset.seq = String(s.seq);
  last = s;
  // Other parts of the page (the remote's buttons) draw from the same snapshot.
  document.dispatchEvent(new CustomEvent("board:drawn", { detail: s }));
}

function labelVibration() {
  const button = $("vibrate");
  button.textContent = vibrate ? say("vibrateOn") : say("vibrateOff");
  button.setAttribute("aria-pressed", String(vibrate));
}

function setUpVibration() {
  const button = $("vibrate");
  if (typeof navigator.vibrate !== "function") return;
  button.hidden = false;
  labelVibration();
  button.addEventListener("click", () => {
    vibrate = !vibrate;
    labelVibration();
    buzz([50]);
  });
}

function follow() {
  const source = new EventSource("events");
  source.onmessage = (event) => receive(JSON.parse(event.data));
  source.onerror = () => text("status", words ? say("lost") : "…");
  source.onopen = () => text("status", words ? say("live") : "…");
}

document.addEventListener("DOMContentLoaded", () => {
  setUpVibration();
  follow();
});
