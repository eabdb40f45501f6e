// Poker vs Dealer in the browser: the start screen (/) and the table
// (/play/{id}). Everything about hands, winners, explanations and advice
// comes from the JSON API (see fivecard/web/app.py); this file only draws
// the answers and sends the player's choices.
"use strict";

(function () {
  const params = new URLSearchParams(window.location.search);
  const FAST = params.get("fast") === "1";
  const DELAY = FAST ? 0 : 450; // between the dealer's cards
  const STORE_KEY = "fivecard.game";
  const $ = (id) => document.getElementById(id);
  const { api, showError, clearError, sleep, el, cardFace, choiceCard, cardRow, ruleTitle, fillForm, isTyping } =
    window.fivecard;
  const { offerContinue, number } = window.fivecard;
  const { recover, probe } = window.fivecard;
  const { markCard } = window.fivecard;
  const { t, tn } = window.fivecard;

  // --- talking to the API ---------------------------------------------------






  function withFast(url) {
    return FAST ? url + (url.includes("?") ? "&" : "?") + "fast=1" : url;
  }

  // --- drawing --------------------------------------------------------------



  function chips(n) {
    return tn("{count} chip", "{count} chips", n, { count: number(n) });
  }

  function signed(n) {
    if (n > 0) return `+${number(n)}`;
    if (n < 0) return `−${number((-n))}`;
    return "±0";
  }

  // a card's back, named in the page's language
  function faceDown(size) {
    const node = cardFace(null, { size });
    node.setAttribute("aria-label", t("face-down card"));
    return node;
  }

  // a chance, by the app's one rule (common.js percent)
  const percent = (x) => window.fivecard.percent(x);



  // --- the start screen -----------------------------------------------------

  function startScreen() {
    const form = $("new-game");
    const unknown = fillForm(form, ["rules"], ["stack", "seed"]);
    if (unknown.rules) showError(window.fivecard.unknownRules(form, unknown.rules));

    let busy = false;
    async function newGame() {
      if (busy) return;
      busy = true;
      clearError();
      const button = $("new-game-button");
      button.disabled = true;
      button.textContent = t("Dealing…");
      const data = new FormData(form);
      const body = { rules: String(data.get("rules") || "standard") };
      const stackText = String(data.get("stack") || "").trim();
      if (stackText) body.stack = Number(stackText);
      const seedText = String(data.get("seed") || "").trim();
      if (seedText) body.seed = Number(seedText);
      try {
        const game = await api("POST", "/api/games", body);
        window.localStorage.setItem(STORE_KEY, game.id);
        try {
          await api("POST", `/api/games/${game.id}/actions`, { action: "start" });
        } catch (err) {
          // the table offers to deal again, and says why if it cannot
          if (err.offline) throw err;
        }
        window.location.assign(withFast(`/play/${encodeURIComponent(game.id)}`));
      } catch (err) {
        if (!err.offline) showError(err.message); // (the recovery says so, and waits for the app)
        button.disabled = false;
        button.textContent = t("New game");
        busy = false;
      }
    }

    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (form.reportValidity()) newGame();
    });
    document.addEventListener("keydown", (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.repeat) return;
      if (isTyping(ev.target)) return;
      if (ev.key === "n" || ev.key === "N") {
        ev.preventDefault();
        if (form.reportValidity()) newGame();
      }
    });

    offerContinue(
      STORE_KEY,
      (id) => `/api/games/${encodeURIComponent(id)}`,
      (id) => withFast(`/play/${encodeURIComponent(id)}`),
      (game) => {
        const where = game.game_over
          ? t("game over")
          : game.round
            ? t("round {round} in play", { round: game.round })
            : tn("{count} round played", "{count} rounds played", game.played, { count: number(game.played) });
        return t("{rules}, {where}, you have {chips}", { rules: ruleTitle(game.rules), where, chips: chips(game.seats[0].stack) });
      },
    );
    recover(probe); // back after a stop: the form as it was, to send again
  }



  // --- the table ------------------------------------------------------------

  function table(root) {
    const gameId = root.dataset.game;
    const url = `/api/games/${encodeURIComponent(gameId)}`;
    let game = null; // the latest view from the API
    let busy = false; // a request (or the dealer's turn) in progress
    let waiting = ""; // what we are waiting for, shown as the status
    let selected = new Set(); // positions (0-4) of the cards to keep
    let selectedFor = null; // the hand they belong to (its codes)
    let hint = null; // the advisor's answer for the hand on the table
    let hintFor = null;
    let confirmAll = false; // Enter pressed once with no card kept: a second Enter exchanges all five
    let keyNote = ""; // what a key pressed out of its time did not do

    function handKey(cards) {
      return cards ? cards.map((c) => c.code).join(" ") : null;
    }

    // Where your exchange's new cards are among the cards shown (dealt
    // order: the kept cards, then the drawn; or showdown order): the drawn
    // cards matched from the last card back (a rank-only hand may hold a
    // card twice).
    function drawnAt(cards) {
      const mine = game.events.find((e) => e.type === "exchanged" && e.seat === 0 && e.drawn);
      const at = new Set();
      if (!mine) return at;
      const left = mine.drawn.map((c) => c.code);
      for (let i = cards.length - 1; i >= 0; i--) {
        const found = left.indexOf(cards[i].code);
        if (found >= 0) {
          left.splice(found, 1);
          at.add(i);
        }
      }
      return at;
    }

    function settledEvent() {
      if (!game || game.phase !== "idle") return null;
      const last = game.events[game.events.length - 1];
      return last && last.type === "round_settled" ? last : null;
    }

    function myTurn() {
      return game && game.phase === "draw" && game.turn === 0;
    }

    // events: add the new ones to the live list
    function logEvents(previous, next) {
      const list = $("events");
      const sameRound = previous && previous.events.length && next.events.length && previous.events[0].round === next.events[0].round;
      let fresh = next.events;
      if (sameRound) {
        fresh = next.events.slice(previous.events.length);
      } else {
        list.replaceChildren();
      }
      for (const event of fresh) {
        const item = el("li", `event event-${event.type}`, event.text);
        list.append(item);
      }
    }

    function update(view) {
      const previous = game;
      game = view;
      logEvents(previous, view);
      const mine = view.seats[0].cards;
      if (handKey(mine) !== selectedFor) {
        selected = new Set();
        selectedFor = handKey(mine);
      }
      if (hintFor !== handKey(mine) || !myTurn()) {
        hint = null;
      }
      if (!previous || previous.phase !== view.phase || previous.rounds !== view.rounds) keyNote = "";
      render();
      if (view.game_over && !(previous && previous.game_over)) {
        const item = el("li", "event event-game-over", t("Game over: {why}", { why: gameOverText(view) }));
        $("events").append(item);
      }
    }

    function gameOverText(view) {
      const me = view.seats[0];
      if (me.stack >= view.ante + view.bet) return t("this game has played as many rounds as one game may.");
      return t("you have {chips} and a round costs {cost} (ante and house bet).", { chips: chips(me.stack), cost: chips(view.ante + view.bet) });
    }

    // -- rendering --

    function render() {
      if (!game) return;
      const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus : null;
      const settled = settledEvent();
      const results = new Map();
      if (settled) for (const r of settled.results) results.set(r.seat, r);

      const round = game.round || (settled ? settled.round : null);
      const info = [ruleTitle(game.rules)];
      if (round) info.push(t("round {round}", { round }));
      info.push(tn("{count} round played", "{count} rounds played", game.played, { count: number(game.played) }));
      $("table-info").textContent = info.join(" · ");
      $("pot").textContent = number(game.pot);
      $("house-bet").textContent = String(game.bet);
      $("ante").textContent = String(game.ante);

      renderDealer(settled);
      for (const seat of game.seats) renderSeat(seat, results.get(seat.seat), settled);
      renderActions();
      renderHint();
      renderTrainer();
      renderResult(settled);
      renderHistory();
      renderSession();
      renderGameOver();

      if (focusKey) {
        const again = root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
        if (again && !again.disabled && !again.hidden) again.focus();
      }
    }

    function renderDealer(settled) {
      const box = $("dealer-cards");
      box.replaceChildren();
      const shown = settled ? settled.dealer_cards : game.dealer;
      for (const card of shown) box.append(cardFace(card, { size: "big" }));
      const dealing = game.phase === "dealer" || game.phase === "showdown";
      for (let i = shown.length; i < 5; i++) {
        if (dealing) {
          box.append(faceDown("big"));
        } else {
          const slot = el("span", "card big slot");
          slot.setAttribute("aria-hidden", "true");
          box.append(slot);
        }
      }
      $("dealer-hand").textContent = settled ? settled.dealer.description : "";
    }

    function renderSeat(seat, result, settled) {
      const box = $(`seat-${seat.seat}`);
      box.replaceChildren();
      const me = seat.seat === 0;
      const inRound = settled ? Boolean(result) : seat.dealt;
      const folded = settled ? Boolean(result && result.outcome === "fold") : seat.folded;
      box.classList.toggle("folded", folded);
      box.classList.toggle("out", !inRound && (game.round !== null || settled !== null));
      box.classList.toggle("to-act", game.phase === "draw" && game.turn === seat.seat);

      const head = el("div", "seat-head");
      const name = el("h2", "seat-name", seat.name);
      name.id = `seat-${seat.seat}-name`;
      head.append(name);
      const stack = el("p", "stack");
      stack.append(t("Stack") + " ", el("strong", null, number(seat.stack)));
      head.append(stack);
      const badges = el("p", "badges");
      if (folded) badges.append(el("span", "badge fold", t("folded")));
      else if (inRound && !settled) badges.append(el("span", "badge bet", t("bet {bet}", { bet: game.bet })));
      if (game.phase === "draw" && game.turn === seat.seat) badges.append(el("span", "badge turn", me ? t("your turn") : t("to act")));
      if (!inRound && (game.round !== null || settled)) badges.append(el("span", "badge out", t("sits out")));
      if (result && result.outcome !== "fold") {
        const said = { win: t("beats the dealer"), lose: t("loses to the dealer"), draw: t("draws with the dealer") };
        badges.append(el("span", `badge outcome ${result.outcome}`, said[result.outcome] || result.outcome));
      }
      head.append(badges);
      box.append(head);
      if (result) box.append(seatChips(result));

      const cards = el("div", me ? "cards mine" : "cards");
      if (me) {
        cards.setAttribute("role", "group");
        cards.setAttribute("aria-label", myTurn() ? t("Your cards: choose the cards to keep") : t("Your cards"));
      }
      let shown = null;
      if (settled && result) shown = result.cards; // in showdown order; your folded hand too
      else if (!settled && me) shown = seat.cards;
      if (me && folded && shown) cards.setAttribute("aria-label", t("Your cards, folded"));
      if (me && myTurn() && shown) {
        shown.forEach((card, i) => {
          const kept = selected.has(i);
          const button = choiceCard(card, i, { on: kept, marker: t("KEEP"), disabled: busy, toggle });
          button.classList.add("toggle");
          button.dataset.focus = `card-${i}`;
          button.dataset.position = String(i);
          button.title = kept
            ? t("{card}: kept (key {key})", { card: card.label, key: i + 1 })
            : t("{card}: exchanged (key {key})", { card: card.label, key: i + 1 });
          cards.append(button);
        });
      } else if (shown) {
        const fresh = me ? drawnAt(shown) : new Set();
        shown.forEach((card, i) => {
          const face = cardFace(card, { size: me ? "big" : "medium" });
          if (fresh.has(i)) markCard(face, t("new"), "new");
          cards.append(face);
        });
      } else if (inRound) {
        for (let i = 0; i < 5; i++) cards.append(faceDown(me ? "big" : "medium"));
      }
      box.append(cards);
      if (result && result.hand) box.append(el("p", "hand-desc", result.hand.description));
      else if (folded && me) box.append(el("p", "hand-desc", t("You folded")));
    }

    function renderActions() {
      const turn = myTurn();
      const idle = game.phase === "idle";
      const exchange = $("btn-exchange");
      const count = 5 - selected.size;
      if (!turn || count !== 5) confirmAll = false;
      // (once your turn is over the button counts nothing: your choice is made)
      exchange.querySelector(".label").textContent = !turn
        ? t("Exchange")
        : count === 0 ? t("Exchange none") : count === 5 ? t("Exchange all 5") : tn("Exchange {n} card", "Exchange {n} cards", count);
      // Enter never throws a hand away at one press: all five take a second Enter
      exchange.querySelector("kbd").textContent = turn && count === 5 ? "Enter ×2" : "Enter"; // (the key's name)
      exchange.setAttribute("aria-keyshortcuts", "Enter");
      exchange.classList.toggle("confirming", confirmAll);
      $("key-note").textContent = confirmAll ? t("Press Enter again to exchange all five cards, or 1–5 to keep some.") : keyNote;
      for (const id of ["btn-exchange", "btn-keep", "btn-fold", "btn-hint"]) {
        const button = $(id);
        button.hidden = !turn && idle;
        button.disabled = busy || !turn;
      }
      const next = $("btn-next");
      next.hidden = !idle || game.game_over;
      next.disabled = busy || !game.can.start;
      next.querySelector(".label").textContent = game.rounds === 0 ? t("Deal") : t("Next round");
      $("btn-new-game").disabled = busy;

      let status = waiting;
      if (!status) {
        if (turn) status = t("Your turn: pick the cards to keep, then exchange the rest (or keep all, or fold).");
        else if (game.phase === "dealer") status = t("The dealer turns up cards…");
        else if (game.phase === "showdown") status = t("The showdown…");
        else if (game.game_over) status = t("Game over.");
        else if (idle && game.rounds === 0) status = t("Deal the first round when you are ready.");
        else if (idle) status = t("Round over: deal the next round when you are ready.");
      }
      $("status").textContent = status;
    }

    function renderHint() {
      const panel = $("hint");
      const body = $("hint-body");
      const reason = $("hint-reason");
      if (!hint || !myTurn()) {
        panel.hidden = true;
        body.replaceChildren();
        reason.textContent = "";
        return;
      }
      panel.hidden = false;
      body.replaceChildren();
      // set only when it changes: the live region says it once
      if (reason.textContent !== hint.reason) reason.textContent = hint.reason;
      const list = el("ol", "choices");
      hint.choices.forEach((choice, i) => {
        const item = el("li", i === hint.recommended ? "choice best" : "choice");
        const what = el("div", "choice-what");
        if (i === hint.recommended) what.append(el("span", "badge best", t("advised")));
        if (choice.keep_cards.length) {
          what.append(el("span", "choice-verb", t("Keep")), cardRow(choice.keep_cards, "tiny"));
        } else {
          what.append(el("span", "choice-verb", t("Exchange all five")));
        }
        const odds = el("p", "odds");
        odds.append(
          el("span", "win", t("win {chance}", { chance: percent(choice.win) })),
          el("span", "draw", t("draw {chance}", { chance: percent(choice.draw) })),
          el("span", "lose", t("lose {chance}", { chance: percent(choice.lose) })),
          // the advisor's own words for the most likely final hand (Advice.likeliest)
          el("span", "likely", t("most likely {hand} {chance}", { hand: choice.likeliest.label, chance: percent(choice.likeliest.chance) }))
        );
        const pick = el("button", "small", i === hint.recommended ? t("Select these cards") : t("Select"));
        pick.type = "button";
        pick.dataset.focus = `hint-${i}`;
        pick.setAttribute(
          "aria-label",
          choice.keep_cards.length
            ? t("Select {cards} to keep", { cards: choice.keep_cards.map((c) => c.label).join(t(", ")) })
            : t("Select no card: exchange all five")
        );
        pick.disabled = busy;
        pick.addEventListener("click", () => {
          selected = new Set(choice.positions);
          confirmAll = false;
          render();
          // chosen: the next Enter exchanges (it does not press Select again)
          $("btn-exchange").focus();
        });
        item.append(what, odds, pick);
        list.append(item);
      });
      body.append(list);
    }

    // The trainer: its switch, and its verdict of your exchange in the round
    // shown (the server's own sentence; set only when it changes, so that
    // the live region says it once).
    function renderTrainer() {
      const box = $("trainer");
      box.checked = Boolean(game.trainer);
      box.disabled = busy;
      const mine = game.events.find((e) => e.type === "exchanged" && e.seat === 0 && e.verdict);
      const text = mine ? mine.verdict.text : "";
      const line = $("verdict");
      if (line.textContent !== text) line.textContent = text;
      line.classList.toggle("best", Boolean(mine && mine.verdict.best));
    }

    function setTrainer() {
      const on = $("trainer").checked;
      run("", async () => {
        update(await api("POST", `${url}/settings`, { trainer: on }));
      });
    }

    // A seat's chips in the round shown: ante, house bet, pot share and net
    // (they add up to the change of its stack), each with its sign and its
    // word, and the server's sentence saying the same.
    function tone(n) {
      return n > 0 ? "up" : n < 0 ? "down" : "even";
    }

    function chipFigure(label, n, extra) {
      const figure = el("span", `chip-figure ${tone(n)}${extra ? " " + extra : ""}`);
      figure.append(el("span", "chip-label", label), " ", el("span", "chip-value", n ? signed(n) : "0"));
      return figure;
    }

    function seatChips(r) {
      const ante = typeof r.ante === "number" ? r.ante : game.ante; // (a round kept by an earlier version)
      const box = el("div", `seat-chips ${tone(r.chips)}`);
      const figures = el("p", "chip-figures");
      figures.append(chipFigure(t("ante"), -ante), chipFigure(t("house bet"), r.house));
      if (r.pot) figures.append(chipFigure(t("pot"), r.pot));
      figures.append(chipFigure(t("net"), r.chips, "chip-net"));
      box.append(figures);
      if (r.chips_text) box.append(el("p", "chip-sentence", r.chips_text));
      return box;
    }

    // The player's round at a glance: the result against the dealer in
    // words, a mark and a colour; the net in chips with its sign (the
    // banner's colour: chips won are green, lost red); the sentence that
    // adds up. (Losing to the dealer can still win chips: the pot.)
    function roundBanner(settled) {
      const mine = settled.results.find((r) => r.seat === 0);
      if (!mine) return null;
      const words = { win: t("You beat the dealer"), lose: t("The dealer beats you"), draw: t("You draw with the dealer"), fold: t("You folded") };
      const marks = { win: "✓", lose: "✗", draw: "=", fold: "✗" };
      const banner = el("div", `round-banner outcome-${mine.outcome} ${tone(mine.chips)}`);
      const head = el("p", "banner-head");
      const mark = el("span", "banner-mark", marks[mine.outcome] || "");
      mark.setAttribute("aria-hidden", "true");
      head.append(mark, " ", el("strong", "banner-word", words[mine.outcome] || mine.outcome));
      const net = mine.chips ? signed(mine.chips) : "0";
      head.append(" ", el("span", `banner-net ${tone(mine.chips)}`, tn("{count} chip", "{count} chips", Math.abs(mine.chips), { count: net })));
      banner.append(head);
      banner.append(el("p", "banner-text", settled.chips_text || `${mine.explanation}; ${settled.pot_explanation}`));
      return banner;
    }

    function renderResult(settled) {
      const panel = $("result");
      const body = $("result-body");
      body.replaceChildren();
      const last = game.phase === "idle" ? game.events[game.events.length - 1] : null;
      if (!settled) {
        if (last && last.type === "round_voided") {
          panel.hidden = false;
          $("result-title").textContent = t("Round {round}", { round: last.round });
          body.append(el("p", "headline", last.text));
        } else {
          panel.hidden = true;
        }
        return;
      }
      panel.hidden = false;
      $("result-title").textContent = t("Round {round}: showdown", { round: settled.round });
      const banner = roundBanner(settled);
      if (banner) body.append(banner);
      body.append(el("p", "headline", settled.text));
      const rows = el("ul", "result-hands");
      for (const r of settled.results) {
        const row = el("li", `result-hand outcome-${r.outcome}`);
        const head = el("p", "result-who");
        head.append(el("strong", null, r.name));
        if (r.hand) head.append(" — ", el("span", "desc", r.hand.description));
        else head.append(" — ", el("span", "desc", t("folded")));
        head.append(" ", el("span", `badge chips ${tone(r.chips)}`, t("{chips} net", { chips: r.chips ? signed(r.chips) : "0" })));
        row.append(head);
        if (r.cards) row.append(cardRow(r.cards, "small"));
        row.append(el("p", "why", r.explanation));
        if (r.chips_text) row.append(el("p", "moved", r.chips_text));
        rows.append(row);
      }
      const dealer = el("li", "result-hand dealer");
      const dhead = el("p", "result-who");
      dhead.append(el("strong", null, t("Dealer")), " — ", el("span", "desc", settled.dealer.description));
      dealer.append(dhead, cardRow(settled.dealer_cards, "small"));
      rows.append(dealer);
      body.append(rows);
      const pot = el("p", "pot-result");
      if (settled.pot_winners.length > 1) pot.append(el("span", "badge split", t("split pot")), " ");
      // who took it, its size and the chips carried into it (the headline says why)
      pot.append(el("strong", null, t("The pot: ")), settled.pot_text ? t("{sentence}.", { sentence: settled.pot_text }) : settled.pot_explanation);
      body.append(pot);
      if (settled.carried) body.append(el("p", "muted", t("{chips} carried to the next round.", { chips: chips(settled.carried) })));
    }

    // The game so far (the view's session figures): rounds, results against
    // the dealer, pots won, and the chips after each round as a chart this
    // page draws (inline SVG), with its text alternative and its numbers in
    // a table. Drawn again only when the figures change (an open table stays open).
    let sessionShown = null;

    function renderSession() {
      const panel = $("session");
      const session = game.session;
      if (!panel || !session) return;
      panel.hidden = false;
      const key = JSON.stringify(session);
      if (key === sessionShown) return;
      sessionShown = key;
      const body = $("session-body");
      const open = Boolean(body.querySelector("details[open]"));
      body.replaceChildren();
      const first = session.chips[0];
      const last = session.chips[session.chips.length - 1];
      const d = session.against_dealer;
      const figures = el("dl", "session-figures");
      const add = (term, ...value) => {
        const row = el("div", "session-figure");
        const dd = el("dd");
        dd.append(...value);
        row.append(el("dt", null, term), dd);
        figures.append(row);
      };
      const count = (n) => ({ count: number(n) });
      add(t("Rounds"), number(session.rounds));
      add(
        t("Against the dealer"),
        // (a count of none is said in the panel's own colour: "0 losses" is not bad news)
        el("span", `tally win${d.win ? "" : " zero"}`, tn("{count} win", "{count} wins", d.win, count(d.win))), " · ",
        el("span", `tally lose${d.lose ? "" : " zero"}`, tn("{count} loss", "{count} losses", d.lose, count(d.lose))), " · ",
        el("span", `tally draw${d.draw ? "" : " zero"}`, tn("{count} draw", "{count} draws", d.draw, count(d.draw))), " · ",
        el("span", `tally fold${d.fold ? "" : " zero"}`, tn("{count} fold", "{count} folds", d.fold, count(d.fold)))
      );
      add(t("Pots won"), session.pots ? `${number(session.pots)} (${chips(session.pot_chips)})` : t("none yet"));
      add(t("Chips"), `${number(first)} → ${number(last)} `, el("strong", `session-net ${tone(session.net)}`, `(${session.net ? signed(session.net) : "±0"})`));
      body.append(figures);
      body.append(chipsChart(session.chips));
      body.append(chipsTable(session.chips, open));
    }

    const SVG = "http://www.w3.org/2000/svg";

    function svg(tag, attributes) {
      const node = document.createElementNS(SVG, tag);
      for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
      return node;
    }

    function chartText(series) {
      const rounds = series.length - 1;
      const first = number(series[0]);
      const last = number(series[rounds]);
      if (!rounds) return t("Chips: {first}, no round settled yet", { first });
      return tn("Chips: {first} → {last} over {count} round", "Chips: {first} → {last} over {count} rounds", rounds, {
        first,
        last,
        count: number(rounds),
      });
    }

    function chipsChart(series) {
      const W = 320;
      const H = 120;
      const pad = { left: 44, right: 10, top: 10, bottom: 20 };
      const low = Math.min(...series);
      const high = Math.max(...series);
      const span = high - low || 1;
      const rounds = series.length - 1;
      const x = (i) => pad.left + (rounds ? (i / rounds) * (W - pad.left - pad.right) : 0);
      const y = (v) => pad.top + (high === low ? 0.5 : (high - v) / span) * (H - pad.top - pad.bottom);
      const figure = el("figure", "chips-chart");
      const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "chips-chart-title", focusable: "false" });
      const title = svg("title", { id: "chips-chart-title" });
      title.textContent = chartText(series);
      chart.append(title);
      // the starting stack, a dashed line: above it is a gain, below a loss
      chart.append(svg("line", { class: "chart-start", x1: pad.left, x2: W - pad.right, y1: y(series[0]), y2: y(series[0]) }));
      chart.append(svg("line", { class: "chart-axis", x1: pad.left, x2: pad.left, y1: pad.top, y2: H - pad.bottom }));
      // the highest, the lowest and the starting stack, where they do not overlap
      const marks = [];
      for (const value of [high, low, series[0]]) {
        if (marks.some((m) => Math.abs(y(m) - y(value)) < 12)) continue;
        marks.push(value);
        const label = svg("text", { class: "chart-label", x: pad.left - 4, y: y(value) + 4, "text-anchor": "end" });
        label.textContent = number(value);
        chart.append(label);
      }
      const ends = [[0, "start"], [rounds, "end"]];
      for (const [i, anchor] of rounds ? ends : ends.slice(0, 1)) {
        const label = svg("text", { class: "chart-label", x: x(i), y: H - 5, "text-anchor": anchor });
        label.textContent = i === 0 ? t("start") : t("round {round}", { round: rounds });
        chart.append(label);
      }
      const points = series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
      chart.append(svg("polyline", { class: `chart-line ${tone(series[rounds] - series[0])}`, points }));
      chart.append(svg("circle", { class: `chart-dot ${tone(series[rounds] - series[0])}`, cx: x(rounds), cy: y(series[rounds]), r: 3.5 }));
      const caption = el("figcaption", "muted", title.textContent);
      figure.append(chart, caption);
      return figure;
    }

    const TABLE_ROWS = 100; // the numbers of the last so many rounds

    function chipsTable(series, open) {
      const details = el("details", "chips-numbers");
      details.open = open;
      details.append(el("summary", null, t("Chips after each round")));
      const table = el("table");
      const shown = series.map((v, i) => [i, v]).slice(-TABLE_ROWS - 1);
      table.append(el("caption", "visually-hidden", shown.length < series.length ? t("Your chips, the last {count} rounds", { count: TABLE_ROWS }) : t("Your chips after each round")));
      const head = el("tr");
      for (const name of [t("Rounds played"), t("Chips"), t("Change")]) {
        const th = el("th", null, name);
        th.scope = "col";
        head.append(th);
      }
      const thead = el("thead");
      thead.append(head);
      const tbody = el("tbody");
      for (const [i, v] of shown) {
        const row = el("tr");
        const th = el("th", null, i === 0 ? t("start") : number(i));
        th.scope = "row";
        const change = i === 0 ? null : v - series[i - 1];
        row.append(th, el("td", null, number(v)), el("td", change === null ? null : tone(change), change === null ? "" : change ? signed(change) : "0"));
        tbody.append(row);
      }
      table.append(thead, tbody);
      details.append(table);
      return details;
    }

    function renderHistory() {
      const list = $("history");
      list.replaceChildren();
      $("history-empty").hidden = game.history.length > 0;
      const names = game.seats.map((s, i) => (i === 0 ? t("you") : s.name)); // mid-sentence
      for (const h of game.history.slice().reverse()) {
        const item = el("li", `history-item outcome-${h.outcome || "none"}`);
        item.value = h.round;
        const top = el("p", "history-top");
        const outcomes = { win: t("you beat the dealer"), lose: t("the dealer beat you"), draw: t("you drew with the dealer"), fold: t("you folded") };
        const outcome = outcomes[h.outcome] || t("you sat out");
        top.append(el("strong", null, t("Round {round}", { round: h.round })), t(": {outcome}", { outcome }));
        if (h.hand) top.append(t(" ({hand} against {dealer})", { hand: h.hand, dealer: h.dealer }));
        else top.append(t(" (the dealer had {hand})", { hand: h.dealer_had }));
        item.append(top);
        const who = h.pot_winners.map((s) => names[s] || t("seat {seat}", { seat: s })).join(t(" and "));
        const pot = h.pot_winners.length ? t("pot of {pot} to {who}", { pot: h.pot, who }) : t("pot of {pot} carried", { pot: h.pot });
        item.append(el("p", "muted", t("{pot} · your stack {stack}", { pot, stack: number(h.stack) })));
        list.append(item);
      }
    }

    function renderGameOver() {
      const box = $("game-over");
      const over = Boolean(game.game_over);
      const was = !box.hidden;
      box.hidden = !over;
      root.classList.toggle("is-over", over);
      if (over) {
        $("game-over-text").textContent = t("Game over: {why} Start a new game to play on.", { why: gameOverText(game) });
        if (!was && !busy) $("game-over-title").focus();
      }
    }

    // -- actions --

    function toggle(position) {
      if (busy || !myTurn() || position < 0 || position > 4) return;
      if (selected.has(position)) selected.delete(position);
      else selected.add(position);
      render();
    }

    async function run(label, work) {
      if (busy) return;
      busy = true;
      waiting = label;
      clearError();
      render();
      try {
        await work();
        await finishRound();
      } catch (err) {
        if (!err.offline) showError(err.message); // (the recovery reads the table anew: see load)
      } finally {
        busy = false;
        waiting = "";
        render();
        if (game && game.game_over && !$("game-over").hidden) $("game-over-title").focus();
      }
    }

    async function act(body) {
      update(await api("POST", `${url}/actions`, body));
    }

    // The dealer's cards one at a time, then the showdown: also after a
    // reload in the middle of them.
    async function finishRound() {
      while (game.phase === "dealer") {
        waiting = t("The dealer turns up cards…");
        await sleep(DELAY);
        await act({ action: "reveal" });
      }
      if (game.phase === "showdown") {
        waiting = t("The showdown…");
        await sleep(DELAY);
        await act({ action: "settle" });
      }
    }

    const others = t("The computer players decide…");

    function exchange() {
      confirmAll = false;
      const keep = [...selected].sort((a, b) => a - b).map((p) => p + 1);
      run(others, () => act({ action: "exchange", keep }));
    }

    function keepAll() {
      run(others, () => act({ action: "keep" }));
    }

    function fold() {
      run(others, () => act({ action: "fold" }));
    }

    function nextRound() {
      run(t("Dealing…"), () => act({ action: "start" }));
    }

    // The hint, once it is here: scrolled into view and focused on its
    // title (the next Tab is "Select these cards"), its reason announced.
    async function askHint() {
      if (!myTurn()) return;
      await run(t("The advisor counts every draw…"), async () => {
        const answer = await api("GET", `${url}/hint`);
        hint = answer;
        hintFor = handKey(game.seats[0].cards);
      });
      if (hint && !$("hint").hidden) {
        $("hint").scrollIntoView({ block: "nearest" });
        $("hint-title").focus({ preventScroll: true });
      }
    }

    // A new game of the same rules (N at game over), dealt at once, as the
    // start screen deals one.
    function newGame() {
      run(t("Dealing a new game…"), async () => {
        const made = await api("POST", "/api/games", { rules: game.rules, trainer: Boolean(game.trainer) });
        window.localStorage.setItem(STORE_KEY, made.id);
        try {
          await api("POST", `/api/games/${encodeURIComponent(made.id)}/actions`, { action: "start" });
        } catch (err) {
          // the new table offers to deal again, and says why if it cannot
        }
        window.location.assign(withFast(`/play/${encodeURIComponent(made.id)}`));
      });
    }

    $("btn-exchange").addEventListener("click", exchange);
    $("btn-keep").addEventListener("click", keepAll);
    $("btn-fold").addEventListener("click", fold);
    $("btn-hint").addEventListener("click", askHint);
    $("btn-next").addEventListener("click", nextRound);
    $("btn-new-game").addEventListener("click", newGame);
    $("trainer").addEventListener("change", setTrainer);

    document.addEventListener("keydown", (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.repeat) return;
      if (isTyping(ev.target) || !game) return;
      const key = ev.key;
      if (key !== "Enter" && confirmAll) {
        confirmAll = false;
        render();
      }
      if (key >= "1" && key <= "5" && key.length === 1) {
        ev.preventDefault();
        toggle(Number(key) - 1);
      } else if (key === "Enter") {
        // on a button or a link, Enter presses it (and on the trainer's switch, nothing)
        if (ev.target.closest && ev.target.closest("button, a, summary, input")) return;
        ev.preventDefault();
        if (busy || !myTurn()) return;
        if (selected.size === 0 && !confirmAll) {
          confirmAll = true; // all five: only at the second Enter
          render();
          return;
        }
        exchange();
      } else if (key === "h" || key === "H") {
        ev.preventDefault();
        askHint();
      } else if (key === "f" || key === "F") {
        ev.preventDefault();
        if (myTurn()) fold();
      } else if (key === "n" || key === "N") {
        ev.preventDefault();
        if (busy) return;
        if (game.game_over) newGame();
        else if (game.phase === "idle" && game.can.start) nextRound();
        else if (game.phase !== "idle") {
          keyNote = t("N deals the next round once round {round} is over.", { round: game.round });
          render();
        }
      }
    });

    window.localStorage.setItem(STORE_KEY, gameId);

    // The table as the server has it, and the dealer's turn finished from
    // there: when the page opens, and when the app answers again after it
    // stopped (recover). An action whose answer was lost is never sent
    // again: if the server took it, the table shows it; if not, the player
    // does it again.
    async function load() {
      busy = true;
      waiting = t("Loading the table…");
      render();
      try {
        update(await api("GET", url));
        await finishRound();
      } catch (err) {
        if (err.offline) throw err;
        if ((err.status === 403 || err.status === 404) && window.localStorage.getItem(STORE_KEY) === gameId) {
          window.localStorage.removeItem(STORE_KEY);
        }
        showError(err.message);
        if (!game) {
          root.classList.add("is-missing");
          $("status").textContent = "";
        }
      } finally {
        busy = false;
        waiting = "";
        render();
      }
    }

    recover(load);
    load().catch(() => {
      /* the app does not answer: the recovery loads the table when it does */
    });
  }

  const start = $("start");
  const tableRoot = $("table");
  if (start) startScreen();
  else if (tableRoot) table(tableRoot);
})();
