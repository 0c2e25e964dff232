/* The hotspot type's front-end part (examples/hotspot/hotspot.py): a picture whose regions
 * are radio buttons laid over it, each named by its region. A click on a region picks it;
 * from the keyboard, Tab reaches the regions, the arrow keys move between them and Space or
 * Enter picks one. Its grade is HotspotQuestion.grade's: the picked region's place, hashed
 * under the question's salt, against spec.right. Its style, in Material's colour variables
 * (so in the light and the dark scheme), is added to the page once. ES5, as konum's own. */
konumQuiz.define("hotspot", function (kit) {
  "use strict";
  var STYLE = [
    ".konum-hotspot-picture{position:relative;max-width:24rem;margin:1.6em 0 2em}",
    ".konum-hotspot-map{display:block;width:100%;height:auto;color:var(--md-primary-fg-color,#4051b5)}",
    ".konum-hotspot-region{position:absolute;top:0;bottom:0;box-sizing:border-box;margin:0;",
    "border:3px solid transparent;cursor:pointer}",
    ".konum-hotspot-region input{position:absolute;top:0;left:0;width:100%;height:100%;margin:0;",
    "opacity:0;cursor:pointer}",
    ".konum-hotspot-name{position:absolute;bottom:100%;left:0;right:0;text-align:center;",
    "font-size:.75rem;color:var(--md-default-fg-color)}",
    ".konum-hotspot-region:hover{border-color:var(--md-accent-fg-color,#526cfe)}",
    ".konum-hotspot-region:focus-within{outline:2px solid var(--md-accent-fg-color,#526cfe);outline-offset:2px}",
    ".konum-hotspot-region:has(input:checked){border-color:var(--md-default-fg-color);",
    "background:var(--md-accent-fg-color--transparent,rgba(82,108,254,.1))}",
    ".konum-hotspot .konum-hotspot-region.is-right{border-color:#43a047}",
    ".konum-hotspot .konum-hotspot-region.is-wrong{border-color:#e53935}",
    ".konum-hotspot-region .konum-mark{position:absolute;top:100%;left:0;right:0;text-align:center;font-size:.75rem}"
  ].join("");

  function style() {
    if (document.getElementById("konum-hotspot-style")) return;
    var el = document.createElement("style");
    el.id = "konum-hotspot-style";
    el.textContent = STYLE;
    document.head.appendChild(el);
  }

  return {
    read: function (scope) { return kit.values(scope, "input"); },
    answered: function (answer) { return answer.some(Boolean); },
    grade: function (spec, answer, salt) {
      var picked = answer.indexOf(true);
      if (picked < 0) return kit.retry(["quiz.choose_first"]);
      var ok = kit.hashOf(salt, ["r", picked]) === spec.right;
      var marks = answer.map(function (on) { return on ? ok : null; });
      return kit.verdict(ok, [ok ? "quiz.correct" : "quiz.wrong_try"], ok ? 1 : 0, marks);
    },
    show: function (scope, result) { kit.markAll(scope, "input", result.marks); },
    /* Enter picks the focused region too (a radio button takes only Space). */
    mount: function (el) {
      style();
      el.addEventListener("keydown", function (ev) {
        var input = ev.target;
        if (ev.key !== "Enter" || !input.matches(".konum-hotspot-region input") || input.disabled) return;
        ev.preventDefault();
        if (input.checked) return;
        input.checked = true;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      });
    },
    /* SCORM's choice: the picked region's letter (A for the first region). */
    interaction: function (answer) {
      var picked = answer.indexOf(true);
      return { type: "choice", response: picked < 0 ? [] : [kit.letter(picked)] };
    }
  };
});
