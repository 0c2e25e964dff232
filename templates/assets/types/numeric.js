/* The numeric type's front-end part: a typed number, read as the page's language
 * writes numbers, against the sealed interval it must fall in. Its grade is
 * konum.types.numeric's in Python; tests/grading runs both */
konumQuiz.define("numeric", function (kit) {
  "use strict";
  var retry = kit.retry, verdict = kit.verdict, markAll = kit.markAll, values = kit.values,
    anyText = kit.anyText, unseal = kit.unseal, readNumber = kit.readNumber,
    fmtExact = kit.fmtExact;
  return {
    read: function (scope) { return values(scope, "input"); },
    answered: anyText,
    grade: function (spec, answer, salt) {
      var typed = String(answer[0]).trim(), read = readNumber(typed), x = read.value;
      if (!typed) return retry(["quiz.number_first"]);
      /* Not a number, or one written in the other convention: asked again, not an attempt. */
      if (read.ask !== undefined) return retry(["quiz.number_ask", { typed: typed, value: fmtExact(read.ask) }]);
      if (x === undefined) return retry(["quiz.number_bad"]);
      var range = JSON.parse(unseal(salt, spec.interval)), ok = range[0] <= x && x <= range[1];
      if (ok) return verdict(true, ["quiz.correct"], 1, [true]);
      return verdict(false, [x > range[1] ? "quiz.too_high" : "quiz.too_low", { value: typed }], 0, [false]);
    },
    show: function (scope, result) { markAll(scope, "input", result.marks); },
    interaction: function (answer) {
      return { type: "numeric", response: [String(answer[0] === undefined ? "" : answer[0])] };
    }
  };
});
