/* konum learner state: the only code that reads or writes what konum keeps in the browser's
 * localStorage for the quizzes, the navigation's marks, the overview and the data file.
 * Loaded before quiz.js, progress.js and overview.js, which read credit from here and count
 * none of their own.
 *
 * Keys and values (schema 2; the rules are the authoring page's "Scoring"):
 * - "konum:<page path>:<quiz id>:<question id>": one question's record {v: variant shown,
 *   a: the answer's controls, c: checked, ok: the last check right, r: answer shown now,
 *   b: best share of the points a check earned (null: never checked), p: hints taken when
 *   it was earned, g: the credit (share of the points, after hint costs and reveals),
 *   h: hints taken, n: checks made, s: the variants whose answer was shown, m: "exam" for an
 *   exam's question (kept apart from practice), l: the page's language, at: when written}.
 * - "konum:exam:<page path>:<quiz id>": an exam's attempt {start, done, timeUp, attempt,
 *   past: [{score, total}] of the submitted attempts before it}.
 * - "konum:draw:<page path>:<quiz id>": a pool's seed; "konum-progress-v1": {version: 1,
 *   pages: {<page path>: questions on it}}.
 * Everything read (storage, another tab's write, an imported file) is validated: numbers
 * finite and bounded (credit by 1 and by what was earned, counts by the question's hints,
 * variants and attempts where the page knows them), unknown fields dropped, wrong types
 * refused (a stored record that does not fit is read as no record; a file that does not
 * fit is refused whole and nothing is written). Other tabs' writes reach the views through
 * the "storage" event; this tab's through "konum:state" on the document.
 */
(function () {
  "use strict";
  if (window.konumState) return;
  var SCHEMA = 2, FORMAT = "konum-learner-data";
  var PROGRESS = "konum-progress-v1", STUDY = "konum-study-v2", OLD_STUDY = "konum-study-v1";
  var QUESTION = /^konum:(\/[^:]*):([^:]*):([^:]*)$/, EXAM = /^konum:(exam|draw):/;
  /* Bounds of what no page counts past: hints, checks, variants, answer parts and text. */
  var MANY = 1000, TEXT = 20000, PARTS = 500;

  function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function isObject(v) { return !!v && typeof v === "object" && !Array.isArray(v); }
  function isNumber(v) { return typeof v === "number" && isFinite(v); }
  function isTime(v) { return isNumber(v) && v >= 0; }
  function isCount(v, most) { return isTime(v) && Math.floor(v) === v && v <= most; }
  function bound(n) { return n > 0 ? n : MANY; }

  function raw(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function put(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); return true; } catch (e) { return false; }
  }
  function remove(key) { try { localStorage.removeItem(key); } catch (e) { /* storage off */ } }
  function keys() {
    var all = [];
    try { for (var i = 0; i < localStorage.length; i++) all.push(localStorage.key(i)); } catch (e) { /* off */ }
    return all;
  }
  function told(key) {
    document.dispatchEvent(new CustomEvent("konum:state", { detail: { key: key } }));
  }

  /* A question record as the schema has it, or null when a field has the wrong type or is
   * out of bounds. limits (what the page knows, each optional): hints (how many), variants,
   * attempts (0: none), costs (each hint's share). Unknown fields are dropped. */
  function clean(value, limits) {
    limits = limits || {};
    if (!isObject(value)) return null;
    var hints = limits.costs ? limits.costs.length : MANY, variants = bound(limits.variants);
    var r = { v: 0, a: [], c: false, ok: false, r: false, b: null, p: 0, g: 0, h: 0, n: 0, s: [], at: 0 };
    function field(name, test) {
      if (!own(value, name) || value[name] === undefined) return true;
      if (!test(value[name])) return false;
      r[name] = value[name];
      return true;
    }
    var fits = field("v", function (v) { return isCount(v, variants - 1); }) &&
      field("a", function (a) {
        return Array.isArray(a) && a.length <= PARTS && a.every(function (x) {
          return x === null || typeof x === "boolean" || isCount(x, MANY) ||
            (typeof x === "string" && x.length <= TEXT);
        });
      }) &&
      field("c", isBool) && field("ok", isBool) && field("r", isBool) &&
      field("b", function (b) { return b === null || (isNumber(b) && b >= 0 && b <= 1); }) &&
      field("h", function (h) { return isCount(h, hints); }) &&
      field("p", function (p) { return isCount(p, hints); }) &&
      field("g", function (g) { return isNumber(g) && g >= 0 && g <= 1; }) &&
      field("n", function (n) { return isCount(n, limits.attempts > 0 ? limits.attempts : MANY); }) &&
      field("s", function (s) {
        return Array.isArray(s) && s.length <= variants && s.every(function (k, i) {
          return isCount(k, variants - 1) && s.indexOf(k) === i;
        });
      }) &&
      field("m", function (m) { return m === "exam"; }) &&
      field("l", function (l) { return typeof l === "string" && /^[A-Za-z-]{1,35}$/.test(l); }) &&
      field("at", isTime);
    if (!fits || r.p > r.h) return null;
    r.a = r.a.slice();
    r.s = r.s.slice();
    r.g = share(r, limits.costs);
    return r;
  }
  function isBool(v) { return typeof v === "boolean"; }

  /* The credit of a record as a share of the question's points: its best check less the
   * hints taken before it (with costs), never more than the best, nothing before a check. */
  function share(r, costs) {
    if (!r || r.b === null) return 0;
    if (!costs) return Math.min(r.g, r.b);
    return rules.credit({ best: r.b, paid: r.p }, { costs: costs, points: 1 });
  }

  function question(key, limits) { return clean(raw(key), limits); }

  /* --- the scoring rules ------------------------------------------------------------------
   * The authoring page's "Scoring" (its rule ids named below), the only place the page
   * computes them (an exam's attempts: quiz-exam.js's); konum.scoring is the same rules for
   * `konum quiz`, and both run the cases of tests/grading/rules.json. p is a question's progress (quiz.js's api): variant, best
   * (share of the points a check earned, null before any), paid (hints taken then), hints,
   * tries, seen (variants whose answer was shown), revealed, checked, ok. limits: points,
   * costs (each hint's share), attempts (0: any number), variants. Credit is in points. */
  /* The variants of `more` not in `list` added to it (a variant shown stays shown). */
  function join(list, more) {
    more.forEach(function (k) { if (list.indexOf(k) < 0) list.push(k); });
  }
  function paidFor(limits, hints) {
    return limits.costs.slice(0, hints).reduce(function (a, b) { return a + b; }, 0);
  }
  var rules = {
    /* rule-best, rule-hints: the best check less the hints taken before it. */
    credit: function (p, limits) {
      return p.best === null ? 0 : Math.max(0, p.best - paidFor(limits, p.paid)) * limits.points;
    },
    took: function (p, limits) { return (p.best || 0) * limits.points - rules.credit(p, limits); },
    locked: function (p, limits) { return limits.attempts > 0 && p.tries >= limits.attempts; },
    left: function (p, limits) { return limits.attempts ? Math.max(0, limits.attempts - p.tries) : null; },
    /* rule-hints: the next hint's cost in points, 0 when none is left or it is solved. */
    hintCost: function (p, limits) {
      return p.hints >= limits.costs.length || (p.best || 0) >= 1 ? 0 : limits.costs[p.hints] * limits.points;
    },
    /* rule-reveal: Show answer costs the points while they are to be earned. */
    showCosts: function (p, limits) {
      return !p.revealed && rules.credit(p, limits) < limits.points && p.seen.indexOf(p.variant) < 0;
    },
    /* A graded check (share, ok); what the feedback says beside the grader's message
     * ({instead, earned, kept, left, reveal}: konum.scoring.Told; left 0: none left), or
     * null when the attempts are used up. restoring: a reload shows the stored check again. */
    check: function (p, limits, share, ok, restoring) {
      if (!restoring && rules.locked(p, limits)) return null;
      var shown = p.seen.indexOf(p.variant) >= 0, kept = rules.credit(p, limits);
      var now = Math.max(0, share - paidFor(limits, p.hints)) * limits.points;
      if (!restoring) {
        p.tries++;
        if (!shown && share > (p.best || 0)) {
          p.best = share;
          p.paid = p.hints;
        }
      } else if (p.best === null) p.best = shown ? 0 : share;
      p.best = p.best || 0;
      p.checked = true;
      p.ok = ok;
      var reveal = rules.locked(p, limits) && !ok && !p.revealed, some = share > 0;
      if (reveal) rules.show(p);
      return {
        instead: shown && some ? (ok ? "quiz.right_after_reveal" : "quiz.part_after_reveal") : null,
        earned: !shown && some && now < limits.points ? now : null,
        kept: kept > 0 && (shown || now < kept) ? kept : null,
        left: ok ? null : rules.left(p, limits), reveal: reveal
      };
    },
    hint: function (p, limits) { if (p.hints < limits.costs.length) p.hints++; },
    /* rule-reveal: these numbers earn nothing from now on. */
    show: function (p) {
      p.revealed = true;
      join(p.seen, [p.variant]);
    },
    /* rule-new: the next numbers; credit, hints and attempts stay. */
    next: function (p, limits) {
      p.variant = (p.variant + 1) % limits.variants;
      p.revealed = p.checked = p.ok = false;
    },
    /* Reset: credit, hints and checks go, the variants shown stay shown (rule-reveal). */
    reset: function (p) {
      p.variant = p.paid = p.hints = p.tries = 0;
      p.best = null;
      p.revealed = p.checked = p.ok = false;
    },
    /* A cleaned record's progress into p (the variants shown in p stay shown). */
    restore: function (p, r) {
      p.variant = r.v;
      p.best = r.b;
      p.paid = r.p;
      p.hints = r.h;
      p.tries = r.n;
      p.checked = r.c;
      p.ok = r.ok;
      p.revealed = r.r;
      join(p.seen, r.r ? r.s.concat([r.v]) : r.s);
    }
  };

  /* Writes a question's record; the variants shown in another tab stay shown (a reveal is
   * never forgotten). Returns the record as written. */
  function saveQuestion(key, record, limits) {
    var before = question(key, limits), r = clean(record, limits);
    if (!r) return null;
    if (before) join(r.s, before.s);
    r.at = Date.now();
    put(key, r);
    told(key);
    return r;
  }
  /* Reset: the answer, credit, hints and checks go; the variants shown stay. */
  function resetQuestion(key, limits) {
    var before = question(key, limits);
    if (before && before.s.length) put(key, { s: before.s, m: before.m, l: before.l, at: Date.now() });
    else remove(key);
    told(key);
  }
  function restoreQuestion(key, value, limits) {
    var r = clean(value, limits);
    if (r) put(key, r); else remove(key);
    told(key);
  }

  /* Every question record in storage: [{key, page, quiz, id, record}] (valid ones only). */
  function records() {
    var out = [];
    keys().forEach(function (key) {
      var m = QUESTION.exec(key || "");
      if (!m || EXAM.test(key)) return;
      var r = question(key);
      if (r) out.push({ key: key, page: m[1], quiz: m[2], id: m[3], record: r });
    });
    return out;
  }
  /* Answered: a check was made (in practice or an exam). */
  function answered(r) { return !!r && r.b !== null; }

  /* A page path as the keys hold it, a folder's index.html dropped. */
  function path(p) { return p.replace(/index\.html$/, ""); }
  function progress() {
    var p = raw(PROGRESS), pages = {};
    if (isObject(p) && isObject(p.pages)) {
      Object.keys(p.pages).forEach(function (k) {
        if (k.charAt(0) === "/" && isCount(p.pages[k], MANY)) pages[k] = p.pages[k];
      });
    }
    return pages;
  }
  function setPage(page, n) {
    var pages = progress();
    if (pages[path(page)] === n) return;
    pages[path(page)] = n;
    put(PROGRESS, { version: 1, pages: pages });
  }
  /* Per page path, how many of its questions were answered. */
  function answeredPages() {
    var done = {};
    records().forEach(function (q) {
      if (answered(q.record)) done[path(q.page)] = (done[path(q.page)] || 0) + 1;
    });
    return done;
  }

  /* An exam's attempt (a start time in the future: rules.timeLeft counts it as ended). */
  function exam(key) {
    var e = raw(key), r = { attempt: 1, past: [] };
    if (!isObject(e)) return r;
    if (isTime(e.start)) r.start = e.start;
    if (e.done === true) r.done = true;
    if (e.timeUp === true) r.timeUp = true;
    if (isCount(e.attempt, MANY) && e.attempt >= 1) r.attempt = e.attempt;
    if (isTime(e.score) && isTime(e.total) && e.score <= e.total) {
      r.score = e.score;
      r.total = e.total;
    }
    if (Array.isArray(e.past)) {
      r.past = e.past.filter(function (x) {
        return isObject(x) && isTime(x.score) && isTime(x.total) && x.score <= x.total;
      }).slice(-MANY).map(function (x) { return { score: x.score, total: x.total }; });
    }
    return r;
  }

  /* --- the data file ------------------------------------------------------------------- */

  function study() {
    var s = raw(STUDY);
    return isObject(s) && s.version === 2 && isObject(s.cards) ? s : { version: 2, newPerDay: 20, lesson: "", cards: {} };
  }
  /* A card as flashcards.js writes it: FSRS's stability at least 0.001 (its floor), its
   * difficulty from 1 to 10, and a log of [time, grade 1-4] pairs. */
  function isCard(c) {
    return isObject(c) && [1, 2, 3].indexOf(c.state) >= 0 && isTime(c.due) && isTime(c.last) &&
      isTime(c.first) && (c.step === null || isCount(c.step, MANY)) &&
      isNumber(c.s) && c.s >= 0.001 && isNumber(c.d) && c.d >= 1 && c.d <= 10 &&
      Array.isArray(c.log) && c.log.every(function (entry) {
        return Array.isArray(entry) && entry.length === 2 && isTime(entry[0]) &&
          [1, 2, 3, 4].indexOf(entry[1]) >= 0;
      });
  }
  function rel(base, page) { return page.indexOf(base) === 0 ? page.slice(base.length) : page; }
  function abs(base, page) { return page.charAt(0) === "/" ? page : base + page; }

  /* The learner's data as a file (pages relative to the site's root `base`). */
  function exportData(base) {
    var quizzes = {}, pages = {}, p = progress(), s = study();
    records().forEach(function (q) { quizzes[rel(base, q.page) + ":" + q.quiz + ":" + q.id] = q.record; });
    Object.keys(p).forEach(function (page) { pages[rel(base, page)] = p[page]; });
    return {
      format: FORMAT, version: SCHEMA, exported: new Date().toISOString(),
      quizzes: quizzes, pages: pages, cards: s.cards, settings: { newPerDay: s.newPerDay }
    };
  }

  /* A file read: {data} with every part cleaned, or {error: [message key, fields]}.
   * Version 1 files (answers under "saved") are read as version 2. */
  function readFile(data) {
    if (!isObject(data) || data.format !== FORMAT) return { error: ["bad_format", {}] };
    if (typeof data.version !== "number") return { error: ["corrupt", { where: "version" }] };
    if (data.version < 1) return { error: ["older", { found: data.version, expected: SCHEMA }] };
    if (data.version > SCHEMA) return { error: ["newer", { found: data.version, expected: SCHEMA }] };
    var parts = ["quizzes", "pages", "cards", "settings"], out = { quizzes: {}, pages: {}, cards: {} }, id, i;
    for (i = 0; i < parts.length; i++) {
      if (!isObject(data[parts[i]])) return { error: ["corrupt", { where: parts[i] }] };
    }
    function where(part, key) { return { error: ["corrupt", { where: part + "[" + JSON.stringify(key) + "]" }] }; }
    var ids = Object.keys(data.quizzes);
    for (i = 0; i < ids.length; i++) {
      id = ids[i];
      var q = data.quizzes[id], r = null;
      if (!/^[^:]*:[^:]*:[^:]*$/.test(id) || id === "__proto__") return where("quizzes", id);
      if (data.version === 1) {
        if (isObject(q) && isTime(q.at) && typeof q.ok === "boolean" && (q.saved === null || isObject(q.saved))) {
          r = q.saved === null ? { at: q.at } : clean(q.saved);
          if (r) r.at = q.at;
        }
      } else r = clean(q);
      if (!r) return where("quizzes", id);
      out.quizzes[id] = r;
    }
    ids = Object.keys(data.pages);
    for (i = 0; i < ids.length; i++) {
      if (!isCount(data.pages[ids[i]], MANY) || ids[i] === "__proto__") return where("pages", ids[i]);
      out.pages[ids[i]] = data.pages[ids[i]];
    }
    ids = Object.keys(data.cards);
    for (i = 0; i < ids.length; i++) {
      if (!isCard(data.cards[ids[i]]) || ids[i] === "__proto__") return where("cards", ids[i]);
      out.cards[ids[i]] = data.cards[ids[i]];
    }
    var n = data.settings.newPerDay;
    if (n !== undefined && !isCount(n, 9999)) return { error: ["corrupt", { where: "settings.newPerDay" }] };
    return { data: out };
  }

  /* Writes [key, text or null (removed)] pairs, all or none: when the browser's storage
   * runs out part way, what was written is put back. */
  function writeAll(writes) {
    var before = writes.map(function (w) { return [w[0], localStorage.getItem(w[0])]; });
    function set(w) {
      if (w[1] === null) localStorage.removeItem(w[0]); else localStorage.setItem(w[0], w[1]);
    }
    try {
      writes.forEach(set);
      return true;
    } catch (e) {
      before.reverse().forEach(function (w) { try { set(w); } catch (e2) { /* it fitted before */ } });
      return false;
    }
  }

  /* Imports a parsed file: per question and card the newer state wins, and the variants
   * shown on either side stay shown. Returns {taken: {quizzes, cards}} or {error}. */
  function importData(data, base) {
    var read;
    try { read = readFile(data); } catch (e) { read = { error: ["bad_format", {}] }; }
    if (read.error) return read;
    var file = read.data, pages = progress(), s = study(), taken = { quizzes: 0, cards: 0 }, writes = [];
    Object.keys(file.quizzes).forEach(function (id) {
      var m = /^(.*):([^:]*):([^:]*)$/.exec(id), page = abs(base, m[1]);
      var key = "konum:" + page + ":" + m[2] + ":" + m[3], mine = question(key), theirs = file.quizzes[id];
      if (!QUESTION.test(key) || (mine ? mine.at : -1) >= theirs.at) return;
      if (mine) join(theirs.s, mine.s);
      writes.push([key, JSON.stringify(theirs)]);
      taken.quizzes++;
    });
    Object.keys(file.pages).forEach(function (page) { pages[abs(base, page)] = file.pages[page]; });
    Object.keys(file.cards).forEach(function (key) {
      var mine = s.cards[key], theirs = file.cards[key];
      if (mine && mine.last >= theirs.last) return;
      s.cards[key] = theirs;
      taken.cards++;
    });
    writes.push([PROGRESS, JSON.stringify({ version: 1, pages: pages })], [STUDY, JSON.stringify(s)]);
    if (!writeAll(writes)) return { error: ["storage_full", {}] };
    told(null);
    return { taken: taken };
  }

  /* Forget everything: every answer, exam, draw, mark and card review. */
  function forget() {
    keys().forEach(function (key) {
      if (/^konum:/.test(key || "") || key === PROGRESS || key === STUDY || key === OLD_STUDY) remove(key);
    });
    told(null);
  }

  /* fn(key or null (all), other) after this tab's writes and (other: true) other tabs'. */
  function follow(fn) {
    document.addEventListener("konum:state", function (ev) { fn(ev.detail.key, false); });
    window.addEventListener("storage", function (ev) { fn(ev.key, true); });
  }

  window.konumState = {
    SCHEMA: SCHEMA, rules: rules, join: join, clean: clean, share: share, question: question, saveQuestion: saveQuestion,
    resetQuestion: resetQuestion, restoreQuestion: restoreQuestion, records: records,
    answered: answered, path: path, pages: progress, setPage: setPage,
    answeredPages: answeredPages, exam: exam, saveExam: put, get: raw, set: put, remove: remove,
    exportData: exportData, readFile: readFile, importData: importData, forget: forget,
    follow: follow, isQuestionKey: function (k) { return QUESTION.test(k || "") && !EXAM.test(k); }
  };
})();
