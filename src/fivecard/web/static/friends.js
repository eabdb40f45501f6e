// A table for friends in the browser: the host's form (/tables) and the
// table (/tables/{id}). The rules, the hands, the winners, the explanations
// and the points all come from the table API (fivecard/web/friends_api.py);
// this file draws the answers, sends the clicks, and follows the table's
// event stream. User text (names, chat) only ever goes into textContent (and
// a name into its own title); a role is drawn from the event, never a name.
"use strict";

(function () {
  const EVENT_TYPES = ["table_opened", "seat_joined", "seat_removed", "round_started", "dealt", "drew", "round_closed", "chat", "table_ended"];
  const NAME_KEY = "fivecard.name";
  const $ = (id) => document.getElementById(id);
  const { api, showError, clearError, sleep, el, ruleTitle, fillForm, isTyping, cardFace, cardRow, choiceCard } = window.fivecard;
  const { recover, probe, whenOnline, backoff } = window.fivecard;
  // Every word the page says, in its language (common.js's t, tn, tp: the web catalog);
  // the table's own sentences (an event's text, a round's explanation) come said by the server.
  const { t, tn, tp } = window.fivecard;
  const num = (n) => Number(n).toLocaleString(window.fivecard.lang || "en");
  const points = (n) => tn("{n} point", "{n} points", n, { n: num(n) });
  const comma = t(", "); // between names in a list
  const semicolon = t("; "); // between the parts of a sentence
  // Names as a sentence lists them: "Ann, Bob and Cy" (in the page's language).
  function listed(items) {
    if (items.length <= 1) return items.join("");
    return t("{names} and {last}", { names: items.slice(0, -1).join(comma), last: items[items.length - 1] });
  }

  // --- talking to the API ---------------------------------------------------

  // A request id per click (crypto.randomUUID needs a secure context: a
  // table shared on a home network is plain http).
  function requestId() {
    const bytes = window.crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // An action: one request id, reused when the request is retried (the
  // server applies it once) after a 429 or a 5xx, and after a dropped
  // connection once the app answers again (the page's recovery has read
  // the table anew meanwhile).
  async function action(method, url, body) {
    const id = requestId();
    const payload = Object.assign({}, body || {}, { request_id: id });
    let target = url;
    if (method === "DELETE") target = `${url}?request_id=${encodeURIComponent(id)}`;
    for (let attempt = 0; ; attempt++) {
      try {
        return await api(method, target, method === "DELETE" ? undefined : payload);
      } catch (err) {
        if (err.offline) {
          await whenOnline();
          continue;
        }
        const retry = err.status === 429 || err.status >= 500;
        if (!retry || attempt >= 4) throw err;
        await sleep(400 * (attempt + 1));
      }
    }
  }

  // --- the host's form --------------------------------------------------------

  function hostForm() {
    const form = $("new-table");
    const unknown = fillForm(form, ["rules", "tie"], ["points", "rounds", "seed", "draw"]);
    if (unknown.rules) showError(window.fivecard.unknownRules(form, unknown.rules));

    let busy = false;
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (busy || !form.reportValidity()) return;
      busy = true;
      clearError();
      const button = $("new-table-button");
      button.disabled = true;
      const data = new FormData(form);
      const body = {
        rules: String(data.get("rules") || "standard"),
        points: Number(data.get("points") || 25),
        tie: String(data.get("tie") || "none"),
      };
      const rounds = String(data.get("rounds") || "").trim();
      if (rounds) body.rounds = Number(rounds);
      const seed = String(data.get("seed") || "").trim();
      if (seed) body.seed = Number(seed);
      const draw = Number(data.get("draw") || 0);
      if (draw) body.draw = draw;
      try {
        const made = await api("POST", "/api/tables", body);
        window.location.assign(`/tables/${encodeURIComponent(made.id)}`);
      } catch (err) {
        if (!err.offline) showError(err.message); // (the recovery says so, and waits for the app)
        button.disabled = false;
        busy = false;
      }
    });
    recover(probe); // back after a stop: the form as it was, to send again
  }

  // --- the table ----------------------------------------------------------------

  function friendsTable(root) {
    const tableId = root.dataset.table;
    const url = `/api/tables/${encodeURIComponent(tableId)}`;
    let view = null; // the latest view of the table, as this browser sees it
    let asked = 0; // views asked for, and the newest one applied: a slow answer never overwrites a newer one
    let applied = 0;
    let refreshing = false;
    let again = false;
    let later = false; // a refresh asked for during an action
    let seen = 0; // the last event's seq
    let history = -1; // events up to this seq happened before the page opened: not announced
    const rounds = new Map(); // round number -> its round_closed event
    let busy = false;
    let stream = null;
    let streamTries = 0; // streams refused, or ended soon after opening, in a row
    let confirming = false;
    let removing = null; // the seat whose removal the host is asked to confirm
    let keep = null; // the draw step: the positions (0-4) kept, for the round and hand they were chosen in
    let keepFor = "";

    // -- the view --

    function apply(next, number) {
      if (number < applied) return;
      applied = number;
      view = next;
      if (history < 0) history = next.last_event;
      render();
    }

    async function refresh() {
      if (busy) {
        // after the action: its answer may change who this browser is (a
        // seat's first cookie), so a view asked for meanwhile could be stale
        later = true;
        return;
      }
      if (refreshing) {
        again = true;
        return;
      }
      refreshing = true;
      try {
        do {
          again = false;
          if (busy) {
            later = true;
            break;
          }
          const number = ++asked;
          try {
            apply(await api("GET", url), number);
          } catch (err) {
            if (err.status === 404) {
              showError(err.message);
              root.classList.add("is-missing");
            }
            // a dropped connection: the recovery reads the table when the app is back
          }
        } while (again);
      } finally {
        refreshing = false;
      }
    }

    async function run(method, path, body) {
      if (busy) return null;
      busy = true;
      clearError();
      render();
      const number = ++asked;
      try {
        const answer = await action(method, url + path, body);
        apply(answer, number);
        return answer;
      } catch (err) {
        if (!err.offline) showError(err.message); // (the recovery reads the table anew: see load)
        return null;
      } finally {
        busy = false;
        render();
        if (later) {
          later = false;
          refresh();
        }
      }
    }

    // -- the event stream --

    function connect() {
      setConnection(false, t("connecting…"));
      const source = new EventSource(`${url}/events?after=${seen}`);
      let opened = 0;
      stream = source;
      stream.addEventListener("open", () => {
        opened = Date.now();
        setConnection(true);
        refresh(); // anything missed while away comes as events; the view catches up too
      });
      stream.addEventListener("error", () => {
        // The stream dropped or was refused: it is opened again, from the
        // last event seen, if the app answers: in 2 s, and, while it is
        // refused (or ends soon after opening) time after time, in 4, 8...
        // up to a minute (a server holding as many streams as it can is
        // not asked every 2 s by every page it refused). If the app does
        // not answer, the page's recovery (load) opens it once it is back.
        source.close();
        if (stream !== source) return;
        stream = null;
        setConnection(false);
        if (opened && Date.now() - opened > 30000) streamTries = 0; // it was up a while: not refused
        const wait = backoff(streamTries, 2000, 60000);
        streamTries += 1;
        probe().then(
          () => window.setTimeout(() => stream || connect(), wait),
          () => {
            /* the recovery has it */
          },
        );
      });
      for (const type of EVENT_TYPES) stream.addEventListener(type, received);
    }

    function setConnection(live, text) {
      const box = $("connection");
      box.textContent = live ? t("live") : text || t("reconnecting…");
      box.classList.toggle("live", live);
      box.classList.toggle("down", !live);
    }

    function received(message) {
      const seq = Number(message.lastEventId);
      if (!(seq > seen)) return; // seen already
      seen = seq;
      let event;
      try {
        event = JSON.parse(message.data);
      } catch (err) {
        return;
      }
      const fresh = history >= 0 && seq > history;
      if (event.type === "round_closed") {
        rounds.set(event.round, event);
        renderResult();
        renderLog();
      }
      if (event.type !== "round_closed") talk(event, fresh);
      if (fresh) announce(event.type === "chat" ? t("{name}: {text}", { name: speaker(event), text: event.text }) : event.text);
      if (event.type !== "chat" && event.type !== "table_opened") refresh();
    }

    // who said a chat line: a seat's name, or the host (by role: a line without a seat)
    function speaker(event) {
      return event.seat === null || event.seat === undefined ? tp("role", "Host") : event.name;
    }

    function announce(text) {
      $("announce").textContent = text;
    }

    // the table talk: chat lines, and what happens at the table as quieter lines
    function talk(event, fresh) {
      const list = $("talk");
      let item;
      if (event.type === "chat") {
        item = el("li", "talk-line chat-line");
        // the host's lines are marked by role: the event has no seat (a
        // name is only text, and cannot draw this badge)
        const fromHost = event.seat === null || event.seat === undefined;
        if (fromHost) item.classList.add("from-host");
        const who = fromHost ? el("span", "badge role-host", tp("role", "Host")) : nameNode("strong", "who", event.name);
        item.append(who, ": ", el("span", "said", event.text));
      } else {
        item = el("li", `talk-line talk-event event-${event.type}`, event.text);
      }
      if (fresh) item.classList.add("fresh");
      list.append(item);
      while (list.children.length > 300) list.firstElementChild.remove();
      list.scrollTop = list.scrollHeight;
    }

    // -- rendering --

    // A name as the page draws it: at most 16em wide, cut with an ellipsis
    // (friends.css), the whole name in its title and read out in full.
    function nameNode(tag, className, name) {
      const node = el(tag, `${className} name`.trim(), name);
      node.title = name;
      return node;
    }

    function activeSeats() {
      return view.seats.filter((s) => s.active);
    }

    function names() {
      const byId = new Map();
      for (const s of view.seats) byId.set(s.seat, s.name);
      return byId;
    }

    function currentResult() {
      // the closed round on the table now (after a reload: its event, once the stream replays it)
      const round = view && view.round;
      if (!round || round.open) return null;
      return rounds.get(round.number) || null;
    }

    function render() {
      if (!view) return;
      const focused = document.activeElement && document.activeElement.id;
      const round = view.round;
      const open = Boolean(round && round.open) && !view.ended;
      const dealt = new Set(round && round.open ? round.dealt : []);
      const drawn = new Set(round && round.open ? round.drawn || [] : []);
      const seated = view.you !== null;

      const info = [
        ruleTitle(view.rules),
        tn("the high hand wins {n} point", "the high hand wins {n} points", view.points, { n: num(view.points) }),
      ];
      info.push(view.tie === "split" ? t("a tie splits them") : t("a tie scores nothing"));
      if (view.rounds) info.push(tn("{n} round", "{n} rounds", view.rounds, { n: num(view.rounds) }));
      if (round) info.push(open ? t("round {round} open", { round: round.number }) : t("round {round} over", { round: round.number }));
      // a seed the host chose deals every round in an order the host can know
      if (view.seeded) info.push(t("shuffle seed chosen by the host"));
      $("table-info").textContent = info.join(" · ");

      $("join").hidden = seated || view.ended;
      $("join-button").disabled = busy;

      // seats
      const list = $("seats");
      list.replaceChildren();
      const result = currentResult();
      const active = activeSeats();
      if (!active.some((s) => s.seat === removing)) removing = null; // gone meanwhile
      $("seats-empty").hidden = active.length > 0;
      for (const seat of active) {
        const item = el("li", "friend-seat");
        item.dataset.seat = String(seat.seat);
        if (seat.seat === view.you) item.classList.add("me");
        if (result && result.winners.includes(seat.seat)) item.classList.add("winner");
        const head = el("p", "friend-name");
        head.append(nameNode("strong", "", seat.name));
        if (seat.seat === view.you) head.append(" ", el("span", "badge you", tp("role", "you")));
        item.append(head);
        const line = el("p", "friend-points");
        line.append(el("span", "points", points(seat.points)));
        if (open) {
          if (!dealt.has(seat.seat)) line.append(" ", el("span", "badge waiting", tp("badge", "to deal")));
          else if (!view.draw) line.append(" ", el("span", "badge dealt", tp("badge", "dealt ✓")));
          else if (drawn.has(seat.seat)) line.append(" ", el("span", "badge dealt", tp("badge", "drawn ✓")));
          else line.append(" ", el("span", "badge waiting", tp("badge", "to draw")));
        } else if (result) {
          const won = result.awarded[String(seat.seat)];
          if (won) line.append(" ", el("span", "badge win", `+${won}`));
        }
        item.append(line);
        if (view.host && !view.ended && removing === seat.seat) {
          // one tap does not remove a friend (mid-round, the hand goes too): the host says yes first
          const ask = el("div", "confirm remove-confirm");
          const who = { name: seat.name };
          ask.append(el("p", null, seat.seat === view.you ? t("Leave your seat? Your hand, if dealt, goes.") : t("Remove {name} from the table? Their hand, if dealt, goes.", who)));
          const yes = el("button", "small primary remove-yes", seat.seat === view.you ? t("Yes, leave my seat") : t("Yes, remove {name}", who));
          yes.type = "button";
          yes.id = `remove-yes-${seat.seat}`;
          yes.disabled = busy;
          yes.addEventListener("click", async () => {
            removing = null;
            await run("DELETE", `/seats/${seat.seat}`);
          });
          const no = el("button", "small remove-no", seat.seat === view.you ? t("Keep my seat") : t("Keep {name}", who));
          no.type = "button";
          no.id = `remove-no-${seat.seat}`;
          no.addEventListener("click", () => {
            removing = null;
            render();
            const again = $(`remove-${seat.seat}`);
            if (again) again.focus();
          });
          ask.append(yes, " ", no);
          item.append(ask);
        } else if (view.host && !view.ended) {
          const remove = el("button", "small remove", t("Remove"));
          remove.type = "button";
          remove.id = `remove-${seat.seat}`;
          remove.setAttribute("aria-label", t("Remove {name}", { name: seat.name }));
          remove.disabled = busy;
          remove.addEventListener("click", () => {
            removing = seat.seat;
            render();
            $(`remove-yes-${seat.seat}`).focus();
          });
          item.append(remove);
        }
        list.append(item);
      }

      // my hand and the Deal button
      const mine = round && round.your_hand;
      $("mine").hidden = !mine;
      const cards = $("my-cards");
      cards.replaceChildren();
      const drawing = Boolean(open && mine && view.draw && seated && !drawn.has(view.you));
      if (!drawing) keep = null;
      else if (keep === null || keepFor !== `${round.number}`) {
        keep = new Set([0, 1, 2, 3, 4]); // every card kept until one is chosen to go
        keepFor = `${round.number}`;
      }
      const fresh = new Set((round && round.your_draw) || []);
      if (mine && drawing) {
        mine.forEach((card, i) => {
          const kept = keep.has(i);
          const button = choiceCard(card, i, { on: kept, marker: "KEEP", disabled: busy, toggle: toggleKeep });
          button.classList.add("toggle");
          button.id = `card-${i}`;
          const said = { card: card.label, key: i + 1 };
          button.title = kept ? t("{card}: kept (key {key})", said) : t("{card}: exchanged (key {key})", said);
          cards.append(button);
        });
        $("mine-title").textContent = t("Your hand, round {round}", { round: round.number });
        $("my-hand").textContent = "";
      } else if (mine) {
        mine.forEach((card, i) => {
          const face = cardFace(card, { size: "big" });
          if (fresh.has(i + 1)) {
            face.classList.add("drawn-card");
            face.setAttribute("aria-label", t("{card} (drawn)", { card: card.label }));
          }
          cards.append(face);
        });
        const me = result ? result.hands.find((h) => h.seat === view.you) : null;
        $("my-hand").textContent = me ? me.description : "";
        $("mine-title").textContent = t("Your hand, round {round}", { round: round.number });
      }
      const deal = $("deal");
      deal.hidden = !(open && seated && !dealt.has(view.you));
      deal.disabled = busy;

      // the draw step: choose the cards to exchange, then draw (once)
      $("draw-step").hidden = !drawing;
      if (drawing) {
        const out = 5 - keep.size;
        const button = $("draw-button");
        button.textContent = out ? tn("Draw {n} card", "Draw {n} cards", out) : t("Keep all five");
        button.disabled = busy || out > view.draw;
        $("draw-help-line").textContent =
          out > view.draw
            ? tn(
                "This table's draw exchanges at most {n} card: keep {keep} or more.",
                "This table's draw exchanges at most {n} cards: keep {keep} or more.",
                view.draw,
                { keep: 5 - view.draw },
              )
            : tn(
                "Tap the cards to exchange (up to {n} card), then draw. Once a round.",
                "Tap the cards to exchange (up to {n} cards), then draw. Once a round.",
                view.draw,
              );
      }

      // host controls
      $("host-controls").hidden = !view.host || view.ended;
      const start = $("btn-start");
      // (while a round is open the button names it: the next one cannot start yet)
      start.textContent = open ? t("Round {round} in play", { round: round.number }) : t("Start round {round}", { round: view.played + 1 });
      start.disabled = busy || open || active.length === 0;
      $("btn-close").disabled = busy || !open;
      $("btn-end").disabled = busy;
      $("confirm-end").hidden = !confirming || !view.host || view.ended;

      // status
      $("status").textContent = statusText(open, dealt, seated);

      // ended
      const ended = $("ended");
      const was = !ended.hidden;
      ended.hidden = !view.ended;
      if (view.ended) {
        $("ended-text").textContent = endedText();
        if (!was && !busy) $("ended-title").focus();
      }

      // chat
      const canChat = seated || view.host;
      $("chat").hidden = !canChat;
      $("chat-help").hidden = canChat;
      $("chat-send").disabled = busy;

      renderStandings();
      renderResult();
      renderLog();

      if (focused) {
        const node = $(focused);
        if (node && node !== document.activeElement && !node.disabled && !node.hidden) node.focus();
      }
    }

    // The table's end in a sentence: who leads, or the tie at the top (no leader named then).
    function endedText() {
      const played = tn("{n} round played", "{n} rounds played", view.played, { n: num(view.played) });
      const top = view.standings.length ? view.standings[0] : null;
      if (!top) return t("{played}.", { played });
      const tied = view.standings.filter((s) => s.points === top.points).map((s) => s.name);
      const said = { played, n: num(top.points) };
      if (tied.length === 1) {
        return tn("{played}; {name} leads with {n} point.", "{played}; {name} leads with {n} points.", top.points, Object.assign({ name: top.name }, said));
      }
      return tn(
        "{played}; a tie between {names}, {n} point each.",
        "{played}; a tie between {names}, {n} points each.",
        top.points,
        Object.assign({ names: listed(tied) }, said),
      );
    }

    function statusText(open, dealt, seated) {
      const round = view.round;
      if (view.ended) return t("The table has ended.");
      const next = { round: view.played + 1 };
      if (!round || !round.open) {
        if (view.host) return activeSeats().length ? t("Start round {round} when everyone is seated.", next) : t("Share the link: nobody is seated yet.");
        return t("Waiting for the host to start round {round}.", next);
      }
      const byId = names();
      const number = { round: round.number };
      const waiting = activeSeats().filter((s) => !dealt.has(s.seat)).map((s) => byId.get(s.seat));
      if (seated && !dealt.has(view.you)) return t("Round {round}: deal your hand.", number);
      const drawn = new Set(round.drawn || []);
      if (view.draw && seated && !drawn.has(view.you)) return t("Round {round}: choose the cards to exchange, then draw.", number);
      const drawing = view.draw ? activeSeats().filter((s) => dealt.has(s.seat) && !drawn.has(s.seat)).map((s) => byId.get(s.seat)) : [];
      if (!waiting.length && !drawing.length) return t("Round {round}: everyone has dealt.", number);
      const parts = [];
      if (waiting.length) parts.push(t("{names} to deal", { names: waiting.join(comma) }));
      if (drawing.length) parts.push(t("{names} to draw", { names: drawing.join(comma) }));
      return t("Round {round}: waiting for {parts}.", { round: round.number, parts: parts.join(semicolon) });
    }

    function renderStandings() {
      const body = $("standings").tBodies[0];
      body.replaceChildren();
      let place = 0;
      let last = null;
      view.standings.forEach((s, i) => {
        if (s.points !== last) {
          place = i + 1;
          last = s.points;
        }
        const row = el("tr", s.seat === view.you ? "me" : "");
        row.dataset.seat = String(s.seat);
        row.append(el("td", "place", String(place)));
        const who = el("td", "player");
        who.append(nameNode("span", "", s.name));
        if (!s.active) who.append(" ", el("span", "muted", t("(removed by the host)")));
        row.append(who, el("td", "num points", String(s.points)));
        body.append(row);
      });
    }

    function renderResult() {
      const panel = $("result");
      const shown = currentResult() || (view && view.round && view.round.open ? rounds.get(view.round.number - 1) : null);
      if (!shown) {
        panel.hidden = true;
        return;
      }
      panel.hidden = false;
      panel.classList.toggle("previous", Boolean(view.round && view.round.number !== shown.round));
      $("result-title").textContent = t("Round {round}: the hands", { round: shown.round });
      $("result-text").textContent = shown.text;
      const list = $("result-hands");
      list.replaceChildren();
      const winners = new Set(shown.winners);
      for (const hand of shown.hands) {
        const win = winners.has(hand.seat);
        const item = el("li", `result-hand ${win ? "outcome-win winner" : "outcome-lose"}`);
        item.dataset.seat = String(hand.seat);
        const head = el("p", "result-who");
        head.append(nameNode("strong", "", hand.player), " — ", el("span", "desc", hand.description));
        if (win) head.append(" ", el("span", "badge win", shown.winners.length > 1 ? tp("badge", "tie") : tp("badge", "wins")));
        const won = shown.awarded[String(hand.seat)] || 0;
        head.append(" ", el("span", `badge points ${won ? "up" : "even"}`, won ? `+${points(won)}` : t("no points")));
        if (hand.drew !== undefined) head.append(" ", el("span", "badge drew", hand.drew ? tn("drew {n}", "drew {n}", hand.drew) : t("stood pat")));
        item.append(head, cardRow(hand.sorted_cards, "small"));
        list.append(item);
      }
    }

    function renderLog() {
      const list = $("round-log");
      list.replaceChildren();
      $("log-empty").hidden = rounds.size > 0;
      const numbers = [...rounds.keys()].sort((a, b) => b - a);
      for (const n of numbers) {
        const event = rounds.get(n);
        const item = el("li", "history-item");
        item.value = n;
        item.append(el("p", null, event.text));
        list.append(item);
      }
    }

    // -- actions --

    function deal() {
      if (!view || $("deal").hidden || $("deal").disabled) return;
      run("POST", "/deal", {});
    }

    function toggleKeep(position) {
      if (keep === null || busy) return;
      if (keep.has(position)) keep.delete(position);
      else keep.add(position);
      render();
      const card = $(`card-${position}`);
      if (card) card.focus();
    }

    function drawCards() {
      if (!view || keep === null || $("draw-step").hidden || $("draw-button").disabled) return;
      const kept = [...keep].sort((a, b) => a - b).map((p) => p + 1);
      run("POST", "/draw", { keep: kept });
    }

    $("deal").addEventListener("click", deal);
    $("draw-button").addEventListener("click", drawCards);
    $("btn-start").addEventListener("click", () => run("POST", "/rounds", {}));
    $("btn-close").addEventListener("click", () => run("POST", "/close", {}));
    $("btn-end").addEventListener("click", () => {
      confirming = true;
      render();
      $("btn-end-yes").focus();
    });
    $("btn-end-no").addEventListener("click", () => {
      confirming = false;
      render();
      $("btn-end").focus();
    });
    $("btn-end-yes").addEventListener("click", async () => {
      confirming = false;
      await run("POST", "/end", {});
    });

    const nameInput = $("join-name");
    nameInput.value = window.localStorage.getItem(NAME_KEY) || "";
    $("join").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = nameInput.value.trim();
      if (!name) return;
      const answer = await run("POST", "/seats", { name });
      if (answer) {
        window.localStorage.setItem(NAME_KEY, name);
        if (!$("deal").hidden) $("deal").focus();
      }
    });

    $("chat").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const input = $("chat-text");
      const text = input.value.trim();
      if (!text) return;
      const answer = await run("POST", "/chat", { text });
      if (answer) input.value = "";
      input.focus();
    });

    // the link friends type: at the app's address on the network (fivecard
    // serve --lan), else at the address this page was opened (this computer's)
    const base = root.dataset.share ? root.dataset.share.replace(/\/$/, "") : window.location.origin;
    const link = `${base}/tables/${encodeURIComponent(tableId)}`;
    $("share-link").value = link;
    $("copy-link").addEventListener("click", async () => {
      const status = $("copy-status");
      try {
        await navigator.clipboard.writeText(link);
        status.textContent = t("Copied");
      } catch (err) {
        // no clipboard API (plain http away from this computer): select the link for Ctrl-C
        const input = $("share-link");
        input.focus();
        input.select();
        status.textContent = document.execCommand && document.execCommand("copy") ? t("Copied") : t("Press Ctrl-C to copy");
      }
    });
    $("share-link").addEventListener("focus", (ev) => ev.target.select());
    $("export-csv").href = `${url}/export?format=csv`;
    $("export-jsonl").href = `${url}/export?format=jsonl`;

    document.addEventListener("keydown", (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.repeat) return;
      if (isTyping(ev.target)) return;
      if (ev.key === "d" || ev.key === "D") {
        ev.preventDefault();
        deal();
      } else if (/^[1-5]$/.test(ev.key) && keep !== null && !$("draw-step").hidden) {
        ev.preventDefault();
        toggleKeep(Number(ev.key) - 1);
      }
    });

    // The table as the server has it, and its event stream: when the page
    // opens, and when the app answers again after it stopped (recover).
    async function load() {
      const number = ++asked;
      try {
        apply(await api("GET", url), number);
      } catch (err) {
        if (err.offline) throw err;
        showError(err.message);
        root.classList.add("is-missing");
        $("connection").hidden = true;
        return;
      }
      if (!stream) connect();
    }

    recover(load);
    load().catch(() => {
      /* the app does not answer: the recovery loads the table when it does */
    });
  }

  const hostRoot = $("host");
  const tableRoot = $("friends");
  if (hostRoot) hostForm();
  else if (tableRoot) friendsTable(tableRoot);
})();
