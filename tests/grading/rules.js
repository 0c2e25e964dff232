/* Runs the shared scoring-rule cases (tests/grading/rules.json) against state.js's rules and
 * storage and quiz-exam.js's, in Node, as tests/grading/test_rules.py asks: node rules.js
 * STATE_JS EXAM_JS RULES prints {questions: [[state after each step]], exams: [[state after
 * each step]]} as JSON.
 *
 * The scripts run in a context of their own with an in-memory localStorage. A question's
 * progress is driven as quiz.js drives it: each of this tab's actions saves the record
 * (after taking in the variants shown elsewhere), Reset goes through resetQuestion, a
 * reload or another tab's write restores what storage holds.
 */
"use strict";
const fs = require("fs");
const vm = require("vm");

const [statePath, examPath, rulesPath] = process.argv.slice(2);

function context(path) {
  const items = new Map();
  const localStorage = {
    get length() { return items.size; },
    key: (i) => Array.from(items.keys())[i],
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => items.set(k, String(v)),
    removeItem: (k) => items.delete(k),
  };
  const none = () => undefined;
  const document = { addEventListener: none, dispatchEvent: none };
  const window = { addEventListener: none };
  const ctx = { window, document, localStorage, CustomEvent: function () {} };
  vm.createContext(ctx);
  vm.runInContext(fs.readFileSync(path, "utf8"), ctx, { filename: path });
  return window.konumState || window.konumExam;
}

function fresh() {
  return { variant: 0, best: null, paid: 0, hints: 0, tries: 0, seen: [], revealed: false, checked: false, ok: false };
}

function question(c) {
  const state = context(statePath), rules = state.rules, limits = c.limits, key = "konum:/page/:quiz:q";
  let p = fresh();
  function elsewhere() {
    const stored = state.question(key, limits);
    if (stored) stored.s.forEach((k) => { if (p.seen.indexOf(k) < 0) p.seen.push(k); });
  }
  function save() {
    elsewhere();
    state.saveQuestion(key, {
      v: p.variant, c: p.checked, ok: p.ok, r: p.revealed, b: p.best, h: p.hints, n: p.tries,
      p: p.paid, s: p.seen,
    }, limits);
  }
  function restore() {
    const stored = state.question(key, limits);
    if (stored) rules.restore(p, stored);
  }
  return c.steps.map((step) => {
    const [kind, ...args] = step.event, out = {};
    if (kind === "check") {
      elsewhere();
      out.told = rules.check(p, limits, args[0], args[1], false);
      save();
    } else if (kind === "hint") { rules.hint(p, limits); save(); }
    else if (kind === "show") { rules.show(p); save(); }
    else if (kind === "hide") { p.revealed = false; save(); }
    else if (kind === "new") { rules.next(p, limits); save(); }
    else if (kind === "reset") {
      rules.reset(p);
      state.resetQuestion(key, limits);
      elsewhere();
    } else if (kind === "reload" || kind === "load") {
      if (kind === "load") state.set(key, args.shift());
      p = fresh();
      restore();
      if (args.length && p.checked) out.told = rules.check(p, limits, args[0], args[1], true);
    } else if (kind === "tab") {
      state.saveQuestion(key, args[0], limits);
      rules.reset(p);
      restore();
    } else throw new Error("no event " + kind);
    return Object.assign(out, {
      credit: rules.credit(p, limits), best: p.best, left: rules.left(p, limits),
      locked: rules.locked(p, limits), revealed: p.revealed,
      seen: p.seen.slice().sort((a, b) => a - b), variant: p.variant, hints: p.hints,
      hint_cost: rules.hintCost(p, limits), show_costs: rules.showCosts(p, limits),
      took: rules.took(p, limits),
    });
  });
}

function exam(c) {
  const rules = context(examPath).rules;
  let e = { attempt: 1, past: [] };
  return c.steps.map((step) => {
    const [kind, ...args] = step.event;
    if (kind === "clock") return { left: rules.timeLeft(args[0] * 1000, args[1] * 1000, args[2]) };
    if (kind === "submit") rules.submit(e, args[0], args[1]);
    else if (kind === "retake") e = rules.retake(e, args[0]);
    else throw new Error("no event " + kind);
    return {
      attempt: e.attempt, done: !!e.done, score: e.score === undefined ? null : e.score,
      past: e.past.map((x) => [x.score, x.total]),
    };
  });
}

const cases = JSON.parse(fs.readFileSync(rulesPath, "utf8"));
process.stdout.write(JSON.stringify({ questions: cases.questions.map(question), exams: cases.exams.map(exam) }));
