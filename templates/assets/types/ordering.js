/* The ordering type's front-end part: items put in order with Move up / Move down
 * buttons (mount), the order being the answer. Its grade is konum.types.ordering's in Python;
 * tests/grading runs both */
konumQuiz.define("ordering", function (kit) {
  "use strict";
  var letter = kit.letter, $$ = kit.$$, make = kit.make, button = kit.button, t = kit.t,
    spoken = kit.spoken, retry = kit.retry, verdict = kit.verdict, mark = kit.mark,
    hashOf = kit.hashOf;
  /* Items in the reader's order: their places in the starting order (data-item). */
  function orderOf(scope) {
    return $$(scope, "li[data-item]").map(function (li) { return Number(li.getAttribute("data-item")); });
  }
  function moved(answer) { return answer.some(function (k, p) { return k !== p; }); }

  /* Move up / Move down: a move keeps the focus on the item and is announced in `status`. */
  function mountOrdering(list, status, onMove) {
    function text(li) { return spoken(li.querySelector(":scope > .konum-order-text")); }
    function refresh() {
      var items = $$(list, ":scope > li");
      items.forEach(function (li, p) {
        li.konumUp.disabled = p === 0;
        li.konumDown.disabled = p === items.length - 1;
      });
    }
    $$(list, ":scope > li").forEach(function (li) {
      var up = button("konum-move konum-move-up", "\u2191", { "aria-label": t("quiz.move_up", { item: text(li) }) });
      var down = button("konum-move konum-move-down", "\u2193", { "aria-label": t("quiz.move_down", { item: text(li) }) });
      var box = make("span", { "class": "konum-move-buttons" });
      box.appendChild(up);
      box.appendChild(down);
      li.appendChild(box);
      li.konumUp = up;
      li.konumDown = down;
    });
    list.addEventListener("click", function (ev) {
      var b = ev.target.closest("button.konum-move"), li = b && b.closest("li");
      if (!li || b.disabled) return;
      var other = b === li.konumUp ? li.previousElementSibling : li.nextElementSibling;
      if (!other) return;
      if (b === li.konumUp) other.before(li); else other.after(li);
      refresh();
      (b.disabled ? (b === li.konumUp ? li.konumDown : li.konumUp) : b).focus();
      var items = $$(list, ":scope > li");
      status.textContent = t("quiz.moved", { item: text(li), place: items.indexOf(li) + 1, total: items.length });
      onMove();
    });
    refresh();
    return {
      set: function (order) {
        var byItem = {};
        $$(list, ":scope > li").forEach(function (li) { byItem[li.getAttribute("data-item")] = li; });
        order.forEach(function (k) { if (byItem[k]) list.appendChild(byItem[k]); });
        refresh();
      },
      reset: function () { this.set(orderOf(list).slice().sort(function (x, y) { return x - y; })); },
      disable: function (on) {
        $$(list, "button").forEach(function (b) { b.disabled = on; });
        if (!on) refresh();
      }
    };
  }
  return {
    read: orderOf,
    answered: moved,
    grade: function (spec, answer, salt) {
      if (!moved(answer)) return retry(["quiz.order_first"]);
      var marks = answer.map(function (k, p) { return hashOf(salt, ["p", p, k]) === spec.positions[p]; });
      var right = marks.filter(Boolean).length, n = answer.length;
      if (right === n) return verdict(true, ["quiz.order_all", { n: right }], 1, marks);
      return verdict(false, ["quiz.order_some", { right: right, n: n }], right / n, marks);
    },
    show: function (scope, result) {
      $$(scope, "li[data-item]").forEach(function (li, p) {
        mark(li.firstElementChild, result.marks[p] === undefined ? null : result.marks[p]);
      });
    },
    /* Move up / Move down buttons; the order is the answer to store and restore. */
    mount: function (el, status, onMove) {
      return mountOrdering(el.querySelector("ol[id$='-order']"), status, onMove);
    },
    /* SCORM's sequencing: the items' letters (their starting places) in the reader's order. */
    interaction: function (answer) {
      return { type: "sequencing", response: answer.map(function (place) { return letter(Number(place)); }) };
    }
  };
});
