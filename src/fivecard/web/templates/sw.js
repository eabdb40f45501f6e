// fivecard's service worker, served at /sw.js (its scope: the whole app;
// fivecard/web/install.py fills in the version and the shell's files).
// It keeps the app's shell so that a page loaded while fivecard serve is
// stopped shows the offline page (which tries again, and goes back to the
// page once the app answers) rather than the browser's error. The API is
// never kept (network only), and no request to another origin is touched.
"use strict";

const VERSION = {{ version|tojson }};
const CACHE = `fivecard-${VERSION}`;
const SHELL = {{ shell|tojson }};
// Pages that read nothing more once loaded: shown as last seen when the app is away.
const KEPT_PAGES = /^\/strategy(\/[a-z0-9-]+)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload", credentials: "same-origin" }))))
      .then(() => self.skipWaiting()),
  );
});

// A new release's worker takes over at once, and the caches of older ones go.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("fivecard-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // changes go to the app, always
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return; // nothing here for another origin
  if (url.pathname.startsWith("/api/") || url.pathname === "/sw.js") return; // network only
  if (request.mode === "navigate") {
    event.respondWith(page(event, request, url));
  } else if (SHELL.includes(url.pathname) && !url.search) {
    event.respondWith(shellFile(request, url));
  }
});

// A page: the app's answer (so a page asked for after the language switch
// comes in the new language); when the app does not answer, the page as
// last seen if it is one kept and in the language last seen, else the
// offline page. Each page says its language (Content-Language): when it
// is not the kept offline page's, the offline page is fetched again (as
// this page was: same cookies, same Accept-Language), so that offline
// speaks the language last chosen.
async function page(event, request, url) {
  const kept = KEPT_PAGES.test(url.pathname) && !url.search;
  try {
    const response = await fetch(request);
    if (response.ok) event.waitUntil(keep(response.headers.get("content-language"), kept ? [url.pathname, response.clone()] : null));
    return response;
  } catch (err) {
    const cache = await caches.open(CACHE);
    const offline = await cache.match("/offline");
    const spoken = offline && offline.headers.get("content-language");
    const copy = kept && (await cache.match(url.pathname));
    if (copy && (!spoken || copy.headers.get("content-language") === spoken)) return copy;
    return offline || Response.error();
  }
}

// A page the app gave, in ``lang``: ``copy`` ([path, response]) kept if
// given, and the offline page fetched again if it speaks another language.
async function keep(lang, copy) {
  const cache = await caches.open(CACHE);
  if (copy) await cache.put(...copy);
  const offline = await cache.match("/offline");
  if (lang && offline && offline.headers.get("content-language") !== lang) {
    try {
      const fresh = await fetch("/offline", { cache: "no-store", credentials: "same-origin" });
      if (fresh.ok && fresh.headers.get("content-language") === lang) await cache.put("/offline", fresh);
    } catch (err) {
      /* the old one stays: the app went away meanwhile */
    }
  }
}

// A file of the shell: the app's own (always the current one), or the copy
// kept when the app does not answer.
async function shellFile(request, url) {
  try {
    return await fetch(request);
  } catch (err) {
    const cache = await caches.open(CACHE);
    return (await cache.match(url.pathname)) || Response.error();
  }
}
