// What the pages share: talking to the JSON API, the alert region, drawing
// elements and card faces (as templates/_cards.html draws them). Loaded
// before each page's own script, which takes these from window.fivecard.
// Cards are the server's card objects (fivecard/play/view.py card_json):
// what a face shows is in them, nothing is read from a card's code here.
"use strict";

window.fivecard = (function () {
  const $ = (id) => document.getElementById(id);

  // --- the page's language (fivecard/web/i18n.py) ----------------------------------------------

  // The words a script says, in the page's language: t("Deal"), tn("{n} card",
  // "{n} cards", n), tp("context", "word"), each with named fields
  // ({n}, {name}), from the catalog the page carries (#fivecard-messages);
  // English is the message itself. The same functions as the templates'.
  const catalog = (() => {
    const node = document.getElementById("fivecard-messages");
    try {
      return node ? JSON.parse(node.textContent) : { lang: "en", messages: {} };
    } catch (err) {
      return { lang: "en", messages: {} };
    }
  })();
  const lang = catalog.lang || "en";

  function pluralForm(n) {
    if (lang === "ja") return 0;
    if (lang === "ru") {
      const ten = n % 10, hundred = n % 100;
      if (ten === 1 && hundred !== 11) return 0;
      if (ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14)) return 1;
      return 2;
    }
    return n === 1 ? 0 : 1;
  }

  function fill(text, fields) {
    if (!fields) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
  }

  function t(message, fields) {
    const found = catalog.messages[message];
    return fill(typeof found === "string" && found ? found : message, fields);
  }

  function tn(singular, plural, n, fields) {
    const forms = catalog.messages[singular];
    const text = Array.isArray(forms) && forms[pluralForm(n)] ? forms[pluralForm(n)] : n === 1 ? singular : plural;
    return fill(text, Object.assign({ n }, fields || {}));
  }

  function tp(context, message, fields) {
    const found = catalog.messages[`${context}\u0004${message}`];
    return fill(typeof found === "string" && found ? found : message, fields);
  }

  // A whole number with the page's language's thousands separator (as the
  // server's fivecard.core.report.number_text): 1,000; Russian 1 000.
  function number(n) {
    return Number(n).toLocaleString("en").replace(/,/g, tp("thousands separator", ","));
  }

  // A page asked for with ?lang= (the language switch's links) has
  // remembered the language (the app's cookie): the address drops it, so
  // that a link copied from it does not pick a language for whoever opens it.
  (() => {
    const params = new URLSearchParams(window.location.search);
    if (!params.has("lang")) return;
    params.delete("lang");
    const query = params.toString();
    window.history.replaceState(window.history.state, "", window.location.pathname + (query ? `?${query}` : "") + window.location.hash);
  })();

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  // A request that changes something says it is JSON, with or without a
  // body: the app refuses any other (a page elsewhere cannot send that type).
  // A request the app does not answer (fivecard serve stopped, the network
  // dropped) is an ApiError with status 0 and ``offline`` set, and starts
  // the page's recovery (recover, below). While the app is away no change
  // is sent: only the recovery's own requests go out.
  async function api(method, url, body) {
    const changes = method !== "GET" && method !== "HEAD";
    if (changes && connection.offline && !connection.resuming) throw unanswered();
    const options = { method, credentials: "same-origin", headers: { accept: "application/json" } };
    if (changes) options.headers["content-type"] = "application/json";
    if (body !== undefined) options.body = JSON.stringify(body);
    let response;
    try {
      response = await fetch(url, options);
    } catch (err) {
      lost();
      throw unanswered();
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
    if (!response.ok) {
      const detail = data && typeof data.detail === "string" ? data.detail : t("the app answered {status}", { status: response.status });
      throw new ApiError(detail, response.status);
    }
    return data;
  }

  function unanswered() {
    const err = new ApiError(t("the app does not answer: is fivecard serve still running?"), 0);
    err.offline = true;
    return err;
  }

  // --- when the app does not answer ---------------------------------------------------------

  // The page's recovery: while the app does not answer, the offline banner
  // (or the offline page's own screen, #offline) says what to do, and the
  // page's resume() is tried again after 0.5 s, doubling up to 10 s (each
  // wait a little shorter or longer, so that many pages do not knock at
  // once). resume() reads the server's state anew and goes on from it: a
  // change whose answer was lost is never sent again (it may have been
  // applied); the page shows what the server has, and the player goes on
  // from there. When resume() comes through, the banner goes.
  const FIRST_WAIT = 500;
  const LONGEST_WAIT = 10000;
  const connection = { offline: false, resuming: false, failed: false, attempt: 0, due: 0, timer: null, tick: null };
  let resumeWith = null;
  let waiters = []; // whenOnline's promises, kept until the app answers again

  // The page's way back: resume() (async) reads the server's state and
  // draws it; it may throw (a lost connection tries again later; any other
  // error is shown in the alert region). Without one, the page is loaded anew.
  function recover(resume) {
    resumeWith = resume;
  }

  // The app did not answer: the banner, and a try after a wait.
  function lost() {
    if (connection.resuming) {
      connection.failed = true; // the try under way failed: it schedules the next
      return;
    }
    if (connection.offline) return;
    connection.offline = true;
    connection.attempt = 0;
    showOffline(true);
    schedule();
  }

  // The wait before try number ``attempt`` (0: the first) of something
  // that failed: ``first`` ms, doubling up to ``longest``, each a little
  // shorter or longer, so that many pages do not knock at once.
  function backoff(attempt, first, longest) {
    const base = Math.min(longest, first * 2 ** attempt);
    return Math.round(base * (0.8 + 0.4 * Math.random()));
  }

  function schedule() {
    const wait = backoff(connection.attempt, FIRST_WAIT, LONGEST_WAIT);
    connection.attempt += 1;
    connection.due = Date.now() + wait;
    window.clearTimeout(connection.timer);
    window.clearInterval(connection.tick);
    connection.timer = window.setTimeout(tryAgain, wait);
    connection.tick = window.setInterval(countdown, 250);
    countdown();
  }

  async function tryAgain() {
    window.clearTimeout(connection.timer);
    window.clearInterval(connection.tick);
    if (!connection.offline || connection.resuming) return;
    connection.resuming = true;
    connection.failed = false;
    offlineLine(t("Trying again…"));
    let error = null;
    try {
      if (resumeWith) await resumeWith();
      else await reloadWhenUp();
    } catch (err) {
      error = err;
    }
    connection.resuming = false;
    if (connection.failed || (error && error.offline)) {
      schedule();
      return;
    }
    connection.offline = false;
    showOffline(false);
    if (error) showError(error.message);
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  }

  // A promise kept when the app answers again (at once if it answers now):
  // for a change the server applies once whatever happens (it carries a
  // request id), to send it again when the app is back.
  function whenOnline() {
    if (!connection.offline) return Promise.resolve();
    return new Promise((resolve) => waiters.push(resolve));
  }

  // Without a page's own resume: once the app answers, load the page anew
  // (the offline page itself, asked for by its address: the start page).
  async function reloadWhenUp() {
    await probe();
    if (window.location.pathname === "/offline") window.location.assign("/");
    else window.location.reload();
  }

  // Whether the app answers at all: a HEAD request for a small file (no
  // service worker answers for it, no cache keeps it).
  async function probe() {
    try {
      await fetch("/static/favicon.svg", { method: "HEAD", cache: "no-store", credentials: "same-origin" });
    } catch (err) {
      lost();
      throw unanswered();
    }
  }

  function countdown() {
    const left = Math.max(0, Math.ceil((connection.due - Date.now()) / 1000));
    offlineLine(left > 0 ? t("Trying again in {seconds} s…", { seconds: left }) : t("Trying again…"));
  }

  function offlineBox() {
    let box = $("offline");
    if (box) return box;
    box = el("section", "offline-banner");
    box.id = "offline";
    box.hidden = true;
    box.setAttribute("aria-labelledby", "offline-title");
    const title = el("h2", "offline-title", t("The app does not answer"));
    title.id = "offline-title";
    const what = el("p", "offline-what");
    const [before, after] = t(
      "fivecard serve has stopped, or the network dropped. Start it again with {command} (on the computer that runs it): this page goes on by itself where the game is."
    ).split("{command}");
    what.append(before, el("code", null, "fivecard serve"), after || "");
    const line = el("p", "offline-retry");
    const status = el("span", "offline-status");
    status.id = "offline-status";
    status.setAttribute("aria-live", "off"); // (said once with the banner, not every second)
    const button = el("button", "small", t("Retry now"));
    button.type = "button";
    button.id = "offline-retry";
    line.append(status, " ", button);
    box.append(title, what, line);
    document.body.prepend(box);
    return box;
  }

  function offlineLine(text) {
    const status = $("offline-status");
    if (status && status.textContent !== text) status.textContent = text;
  }

  function showOffline(on) {
    const box = offlineBox();
    const button = $("offline-retry");
    if (button && !button.dataset.wired) {
      button.dataset.wired = "1";
      button.addEventListener("click", () => {
        if (!connection.resuming) tryAgain();
      });
    }
    box.hidden = !on;
    if (on) box.setAttribute("role", "alert");
    else box.removeAttribute("role");
    document.body.classList.toggle("is-offline", on);
    // the page under the banner waits: nothing to press until the app is back
    const main = $("main");
    if (main && !main.contains(box)) main.inert = on;
    if (on) clearError();
  }

  // A page shown while the app does not answer (the offline page, as the
  // service worker gives it for any page): the screen, and a try after a wait.
  function offline() {
    lost();
  }

  if ($("offline") && $("offline").dataset.screen) offline();

  // The service worker (/sw.js): pages that load with the app stopped show
  // the offline page. Browsers keep service workers to secure contexts
  // (https, localhost, 127.0.0.1): a page on a home network's address over
  // plain http works without it, and shows the browser's own error when
  // loaded with the app stopped.
  function registerWorker() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      /* the page works as well without it */
    });
  }

  function showError(message) {
    const alert = $("alert");
    if (!alert) return;
    alert.textContent = message;
    alert.hidden = false;
  }

  function clearError() {
    const alert = $("alert");
    if (alert && !alert.hidden) {
      alert.hidden = true;
      alert.textContent = "";
    }
  }

  function sleep(ms) {
    return new Promise((resolve) => window.setTimeout(resolve, ms));
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function plural(n, word) {
    return `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
  }

  // A card face (as templates/_cards.html draws it) or its back (card null);
  // ``hidden``: a face inside a control that names the card itself.
  function cardFace(card, options) {
    const opts = options || {};
    const node = document.createElement(opts.tag || "span");
    node.className = `card ${opts.size || "big"}`;
    if (opts.hidden) node.setAttribute("aria-hidden", "true");
    else if (opts.tag !== "button") node.setAttribute("role", "img");
    if (!card) {
      node.classList.add("back");
      node.setAttribute("aria-label", t("face-down card"));
      return node;
    }
    const symbol = card.symbol || "";
    const rank = card.rank === null ? card.text : card.rank;
    if (card.red) node.classList.add("red");
    if (card.rank === null) node.classList.add("joker");
    else if (!symbol) node.classList.add("rank-only");
    if (!opts.hidden) node.setAttribute("aria-label", card.label);
    const corner = (where) => {
      const c = el("span", `corner ${where}`);
      c.setAttribute("aria-hidden", "true");
      c.append(el("span", "rank", rank), el("span", "suit", symbol));
      return c;
    };
    const pip = el("span", "pip", card.rank === null ? "★" : symbol || rank);
    pip.setAttribute("aria-hidden", "true");
    node.append(corner("top"), pip, corner("bottom"));
    // a wild card at a showdown: the card it became (view.showdown_cards_json)
    if (card.as) {
      const became = t("as {card}", { card: card.as.text });
      markCard(node, `${card.rank === null ? "★ " : ""}${became}`, "as", t("as {card}", { card: card.as.label }), opts.hidden);
    }
    return node;
  }

  // A card of the hand to choose from: a button pressed or not, its key
  // (1-5) and the word shown under it when chosen (HELD, KEEP); a click
  // calls toggle(position). The page adds its own labels and marks.
  function choiceCard(card, position, options) {
    const button = cardFace(card, { tag: "button", size: "big" });
    button.type = "button";
    button.setAttribute("aria-pressed", options.on ? "true" : "false");
    button.setAttribute("aria-keyshortcuts", String(position + 1));
    const below = el("span", "below"); // under the card: its key, and the word when chosen
    below.setAttribute("aria-hidden", "true");
    below.append(el("span", "key-number", String(position + 1)), el("span", "keep-marker", options.marker));
    button.append(below);
    button.disabled = options.disabled;
    button.addEventListener("click", () => options.toggle(position));
    return button;
  }

  function cardRow(cards, size) {
    const row = el("span", "cards inline");
    for (const c of cards) row.append(cardFace(c, { size }));
    return row;
  }

  // A rule set's title, by its id (the name requests send: "standard").
  function ruleTitle(id) {
    const item = document.querySelector(`#rule-titles li[data-id="${CSS.escape(id)}"]`);
    return item ? item.textContent : id;
  }

  // A form's choices as the page's address gives them (?rules=...&seed=...):
  // each radio named in radios by its value or one of its other names
  // (data-aliases), in any case; each number field in numbers (by id) from
  // whole digits only; anything else in the address is ignored. Returns the
  // radios' values the form has no choice for ({rules: "xyz"}): the form
  // keeps its default for them, and the page says so.
  function fillForm(form, radios, numbers) {
    const params = new URLSearchParams(window.location.search);
    const unknown = {};
    for (const name of radios) {
      const value = params.get(name);
      if (!value) continue;
      const wanted = value.trim().toLowerCase();
      const radio = Array.from(form.querySelectorAll(`input[type="radio"][name="${name}"]`)).find(
        (r) => r.value === wanted || (r.dataset.aliases || "").split(" ").includes(wanted)
      );
      if (radio) radio.checked = true;
      else unknown[name] = value;
    }
    for (const name of numbers) {
      const value = params.get(name);
      if (value && /^\d+$/.test(value)) $(name).value = value;
    }
    return unknown;
  }

  // What a start page says of an address's rule set it has not got: the
  // form's own choice stands ("no rule set 'xyz': Standard chosen").
  function unknownRules(form, value) {
    const shown = value.length > 40 ? `${value.slice(0, 20)}…${value.slice(-20)}` : value;
    const chosen = form.querySelector('input[name="rules"]:checked');
    const title = chosen ? ruleTitle(chosen.value) : t("the first");
    return t("no rule set '{name}': {title} chosen", { name: shown, title });
  }

  function isTyping(target) {
    const typing = "textarea, select, [contenteditable], input:not([type=radio]):not([type=checkbox]):not([type=button]):not([type=submit])";
    return Boolean(target && target.closest && target.closest(typing));
  }

  // The page that starts a game offers to go on with the last one this
  // browser played (its id kept under storeKey): the game is asked for at
  // apiUrl(id); what it is, said by describe(game), goes beside a link to
  // pageUrl(id). A game gone, or another browser's, is forgotten.
  function offerContinue(storeKey, apiUrl, pageUrl, describe) {
    const last = window.localStorage.getItem(storeKey);
    if (!last) return;
    api("GET", apiUrl(last))
      .then((game) => {
        $("continue-link").href = pageUrl(last);
        $("continue-info").textContent = describe(game);
        $("continue").hidden = false;
      })
      .catch((err) => {
        if (err.status === 403 || err.status === 404) window.localStorage.removeItem(storeKey);
      });
  }

  // A chance or a return as every page writes it: the rule of the server's
  // sentences (fivecard/play/percent.py), with ``digits`` decimals (one for
  // a chance, two for a return); not zero never shows as 0.0% ("<0.1%"),
  // below 100% never as 100.0% (">99.9%"); a tie rounds up (toFixed).
  function percent(value, digits = 1) {
    if (value < 0) return "-" + percent(-value, digits);
    const shown = (value * 100).toFixed(digits);
    const step = (10 ** -digits).toFixed(digits);
    if (value > 0 && Number(shown) === 0) return `<${step}%`;
    if (value < 1 && Number(shown) >= 100) return `>${(100 - Number(step)).toFixed(digits)}%`;
    return `${shown}%`;
  }

  // A word under a card face ("new"; "★ as" and the card a wild card
  // became): shown under it and, unless the face is hidden from screen
  // readers, said after its label (the label, then ", new").
  function markCard(node, text, className, said, hidden) {
    let below = node.querySelector(":scope > .marks");
    if (!below) {
      below = el("span", "marks");
      below.setAttribute("aria-hidden", "true");
      node.append(below);
      node.classList.add("marked");
    }
    below.append(el("span", `mark ${className}`, text));
    const label = node.getAttribute("aria-label");
    if (label && !hidden) node.setAttribute("aria-label", `${label}, ${said || text}`);
  }

  registerWorker();

  return {
    ApiError, api, showError, clearError, sleep, el, plural, cardFace, choiceCard, cardRow, ruleTitle, fillForm, unknownRules,
    isTyping, offerContinue, recover, probe, offline, whenOnline, backoff, percent, markCard,
    t, tn, tp, lang, number,
  };
})();
