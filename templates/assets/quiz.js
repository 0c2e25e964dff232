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
 *
 * Prompts and options hold bank HTML, which may carry any class name. So the script finds
 * what it made through the references it kept, and the template's parts through what bank
 * HTML cannot have (the sanitiser lets no data-*, id, form control, label, template or
 * script through): data attributes, ids, tags and direct children. Everything it adds
 * carries data-konum-made; a copy of a mounted page (instant navigation) is cleaned first.
 *
 * Progress lives in localStorage under "konum:<page path>:<quiz id>:<question id>". Reset
 * asks first, and its Undo puts the answers back until the page is left. Enter in a text
 * box checks the question. Safe to load twice (Material's instant navigation re-runs
 * scripts in the content): mounting is idempotent. No network requests, no dependencies.
 */
(function () {
  "use strict";
  if (window.konumQuiz) {
    window.konumQuiz.mountAll(document);
    return;
  }

  /* The interface's texts in the page's language (konum.messages, in the page as JSON):
   * t(key, fields) fills {name} fields; a text "one|other" gives its form for fields.n. */
  var texts = null;
  function t(key, fields) {
    if (!texts) {
      var box = document.querySelector("template[data-konum-messages]");
      var script = box && box.content.querySelector("script");
      texts = script ? JSON.parse(script.textContent) : {};
    }
    var text = texts[key] || key, forms = text.split("|");
    if (forms.length > 1) text = fields && fields.n === 1 ? forms[0] : forms[1];
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      return fields && name in fields ? String(fields[name]) : all;
    });
  }

  function $$(root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  function make(tag, attrs, text) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    el.setAttribute("data-konum-made", "");
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
  function question(node) { return node.closest("[data-question-id]"); }
  function last(list) { return list.filter(Boolean).pop(); }

  /* A data-later box gets its HTML (rendered and sanitised at build time) on first show. */
  function fill(el) {
    var key = el.getAttribute("data-later");
    var q = key !== null && question(el);
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
    var first = q.querySelector(':scope > [data-variant="0"] > fieldset');
    if (later["prompt-" + k] === undefined || !first) return null;
    var form = first.cloneNode(true), from = q.id + "-v0", to = q.id + "-v" + k;
    $$(form, "[data-konum-made]").forEach(function (n) { n.remove(); });
    [form].concat($$(form, "*")).forEach(function (n) {
      ["id", "for", "name", "aria-describedby"].forEach(function (a) {
        var v = n.getAttribute(a);
        if (v) n.setAttribute(a, v.split(from).join(to));
      });
    });
    $$(form, "input").forEach(function (c, i) {
      c.parentElement.classList.remove("is-right", "is-wrong");
      c.removeAttribute("aria-invalid");
      c.removeAttribute("aria-label");
      c.checked = false;
      if (c.type === "text") c.value = "";
      else c.parentElement.querySelector("label").innerHTML = later["option-" + k + "-" + i];
    });
    form.querySelector('[id="' + to + '-prompt"]').innerHTML = later["prompt-" + k];
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
    // The page's language decides case ("IŞIK" is "ışık" in Turkish, not "işik").
    var v = value.trim(), lang = document.documentElement.lang || undefined;
    if (spec.regex) {
      try { return new RegExp("^(?:" + spec.regex + ")$", spec.case_sensitive ? "" : "i").test(v); }
      catch (e) { return false; }
    }
    return spec.answers.some(function (a) {
      return spec.case_sensitive ? a.trim() === v
        : a.trim().toLocaleLowerCase(lang) === v.toLocaleLowerCase(lang);
    });
  }


  /* Mark a control's row (its parent: the option's <li>, the matching row, the numeric
   * line) right, wrong or neither; the mark is made on first use, after the option's label. */
  function mark(target, ok) {
    var item = target.parentElement, m = item.konumMark;
    item.classList.toggle("is-right", ok === true);
    item.classList.toggle("is-wrong", ok === false);
    if (!m && ok !== null) {
      m = item.konumMark = make("span", { "class": "konum-mark" });
      var label = item.matches("li") && item.querySelector("label");
      if (label) label.after(m); else item.appendChild(m);
    }
    if (m) m.textContent = ok === true ? t("quiz.right") : ok === false ? t("quiz.wrong") : "";
    if (target.matches("input[type=text], select, textarea")) {
      if (ok === null) target.removeAttribute("aria-invalid");
      else target.setAttribute("aria-invalid", ok ? "false" : "true");
    }
  }

  /* Graders: (scope element, spec) -> [ok, message, nothing entered]; they also mark
   * controls. With nothing entered the check counts for nothing and reveals nothing. */
  function gradeChoice(scope, spec) {
    var inputs = $$(scope, "input"), wrong = 0, missing = 0, any = false, noted = false;
    inputs.forEach(function (inp, i) {
      var li = inp.parentElement, right = spec.options[i];
      var fb = li.konumNote || (inp.checked && noteBox(li, spec.notes + "note-" + i));
      any = any || inp.checked;
      if (inp.checked && !right) wrong++;
      if (!inp.checked && right) missing++;
      mark(inp, inp.checked ? right : null);
      show(fb, inp.checked);
      noted = noted || (inp.checked && !!fb);
    });
    if (!any) return [false, t("quiz.choose_first"), true];
    if (!wrong && !missing) return [true, t("quiz.correct")];
    if (!spec.multiple) {
      return [false, t(noted ? "quiz.wrong_noted" : "quiz.wrong_try")];
    }
    var parts = [];
    if (wrong) parts.push(t("quiz.choices_wrong", { n: wrong }));
    if (missing) parts.push(t("quiz.options_missing", { n: missing }));
    return [false, t("quiz.wrong_parts", { parts: parts.join(t("quiz.list_separator")) })];
  }

  function gradeFill(scope, spec) {
    var bad = [], blanks = $$(scope, "input");
    if (blanks.every(function (inp) { return !inp.value.trim(); })) {
      blanks.forEach(function (inp) {
        inp.classList.remove("is-right", "is-wrong");
        inp.removeAttribute("aria-invalid");
      });
      return [false, t("quiz.fill_first"), true];
    }
    blanks.forEach(function (inp, i) {
      var ok = matchesBlank(spec.blanks[i], inp.value);
      inp.classList.toggle("is-right", ok);
      inp.classList.toggle("is-wrong", !ok);
      inp.setAttribute("aria-invalid", ok ? "false" : "true");
      if (!ok) bad.push(i + 1);
    });
    if (!bad.length) return [true, t("quiz.correct")];
    return [false, t("quiz.blanks_wrong", { n: bad.length, list: bad.join(t("quiz.list_separator")) })];
  }

  function gradeMatching(scope, spec) {
    var right = 0, sel = $$(scope, "select");
    if (sel.every(function (s) { return s.value === ""; })) {
      sel.forEach(function (s) { mark(s, null); });
      return [false, t("quiz.match_first"), true];
    }
    sel.forEach(function (s, i) {
      var ok = s.value !== "" && Number(s.value) === spec.answers[i];
      if (ok) right++;
      mark(s, ok);
    });
    if (right === sel.length) return [true, t("quiz.match_all", { n: sel.length })];
    return [false, t("quiz.match_some", { right: right, n: sel.length })];
  }

  function gradeNumeric(scope, spec) {
    var inp = scope.querySelector("input"), x = parseNumber(inp.value);
    if (!inp.value.trim()) {
      mark(inp, null);
      return [false, t("quiz.number_first"), true];
    }
    if (isNaN(x)) {
      mark(inp, false);
      return [false, t("quiz.number_bad")];
    }
    var tol = spec.relative ? spec.tolerance * Math.abs(spec.answer) : spec.tolerance;
    var ok = Math.abs(x - spec.answer) <= tol + 1e-9 * Math.max(1, Math.abs(spec.answer));
    mark(inp, ok);
    if (ok) return [true, t("quiz.correct")];
    return [false, t(x > spec.answer ? "quiz.too_high" : "quiz.too_low", { value: inp.value.trim() })];
  }

  /* Output questions: the reader's program's output against the example's, line by line
   * (blank lines aside) and token by token (spacing aside); numbers within the tolerance,
   * times the expected number when that is larger than 1. The first difference is told. */
  var TOKEN = /[A-Za-z_]\w*|[+\-\u2212]?(?:\d+\.?\d*|\.\d+)(?:e[+\-]?\d+)?|\S/gi, NUMBER = /^[+\-\u2212]?\.?\d/;

  function say(key, v) { return t("quiz.output_" + key, v); }
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
      if (g === undefined) return say("short", { line: n, expected: want.slice(k).join(" ") });
      if (numeric && NUMBER.test(g)) {
        if (!(Math.abs(toNumber(w) - toNumber(g)) <= tolerance * Math.max(1, Math.abs(toNumber(w))))) {
          return say("number", { line: n, index: index, expected: w, found: g });
        }
      } else if (w !== g) return say("word", { line: n, expected: w, found: g });
    }
    return got.length > want.length ? say("long", { line: n, found: got.slice(k).join(" ") }) : null;
  }

  function gradeOutput(scope, spec) {
    var box = scope.querySelector("textarea"), problem = null;
    if (!box.value.trim()) {
      mark(box, null);
      return [false, t("quiz.output_empty"), true];
    }
    var want = outputLines(spec.expected), got = outputLines(box.value);
    for (var i = 0; i < want.length && !problem; i++) {
      problem = i < got.length ? lineDifference(i + 1, want[i].tokens, got[i].tokens, spec.tolerance)
        : say("missing", { line: i + 1, expected: want[i].text });
    }
    if (!problem && got.length > want.length) problem = say("extra", { line: i + 1, found: got[i].text });
    mark(box, !problem);
    return problem ? [false, problem] : [true, t("quiz.output_right")];
  }

  var GRADERS = { choice: gradeChoice, fill: gradeFill, matching: gradeMatching, numeric: gradeNumeric };
  GRADERS.output = gradeOutput;

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
    var box = q.querySelector(":scope > template");
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
    var later = laterOf(question(li));
    if (later[key] === undefined) return null;
    return (li.konumNote = li.appendChild(lazyBox("konum-option-feedback", key)));
  }

  /* The answer and worked-solution boxes of variant k of a computed question. */
  function variantAnswers(id, k) {
    var wrap = make("div", { "class": "konum-variant-answer", "data-variant-answer": String(k) });
    wrap.konumAnswer = wrap.appendChild(lazyBox("konum-answer", "answer-" + k, id + "-v" + k + "-answer"));
    wrap.konumSolution = wrap.appendChild(lazyBox("konum-solution", "solution-" + k));
    return wrap;
  }

  function mountQuestion(el, onChange) {
    if (el.konum) return el.konum;
    var data = scriptData(el, "konum-data");
    $$(el, "[data-konum-made]").forEach(function (n) { n.remove(); });  /* a copy's chrome */
    var id = el.id, computed = data.type === "computed";
    var count = computed ? data.variants.length : 1;
    var forms = computed ? [el.querySelector(':scope > [data-variant="0"]')] : [el];
    var answers = computed ? [variantAnswers(id, 0)] : [{ konumAnswer: lazyBox("konum-answer", "answer", id + "-answer") }];

    var row = make("div", { "class": "konum-buttons" });
    var checkBtn = row.appendChild(button("konum-check", t("quiz.check")));
    var showBtn = row.appendChild(button("konum-show", t("quiz.show_answer"), { "aria-expanded": "false", "aria-controls": answers[0].konumAnswer.id }));
    var hintBtn = data.hint && row.appendChild(button("konum-hint-button", t("quiz.hint"), { "aria-expanded": "false", "aria-controls": id + "-hint" }));
    var newBtn = count > 1 && row.appendChild(button("konum-new", t("quiz.new_numbers")));
    var feedback = make("div", { "class": "konum-feedback", id: id + "-feedback", "aria-live": "polite" });
    var hint = data.hint && lazyBox("konum-hint", "hint", id + "-hint");
    var explanation = data.explanation && lazyBox("konum-explanation", "explanation");
    [row, feedback, hint, computed ? answers[0] : answers[0].konumAnswer, explanation].forEach(function (p) {
      if (p) el.appendChild(p);
    });
    nameMath(el);

    var quiz = el.closest("[data-konum-quiz]");
    var key = "konum:" + location.pathname + ":" + (quiz ? quiz.getAttribute("data-quiz-id") : "") +
      ":" + el.getAttribute("data-question-id");
    var api = { ok: false, checked: false, revealed: false, variant: 0, key: key };

    function scope() { return forms[api.variant]; }
    function answerBox() { return answers[api.variant].konumAnswer; }
    function controls() { return $$(scope(), "input, select, textarea"); }
    function spec() {
      if (data.type === "choice") return ["choice", { options: data.options, multiple: data.multiple, notes: "" }];
      if (!computed) return [data.type, data];
      var v = data.variants[api.variant];
      return [v.form, v.form === "choice" ? { options: v.options, multiple: v.multiple, notes: api.variant + "-" } : v];
    }

    function save() {
      store.set(key, {
        v: api.variant, c: api.checked, r: api.revealed,
        a: controls().map(function (c) { return c.type === "radio" || c.type === "checkbox" ? c.checked : c.value; })
      });
    }

    function clearMarks() {
      $$(el, "input, select, textarea").forEach(function (c) {
        c.classList.remove("is-right", "is-wrong");
        c.removeAttribute("aria-invalid");
        var item = c.parentElement;
        item.classList.remove("is-right", "is-wrong");
        if (item.konumMark) item.konumMark.textContent = "";
        if (item.konumNote) item.konumNote.hidden = true;
      });
      feedback.textContent = "";
      feedback.className = "konum-feedback";
    }

    function setRevealed(on) {
      api.revealed = on;
      show(answerBox(), on);
      showBtn.setAttribute("aria-expanded", on ? "true" : "false");
      showBtn.setAttribute("aria-controls", answerBox().id);
      afterAnswer();
    }

    function afterAnswer() {
      var done = api.checked || api.revealed;
      show(explanation, done);
      if (computed) show(answers[api.variant].konumSolution, done);
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

    /* Variant k's form and answer boxes, made the first time it is shown (hidden). */
    function setVariant(k) {
      show(scope(), false);
      show(answers[api.variant], false);
      if (!forms[k]) {
        var form = lazyBox("konum-variant", "variant-" + k), wrap = variantAnswers(id, k);
        form.setAttribute("data-variant", String(k));
        wrap.hidden = true;
        last(forms).after(form);
        last(answers).after(wrap);
        forms[k] = form;
        answers[k] = wrap;
      }
      api.variant = k;
      show(scope(), true);
      show(answers[k], true);
      showBtn.setAttribute("aria-controls", answerBox().id);
    }

    function reset(keepStore) {
      clearMarks();
      $$(el, "input, select, textarea").forEach(function (c) {
        if (c.type === "radio" || c.type === "checkbox") c.checked = false; else c.value = "";
      });
      api.checked = api.ok = false;
      if (count > 1) setVariant(0);
      setRevealed(false);
      show(hint, false);
      if (hintBtn) hintBtn.setAttribute("aria-expanded", "false");
      if (!keepStore) store.del(key);
      if (onChange) onChange();
    }

    function restore(saved) {
      if (!saved) return;
      if (saved.v > 0 && saved.v < count) setVariant(saved.v);
      controls().forEach(function (c, i) {
        var v = saved.a && saved.a[i];
        if (v === undefined || v === null) return;
        if (c.type === "radio" || c.type === "checkbox") c.checked = !!v; else c.value = v;
      });
      if (saved.c) check(true);
      if (saved.r) setRevealed(true);
    }

    el.addEventListener("click", function (ev) {
      var b = ev.target.closest("button");
      if (b === checkBtn) check(false);
      else if (b === showBtn) { setRevealed(!api.revealed); save(); }
      else if (b === hintBtn) {
        var open = hint.hidden;
        show(hint, open);
        b.setAttribute("aria-expanded", open ? "true" : "false");
      } else if (b === newBtn) {
        var next = (api.variant + 1) % count;
        reset(true);
        setVariant(next);
        save();
      }
    });
    el.addEventListener("keydown", function (ev) {
      var target = ev.target;
      if (ev.key === "Enter" && !ev.isComposing && target.matches("input[type=text]") && el.contains(target)) {
        ev.preventDefault();
        check(false);
      }
    });
    el.addEventListener("change", save);

    restore(store.get(key));
    api.reset = reset;
    api.restore = restore;
    el.konum = api;
    el.setAttribute("data-konum-mounted", "");
    return api;
  }

  /* The score line and Reset, which asks first and can be undone until the page is left. */
  function mountQuiz(quiz) {
    if (quiz.konum) return;
    var head = quiz.querySelector(":scope > .konum-quiz-head");
    if (!head) head = quiz.insertBefore(make("div", { "class": "konum-quiz-head" }), quiz.firstChild);
    $$(head, "[data-konum-made]").forEach(function (n) { n.remove(); });
    var els = $$(quiz, ":scope > [data-question-id]");
    var line = head.appendChild(make("p", { "class": "konum-score" }));
    var score = line.appendChild(make("span", { "class": "konum-score-value" }, "0"));
    line.appendChild(document.createTextNode(t("quiz.score_total", { total: els.length })));
    var resetBtn = head.appendChild(button("konum-reset", t("quiz.reset")));
    var ask = head.appendChild(make("span", { "class": "konum-confirm", role: "group", "aria-label": t("quiz.reset") }));
    var status = head.appendChild(make("span", { "class": "konum-reset-status", role: "status" }));
    var questions = [], snapshot = null;
    function update() {
      score.textContent = String(questions.filter(function (q) { return q.checked && q.ok; }).length);
      quiz.dispatchEvent(new CustomEvent("konum:quiz", { bubbles: true, detail: questions.map(function (q) { return { key: q.key, ok: q.checked && q.ok, checked: q.checked }; }) }));
    }
    function offer(text, buttons, focus) {
      ask.textContent = "";
      ask.hidden = !buttons.length;
      if (text) ask.appendChild(make("span", {}, text));
      buttons.forEach(function (b) { ask.appendChild(b); });
      resetBtn.hidden = buttons.length > 0;
      if (focus) focus.focus();
    }
    var yes = button("konum-reset-yes", t("quiz.reset_yes")), no = button("konum-reset-no", t("quiz.reset_no"));
    var undo = button("konum-undo", t("quiz.undo"));
    els.forEach(function (el) { questions.push(mountQuestion(el, update)); });
    quiz.addEventListener("click", function (ev) {
      var b = ev.target.closest("button");
      if (b === resetBtn) {
        status.textContent = "";
        offer(t("quiz.reset_ask"), [yes, no], no);
      } else if (b === no) {
        offer("", [], resetBtn);
      } else if (b === yes) {
        snapshot = questions.map(function (q) { return store.get(q.key); });
        questions.forEach(function (q) { q.reset(false); });
        status.textContent = t("quiz.cleared");
        offer("", [undo], undo);
        resetBtn.hidden = false;
      } else if (b === undo && snapshot) {
        questions.forEach(function (q, i) {
          q.reset(true);
          if (snapshot[i]) store.set(q.key, snapshot[i]);
          q.restore(snapshot[i]);
        });
        snapshot = null;
        update();
        status.textContent = t("quiz.restored");
        offer("", [], resetBtn);
      }
    });
    offer("", [], null);
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
