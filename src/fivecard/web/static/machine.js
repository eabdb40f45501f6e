// The video-poker machine (templates/machine.html): the list of games
// (start a machine) and the machine itself, drawn from the server's view
// (fivecard/play/machine.py machine_view). The page holds nothing of its
// own but the cards chosen to hold: a reload, or a restart of the server,
// loads the machine by the id in the address.
"use strict";

(function () {
  const { api, showError, clearError, el, cardFace, choiceCard, isTyping, offerContinue, recover, probe } = window.fivecard;
  const { t, tn, number } = window.fivecard;
  const $ = (id) => document.getElementById(id);
  const STORE_KEY = "fivecard.machine";

  // Back from another page, the browser may show a page as it was left (its
  // back-forward cache): the list "Preparing…" with its buttons off, a
  // machine's credits as they were. Either is loaded anew from the server.
  window.addEventListener("pageshow", (ev) => {
    if (ev.persisted) window.location.reload();
  });

  function requestId() {
    const bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function coins(n) {
    return tn("{count} coin", "{count} coins", n, { count: number(n) });
  }

  function credits(n) {
    return tn("{count} credit", "{count} credits", n, { count: number(n) });
  }

  function handsPlayed(n) {
    return tn("{count} hand played", "{count} hands played", n, { count: number(n) });
  }

  // a return, two decimals, by the app's one rule (common.js percent)
  function percent(value) {
    return value === null || value === undefined ? "—" : window.fivecard.percent(value, 2);
  }

  // --- the list of games: start a machine -------------------------------------------------

  function startPage() {
    const form = $("new-machine");
    const status = $("status");
    const params = new URLSearchParams(window.location.search);
    const seed = params.get("seed");
    if (seed && /^\d+$/.test(seed)) $("seed").value = seed;
    let busy = false;
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (busy) return;
      const button = ev.submitter;
      if (!button || !button.value) return;
      busy = true;
      clearError();
      const preparing = t("Preparing {game} (first time only)…", { game: button.dataset.title });
      status.textContent = preparing;
      for (const b of form.querySelectorAll("button")) b.disabled = true;
      const body = { paytable: button.value, trainer: $("new-trainer").checked };
      if ($("seed").value) body.seed = Number($("seed").value);
      // While the machine is made, the game's first count (a few seconds,
      // once per computer) shows how far it has come.
      const bar = $("preparing");
      let waiting = true;
      const watch = (async () => {
        while (waiting) {
          await new Promise((done) => setTimeout(done, 400));
          if (!waiting) break;
          try {
            const game = await api("GET", `/api/video-poker/${encodeURIComponent(button.value)}`);
            if (waiting && game.counting) {
              bar.hidden = false;
              bar.max = game.steps;
              bar.value = game.done;
              status.textContent = `${preparing} ${Math.round((100 * game.done) / game.steps)}%`;
            }
          } catch (err) {
            /* the machine's own answer says what went wrong */
          }
        }
      })();
      try {
        const machine = await api("POST", "/api/machines", body);
        waiting = false;
        window.localStorage.setItem(STORE_KEY, machine.id);
        window.location.assign(`/video-poker/${encodeURIComponent(machine.id)}`);
      } catch (err) {
        waiting = false;
        await watch;
        bar.hidden = true;
        status.textContent = "";
        if (!err.offline) showError(err.message); // (the recovery says so, and waits for the app)
        for (const b of form.querySelectorAll("button")) b.disabled = false;
        busy = false;
      }
    });
    offerContinue(
      STORE_KEY,
      (id) => `/api/machines/${encodeURIComponent(id)}`,
      (id) => `/video-poker/${encodeURIComponent(id)}`,
      (machine) => t("{game}, {played}, {credits}", { game: machine.game.title, played: handsPlayed(machine.hands), credits: credits(machine.credits) }),
    );
    recover(probe); // back after a stop: the list as it was, to choose again
  }

  // --- the machine ----------------------------------------------------------------------------

  function machinePage(section) {
    const id = section.dataset.machine;
    const url = `/api/machines/${encodeURIComponent(id)}`;
    let machine = null;
    let held = new Set();
    let busy = false;
    let lastAnnounced = null;
    let confirmAll = false; // a draw key pressed once with nothing held: a second press draws five new cards

    function status(text) {
      $("result").textContent = text;
    }

    async function act(body, pending) {
      if (busy) return;
      busy = true;
      clearError();
      if (pending) status(pending);
      render();
      try {
        machine = await api("POST", `${url}/actions`, { ...body, request_id: requestId() });
        if (body.action === "deal" || body.action === "replay") held = new Set();
      } catch (err) {
        if (!err.offline) showError(err.message); // (the recovery loads the machine anew: see load)
      } finally {
        busy = false;
        render();
      }
    }

    function toggle(i) {
      if (!machine || machine.phase !== "dealt" || busy) return;
      if (held.has(i)) held.delete(i);
      else held.add(i);
      render();
      const button = $("cards").querySelectorAll("button.card")[i];
      if (button && document.activeElement && document.activeElement.closest && document.activeElement.closest("#cards")) button.focus();
    }

    function dealOrDraw() {
      if (!machine || busy) return;
      if (machine.phase === "dealt") {
        act({ action: "draw", hold: Array.from(held).sort().map((i) => i + 1) });
      } else if (machine.can.deal) {
        act({ action: "deal" }, machine.hands === 0 ? t("Preparing {game}…", { game: machine.game.title }) : "");
      } else {
        showError(t("{credits} left and the bet is {coins}: bet less or cash in", { credits: credits(machine.credits), coins: coins(machine.coins) }));
      }
    }

    function renderPaytable() {
      const table = $("paytable");
      const head = table.tHead.rows[0];
      while (head.cells.length > 1) head.deleteCell(1);
      for (const n of machine.paytable.coins) {
        const th = el("th", n === machine.coins ? "number current" : "number", coins(n));
        th.scope = "col";
        if (n === machine.coins) th.setAttribute("aria-current", "true");
        head.append(th);
      }
      const body = table.tBodies[0];
      body.replaceChildren();
      for (const line of machine.paytable.lines) {
        const row = el("tr", line.won ? "won" : "");
        row.dataset.line = line.key;
        const th = el("th", "", line.label);
        th.scope = "row";
        row.append(th);
        line.pays.forEach((pay, i) => {
          const n = machine.paytable.coins[i];
          row.append(el("td", n === machine.coins ? "number current" : "number", number(pay)));
        });
        body.append(row);
      }
    }

    function renderCards() {
      const box = $("cards");
      box.replaceChildren();
      const dealt = machine.phase === "dealt";
      const best = machine.best ? new Set(machine.best.held.map((p) => p - 1)) : new Set();
      if (dealt) {
        box.setAttribute("aria-label", t("Your cards: choose the cards to hold (keys 1 to 5)"));
        machine.hand.cards.forEach((card, i) => {
          const on = held.has(i);
          const button = choiceCard(card, i, { on, marker: t("HELD"), disabled: busy, toggle });
          button.setAttribute("aria-label", on ? t("{card}, held", { card: card.label }) : card.label);
          button.dataset.position = String(i + 1);
          if (best.has(i)) button.classList.add("best");
          box.append(button);
        });
      } else if (machine.last) {
        box.setAttribute("aria-label", t("The final hand"));
        const kept = new Set(machine.last.record.held.map((p) => p - 1));
        let drawn = 0;
        machine.last.dealt.forEach((card, i) => {
          // the final hand in the places dealt: held cards stay, drawn ones fill the rest in order
          const shown = kept.has(i) ? card : machine.last.final[kept.size + drawn++];
          const face = cardFace(shown, { size: "big" });
          if (kept.has(i)) face.classList.add("was-held");
          box.append(face);
        });
      } else {
        box.setAttribute("aria-label", t("No hand yet"));
        for (let i = 0; i < 5; i++) {
          const back = cardFace(null, { size: "big" });
          back.setAttribute("aria-label", t("face-down card"));
          box.append(back);
        }
      }
    }

    function resultText() {
      if (machine.phase === "dealt") {
        const n = machine.hand.number;
        return machine.hand.practice
          ? t("Practice: hand {number} dealt again. Hold and draw.", { number: n })
          : t("Hand {number} dealt. Hold the cards you want, then draw.", { number: n });
      }
      if (!machine.last) return machine.hands === 0 ? t("Press Deal to start.") : "";
      const last = machine.last;
      const paid = last.paid ? t("pays {coins}", { coins: coins(last.paid) }) : t("no win");
      const said = t("{line}: {paid}.", { line: last.label, paid });
      return last.practice ? t("Practice: {result}", { result: said }) : said;
    }

    function renderTrainer() {
      const s = machine.settings;
      if (!busy) {
        // (while a change is under way, a switch shows what was asked for)
        $("trainer").checked = s.trainer;
        $("show-best").checked = s.show_best;
      }
      if (document.activeElement !== $("threshold")) $("threshold").value = String(s.threshold);
      const best = $("best");
      if (machine.best) {
        best.textContent = t("Best hold: {hold}, returns {value} per coin.", { hold: machine.best.words, value: machine.best.value.toFixed(4) });
        best.hidden = false;
      } else {
        best.hidden = true;
        best.textContent = "";
      }
      const verdict = $("verdict");
      const v = machine.phase === "idle" && machine.last ? machine.last.verdict : null;
      verdict.className = "verdict";
      if (!v) {
        verdict.textContent = s.trainer ? "" : t("The trainer is off.");
        return;
      }
      verdict.classList.add(v.best_hold ? "good" : v.warn ? "warn" : "minor");
      // (the verdict's text says "Best hold" or "Mistake" itself)
      verdict.replaceChildren(el("span", "verdict-text", v.text));
      if (!v.best_hold && !v.warn) verdict.append(el("span", "muted", t(" (below your warning threshold)")));
    }

    function renderLog() {
      const log = machine.log;
      const summary = $("log-summary");
      summary.replaceChildren();
      const item = (name, value, field) => {
        const dd = el("dd", "", value);
        dd.dataset.field = field;
        summary.append(el("dt", "", name), dd);
      };
      item(t("Hands"), number(log.hands), "hands");
      item(t("Bet / paid"), `${number(log.bet)} / ${number(log.paid)}`, "bet-paid");
      item(t("Mistakes"), number(log.mistakes), "mistakes");
      item(t("Total cost"), t("{cost} coins", { cost: log.cost_coins.toFixed(4) }), "cost");
      item(t("Your return"), percent(log.return), "return");
      item(t("Your holds' expected return"), percent(log.return_expected), "return-expected");
      item(t("Perfect play, same deals"), percent(log.return_perfect), "return-perfect");
      const list = $("biggest");
      list.replaceChildren();
      if (!log.biggest.length) list.append(el("li", "muted", t("No mistakes yet.")));
      for (const r of log.biggest) {
        const li = el("li");
        li.dataset.hand = String(r.number);
        const said = { number: r.number, held: r.held_cards, best: r.best_cards, cost: r.cost.toFixed(4) };
        const text = el("span", "", t("Hand {number}: held {held}, best {best}; cost {cost} coins", said) + " ");
        const button = el("button", "small", t("Replay"));
        button.type = "button";
        button.setAttribute("aria-label", t("Replay hand {number} as practice", { number: r.number }));
        button.disabled = busy || machine.phase === "dealt";
        button.addEventListener("click", () => act({ action: "replay", hand: r.number }));
        li.append(text, button);
        list.append(li);
      }
      $("log-text").textContent = log.text;
    }

    function render() {
      if (!machine) return;
      $("machine-title").textContent = machine.game.title;
      $("machine-info").textContent = handsPlayed(machine.hands) + (machine.seeded ? t(" · seeded") : "");
      document.title = `${machine.game.title} · ${t("Video poker")} · fivecard`;
      $("credits").textContent = number(machine.credits);
      $("bet").textContent = String(machine.hand ? machine.hand.coins : machine.coins);
      $("won").textContent = machine.phase === "idle" && machine.last ? number(machine.last.paid) : "0";
      renderPaytable();
      renderCards();
      const practice = $("practice");
      const isPractice = machine.hand ? machine.hand.practice : Boolean(machine.last && machine.last.practice);
      practice.hidden = !isPractice;
      practice.textContent = isPractice ? t("Practice hand: the same cards as before; no credits move and the log is unchanged.") : "";
      const text = resultText();
      if (!busy && text !== lastAnnounced) {
        status(text);
        lastAnnounced = text;
      }
      const dealt = machine.phase === "dealt";
      // a key never draws five new cards at one press: with nothing held, a draw takes a second
      if (!dealt || held.size > 0 || busy) confirmAll = false;
      $("deal-draw").querySelector(".label").textContent = dealt ? t("Draw") : t("Deal");
      $("deal-draw").querySelector("kbd").textContent = dealt && held.size === 0 ? "Enter ×2" : "Enter";
      $("deal-draw").classList.toggle("confirming", confirmAll);
      $("key-note").textContent = confirmAll ? t("Press Enter again to draw five new cards, or 1–5 to hold some.") : "";
      $("deal-draw").disabled = busy || (!dealt && !machine.can.deal);
      $("bet-one").disabled = busy || !machine.can.bet;
      $("max-bet").disabled = busy || !machine.can.bet;
      $("void").hidden = !dealt;
      $("void").disabled = busy;
      const out = !dealt && machine.credits < machine.coins;
      $("cash-in").classList.toggle("primary", out);
      $("cash-in").disabled = busy || !machine.can.cash_in;
      for (const input of ["trainer", "show-best", "threshold", "threshold-set"]) $(input).disabled = busy;
      renderTrainer();
      renderLog();
    }

    $("deal-draw").addEventListener("click", dealOrDraw);
    $("bet-one").addEventListener("click", () => act({ action: "bet", coins: (machine.coins % machine.max_coins) + 1 }));
    $("max-bet").addEventListener("click", () => act({ action: "bet", coins: machine.max_coins }));
    $("cash-in").addEventListener("click", () => act({ action: "cash_in" }));
    $("void").addEventListener("click", () => act({ action: "void" }));
    $("trainer").addEventListener("change", (ev) => act({ action: "settings", trainer: ev.target.checked }));
    $("show-best").addEventListener("change", (ev) => act({ action: "settings", show_best: ev.target.checked }));
    const setThreshold = () => {
      const value = Number($("threshold").value);
      if ($("threshold").value === "" || !Number.isFinite(value) || value < 0 || value > 100) {
        showError(t("the threshold is a percent of the bet from 0 to 100"));
        return;
      }
      act({ action: "settings", threshold: value });
    };
    $("threshold-set").addEventListener("click", setThreshold);
    $("threshold").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") {
        ev.preventDefault();
        setThreshold();
      }
    });

    document.addEventListener("keydown", (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.repeat) return;
      if (isTyping(ev.target) || !machine) return;
      const key = ev.key;
      if (key !== "Enter" && key !== " " && confirmAll) {
        confirmAll = false;
        render();
      }
      if (key.length === 1 && key >= "1" && key <= "5") {
        ev.preventDefault();
        toggle(Number(key) - 1);
      } else if (key === "Enter" || key === " ") {
        // on a control (a card, a button, a link, a switch) the key presses it
        if (ev.target.closest && ev.target.closest("button, a, summary, input, select, [tabindex]:not(main)")) return;
        ev.preventDefault();
        if (!busy && machine.phase === "dealt" && held.size === 0 && !confirmAll) {
          confirmAll = true; // five new cards: only at the second press
          render();
          return;
        }
        dealOrDraw();
      }
    });

    // The machine as the server has it: when the page opens, and when the
    // app answers again after it stopped (recover). A deal or draw whose
    // answer was lost is not sent again: the machine shows whether it was
    // taken (the cards held stay chosen while the same hand is dealt).
    function handKey(m) {
      return m && m.phase === "dealt" ? `${m.hand.number} ${m.hand.practice} ${m.hand.cards.map((c) => c.code).join(" ")}` : null;
    }

    async function load() {
      if (!machine) status(t("Loading the machine…"));
      try {
        const data = await api("GET", url);
        if (handKey(data) !== handKey(machine)) held = new Set();
        machine = data;
        lastAnnounced = null;
        window.localStorage.setItem(STORE_KEY, id);
        render();
      } catch (err) {
        if (err.offline) throw err;
        status("");
        showError(err.message);
      }
    }

    recover(load);
    load().catch(() => {
      /* the app does not answer: the recovery loads the machine when it does */
    });
  }

  const section = $("machine");
  if (section) machinePage(section);
  else if ($("new-machine")) startPage();
})();
