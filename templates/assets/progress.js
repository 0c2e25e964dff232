/* konum progress marks: on every page konum renders, a mark in the navigation beside each
 * page whose quizzes are done (every question checked) or partly done.
 *
 * Reads quiz.js's answers ("konum:<page path>:<quiz id>:<question id>" = {v, c, r, a}, c:
 * checked) and keeps "konum-progress-v1" = {version: 1, pages: {<path>: questions on it},
 * quiz: {<answer key>: {ok, c, at}}}: the question counts it sees on quiz pages, and each
 * question's last result from quiz.js's "konum:quiz" event, with the time it changed (for
 * overview.js, which scores the lessons and merges imports by it). Runs again on each of
 * Material's page changes (document$: the navigation is new each time), on every quiz
 * event and when another tab writes; safe to load twice.
 */
(function () {
  "use strict";
  if (window.konumProgress) {
    window.konumProgress.mark();
    return;
  }
  var STORE = "konum-progress-v1";

  function read() {
    var s = null;
    try { s = JSON.parse(localStorage.getItem(STORE) || "null"); } catch (e) { /* corrupt */ }
    if (!s || s.version !== 1 || typeof s.pages !== "object" || typeof s.quiz !== "object") {
      s = { version: 1, pages: {}, quiz: {} };
    }
    return s;
  }
  function write(s) { try { localStorage.setItem(STORE, JSON.stringify(s)); } catch (e) { /* off */ } }
  function saved(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  /* A page's path as quiz.js keys it, with a directory's index.html dropped. */
  function path(p) { return p.replace(/index\.html$/, ""); }

  function text(key) { return window.konumText("progress." + key); }

  /* Checked questions per page path, from quiz.js's keys. */
  function answered() {
    var done = {};
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i), m = /^konum:(.*):[^:]*:[^:]*$/.exec(key || "");
        if (!m) continue;
        var value = saved(key), page = path(m[1]);
        if (value && value.c) done[page] = (done[page] || 0) + 1;
      }
    } catch (e) { /* storage off */ }
    return done;
  }

  function mark() {
    var here = document.querySelectorAll("[data-konum-quiz] [data-question-id]").length;
    var s = read();
    if (here && s.pages[path(location.pathname)] !== here) {
      s.pages[path(location.pathname)] = here;
      write(s);
    }
    var done = answered();
    var links = document.querySelectorAll(".md-nav--primary a.md-nav__link[href]");
    for (var i = 0; i < links.length; i++) {
      var a = links[i], old = a.querySelector(".konum-mark");
      if (a.closest(".md-nav--secondary") || a.getAttribute("href").indexOf("#") >= 0) continue;
      var page = path(new URL(a.getAttribute("href"), location.href).pathname);
      var n = done[page] || 0, total = s.pages[page] || 0;
      var state = !n ? "" : total && n >= total ? "done" : "partly";
      if (old && old.getAttribute("data-state") === state) continue;
      if (old) old.remove();
      if (!state) continue;
      var span = document.createElement("span");
      span.className = "konum-mark";
      span.setAttribute("data-state", state);
      span.setAttribute("role", "img");
      span.setAttribute("aria-label", text(state));
      span.title = text(state);
      a.appendChild(span);
    }
  }

  /* quiz.js's event: [{key, ok, checked}] for the quiz's questions, after every change. */
  function record(event) {
    var s = read(), now = Date.now(), changed = false;
    (event.detail || []).forEach(function (q) {
      var old = s.quiz[q.key];
      if (old && old.ok === q.ok && old.c === q.checked) return;
      if (!old && !q.checked) return;
      s.quiz[q.key] = { ok: !!q.ok, c: !!q.checked, at: now };
      changed = true;
    });
    if (changed) write(s);
    mark();
  }

  window.konumProgress = { mark: mark, store: STORE, path: path };
  document.addEventListener("konum:quiz", record);
  window.addEventListener("storage", mark);
  function start() {
    mark();
    var d$ = window.document$;
    if (d$ && typeof d$.subscribe === "function") d$.subscribe(mark);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
