/* Runs the shared grading vectors (tests/grading/vectors.json) against the types' front-end
 * parts, in Node, as tests/grading/test_vectors.py asks: node graders.js VECTORS QUIZ_JS
 * PART_JS... prints, per case, {key, retry, share} as JSON lines' array.
 *
 * quiz.js runs in a context of its own with what its start-up touches (a document with no
 * quizzes, the learner state's storage calls, the interface texts as their keys), then each
 * part's file, which defines its part through konumQuiz.define; one line added before
 * quiz.js's window.konumQuiz hands the test the parts, which the page does not expose.
 * A question with variants is graded as the page grades it: by its variant's form, spec and
 * salt (the question's salt, a unit separator, the variant's number).
 */
"use strict";
const fs = require("fs");
const vm = require("vm");

const [vectorsPath, quizPath, ...partPaths] = process.argv.slice(2);
const anchor = "  window.konumQuiz = {";
const source = fs.readFileSync(quizPath, "utf8");
if (source.split(anchor).length !== 2) throw new Error("quiz.js has no single " + anchor.trim());
const hooked = source.replace(anchor, "  window.__parts = PARTS;\n" + anchor);

function context(language) {
  const none = () => null;
  const document = {
    documentElement: { lang: language }, readyState: "complete",
    querySelectorAll: () => [], addEventListener: none,
  };
  const window = {
    konumState: { get: none, set: none, remove: none, follow: none },
    konumText: (key) => key,
  };
  const ctx = { window, document, location: { pathname: "/" } };
  vm.createContext(ctx);
  vm.runInContext(hooked, ctx, { filename: quizPath });
  ctx.konumQuiz = window.konumQuiz;
  for (const part of partPaths) vm.runInContext(fs.readFileSync(part, "utf8"), ctx, { filename: part });
  return window.__parts;
}

const parts = {};
const cases = JSON.parse(fs.readFileSync(vectorsPath, "utf8"));
const out = cases.map((c) => {
  const known = parts[c.language] || (parts[c.language] = context(c.language));
  let spec = c.spec, salt = c.salt, name = c.spec.type;
  if (Array.isArray(c.spec.variants)) {
    spec = c.spec.variants[c.variant];
    salt = c.salt + "\x1f" + c.variant;
    name = spec.form;
  }
  const result = known[name].grade(Object.assign({ noted: c.noted }, spec), c.answer, salt);
  return { key: result.say[0], retry: result.retry, share: result.share };
});
process.stdout.write(JSON.stringify(out));
