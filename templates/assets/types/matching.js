/* The matching type's front-end part: a drop-down per row, each row's chosen item
 * hashed with the row's place. Its grade is konum.types.matching's in Python; tests/grading
 * runs both */
konumQuiz.define("matching", function (kit) {
  "use strict";
  var letter = kit.letter, retry = kit.retry, verdict = kit.verdict, markAll = kit.markAll,
    values = kit.values, hashOf = kit.hashOf;
  return {
    read: function (scope) { return values(scope, "select"); },
    answered: function (answer) { return answer.some(function (v) { return v !== ""; }); },
    grade: function (spec, answer, salt) {
      if (answer.every(function (v) { return v === ""; })) return retry(["quiz.match_first"]);
      var marks = answer.map(function (v, i) { return v !== "" && hashOf(salt, ["m", i, v]) === spec.rows[i]; });
      var right = marks.filter(Boolean).length, n = answer.length;
      if (right === n) return verdict(true, ["quiz.match_all", { n: n }], 1, marks);
      return verdict(false, ["quiz.match_some", { right: right, n: n }], right / n, marks);
    },
    show: function (scope, result) { markAll(scope, "select", result.marks); },
    /* SCORM's matching: each row's number with its chosen item's letter. */
    interaction: function (answer) {
      return { type: "matching", response: answer.map(function (chosen, i) {
        return [String(i + 1), chosen === "" ? "" : letter(Number(chosen))];
      }) };
    }
  };
});
