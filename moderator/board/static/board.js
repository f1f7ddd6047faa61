// The phone board: follows the table's public snapshot (Server-Sent Events) and draws it.
// Every name is set with textContent, never as HTML. EventSource reconnects by itself.
"use strict";

// Every sentence the page shows, by UI language (the snapshot's `lang`); English first.
const STRINGS = {
  en: {
    connecting: "Connecting to the table…",
    live: "Live",
    lost: "Connection lost: reconnecting…",
    gameOf: (n, of) => `Game ${n} of ${of}`,
    turn: "Turn",
    yourTurn: "Whose turn",
    meetings: (n, of) => `Meetings done: ${n} of ${of}`,
    eyesClosed: "Eyes closed!",
    knockedOut: "knocked out",
    sitsOut: "sits out",
    meeting: (n) => `Meeting ${n}`,
    sittingOut: (names) => `Sitting out: ${names}`,
    nobodySitsOut: "Nobody sits out by a card.",
    giver: "Gives",
    left: "Left to",
    right: "Right to",
    overFew: "Only 1 or 2 players are still in play: the game ends. Count to 3!",
    overThird: "The third Meeting is resolved: the game ends. Count to 3!",
    results: "The table enters who growled…",
    series: (n, of) => `Series: ${n} of ${of} games played`,
    teamWon: (team) => `The ${team} win`,
    seriesWon: (names) => `Series won by ${names}`,
    player: "Player",
    game: (n) => `Game ${n}`,
    total: "Total",
    bgstats: "Open in BG Stats",
    vibrateOn: "Vibrate at the reveal: on",
    vibrateOff: "Vibrate at the reveal: off",
    waiting: "Waiting for the next game…",
    announceTurn: (turn, name) => `Turn ${turn}: ${name}`,
    announceMeeting: (n) => `Meeting ${n} starts`,
    announceEyes: "Eyes closed",
    announceOver: "The game is over",
    announceOut: (name) => `${name} is knocked out`,
    teams: { sane: "Sane", possessed: "Possessed" },
  },
};

let strings = STRINGS.en;
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
  const note = !seat.in_play ? strings.knockedOut : seat.sitting_out ? strings.sitsOut : "";
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
  text("game-number", s.game_number ? strings.gameOf(s.game_number, s.series.games) : "");
  text("turn-label", strings.turn);
  text("turn", String(s.turn));
  show("current-label", s.current !== null);
  show("current", s.current !== null);
  text("current-label", strings.yourTurn);
  text("current", s.current || "");
  text("meetings", strings.meetings(s.meetings_done, s.meetings_total));
  text("pips", "●".repeat(s.meetings_done) + "○".repeat(s.meetings_total - s.meetings_done));
  show("eyes", s.eyes_closed);
  text("eyes", strings.eyesClosed);
  show("over", s.over !== null && s.phase !== "series");
  const overText = s.over === "few_in_play" ? strings.overFew : strings.overThird;
  text("over", s.phase === "result" ? strings.results : overText);
  show("meeting", s.meeting !== null);
  if (s.meeting) {
    text("meeting-title", strings.meeting(s.meeting.number));
    const out = s.meeting.sitting_out;
    text("sitting-out", out.length ? strings.sittingOut(out.join(", ")) : strings.nobodySitsOut);
    text("chart-giver", strings.giver);
    text("chart-left", strings.left);
    text("chart-right", strings.right);
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
  text("series-title", strings.series(series.played, series.games));
  const team = strings.teams[series.last_winner] || series.last_winner;
  text(
    "series-winner",
    series.winners.length ? strings.seriesWon(series.winners.join(" & ")) : strings.teamWon(team),
  );
  const table = $("series-board");
  const heads = [strings.player];
  for (let n = 1; n <= series.games; n++) heads.push(strings.game(n));
  heads.push(strings.total);
  table.tHead.replaceChildren(row(heads, true));
  table.tBodies[0].replaceChildren(
    ...series.rows.map((r) => row([r.name + (r.leading ? " ★" : ""), ...r.points, r.total])),
  );
  const link = $("bgstats");
  const safe = typeof s.bgstats_link === "string" && /^(bgstats|https):/i.test(s.bgstats_link);
  link.hidden = !safe;
  if (safe) {
    link.href = s.bgstats_link;
    link.textContent = strings.bgstats;
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
  if (s.eyes_closed && !(last && last.eyes_closed)) lines.push(strings.announceEyes);
  for (const name of knockedOutNow(s)) lines.push(strings.announceOut(name));
  if (s.meeting && !(last && last.meeting)) lines.push(strings.announceMeeting(s.meeting.number));
  else if (s.over && !(last && last.over)) lines.push(strings.announceOver);
  else if (s.phase === "series" && last && last.phase !== "series" && s.series.played)
    lines.push(resultLine(s.series));
  else if (s.current && (!last || last.turn !== s.turn || last.current !== s.current))
    lines.push(strings.announceTurn(s.turn, s.current));
  if (lines.length) text("live", lines.join(". "));
}

// The players knocked out since the last snapshot (same seat, same name, in play before).
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
  if (series.winners.length) return strings.seriesWon(series.winners.join(" & "));
  return strings.teamWon(strings.teams[series.last_winner] || series.last_winner);
}

function draw(s) {
  strings = STRINGS[s.lang] || STRINGS.en;
  document.documentElement.lang = STRINGS[s.lang] ? s.lang : "en";
  if (last && s.eyes_closed !== last.eyes_closed) buzz(s.eyes_closed ? [300] : [150, 100, 150]);
  drawGame(s);
  drawSeries(s);
  drawLeaderboard(s);
  if (!s.seats.length && s.phase !== "series") text("status", strings.waiting);
  else text("status", strings.live);
  announce(s);
  document.body.dataset.seq = String(s.seq);
  last = s;
}

function setUpVibration() {
  const button = $("vibrate");
  if (typeof navigator.vibrate !== "function") return;
  button.hidden = false;
  const label = () => {
    button.textContent = vibrate ? strings.vibrateOn : strings.vibrateOff;
    button.setAttribute("aria-pressed", String(vibrate));
  };
  label();
  button.addEventListener("click", () => {
    vibrate = !vibrate;
    label();
    buzz([50]);
  });
}

function follow() {
  text("status", strings.connecting);
  const source = new EventSource("events");
  source.onmessage = (event) => draw(JSON.parse(event.data));
  source.onerror = () => text("status", strings.lost);
  source.onopen = () => text("status", strings.live);
}

document.addEventListener("DOMContentLoaded", () => {
  setUpVibration();
  follow();
});
