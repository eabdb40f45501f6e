// The hand checker's helpers: add and remove hands, and a grid of cards
// that types a card's code into the hand being filled. The form works
// without this file; the server reads the hands and explains the result.
"use strict";

(function () {
  const form = document.getElementById("checker");
  if (!form) return;
  const { t, tp } = window.fivecard;
  const MIN_HANDS = 2;
  const MAX_HANDS = 10;
  const list = document.getElementById("hands");
  const addButton = document.getElementById("add-hand");
  const select = document.getElementById("rules");
  const picker = document.getElementById("picker");
  const grid = document.getElementById("card-grid");
  const targetName = document.getElementById("picker-target");

  // each rule set's deck, in the order of the select's options (view.deck_json)
  const decks = JSON.parse(document.getElementById("rule-decks").textContent);

  let target = null; // the hand input the grid fills

  function rows() {
    return Array.from(list.querySelectorAll(".hand-row"));
  }

  function inputs() {
    return rows().map((row) => row.querySelector("input"));
  }

  function cardsIn(input) {
    return input.value.trim() ? input.value.trim().split(/[\s,]+/).length : 0;
  }

  // --- adding and removing hands ------------------------------------------------

  function renumber() {
    rows().forEach((row, i) => {
      const n = i + 1;
      const input = row.querySelector("input");
      const label = row.querySelector("label");
      input.id = `hand-${n}`;
      label.htmlFor = input.id;
      label.textContent = t("Hand {n}", { n });
      const result = row.querySelector(".hand-result");
      if (result) {
        result.id = `hand-${n}-result`;
        input.setAttribute("aria-describedby", result.id);
      }
      const remove = row.querySelector(".remove-hand");
      remove.setAttribute("aria-label", t("Remove hand {n}", { n }));
      remove.hidden = rows().length <= MIN_HANDS;
    });
    addButton.hidden = false;
    addButton.disabled = rows().length >= MAX_HANDS;
    if (!target || !list.contains(target)) target = inputs()[0];
    showTarget();
  }

  function addHand() {
    if (rows().length >= MAX_HANDS) return;
    const row = document.createElement("li");
    row.className = "hand-row";
    const box = document.createElement("div");
    box.className = "hand-input";
    const label = document.createElement("label");
    label.className = "hand-label";
    const input = document.createElement("input");
    input.name = "hand";
    input.type = "text";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.maxLength = 200;
    input.setAttribute("autocapitalize", "characters");
    input.placeholder = t("e.g. {hand}", { hand: "AS KS QS JS TS" });
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "remove-hand small";
    remove.textContent = tp("hand", "Remove");
    box.append(label, input, remove);
    row.append(box);
    list.append(row);
    renumber();
    target = input;
    showTarget();
    input.focus();
  }

  function removeHand(row) {
    if (rows().length <= MIN_HANDS) return;
    const index = rows().indexOf(row);
    const wasTarget = target && row.contains(target);
    row.remove();
    if (wasTarget) target = null;
    renumber();
    markPicked();
    const left = inputs();
    left[Math.min(index, left.length - 1)].focus();
  }

  list.addEventListener("click", (ev) => {
    const button = ev.target.closest(".remove-hand");
    if (button) removeHand(button.closest(".hand-row"));
  });
  addButton.addEventListener("click", addHand);

  // A hand typed into again: its old result no longer says anything about it.
  list.addEventListener("input", (ev) => {
    const row = ev.target.closest(".hand-row");
    if (row) row.classList.add("edited");
    markPicked();
  });

  // --- the card grid --------------------------------------------------------------

  // A card of the grid: a button that types the card's code, named by its label.
  function gridButton(card, copies) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "pick";
    button.dataset.code = card.code;
    button.dataset.copies = String(copies);
    // what a typed card is matched by: the card object's code and text, in capitals
    button.dataset.names = JSON.stringify([...new Set([card.code.toUpperCase(), card.text.toUpperCase()])]);
    button.dataset.label = card.label;
    button.setAttribute("aria-label", card.label);
    button.title = card.label;
    button.append(window.fivecard.cardFace(card, { size: "tiny", hidden: true }));
    return button;
  }

  // The grid shows the chosen rule set's deck as the server gives it: each
  // card to pick (each rank once when suits play no part: up to four times).
  function buildGrid() {
    const deck = decks[select.selectedIndex];
    grid.replaceChildren(...deck.cards.map((card, i) => gridButton(card, deck.copies[i])));
    grid.classList.toggle("ranks-only", deck.suits.length === 0);
    markPicked();
  }

  // The cards already in the hands, typed or picked, marked in the grid: a
  // card the deck holds once (four times for a rank alone, twice for two
  // jokers) cannot be picked again once the hands hold it that often. The
  // button stays in the Tab order (focus does not jump away from it), says
  // so in its name and is aria-disabled; the server still checks every hand.
  function markPicked() {
    const held = new Map();
    for (const input of inputs()) {
      for (const word of input.value.trim().split(/[\s,]+/).filter(Boolean)) {
        const name = word.toUpperCase();
        held.set(name, (held.get(name) || 0) + 1);
      }
    }
    for (const button of grid.querySelectorAll(".pick")) {
      const count = JSON.parse(button.dataset.names).reduce((n, name) => n + (held.get(name) || 0), 0);
      const copies = Number(button.dataset.copies);
      const full = count >= copies;
      button.classList.toggle("picked", count > 0);
      button.classList.toggle("used-up", full);
      button.setAttribute("aria-disabled", full ? "true" : "false");
      const label = button.dataset.label;
      const said =
        count === 0
          ? label
          : copies === 1
            ? t("{card}, picked", { card: label })
            : t("{card}, {count} of {copies} picked", { card: label, count: Math.min(count, copies), copies });
      button.setAttribute("aria-label", said);
      button.title = said;
    }
  }

  function showTarget() {
    for (const input of inputs()) input.classList.toggle("target", input === target);
    if (target) targetName.textContent = target.labels && target.labels[0] ? target.labels[0].textContent.toLowerCase() : t("the hand");
  }

  // the hand to fill: the one last clicked into, or the next one with room
  function fillable() {
    const all = inputs();
    let start = Math.max(0, all.indexOf(target));
    for (let i = start; i < all.length; i++) if (cardsIn(all[i]) < 5) return all[i];
    for (let i = 0; i < start; i++) if (cardsIn(all[i]) < 5) return all[i];
    return null;
  }

  function pick(code) {
    let input = fillable();
    if (!input && rows().length < MAX_HANDS) {
      addHand();
      input = fillable();
    }
    if (!input) return;
    const text = input.value.trim();
    input.value = text ? `${text} ${code}` : code;
    input.closest(".hand-row").classList.add("edited");
    target = input;
    if (cardsIn(input) >= 5) {
      const next = fillable();
      if (next) target = next;
    }
    showTarget();
    markPicked();
  }

  grid.addEventListener("click", (ev) => {
    const button = ev.target.closest(".pick");
    if (button && button.getAttribute("aria-disabled") !== "true") pick(button.dataset.code);
  });

  document.getElementById("undo-card").addEventListener("click", () => {
    const input = target || inputs()[0];
    const parts = input.value.trim().split(/[\s,]+/).filter(Boolean);
    parts.pop();
    input.value = parts.join(" ");
    input.closest(".hand-row").classList.add("edited");
    markPicked();
  });
  document.getElementById("clear-hand").addEventListener("click", () => {
    const input = target || inputs()[0];
    input.value = "";
    input.closest(".hand-row").classList.add("edited");
    markPicked();
  });

  list.addEventListener("focusin", (ev) => {
    if (ev.target.matches("input")) {
      target = ev.target;
      showTarget();
    }
  });

  select.addEventListener("change", () => {
    const option = select.selectedOptions[0];
    document.getElementById("rules-summary").textContent = option ? option.dataset.summary : "";
    buildGrid();
  });

  buildGrid();
  picker.hidden = false;
  target = inputs().find((input) => cardsIn(input) < 5) || inputs()[0];
  renumber();

  // --- when the app does not answer -------------------------------------------------

  // A check asked of a stopped app would open the browser's own error
  // page: the form is sent once the app answers (a check only reads, so
  // it is safe to send when the app is back; the offline banner says what
  // to do meanwhile, and the hands typed stay as they are).
  const { probe, recover } = window.fivecard;
  let waiting = null; // the submit button of a check waiting for the app (or the form's own: false)
  let sending = false;

  function send(submitter) {
    sending = true;
    try {
      form.requestSubmit(submitter || undefined);
    } finally {
      sending = false;
    }
  }

  recover(async () => {
    await probe();
    if (waiting !== null) {
      const submitter = waiting;
      waiting = null;
      send(submitter);
    }
  });

  form.addEventListener("submit", (ev) => {
    if (sending || ev.defaultPrevented) return;
    ev.preventDefault();
    const submitter = ev.submitter && ev.submitter.form === form ? ev.submitter : false;
    probe().then(
      () => send(submitter),
      () => {
        waiting = submitter;
      },
    );
  });
})();
