/* konum progress marks: on every page konum renders, a mark in the navigation beside each
 * page whose quizzes are done (every question answered) or partly done.
 *
 * Reads state.js (konumState): the question counts of the quiz pages seen, which it keeps
 * up to date here, and which questions have been answered (a check made, kept through New
 * numbers and reloads). Runs again on each of Material's page changes (document$: the
 * navigation is new each time) and on every change of the learner's state, in this tab or
 * another; safe to load twice.
 */
(function () {
  "use strict";
  if (window.konumProgress) {
    window.konumProgress.mark();
    return;
  }
  var state = window.konumState;

  function text(key) { return window.konumText("progress." + key); }

  function mark() {
    var here = document.querySelectorAll("[data-konum-quiz] [data-question-id]").length;
    if (here) state.setPage(location.pathname, here);
    var pages = state.pages(), done = state.answeredPages();
    var links = document.querySelectorAll(".md-nav--primary a.md-nav__link[href]");
    for (var i = 0; i < links.length; i++) {
      var a = links[i], old = a.querySelector(".konum-mark");
      if (a.closest(".md-nav--secondary") || a.getAttribute("href").indexOf("#") >= 0) continue;
      var page = state.path(new URL(a.getAttribute("href"), location.href).pathname);
      var n = done[page] || 0, total = pages[page] || 0;
      var status = !n ? "" : total && n >= total ? "done" : "partly";
      if (old && old.getAttribute("data-state") === status) continue;
      if (old) old.remove();
      if (!status) continue;
      var span = document.createElement("span");
      span.className = "konum-mark";
      span.setAttribute("data-state", status);
      span.setAttribute("role", "img");
      span.setAttribute("aria-label", text(status));
      span.title = text(status);
      a.appendChild(span);
    }
  }

  window.konumProgress = { mark: mark };
  state.follow(mark);
  function start() {
    mark();
    var d$ = window.document$;
    if (d$ && typeof d$.subscribe === "function") d$.subscribe(mark);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
