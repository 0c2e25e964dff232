/* konum exam mode: a quiz block with `mode: exam` (data-mode="exam"), loaded only on pages
 * that have one, before quiz.js, which calls window.konumExam.mount(quiz, ctx) from its
 * mountQuiz (ctx: head, questions() (the question APIs shown), update(), emit(list, mode),
 * quiz.js's t, make, button, fmt, and state: state.js, which keeps the attempts).
 *
 * No per-question feedback: the questions have no Check, Show answer or Hint buttons. The
 * reader answers, then "Submit answers" grades every question at once, shows the answers
 * and explanations, freezes the controls and sends one "konum:submit" event. With
 * data-time-limit (seconds) the questions show after "Start the exam"; a countdown (a
 * role=timer, silent) runs, a status line announces the time left at a few marks, and the
 * answers are submitted when it reaches zero. The start time and the submission live in
 * localStorage ("konum:exam:<page path>:<quiz id>"), so a reload keeps the clock running
 * and a submitted exam stays submitted; a start time in the future or a clock past the
 * limit counts as ended, so the page cannot give more time. An answer that cannot be read
 * ("32,0" on an English page) is listed before submitting, as practice asks it back.
 * A submitted exam is attempt n: Reset (asked first, undone by Undo) starts attempt n + 1,
 * whose result says so and what the one before scored; New questions during an attempt
 * ends it (unscored) and starts the next.
 */
(function () {
  "use strict";
  if (window.konumExam) return;

  /* The exam's rules (rule-exam on the authoring page; konum.scoring's submit, retake and
   * time_left, run by tests/grading/rules.json's cases): an attempt submitted with its
   * score; the next keeps it in past (0 if unsubmitted); the seconds left at now (ms) of a
   * limit (s) from start (ms), none past it or before it. */
  var rules = {
    submit: function (e, score, total) {
      e.done = true;
      e.score = score;
      e.total = total;
    },
    retake: function (e, total) {
      var score = e.done ? e.score || 0 : 0;
      return { attempt: e.attempt + 1, past: e.past.concat([{ score: score, total: e.total || total }]) };
    },
    timeLeft: function (start, now, limit) {
      var s = limit - (now - start) / 1000;
      return start > now || s > limit ? 0 : Math.max(0, s);
    }
  };

  /* Time left at which the status line speaks, in seconds. */
  var MARKS = [1800, 600, 300, 120, 60, 30, 10];

  function clock(seconds) {
    var s = Math.max(0, Math.ceil(seconds)), m = Math.floor(s / 60);
    return m + ":" + String(s % 60).padStart(2, "0");
  }

  function mount(quiz, ctx) {
    var t = ctx.t, make = ctx.make, keep = ctx.state;
    function span(seconds) {
      return seconds >= 60 && seconds % 60 === 0 ? t("exam.minutes", { n: seconds / 60 }) : t("exam.seconds", { n: seconds });
    }
    var limit = Number(quiz.getAttribute("data-time-limit")) || 0;
    var key = "konum:exam:" + location.pathname + ":" + quiz.getAttribute("data-quiz-id");
    var state = keep.exam(key);
    var head = ctx.head;
    head.appendChild(make("p", { "class": "konum-exam-note" }, t("exam.note")));
    if (limit) head.appendChild(make("p", { "class": "konum-exam-note" }, t("exam.time_note", { time: span(limit) })));
    var startBtn = limit && head.appendChild(ctx.button("konum-exam-start", t("exam.start")));
    var timer = limit && head.appendChild(make("p", { "class": "konum-timer", role: "timer" }));
    var said = head.appendChild(make("p", { "class": "konum-exam-status", role: "status" }));
    var foot = quiz.appendChild(make("div", { "class": "konum-exam-foot" }));
    var submitBtn = foot.appendChild(ctx.button("konum-exam-submit", t("exam.submit")));
    var result = foot.appendChild(make("p", { "class": "konum-exam-result", role: "status", tabindex: "-1" }));
    var tick = null, lastMark = null;

    /* Seconds left; none when the clock reads past the limit or before the start. */
    function left() {
      return rules.timeLeft(state.start, Date.now(), limit);
    }
    function save() {
      keep.saveExam(key, { start: state.start, done: state.done, timeUp: state.timeUp, attempt: state.attempt, past: state.past, score: state.score, total: state.total });
    }
    /* A new attempt: the one before goes to the record with its score (0 if unsubmitted). */
    function next() {
      state = rules.retake(state, total());
    }
    function total() { return ctx.questions().reduce(function (a, q) { return a + q.max; }, 0); }

    function layout() {
      var started = !limit || !!state.start;
      if (startBtn) startBtn.hidden = started;
      if (timer) timer.hidden = !started || !!state.done;
      ctx.questions().forEach(function (q) { q.el.hidden = !started; });
      submitBtn.hidden = !started || !!state.done;
    }

    function run() {
      if (tick) clearInterval(tick);
      tick = null;
      if (!limit || !state.start || state.done) return;
      function step() {
        if (!quiz.isConnected) { clearInterval(tick); return; }
        var s = left();
        if (s <= 0) { submit(false, true); return; }
        timer.textContent = t("exam.left", { time: clock(s) });
        var mark = MARKS.filter(function (m) { return s <= m && m < limit; }).pop();
        if (mark !== undefined && mark !== lastMark) {
          if (lastMark !== null) said.textContent = t("exam.time_said", { time: span(mark) });
          lastMark = mark;
        }
      }
      step();
      if (!state.done) tick = setInterval(step, 1000);
    }

    function submit(restoring, timeUp) {
      var list = ctx.questions();
      state.done = true;
      said.textContent = "";
      submitBtn.removeAttribute("data-asked");
      if (timeUp) state.timeUp = true;
      save();
      if (tick) clearInterval(tick);
      tick = null;
      layout();
      list.forEach(function (q) { q.grade(restoring); });
      ctx.update();
      var score = list.reduce(function (a, q) { return a + q.score(); }, 0);
      rules.submit(state, score, total());
      save();
      var before = state.past[state.past.length - 1];
      result.textContent = (state.timeUp ? t("exam.time_up") + " " : "") +
        t("exam.submitted", { score: score, total: state.total }) +
        (state.attempt > 1 ? " " + t("exam.attempt", { n: state.attempt }) : "") +
        (before ? " " + t("exam.earlier", { score: before.score, total: before.total }) : "");
      if (!restoring) {
        ctx.emit(list, "exam");
        result.focus();
      }
    }

    quiz.addEventListener("click", function (ev) {
      var b = ev.target.closest("button");
      if (b === startBtn) {
        state.start = Date.now();
        save();
        layout();
        run();
        var first = ctx.questions()[0];
        if (first) first.el.querySelector("input, select, button:not([disabled])").focus();
      } else if (b === submitBtn) {
        var unread = [];
        ctx.questions().forEach(function (q, i) { if (q.unreadable()) unread.push(i + 1); });
        if (unread.length && !submitBtn.hasAttribute("data-asked")) {
          submitBtn.setAttribute("data-asked", "");
          said.textContent = t("exam.unreadable", { n: unread.length, list: unread.join(t("quiz.list_separator")) });
          return;
        }
        var open = ctx.questions().filter(function (q) { return !q.answered(); }).length;
        if (open && !submitBtn.hasAttribute("data-asked")) {
          submitBtn.setAttribute("data-asked", "");
          said.textContent = t("exam.unanswered", { n: open });
          return;
        }
        submit(false, false);
      }
    });
    quiz.addEventListener("change", function () { submitBtn.removeAttribute("data-asked"); });

    function begin() {
      layout();
      if (state.done) submit(true, false);
      else if (limit && state.start && left() <= 0) submit(false, true);
      else run();
    }
    begin();
    return {
      layout: layout,
      save: function () { return keep.get(key); },
      /* Reset: a running exam keeps its clock (the start time is kept), a submitted one is
       * taken again as the next attempt. */
      reset: function () {
        if (state.done) next();
        save();
        $$(quiz).forEach(function (c) { c.disabled = false; });
        result.textContent = said.textContent = "";
        begin();
      },
      /* New questions: the attempt running ends and the next begins. */
      again: function () {
        if (state.start || state.done) next();
        save();
        $$(quiz).forEach(function (c) { c.disabled = false; });
        result.textContent = said.textContent = "";
        begin();
      },
      restore: function (saved) {
        if (saved) keep.saveExam(key, saved);
        state = keep.exam(key);
        begin();
      }
    };
  }

  /* Every control of the questions (Reset makes them usable again). */
  function $$(quiz) {
    return Array.prototype.slice.call(quiz.querySelectorAll("[data-question-id] input, [data-question-id] select, [data-question-id] button"));
  }

  window.konumExam = { mount: mount, rules: rules };
})();
