/* The output type's front-end part: what a program prints, pasted, against the sealed
 * expected output. Its grade is konum.types.output's in Python; tests/grading runs both */
konumQuiz.define("output", function (kit) {
  "use strict";
  var retry = kit.retry, verdict = kit.verdict, markAll = kit.markAll, values = kit.values,
    anyText = kit.anyText, unseal = kit.unseal;
  /* Output questions: the reader's program's output against the example's, line by line
   * (blank lines aside) and token by token (spacing aside); numbers within the tolerance,
   * times the expected number when that is larger than 1. The first difference is told. */
  var TOKEN = /[A-Za-z_]\w*|[+\-\u2212]?(?:\d+\.?\d*|\.\d+)(?:e[+\-]?\d+)?|\S/gi, NUMBER = /^[+\-\u2212]?\.?\d/;

  function differs(key, v) { return ["quiz.output_" + key, v]; }
  function outputLines(text) {
    return String(text).split(/\r?\n/).map(function (line) {
      return { text: line.trim(), tokens: line.match(TOKEN) || [] };
    }).filter(function (line) { return line.tokens.length; });
  }
  function toNumber(token) { return parseFloat(token.replace("\u2212", "-")); }

  /* How the reader's line n differs from the expected one, or null. */
  function lineDifference(n, want, got, tolerance) {
    for (var k = 0, index = 0; k < want.length; k++) {
      var w = want[k], g = got[k], numeric = NUMBER.test(w);
      if (numeric) index++;
      if (g === undefined) return differs("short", { line: n, expected: want.slice(k).join(" ") });
      if (numeric && NUMBER.test(g)) {
        if (!(Math.abs(toNumber(w) - toNumber(g)) <= tolerance * Math.max(1, Math.abs(toNumber(w))))) {
          return differs("number", { line: n, index: index, expected: w, found: g });
        }
      } else if (w !== g) return differs("word", { line: n, expected: w, found: g });
    }
    return got.length > want.length ? differs("long", { line: n, found: got.slice(k).join(" ") }) : null;
  }
  return {
    read: function (scope) { return values(scope, "textarea"); },
    answered: anyText,
    grade: function (spec, answer, salt) {
      var text = String(answer[0]), problem = null;
      if (!text.trim()) return retry(["quiz.output_empty"]);
      var want = outputLines(unseal(salt, spec.expected)), got = outputLines(text);
      for (var i = 0; i < want.length && !problem; i++) {
        problem = i < got.length ? lineDifference(i + 1, want[i].tokens, got[i].tokens, spec.tolerance)
          : ["quiz.output_missing", { line: i + 1, expected: want[i].text }];
      }
      if (!problem && got.length > want.length) problem = ["quiz.output_extra", { line: i + 1, found: got[i].text }];
      return problem ? verdict(false, problem, 0, [false]) : verdict(true, ["quiz.output_right"], 1, [true]);
    },
    show: function (scope, result) { markAll(scope, "textarea", result.marks); },
    interaction: function (answer) { return { type: "fill-in", response: answer.map(String) }; }
  };
});
