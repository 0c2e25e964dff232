/* konum course overview (the /// progress block) and the learner's own data.
 *
 * Mounts on [data-konum-overview], whose JSON (konum.render.render_progress) lists the
 * lessons in the course's order: {lessons: [{bank, title, questions: [ids], cards: [keys]}]}.
 * For each lesson it shows the quiz's score (questions right and answered, from quiz.js's
 * answers and progress.js's results; question ids are unique across a course) and the cards
 * due before midnight (flashcards.js's store). Everything below is read again on each of
 * Material's page changes and when another tab writes.
 *
 * The data file ("Export"): JSON {format: "konum-learner-data", version: 1, exported: ISO
 * time, quizzes: {<page>:<quiz id>:<question id>: {saved: quiz.js's value or null, ok, at}},
 * pages: {<page>: questions on it}, cards: {<card key>: flashcards.js's entry}, settings:
 * {newPerDay}}, with pages relative to the site's root (Material's __config base), so a
 * file moves between a server and a folder on disk. "Import" checks the whole file first
 * (every number finite and in its range: what flashcards.js and quiz.js can go on from) and
 * changes nothing unless all of it reads; then, per question and per card, the newer state
 * wins (a question by its "at", a card by its last review), written all at once or, when
 * the browser's storage is full, not at all. "Forget everything" asks first.
 */
(function () {
  "use strict";
  if (window.konumOverview) {
    window.konumOverview.mountAll();
    return;
  }
  var FORMAT = "konum-learner-data", VERSION = 1;
  var PROGRESS = "konum-progress-v1", STUDY = "konum-study-v2", OLD_STUDY = "konum-study-v1";
  var ANSWER = /^konum:(.*):([^:]*):([^:]*)$/;
  var views = [];

  /* The interface's texts in the page's language (messages.js). */
  function t(key, fields) { return window.konumText("overview." + key, fields); }
  function get(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function set(key, value) { localStorage.setItem(key, JSON.stringify(value)); }
  function keys() {
    var all = [];
    try { for (var i = 0; i < localStorage.length; i++) all.push(localStorage.key(i)); } catch (e) { /* off */ }
    return all;
  }
  function progress() {
    var p = get(PROGRESS);
    return p && p.version === 1 && p.pages && p.quiz ? p : { version: 1, pages: {}, quiz: {} };
  }
  function study() {
    var s = get(STUDY);
    return s && s.version === 2 && s.cards ? s : { version: 2, newPerDay: 20, lesson: "", cards: {} };
  }
  /* The site's root path: Material's __config names it relative to the page. */
  function root() {
    var config = document.getElementById("__config"), base = ".";
    try { base = JSON.parse(config.textContent).base || "."; } catch (e) { /* no Material */ }
    return new URL(base.replace(/\/?$/, "/"), location.href).pathname;
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function button(className, label) {
    var b = el("button", "konum-overview__button " + className, label);
    b.type = "button";
    return b;
  }

  /* Each lesson's score and due cards, as the table's rows. */
  function rows(lessons) {
    var answers = {}, records = progress().quiz, cards = study().cards;
    keys().forEach(function (key) {
      var m = ANSWER.exec(key || "");
      if (m) (answers[m[3]] = answers[m[3]] || []).push({ key: key, page: m[1], quiz: m[2] });
    });
    var midnight = new Date();
    midnight.setHours(24, 0, 0, 0);
    var lang = document.documentElement.lang || "en";
    return lessons.map(function (lesson) {
      var right = 0, done = 0, due = 0, page = null;
      /* The lesson's own page: where its bank's quiz is (quiz id = the bank's id). */
      var own = new RegExp("^" + lesson.bank.replace(/[^\w]/g, "\\$&") + "(-\\d+)?$");
      lesson.questions.forEach(function (id) {
        var seen = (answers[id] || []).filter(function (a) {
          var value = get(a.key);
          return value && value.c && (value.l === undefined || value.l === lang);
        });
        if (!seen.length) return;
        done++;
        seen.forEach(function (a) { if (!page && own.test(a.quiz)) page = a.page; });
        if (seen.some(function (a) { return records[a.key] && records[a.key].ok; })) right++;
      });
      lesson.cards.forEach(function (key) {
        if (cards[key] && cards[key].due < midnight.getTime()) due++;
      });
      return { lesson: lesson, right: right, done: done, due: due, page: page };
    });
  }

  function render(view) {
    var table = view.table, body = table.tBodies[0];
    body.textContent = "";
    var total = 0;
    rows(view.data.lessons).forEach(function (row) {
      var tr = body.insertRow(), name = tr.insertCell();
      if (row.page) {
        var a = el("a", "", row.lesson.title);
        a.href = row.page;
        name.appendChild(a);
      } else {
        name.textContent = row.lesson.title;
      }
      tr.insertCell().textContent = row.lesson.questions.length
        ? t("score", { right: row.right, done: row.done, n: row.lesson.questions.length })
        : t("no_quiz");
      tr.insertCell().textContent = String(row.due);
      tr.setAttribute("data-bank", row.lesson.bank);
      total += row.due;
    });
    view.total.textContent = t("due_total", { n: total });
  }

  /* --- the data file ------------------------------------------------------------------- */

  function collect() {
    var base = root(), p = progress(), s = study(), quizzes = {}, pages = {};
    function rel(page) { return page.indexOf(base) === 0 ? page.slice(base.length) : page; }
    keys().forEach(function (key) {
      var m = ANSWER.exec(key || "");
      if (!m) return;
      var record = p.quiz[key] || { ok: false, at: 0 };
      quizzes[rel(m[1]) + ":" + m[2] + ":" + m[3]] = { saved: get(key), ok: !!record.ok, at: record.at || 0 };
    });
    Object.keys(p.quiz).forEach(function (key) {  // answers reset since: kept as tombstones
      var m = ANSWER.exec(key);
      var id = m && rel(m[1]) + ":" + m[2] + ":" + m[3];
      if (m && !quizzes[id]) quizzes[id] = { saved: null, ok: false, at: p.quiz[key].at || 0 };
    });
    Object.keys(p.pages).forEach(function (page) { pages[rel(page)] = p.pages[page]; });
    return {
      format: FORMAT, version: VERSION, exported: new Date().toISOString(),
      quizzes: quizzes, pages: pages, cards: s.cards, settings: { newPerDay: s.newPerDay }
    };
  }

  function isObject(v) { return !!v && typeof v === "object" && !Array.isArray(v); }
  function isNumber(v) { return typeof v === "number" && isFinite(v); }
  function isTime(v) { return isNumber(v) && v >= 0; }
  function isCount(v) { return isTime(v) && Math.floor(v) === v; }
  /* A card as flashcards.js writes it: FSRS's stability at least 0.001 (its floor), its
   * difficulty from 1 to 10, and a log of [time, grade 1-4] pairs. */
  function isCard(c) {
    return isObject(c) && [1, 2, 3].indexOf(c.state) >= 0 && isTime(c.due) && isTime(c.last) &&
      isTime(c.first) && (c.step === null || isCount(c.step)) &&
      isNumber(c.s) && c.s >= 0.001 && isNumber(c.d) && c.d >= 1 && c.d <= 10 &&
      Array.isArray(c.log) && c.log.every(function (entry) {
        return Array.isArray(entry) && entry.length === 2 && isTime(entry[0]) &&
          [1, 2, 3, 4].indexOf(entry[1]) >= 0;
      });
  }

  /* The file's problem, as [message key, fields], or null when all of it reads. */
  function problem(data) {
    if (!isObject(data) || data.format !== FORMAT) return ["bad_format", {}];
    if (typeof data.version !== "number") return ["corrupt", { where: "version" }];
    if (data.version < VERSION) return ["older", { found: data.version, expected: VERSION }];
    if (data.version > VERSION) return ["newer", { found: data.version, expected: VERSION }];
    var parts = ["quizzes", "pages", "cards", "settings"];
    for (var i = 0; i < parts.length; i++) {
      if (!isObject(data[parts[i]])) return ["corrupt", { where: parts[i] }];
    }
    var id, q;
    for (id in data.quizzes) {
      q = data.quizzes[id];
      if (!/^.*:[^:]*:[^:]*$/.test(id) || !isObject(q) || !isTime(q.at) ||
          typeof q.ok !== "boolean" || !(q.saved === null || isObject(q.saved))) {
        return ["corrupt", { where: "quizzes[" + JSON.stringify(id) + "]" }];
      }
    }
    for (id in data.pages) {
      if (!isCount(data.pages[id])) return ["corrupt", { where: "pages[" + JSON.stringify(id) + "]" }];
    }
    for (id in data.cards) {
      if (!isCard(data.cards[id])) return ["corrupt", { where: "cards[" + JSON.stringify(id) + "]" }];
    }
    var n = data.settings.newPerDay;
    if (n !== undefined && !(isCount(n) && n <= 9999)) return ["corrupt", { where: "settings.newPerDay" }];
    return null;
  }

  /* Writes [key, text or null (removed)] pairs, all or none: when the browser's storage
   * runs out part way, what was written is put back. */
  function writeAll(writes) {
    var before = writes.map(function (w) { return [w[0], localStorage.getItem(w[0])]; });
    function put(w) {
      if (w[1] === null) localStorage.removeItem(w[0]); else localStorage.setItem(w[0], w[1]);
    }
    try {
      writes.forEach(put);
      return true;
    } catch (e) {
      before.reverse().forEach(function (w) { try { put(w); } catch (e2) { /* it fitted before */ } });
      return false;
    }
  }

  /* Merges a checked file in; returns the numbers of answers and cards taken from it, or
   * null when they do not fit in the browser's storage (then nothing was changed). */
  function merge(data) {
    var base = root(), p = progress(), s = study(), taken = { quizzes: 0, cards: 0 }, writes = [];
    Object.keys(data.quizzes).forEach(function (id) {
      var m = /^(.*):([^:]*):([^:]*)$/.exec(id), page = m[1].charAt(0) === "/" ? m[1] : base + m[1];
      var key = "konum:" + page + ":" + m[2] + ":" + m[3], mine = p.quiz[key], theirs = data.quizzes[id];
      if ((mine ? mine.at || 0 : -1) >= theirs.at) return;
      writes.push([key, theirs.saved ? JSON.stringify(theirs.saved) : null]);
      p.quiz[key] = { ok: theirs.ok, c: !!(theirs.saved && theirs.saved.c), at: theirs.at };
      taken.quizzes++;
    });
    Object.keys(data.pages).forEach(function (page) {
      p.pages[page.charAt(0) === "/" ? page : base + page] = data.pages[page];
    });
    Object.keys(data.cards).forEach(function (key) {
      var mine = s.cards[key], theirs = data.cards[key];
      if (mine && mine.last >= theirs.last) return;
      s.cards[key] = theirs;
      taken.cards++;
    });
    writes.push([PROGRESS, JSON.stringify(p)], [STUDY, JSON.stringify(s)]);
    return writeAll(writes) ? taken : null;
  }

  function forget() {
    keys().forEach(function (key) {
      if (ANSWER.test(key || "") || key === PROGRESS || key === STUDY || key === OLD_STUDY) {
        localStorage.removeItem(key);
      }
    });
  }

  function refresh() {
    views = views.filter(function (v) { return document.body.contains(v.root); });
    views.forEach(render);
    if (window.konumProgress) window.konumProgress.mark();
  }

  function mount(rootEl) {
    if (rootEl.hasAttribute("data-konum-mounted")) return;
    var data;
    try {
      var host = rootEl.querySelector("template");
      data = JSON.parse(host.content.querySelector("script").textContent);
    } catch (e) {
      return;
    }
    rootEl.setAttribute("data-konum-mounted", "");
    rootEl.textContent = "";
    var table = el("table", "konum-overview__table");
    var head = table.createTHead().insertRow();
    ["col_lesson", "col_quiz", "col_due"].forEach(function (key) {
      var th = el("th", "", t(key));
      th.scope = "col";
      head.appendChild(th);
    });
    table.createTBody();
    var total = el("p", "konum-overview__total");
    var tools = el("div", "konum-overview__data");
    tools.setAttribute("role", "group");
    tools.setAttribute("aria-label", t("data"));
    var exportBtn = button("konum-overview__export", t("export"));
    var file = el("input", "konum-overview__file");
    file.type = "file";
    file.accept = "application/json,.json";
    var fileLabel = el("label", "konum-overview__button konum-overview__import", t("import"));
    fileLabel.appendChild(file);
    var forgetBtn = button("konum-overview__forget", t("forget"));
    var ask = el("span", "konum-overview__ask");
    ask.hidden = true;
    var yes = button("konum-overview__yes", t("forget_yes"));
    var no = button("konum-overview__no", t("forget_no"));
    ask.appendChild(el("span", "", t("forget_ask") + " "));
    ask.appendChild(yes);
    ask.appendChild(no);
    [exportBtn, fileLabel, forgetBtn, ask].forEach(function (n) { tools.appendChild(n); });
    var status = el("p", "konum-overview__status");
    status.setAttribute("role", "status");
    var help = el("p", "konum-overview__help", t("help"));
    [table, total, tools, status, help].forEach(function (n) { rootEl.appendChild(n); });

    exportBtn.addEventListener("click", function () {
      var name = "konum-data-" + new Date().toISOString().slice(0, 10) + ".json";
      var blob = new Blob([JSON.stringify(collect(), null, 1)], { type: "application/json" });
      var a = el("a");
      a.href = URL.createObjectURL(blob);
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 0);
      status.textContent = t("exported", { file: name });
    });
    file.addEventListener("change", function () {
      var chosen = file.files && file.files[0];
      if (!chosen) return;
      var reader = new FileReader();
      reader.onload = function () {
        var data, error;
        try { data = JSON.parse(String(reader.result)); } catch (e) { error = ["bad_json", {}]; }
        error = error || problem(data);
        file.value = "";
        if (error) {
          error[1].file = chosen.name;
          status.textContent = t(error[0], error[1]);
          status.setAttribute("data-result", "error");
          return;
        }
        var taken = merge(data);
        if (!taken) {
          status.textContent = t("storage_full", { file: chosen.name });
          status.setAttribute("data-result", "error");
          return;
        }
        status.textContent = t("imported", { file: chosen.name, quizzes: taken.quizzes, cards: taken.cards });
        status.setAttribute("data-result", "ok");
        refresh();
      };
      reader.readAsText(chosen);
    });
    forgetBtn.addEventListener("click", function () {
      ask.hidden = false;
      forgetBtn.hidden = true;
      no.focus();
    });
    no.addEventListener("click", function () {
      ask.hidden = true;
      forgetBtn.hidden = false;
      forgetBtn.focus();
    });
    yes.addEventListener("click", function () {
      forget();
      ask.hidden = true;
      forgetBtn.hidden = false;
      forgetBtn.focus();
      status.textContent = t("forgotten");
      status.setAttribute("data-result", "ok");
      refresh();
    });
    var view = { root: rootEl, data: data, table: table, total: total };
    views.push(view);
    render(view);
  }

  function mountAll() {
    var roots = document.querySelectorAll("[data-konum-overview]");
    for (var i = 0; i < roots.length; i++) mount(roots[i]);
  }

  window.konumOverview = { mountAll: mountAll, problem: problem };
  window.addEventListener("storage", refresh);
  function start() {
    mountAll();
    var d$ = window.document$;
    if (d$ && typeof d$.subscribe === "function") d$.subscribe(mountAll);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
