/* konum quizzes: self-checking questions rendered by generator/render.py.
 *
 * Mounts every [data-question-id] element inside [data-konum-quiz]. The page holds what
 * can be read without JavaScript (prompts and controls); mounting adds what only works
 * with it: the score and Reset button, the Check / Show answer / Hint / New numbers
 * buttons, the aria-live feedback line, the right/wrong marks, and empty boxes for what
 * is revealed later. Each question reads its checker data from
 * <script type="application/json" class="konum-data">, kept inside a <template> (out of
 * reach of Material's instant navigation, which re-creates scripts without their type).
 * A second script, "konum-later", maps keys to build-time HTML (rendered and sanitised by
 * the generator) for the answer, hint, explanation, option notes, worked solutions and the
 * other variants of a computed question (in full, or as their prompt and option texts when
 * shaped like the first: their forms are then copies of the first); it is parsed the first
 * time something is shown, and a box marked data-later="key" is filled from it then.
 * Progress lives in localStorage under "konum:<page path>:<quiz id>:<question id>". Safe to
 * load twice (Material's instant navigation re-runs scripts in the content): mounting is
 * idempotent.
 * No network requests, no dependencies.
 */
(function () {
  "use strict";
  if (window.konumQuiz) {
    window.konumQuiz.mountAll(document);
    return;
  }

  function $$(root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  function make(tag, attrs, text) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    if (text) el.textContent = text;
    return el;
  }
  function lazyBox(cls, key, id) {
    var box = make("div", { "class": cls, "data-later": key });
    if (id) box.id = id;
    box.hidden = true;
    return box;
  }
  function button(cls, text, attrs) {
    var b = make("button", attrs, text);
    b.type = "button";
    b.className = "konum-button " + cls;
    return b;
  }
  function show(el, on) {
    if (!el) return;
    if (on) fill(el);
    el.hidden = !on;
  }

  /* A data-later box gets its HTML (rendered and sanitised at build time) on first show. */
  function fill(el) {
    var key = el.getAttribute("data-later");
    var q = key !== null && el.closest(".konum-question");
    var later = q && laterOf(q);
    if (!later) return;
    if (Object.prototype.hasOwnProperty.call(later, key)) {
      el.innerHTML = later[key];
    } else {
      var form = /^variant-\d+$/.test(key) && variantForm(q, key.slice(8), later);
      if (!form) return;
      el.appendChild(form);
    }
    el.removeAttribute("data-later");
    nameMath(el);
  }

  /* Variant k's form when the build sent only its prompt and option texts ("prompt-k",
   * "option-k-i": its form is shaped like the first): a copy of the first form without
   * what quiz.js added to it (marks, notes, states, names), with variant k's ids and texts. */
  function variantForm(q, k, later) {
    var first = q.querySelector('.konum-variant[data-variant="0"] > fieldset');
    if (later["prompt-" + k] === undefined || !first) return null;
    var form = first.cloneNode(true), from = q.id + "-v0", to = q.id + "-v" + k;
    $$(form, ".konum-mark, .konum-option-feedback").forEach(function (n) { n.remove(); });
    [form].concat($$(form, "*")).forEach(function (n) {
      n.classList.remove("is-right", "is-wrong");
      ["id", "for", "name", "aria-describedby"].forEach(function (a) {
        var v = n.getAttribute(a);
        if (v) n.setAttribute(a, v.split(from).join(to));
      });
    });
    $$(form, "input").forEach(function (c) {
      c.removeAttribute("aria-invalid");
      c.removeAttribute("aria-label");
      c.checked = false;
      if (c.type === "text") c.value = "";
    });
    form.querySelector(".konum-prompt").innerHTML = later["prompt-" + k];
    $$(form, ".konum-options label").forEach(function (label, i) {
      label.innerHTML = later["option-" + k + "-" + i];
    });
    return form;
  }

  var store = {
    get: function (k) { try { return JSON.parse(localStorage.getItem(k) || "null"); } catch (e) { return null; } },
    set: function (k, v) { try { localStorage.setItem(k, JSON.stringify(v)); } catch (e) { /* storage off */ } },
    del: function (k) { try { localStorage.removeItem(k); } catch (e) { /* storage off */ } }
  };

  /* "0.84", ".84", "8.4e-1", "-0.84", "0,84" (comma decimal mark), "−0.84" -> number; else NaN */
  function parseNumber(text) {
    var s = String(text).trim().replace(/[\s\u00a0\u202f]/g, "").replace(/^\u2212/, "-");
    if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)(e[+-]?\d+)?$/i.test(s)) return NaN;
    return parseFloat(s.replace(",", "."));
  }

  function matchesBlank(spec, value) {
    var v = value.trim();
    if (spec.regex) {
      try { return new RegExp("^(?:" + spec.regex + ")$", spec.case_sensitive ? "" : "i").test(v); }
      catch (e) { return false; }
    }
    return spec.answers.some(function (a) {
      return spec.case_sensitive ? a.trim() === v : a.trim().toLowerCase() === v.toLowerCase();
    });
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function mark(target, ok) {
    var item = target.closest("li, .konum-match-row, .konum-numeric") || target;
    item.classList.toggle("is-right", ok === true);
    item.classList.toggle("is-wrong", ok === false);
    var m = item.querySelector(".konum-mark");
    if (!m && ok !== null) {  /* made on first use: after the option's label, else last */
      m = make("span", { "class": "konum-mark" });
      var label = item.matches("li") && item.querySelector("label");
      if (label) label.after(m); else item.appendChild(m);
    }
    if (m) m.textContent = ok === true ? "Right" : ok === false ? "Wrong" : "";
    if (target.matches("input[type=text], select")) {
      if (ok === null) target.removeAttribute("aria-invalid");
      else target.setAttribute("aria-invalid", ok ? "false" : "true");
    }
  }

  /* Graders: (scope element, spec) -> [ok, message, nothing entered]; they also mark
   * controls. With nothing entered the check counts for nothing and reveals nothing. */
  function gradeChoice(scope, spec) {
    var inputs = $$(scope, "input.konum-choice"), wrong = 0, missing = 0, any = false;
    inputs.forEach(function (inp, i) {
      var li = inp.closest("li"), right = spec.options[i];
      var fb = li.querySelector(".konum-option-feedback") || (inp.checked && noteBox(li, spec.notes + "note-" + i));
      any = any || inp.checked;
      if (inp.checked && !right) wrong++;
      if (!inp.checked && right) missing++;
      mark(inp, inp.checked ? right : null);
      show(fb, inp.checked);
    });
    if (!any) return [false, "Not quite: choose an answer first.", true];
    if (!wrong && !missing) return [true, "Correct."];
    if (!spec.multiple) {
      return [false, "Not quite." + (scope.querySelector(".konum-option-feedback:not([hidden])")
        ? " See the note under your choice." : " Try another option.")];
    }
    var parts = [];
    if (wrong) parts.push(plural(wrong, "choice") + " marked wrong");
    if (missing) parts.push(plural(missing, "correct option") + " not selected");
    return [false, "Not quite: " + parts.join(", ") + "."];
  }

  function gradeFill(scope, spec) {
    var bad = [], blanks = $$(scope, "input.konum-blank");
    if (blanks.every(function (inp) { return !inp.value.trim(); })) {
      blanks.forEach(function (inp) {
        inp.classList.remove("is-right", "is-wrong");
        inp.removeAttribute("aria-invalid");
      });
      return [false, "Not quite: fill in the blanks first.", true];
    }
    blanks.forEach(function (inp, i) {
      var ok = matchesBlank(spec.blanks[i], inp.value);
      inp.classList.toggle("is-right", ok);
      inp.classList.toggle("is-wrong", !ok);
      inp.setAttribute("aria-invalid", ok ? "false" : "true");
      if (!ok) bad.push(i + 1);
    });
    if (!bad.length) return [true, "Correct."];
    return [false, "Not quite: blank " + bad.join(", ") + (bad.length > 1 ? " are" : " is") + " not right yet."];
  }

  function gradeMatching(scope, spec) {
    var right = 0, sel = $$(scope, "select.konum-select");
    if (sel.every(function (s) { return s.value === ""; })) {
      sel.forEach(function (s) { mark(s, null); });
      return [false, "Not quite: choose a match first.", true];
    }
    sel.forEach(function (s, i) {
      var ok = s.value !== "" && Number(s.value) === spec.answers[i];
      if (ok) right++;
      mark(s, ok);
    });
    if (right === sel.length) return [true, "Correct: all " + sel.length + " pairs match."];
    return [false, "Not quite: " + right + " of " + sel.length + " pairs are right."];
  }

  function gradeNumeric(scope, spec) {
    var inp = scope.querySelector("input.konum-number-input"), x = parseNumber(inp.value);
    if (!inp.value.trim()) {
      mark(inp, null);
      return [false, "Not quite: type a number first.", true];
    }
    if (isNaN(x)) {
      mark(inp, false);
      return [false, "Not quite: write a number such as 0.84, -1.5 or 8.4e-1."];
    }
    var tol = spec.relative ? spec.tolerance * Math.abs(spec.answer) : spec.tolerance;
    var ok = Math.abs(x - spec.answer) <= tol + 1e-9 * Math.max(1, Math.abs(spec.answer));
    mark(inp, ok);
    if (ok) return [true, "Correct."];
    return [false, "Not quite: " + inp.value.trim() + " is too " + (x > spec.answer ? "high." : "low.")];
  }

  var GRADERS = { choice: gradeChoice, fill: gradeFill, matching: gradeMatching, numeric: gradeNumeric };

  /* Chromium leaves MathML out of accessible names ("whatever  and  are", or nothing for a
   * label that is all math): name such controls with the math's alttext in its place. */
  function nameMath(el) {
    $$(el, "label").forEach(function (label) {
      var control = label.htmlFor && document.getElementById(label.htmlFor);
      if (!control || control.hasAttribute("aria-label") || !label.querySelector("math")) return;
      var copy = label.cloneNode(true);
      $$(copy, "math").forEach(function (m) {
        m.replaceWith(" " + (m.getAttribute("alttext") || m.textContent).replace(/\\/g, "") + " ");
      });
      control.setAttribute("aria-label", copy.textContent.replace(/\s+/g, " ").trim());
    });
  }

  /* A question's script of its own (inside its <template>), parsed as JSON. */
  function scriptData(q, cls) {
    var box = q.querySelector("template.konum-data-box");
    var script = (box ? box.content : q).querySelector("script." + cls);
    return script ? JSON.parse(script.textContent) : null;
  }

  /* The HTML shown later, parsed when first needed (most questions never need it). */
  function laterOf(q) {
    if (!q.konumLater) q.konumLater = scriptData(q, "konum-later") || {};
    return q.konumLater;
  }

  /* The note box of an option, made when first needed, if the option has a note. */
  function noteBox(li, key) {
    var q = li.closest(".konum-question"), later = q && laterOf(q);
    if (!later || later[key] === undefined) return null;
    return li.appendChild(lazyBox("konum-option-feedback", key));
  }

  /* What only works with JavaScript, appended after the question's form(s). */
  function addChrome(el, data) {
    var id = el.id, computed = data.type === "computed";
    var count = computed ? data.variants.length : 1;
    var first = computed ? id + "-v0-answer" : id + "-answer";
    var row = make("div", { "class": "konum-buttons" });
    row.appendChild(button("konum-check", "Check"));
    row.appendChild(button("konum-show", "Show answer", { "aria-expanded": "false", "aria-controls": first }));
    if (data.hint) {
      row.appendChild(button("konum-hint-button", "Hint", { "aria-expanded": "false", "aria-controls": id + "-hint" }));
    }
    if (count > 1) row.appendChild(button("konum-new", "New numbers"));
    var parts = [row, make("div", { "class": "konum-feedback", id: id + "-feedback", "aria-live": "polite" })];
    if (data.hint) parts.push(lazyBox("konum-hint", "hint", id + "-hint"));
    parts.push(computed ? variantAnswers(id, 0) : lazyBox("konum-answer", "answer", first));
    if (data.explanation) parts.push(lazyBox("konum-explanation", "explanation"));
    parts.forEach(function (p) { el.appendChild(p); });
  }

  /* The answer and worked-solution boxes of variant k of a computed question. */
  function variantAnswers(id, k) {
    var wrap = make("div", { "class": "konum-variant-answer", "data-variant": String(k) });
    wrap.appendChild(lazyBox("konum-answer", "answer-" + k, id + "-v" + k + "-answer"));
    wrap.appendChild(lazyBox("konum-solution", "solution-" + k));
    return wrap;
  }

  /* Variant k's form and answer boxes, made the first time it is shown (hidden). */
  function ensureVariant(el, k) {
    if (el.querySelector('.konum-variant[data-variant="' + k + '"]')) return;
    var forms = el.querySelectorAll(".konum-variant"), answers = el.querySelectorAll(".konum-variant-answer");
    var form = lazyBox("konum-variant", "variant-" + k), wrap = variantAnswers(el.id, k);
    form.setAttribute("data-variant", String(k));
    wrap.hidden = true;
    forms[forms.length - 1].after(form);
    answers[answers.length - 1].after(wrap);
  }

  function mountQuestion(el, onChange) {
    if (el.konum) return el.konum;
    var data = scriptData(el, "konum-data");
    if (!el.querySelector(".konum-buttons")) addChrome(el, data);
    nameMath(el);
    var quiz = el.closest("[data-konum-quiz]");
    var key = "konum:" + location.pathname + ":" + (quiz ? quiz.getAttribute("data-quiz-id") : "") +
      ":" + el.getAttribute("data-question-id");
    var feedback = el.querySelector(".konum-feedback");
    var showBtn = el.querySelector(".konum-show"), hintBtn = el.querySelector(".konum-hint-button");
    var api = { ok: false, checked: false, revealed: false, variant: 0 };
    var count = data.type === "computed" ? data.variants.length : 1;

    function part(sel) {
      return data.type === "computed"
        ? el.querySelector(sel + '[data-variant="' + api.variant + '"]') : el;
    }
    function scope() { return part(".konum-variant"); }
    function answerBox() { return part(".konum-variant-answer").querySelector(".konum-answer"); }
    function controls() { return $$(scope(), "input, select"); }
    function spec() {
      if (data.type === "choice") return ["choice", { options: data.options, multiple: data.multiple, notes: "" }];
      if (data.type !== "computed") return [data.type, data];
      var v = data.variants[api.variant];
      return [v.form, v.form === "choice" ? { options: v.options, multiple: v.multiple, notes: api.variant + "-" } : v];
    }
    function solution() { return data.type === "computed" ? part(".konum-variant-answer").querySelector(".konum-solution") : null; }

    function save() {
      store.set(key, {
        v: api.variant, c: api.checked, r: api.revealed,
        a: controls().map(function (c) { return c.type === "radio" || c.type === "checkbox" ? c.checked : c.value; })
      });
    }

    function clearMarks() {
      $$(el, ".is-right, .is-wrong").forEach(function (n) { n.classList.remove("is-right", "is-wrong"); });
      $$(el, ".konum-mark").forEach(function (n) { n.textContent = ""; });
      $$(el, "[aria-invalid]").forEach(function (n) { n.removeAttribute("aria-invalid"); });
      $$(el, ".konum-option-feedback").forEach(function (n) { n.hidden = true; });
      feedback.textContent = "";
      feedback.className = "konum-feedback";
    }

    function setRevealed(on) {
      api.revealed = on;
      show(answerBox(), on);
      if (showBtn) {
        showBtn.setAttribute("aria-expanded", on ? "true" : "false");
        showBtn.setAttribute("aria-controls", answerBox().id);
      }
      afterAnswer();
    }

    function afterAnswer() {
      var done = api.checked || api.revealed;
      show(el.querySelector(".konum-explanation"), done);
      show(solution(), done);
    }

    function check(restoring) {
      var s = spec(), result = GRADERS[s[0]](scope(), s[1]);
      feedback.textContent = result[1];
      if (result[2]) {  /* nothing entered yet: no attempt, nothing revealed or saved */
        feedback.className = "konum-feedback is-wrong";
        return;
      }
      api.checked = true;
      api.ok = result[0];
      feedback.className = "konum-feedback " + (api.ok ? "is-right" : "is-wrong");
      afterAnswer();
      if (!restoring) save();
      if (onChange) onChange();
    }

    function setVariant(k) {
      show(scope(), false);
      show(part(".konum-variant-answer"), false);
      ensureVariant(el, k);
      api.variant = k;
      show(scope(), true);
      show(part(".konum-variant-answer"), true);
      if (showBtn) showBtn.setAttribute("aria-controls", answerBox().id);
    }

    function reset(keepStore) {
      clearMarks();
      $$(el, "input, select").forEach(function (c) {
        if (c.type === "radio" || c.type === "checkbox") c.checked = false; else c.value = "";
      });
      api.checked = api.ok = false;
      if (count > 1) setVariant(0);
      setRevealed(false);
      show(el.querySelector(".konum-hint"), false);
      if (hintBtn) hintBtn.setAttribute("aria-expanded", "false");
      if (!keepStore) store.del(key);
      if (onChange) onChange();
    }

    el.addEventListener("click", function (ev) {
      var b = ev.target.closest("button");
      if (!b || !el.contains(b)) return;
      if (b.classList.contains("konum-check")) check(false);
      else if (b.classList.contains("konum-show")) { setRevealed(!api.revealed); save(); }
      else if (b.classList.contains("konum-hint-button")) {
        var h = el.querySelector(".konum-hint"), open = h.hidden;
        show(h, open);
        b.setAttribute("aria-expanded", open ? "true" : "false");
      } else if (b.classList.contains("konum-new")) {
        var next = (api.variant + 1) % count;
        reset(true);
        setVariant(next);
        save();
      }
    });
    el.addEventListener("change", save);

    var saved = store.get(key);
    if (saved) {
      if (saved.v > 0 && saved.v < count) setVariant(saved.v);
      controls().forEach(function (c, i) {
        var v = saved.a && saved.a[i];
        if (v === undefined || v === null) return;
        if (c.type === "radio" || c.type === "checkbox") c.checked = !!v; else c.value = v;
      });
      if (saved.c) check(true);
      if (saved.r) setRevealed(true);
    }
    api.reset = reset;
    el.konum = api;
    el.setAttribute("data-konum-mounted", "");
    return api;
  }

  function mountQuiz(quiz) {
    if (quiz.konum) return;
    var head = quiz.querySelector(".konum-quiz-head");
    if (!head) {
      head = make("div", { "class": "konum-quiz-head" });
      quiz.insertBefore(head, quiz.firstChild);
    }
    if (!head.querySelector(".konum-score")) {
      var line = make("p", { "class": "konum-score" });
      line.appendChild(make("span", { "class": "konum-score-value" }, "0"));
      line.appendChild(document.createTextNode(" / " + quiz.querySelectorAll("[data-question-id]").length + " correct"));
      head.appendChild(line);
      head.appendChild(button("konum-reset", "Reset"));
    }
    var questions = [], score = quiz.querySelector(".konum-score-value");
    function update() {
      score.textContent = String(questions.filter(function (q) { return q.checked && q.ok; }).length);
    }
    $$(quiz, "[data-question-id]").forEach(function (el) { questions.push(mountQuestion(el, update)); });
    var reset = quiz.querySelector(".konum-reset");
    if (reset) reset.addEventListener("click", function () {
      questions.forEach(function (q) { q.reset(false); });
    });
    quiz.konum = true;
    update();
  }

  function mountAll(root) { $$(root, "[data-konum-quiz]").forEach(mountQuiz); }

  window.konumQuiz = { mountAll: mountAll, mountQuestion: mountQuestion, parseNumber: parseNumber };

  /* Mount now, and again on each of Material's page changes (document$). Not only through
   * document$: from file:// Material (9.x, navigation.instant) completes it without a value. */
  function start() {
    var d$ = window.document$;
    mountAll(document);
    if (d$ && typeof d$.subscribe === "function") d$.subscribe(function () { mountAll(document); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
