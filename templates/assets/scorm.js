/* konum's SCORM runtime: a quiz page as a SCO (konum export scorm, generator/konum/scorm.py).
 *
 * Loaded first in the page's head, before konum's own scripts read the learner's saved
 * answers. It finds the LMS's API as the standards say (SCORM 1.2's "API", SCORM 2004's
 * "API_1484_11": the window's parents, then the opener's), starts the session, and puts the
 * answers kept in suspend data back into localStorage, so a return resumes. Each
 * "konum:submit" event (sent by every check, and once by an exam's submission) then
 * reports the page's score (raw, min, max; 2004 also scaled), its status (passed or
 * failed against the mastery score, else completed once every question is checked) and
 * one interaction per question checked (id, type, the learner's response, the result and
 * the time taken), and saves the answers again. The points are konum's: a question whose
 * answer was shown earns none, and an exam submits once.
 *
 * The page's settings come from <script type="application/json" id="konum-scorm">:
 * {version: "1.2" | "2004", mastery: 0-100 | null, max: points, questions: count}.
 * Without an LMS (the page opened on its own) nothing happens. No network requests.
 */
(function () {
  "use strict";
  var settings = document.getElementById("konum-scorm");
  if (!settings || window.konumScorm) return;
  var config = JSON.parse(settings.textContent);
  var v12 = config.version !== "2004";
  var name = v12 ? "API" : "API_1484_11";

  /* The API in this window or a parent (at most 500 levels), else in the opener's. */
  function search(win) {
    for (var n = 0; win && n < 500; n++) {
      try {
        if (win[name]) return win[name];
      } catch (e) { return null; }  /* another site's window */
      if (!win.parent || win.parent === win) break;
      win = win.parent;
    }
    return null;
  }
  var api = search(window) || (window.opener && search(window.opener)) ||
    (window.top && window.top.opener && search(window.top.opener));
  if (!api) return;
  window.konumScorm = true;

  var M = v12
    ? { init: "LMSInitialize", get: "LMSGetValue", set: "LMSSetValue", commit: "LMSCommit", finish: "LMSFinish" }
    : { init: "Initialize", get: "GetValue", set: "SetValue", commit: "Commit", finish: "Terminate" };
  function get(key) { return String(api[M.get](key) || ""); }
  function set(key, value) { return api[M.set](key, String(value)); }
  if (String(api[M.init]("")) !== "true") return;

  var page = location.pathname, PLACE = "@page@";
  var started = Date.now();
  var saved = {};
  try { saved = JSON.parse(get("cmi.suspend_data") || "{}") || {}; } catch (e) { saved = {}; }
  var quizzes = saved.quizzes || {};  /* quiz id -> {score, total} */
  var checked = saved.checked || {};  /* question key -> 1 */

  /* The answers kept for this page, by key with the page's path as PLACE (an LMS may
   * serve the same SCO from another address next time). */
  function restore() {
    var store = saved.store || {};
    Object.keys(store).forEach(function (key) {
      if (key.indexOf("konum") !== 0) return;
      try { localStorage.setItem(key.split(PLACE).join(page), store[key]); } catch (e) { /* full */ }
    });
  }
  function kept() {
    var store = {};
    for (var i = 0; i < localStorage.length; i++) {
      var key = localStorage.key(i);
      if (key && key.indexOf("konum") === 0 && key.indexOf(page) >= 0) {
        store[key.split(page).join(PLACE)] = localStorage.getItem(key);
      }
    }
    return store;
  }
  function save() {
    var data = { quizzes: quizzes, checked: checked, store: kept() };
    var text = JSON.stringify(data);
    /* SCORM 1.2 keeps 4,096 characters: the score comes first, the answers if they fit. */
    if (v12 && text.length > 4096) text = JSON.stringify({ quizzes: quizzes, checked: checked });
    set("cmi.suspend_data", text);
  }
  restore();

  if (v12) {
    if (get("cmi.core.lesson_status") === "not attempted") set("cmi.core.lesson_status", "incomplete");
  } else if (get("cmi.completion_status") !== "completed") {
    set("cmi.completion_status", "incomplete");
  }

  function timespan(ms) {
    var s = Math.max(0, ms) / 1000;
    if (!v12) return "PT" + (Math.round(s * 100) / 100) + "S";
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), rest = (s % 60).toFixed(2);
    function two(x) { return (x < 10 ? "0" : "") + x; }
    return two(h) + ":" + two(m) + ":" + (Number(rest) < 10 ? "0" : "") + rest;
  }
  function stamp() {
    var d = new Date();
    if (v12) return d.toTimeString().slice(0, 8);
    return d.toISOString().slice(0, 19);
  }
  /* A question's answer as its type's part gives it for SCORM (the konum:submit event's
   * interaction: {type, response}, a response item being a text or a [row, item] pair),
   * in the version's separators; "other" for a part that gives none. */
  function response(q) {
    var it = q.interaction;
    if (!it || typeof it.type !== "string" || Object.prototype.toString.call(it.response) !== "[object Array]") {
      return [ "other", String(q.answer) ];
    }
    var items = it.response.map(function (r) {
      return Object.prototype.toString.call(r) === "[object Array]" ? r.map(String).join(v12 ? "." : "[.]") : String(r);
    });
    return [ it.type, items.join(v12 ? "," : "[,]").slice(0, 255) ];
  }
  function result(q) {
    if (q.max > 0 && q.points >= q.max) return "correct";
    if (q.points > 0) return String(Math.round((q.points / q.max) * 100) / 100);
    if (q.correct) return "neutral";  /* right after the answer was shown: no credit */
    return v12 ? "wrong" : "incorrect";
  }
  var last = {};  /* question key -> when it was last checked (or the page opened) */

  function report(event) {
    var d = event.detail || {};
    quizzes[d.quiz] = { score: Number(d.score) || 0, total: Number(d.total) || 0 };
    var now = Date.now();
    (d.questions || []).forEach(function (q) {
      var key = d.quiz + ":" + q.id;
      checked[key] = 1;
      var n = Number(get("cmi.interactions._count")) || 0, at = "cmi.interactions." + n + ".";
      var r = response(q);
      set(at + "id", String(q.id).replace(/[^A-Za-z0-9_.:-]/g, "-").slice(0, 255));
      set(at + "type", r[0] === "other" && v12 ? "performance" : r[0]);
      set(at + (v12 ? "student_response" : "learner_response"), r[1]);
      set(at + "result", result(q));
      set(at + "latency", timespan(now - (last[key] || started)));
      set(at + (v12 ? "time" : "timestamp"), stamp());
      set(at + "weighting", q.max);
      last[key] = now;
    });
    var raw = 0, max = Number(config.max) || 0, reported = 0;
    Object.keys(quizzes).forEach(function (id) { raw += quizzes[id].score; reported += quizzes[id].total; });
    /* A quiz that reported knows its own total (a pool's draw); the others count as built. */
    max = Math.max(max, reported);
    raw = Math.round(raw * 100) / 100;
    var prefix = v12 ? "cmi.core.score." : "cmi.score.";
    set(prefix + "min", 0);
    set(prefix + "max", max);
    set(prefix + "raw", raw);
    if (!v12) set("cmi.score.scaled", max > 0 ? Math.round((raw / max) * 10000) / 10000 : 0);
    var done = Object.keys(checked).length >= (Number(config.questions) || 0);
    var percent = max > 0 ? (raw / max) * 100 : 0;
    if (v12) {
      if (config.mastery !== null && config.mastery !== undefined) {
        set("cmi.core.lesson_status", percent >= config.mastery ? "passed" : done ? "failed" : "incomplete");
      } else if (done) {
        set("cmi.core.lesson_status", "completed");
      }
    } else {
      if (done) set("cmi.completion_status", "completed");
      if (config.mastery !== null && config.mastery !== undefined) {
        set("cmi.success_status", percent >= config.mastery ? "passed" : done ? "failed" : "unknown");
      }
    }
    save();
    api[M.commit]("");
  }
  document.addEventListener("konum:submit", report);

  var finished = false;
  function finish() {
    if (finished) return;
    finished = true;
    save();
    set(v12 ? "cmi.core.session_time" : "cmi.session_time", timespan(Date.now() - started));
    set(v12 ? "cmi.core.exit" : "cmi.exit", "suspend");
    api[M.commit]("");
    api[M.finish]("");
  }
  window.addEventListener("pagehide", finish);
  window.addEventListener("beforeunload", finish);
})();
