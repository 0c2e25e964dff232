/* The fill type's front-end part: blanks in a text, each judged by the hashes of its
 * accepted answers (normalised as konum.seal.normal_text) or by a sealed regular expression.
 * Its grade is konum.types.fill's in Python; tests/grading runs both */
konumQuiz.define("fill", function (kit) {
  "use strict";
  var $$ = kit.$$, retry = kit.retry, verdict = kit.verdict, values = kit.values,
    anyText = kit.anyText, hashOf = kit.hashOf, unseal = kit.unseal, normal = kit.normal;
  function matchesBlank(spec, value, salt, i) {
    if (spec.regex) {
      try {
        var re = new RegExp("^(?:" + unseal(salt + "\x1f" + i, spec.regex) + ")$", spec.case_sensitive ? "" : "i");
        return re.test(value.trim().replace(/\u2212/g, "-"));  /* the page's minus, as - */
      } catch (e) { return false; }
    }
    return spec.answers.indexOf(hashOf(salt, ["b", i, normal(value, spec.case_sensitive)])) >= 0;
  }
  return {
    read: function (scope) { return values(scope, "input"); },
    answered: anyText,
    grade: function (spec, answer, salt) {
      if (!anyText(answer)) return retry(["quiz.fill_first"]);
      var comma = answer.some(function (v, i) {
        return /\d,\d/.test(v) && !matchesBlank(spec.blanks[i], v, salt, i) &&
          matchesBlank(spec.blanks[i], v.replace(/,/g, "."), salt, i);
      });
      if (comma) return retry(["quiz.point_not_comma"]);
      var marks = answer.map(function (v, i) { return matchesBlank(spec.blanks[i], v, salt, i); });
      var bad = [];
      marks.forEach(function (ok, i) { if (!ok) bad.push(i + 1); });
      if (!bad.length) return verdict(true, ["quiz.correct"], 1, marks);
      return verdict(false, ["quiz.blanks_wrong", { n: bad.length, list: bad }], 1 - bad.length / answer.length, marks);
    },
    show: function (scope, result) {
      $$(scope, "input").forEach(function (inp, i) {
        var ok = result.marks[i];
        inp.classList.toggle("is-right", ok === true);
        inp.classList.toggle("is-wrong", ok === false);
        if (ok === undefined) inp.removeAttribute("aria-invalid");
        else inp.setAttribute("aria-invalid", ok ? "false" : "true");
      });
    },
    interaction: function (answer) { return { type: "fill-in", response: answer.map(String) }; }
  };
});
