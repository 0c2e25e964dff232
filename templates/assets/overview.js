/* konum course overview (the /// progress block) and the learner's own data.
 *
 * Mounts on [data-konum-overview], whose JSON (konum.render.render_progress) lists the
 * lessons in the course's order: {lessons: [{bank, title, questions: [ids], points: [each
 * question's points], cards: [keys]}]}. For each lesson it shows the points earned in
 * practice and the questions answered, as state.js (konumState) counts them for every
 * view (question ids are unique across a course; a question answered on two pages counts
 * once, at its best; an exam's answers are not practice), and the cards due before
 * midnight (flashcards.js's store). Everything below is read again on each of Material's
 * page changes and whenever the learner's state changes, in this tab or another.
 *
 * The data file ("Export", "Import") is state.js's: it is checked whole first and changes
 * nothing unless all of it reads; then, per question and per card, the newer state wins.
 * "Forget everything" asks first.
 */
(function () {
  "use strict";
  if (window.konumOverview) {
    window.konumOverview.mountAll();
    return;
  }
  var state = window.konumState, STUDY = "konum-study-v2";
  var views = [];

  /* The interface's texts in the page's language (messages.js). */
  function t(key, fields) { return window.konumText("overview." + key, fields); }
  /* Points as the page's language writes them (2 decimals at most). */
  function fmt(x) {
    var lang = document.documentElement.lang || "en";
    return new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(Math.round(x * 100) / 100);
  }
  function study() {
    var s = state.get(STUDY);
    return s && s.version === 2 && s.cards && typeof s.cards === "object" ? s : { cards: {} };
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

  /* Each lesson's points, answers and due cards, as the table's rows. */
  function rows(lessons) {
    var best = {}, cards = study().cards, lang = document.documentElement.lang || "en";
    state.records().forEach(function (q) {
      var r = q.record;
      if (r.m === "exam" || !state.answered(r) || (r.l !== undefined && r.l !== lang)) return;
      var mine = best[q.id], credit = state.share(r);
      if (!mine || credit > mine.credit) best[q.id] = { credit: credit, page: q.page, quiz: q.quiz };
      best[q.id].pages = (mine && mine.pages || []).concat([q]);
    });
    var midnight = new Date();
    midnight.setHours(24, 0, 0, 0);
    return lessons.map(function (lesson) {
      var score = 0, total = 0, done = 0, due = 0, page = null;
      /* The lesson's own page: where its bank's quiz is (quiz id = the bank's id). */
      var own = new RegExp("^" + lesson.bank.replace(/[^\w]/g, "\\$&") + "(-\\d+)?$");
      lesson.questions.forEach(function (id, i) {
        var points = lesson.points ? lesson.points[i] : 1, got = best[id];
        total += points;
        if (!got) return;
        done++;
        score += got.credit * points;
        got.pages.forEach(function (q) { if (!page && own.test(q.quiz)) page = q.page; });
      });
      lesson.cards.forEach(function (key) {
        if (cards[key] && cards[key].due < midnight.getTime()) due++;
      });
      return { lesson: lesson, score: score, total: total, done: done, due: due, page: page };
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
        ? t("score", { score: fmt(row.score), total: fmt(row.total), done: row.done, n: row.lesson.questions.length })
        : t("no_quiz");
      tr.insertCell().textContent = String(row.due);
      tr.setAttribute("data-bank", row.lesson.bank);
      total += row.due;
    });
    view.total.textContent = t("due_total", { n: total });
  }

  function refresh() {
    views = views.filter(function (v) { return document.body.contains(v.root); });
    views.forEach(render);
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
      var blob = new Blob([JSON.stringify(state.exportData(root()), null, 1)], { type: "application/json" });
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
        var data, done;
        try {
          data = JSON.parse(String(reader.result));
          done = state.importData(data, root());
        } catch (e) { done = { error: ["bad_json", {}] }; }
        file.value = "";
        if (done.error) {
          done.error[1].file = chosen.name;
          status.textContent = t(done.error[0], done.error[1]);
          status.setAttribute("data-result", "error");
          return;
        }
        status.textContent = t("imported", { file: chosen.name, quizzes: done.taken.quizzes, cards: done.taken.cards });
        status.setAttribute("data-result", "ok");
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
      state.forget();
      ask.hidden = true;
      forgetBtn.hidden = false;
      forgetBtn.focus();
      status.textContent = t("forgotten");
      status.setAttribute("data-result", "ok");
    });
    var view = { root: rootEl, data: data, table: table, total: total };
    views.push(view);
    render(view);
  }

  function mountAll() {
    var roots = document.querySelectorAll("[data-konum-overview]");
    for (var i = 0; i < roots.length; i++) mount(roots[i]);
  }

  window.konumOverview = { mountAll: mountAll };
  state.follow(refresh);
  function start() {
    mountAll();
    var d$ = window.document$;
    if (d$ && typeof d$.subscribe === "function") d$.subscribe(mountAll);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
