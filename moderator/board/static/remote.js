// The phone remote: big buttons for the phase's public bookkeeping, on the board's page.
// Only under /r/<token>/ (the remote's own link); on the read-only board this file does
// nothing. Each press is a POST with the remote's token in a header (never in a form),
// the board's seq the player saw, and a random id of this phone (for the per-phone limit).
// Every sentence comes from the server, in the table's language, and is set as text.
"use strict";

const remoteToken = (() => {
  const parts = location.pathname.split("/");
  return parts[1] === "r" && parts[2] ? parts[2] : null;
})();

const phoneId = (() => {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
})();

// The board the buttons were drawn from, and the seat question open ("knock_out" or null).
let remoteBoard = null;
let picking = null;
let busy = false;

function remoteButton(label, action, seat, extra) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "press" + (extra ? " " + extra : "");
  button.textContent = label;
  button.dataset.action = action;
  if (seat !== undefined) button.dataset.seat = String(seat);
  button.disabled = busy;
  return button;
}

function remoteAnswer(sentence, ok) {
  const answer = document.getElementById("remote-answer");
  answer.textContent = sentence;
  answer.className = ok ? "answer ok" : "answer refused";
}

function drawRemote(s) {
  remoteBoard = s;
  const section = document.getElementById("remote");
  const buttons = document.getElementById("remote-buttons");
  section.hidden = false;
  document.getElementById("remote-title").textContent = say("remote");
  const list = [];
  const inPlay = s.seats.map((seat, index) => ({ ...seat, index })).filter((x) => x.in_play);
  if (picking === "knock_out" && (s.phase === "table" || s.phase === "meeting")) {
    const question = document.createElement("p");
    question.className = "question";
    question.textContent = say("whoKnockedOut");
    list.push(question);
    for (const seat of inPlay) list.push(remoteButton(seat.name, "knock_out", seat.index, "seat"));
    list.push(remoteButton(say("cancel"), "cancel", undefined, "quiet"));
  } else if (s.phase === "table" && s.current !== null) {
    picking = null;
    list.push(remoteButton(say("nextTurn"), "next_turn", undefined, "main"));
    list.push(remoteButton(say("meetingCard"), "meeting"));
    list.push(remoteButton(say("knockOut"), "pick_knock_out"));
    list.push(remoteButton(say("undo"), "undo", undefined, "quiet"));
  } else if (s.phase === "meeting") {
    picking = null;
    list.push(remoteButton(say("resolved"), "resolve", undefined, "main"));
    const hint = document.createElement("p");
    hint.className = "question";
    hint.textContent = say("sitOutHint");
    list.push(hint);
    for (const seat of inPlay) {
      const toggle = remoteButton(seat.name, "sit_out", seat.index, "seat");
      toggle.setAttribute("aria-pressed", String(seat.sitting_out));
      list.push(toggle);
    }
    list.push(remoteButton(say("knockOut"), "pick_knock_out"));
    list.push(remoteButton(say("undo"), "undo", undefined, "quiet"));
  } else {
    picking = null;
    const laptop = document.createElement("p");
    laptop.className = "question";
    laptop.textContent = say("laptopOnly");
    list.push(laptop);
  }
  buttons.replaceChildren(...list);
}

async function press(action, seat) {
  if (!remoteBoard || busy) return;
  const body = { action, seq: remoteBoard.seq };
  if (seat !== undefined) body.seat = seat;
  busy = true;
  picking = null;
  drawRemote(remoteBoard);
  try {
    const response = await fetch("press", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Remote-Token": remoteToken,
        "X-Remote-Phone": phoneId,
      },
      body: JSON.stringify(body),
      cache: "no-store",
      credentials: "omit",
    });
    const answer = await response.json();
    remoteAnswer(String(answer.sentence), response.ok);
  } catch (error) {
    remoteAnswer(say("lost"), false);
  } finally {
    busy = false;
    drawRemote(remoteBoard);
  }
}

function setUpRemote() {
  if (!remoteToken) return;
  document.addEventListener("board:drawn", (event) => drawRemote(event.detail));
  document.getElementById("remote-buttons").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button || button.disabled) return;
    const action = button.dataset.action;
    if (action === "pick_knock_out" || action === "cancel") {
      picking = action === "cancel" ? null : "knock_out";
      drawRemote(remoteBoard);
      return;
    }
    press(action, button.dataset.seat === undefined ? undefined : Number(button.dataset.seat));
  });
}

document.addEventListener("DOMContentLoaded", setUpRemote);
