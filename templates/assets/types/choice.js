/* The choice type's front-end part: one or several options ticked (radio buttons or
 * checkboxes). Its grade is konum.types.choice's in Python; tests/grading runs both. An option's
 * place in the page is hashed under the salt for the right ones (spec.right); several right
 * ones earn a share by what is ticked right less what is ticked wrong */
konumQuiz.define("choice", function (kit) {
  "use strict";
  var letter = kit.letter, $$ = kit.$$, retry = kit.retry, verdict = kit.verdict, mark = kit.mark,
    values = kit.values, hashOf = kit.hashOf, show = kit.show, noteBox = kit.noteBox;
  return {
    read: function (scope) { return values(scope, "input"); },
    answered: function (answer) { return answer.some(Boolean); },
    grade: function (spec, answer, salt) {
      var wrong = 0, missing = 0, ticked = 0, rights = 0, marks = [];
      answer.forEach(function (on, i) {
        var right = spec.right.indexOf(hashOf(salt, ["o", i])) >= 0;
        if (right) rights++;
        if (on && !right) wrong++;
        if (on && right) ticked++;
        if (!on && right) missing++;
        marks.push(on ? right : null);
      });
      if (!answer.some(Boolean)) return retry(["quiz.choose_first"]);
      if (!wrong && !missing) return verdict(true, ["quiz.correct"], 1, marks);
      if (!spec.multiple) {
        var noted = answer.some(function (on, i) { return on && (spec.noted || []).indexOf(i) >= 0; });
        return verdict(false, [noted ? "quiz.wrong_noted" : "quiz.wrong_try"], 0, marks);
      }
      var parts = [];
      if (wrong) parts.push(["quiz.choices_wrong", { n: wrong }]);
      if (missing) parts.push(["quiz.options_missing", { n: missing }]);
      return verdict(false, ["quiz.wrong_parts", { parts: parts }], Math.max(0, (ticked - wrong) / rights), marks);
    },
    /* The note of each chosen option shows. */
    show: function (scope, result, spec) {
      $$(scope, "input").forEach(function (inp, i) {
        var li = inp.parentElement, fb = li.konumNote || (inp.checked && noteBox(li, spec.notes + "note-" + i));
        mark(inp, result.marks[i] === undefined ? null : result.marks[i]);
        show(fb, inp.checked);
      });
    },
    /* SCORM's choice: the ticked options' letters, in the page's order. */
    interaction: function (answer) {
      var picked = [];
      answer.forEach(function (on, i) { if (on === true) picked.push(letter(i)); });
      return { type: "choice", response: picked };
    }
  };
});
