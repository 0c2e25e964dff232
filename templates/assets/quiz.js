/* konum quizzes: self-checking questions rendered by generator/render.py; the page's controls.
 *
 * Each question type's front-end part is a script of its own that comes after this one
 * (templates/assets/types/<type>.js, or a plugin type's) and registers itself with
 * konumQuiz.define(name, factory); a quiz is mounted once the parts its questions name
 * (data-parts) are defined. Mounts every [data-question-id] element inside [data-konum-quiz]. The page holds what
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
 * No answer is in the page in clear (konum.seal): checks compare salted hashes, and what
 * they or "Show answer" must read is sealed; hashOf() and unseal() are the browser's half.
 * Scoring, pools (data-draw) and the "konum:submit" event follow the rules of the
 * authoring page; exam mode (data-mode="exam") is quiz-exam.js's.
 *
 * Progress is state.js's (window.konumState, loaded before this script), which checks what
 * it loads and keeps each question's record under "konum:<page path>:<quiz id>:<question
 * id>"; another tab's write is shown here at once. Reset asks first, and its Undo puts the
 * answers back until the page is left; a shown answer outlives both. Enter in a text
 * box checks the question. Safe to load twice (Material's instant navigation re-runs
 * scripts in the content): mounting is idempotent. No network requests, no dependencies.
 */
(function () {
  "use strict";
  if (window.konumQuiz) {
    window.konumQuiz.mountAll(document);
    return;
  }

  /* The interface's texts in the page's language (messages.js), numbers in its digits. */
  function t(key, fields) { return window.konumText(key, fields, fmt); }

  /* cyrb53 (bryc, public domain) over UTF-16 code units: konum.seal.cyrb53. */
  function cyrb53(str) {
    var h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    for (var i = 0; i < str.length; i++) {
      var ch = str.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }
  function hashOf(salt, parts) { return cyrb53([salt].concat(parts).join("\x1f")).toString(16); }
  /* mulberry32: a 32-bit generator whose state is a counter (konum.seal._keystream). */
  function mulberry(a) {
    return function () {
      a = (a + 0x6D2B79F5) | 0;
      var x = Math.imul(a ^ (a >>> 15), 1 | a);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return (x ^ (x >>> 14)) >>> 0;
    };
  }
  /* konum.seal.SEALED, and its permutation for a salt (Fisher-Yates by mulberry32). */
  var SEALED = (function () {
    var chars = "";
    for (var c = 0x20; c < 0x7F; c++) if ("\"\\<>&'".indexOf(String.fromCharCode(c)) < 0) chars += String.fromCharCode(c);
    return chars + "\u00C7\u011E\u0130\u00D6\u015E\u00DC\u00E7\u011F\u0131\u00F6\u015F\u00FC";
  })();
  function unseal(salt, text) {
    var next = mulberry(cyrb53(salt + "\x1fseal") % 4294967296), image = SEALED.split(""), back = {};
    for (var i = image.length - 1; i > 0; i--) {
      var j = next() % (i + 1), x = image[i];
      image[i] = image[j];
      image[j] = x;
    }
    image.forEach(function (ch, k) { back[ch] = SEALED.charAt(k); });
    return text.replace(/[^"\\<>&']/g, function (ch) { return back[ch] || ch; });
  }
  /* A typed answer as konum.seal.normal_text normalises it. */
  /* The page's language decides case ("IŞIK" is "ışık" in Turkish, not "işik"). */
  /* As konum.seal.normal_text: − read as -, the same case fold in every language. */
  function normal(text, caseSensitive) {
    var v = String(text).normalize("NFC").trim();
    v = v.replace(/\u2212/g, "-");  /* the minus sign the page prints, typed back */
    return caseSensitive ? v : v.replace(/[I\u0130\u0131]/g, "i").toLowerCase();
  }
  var formats = {};  /* one Intl.NumberFormat per language and decimals: making one is slow */
  function numberFormat(digits) {
    var lang = document.documentElement.lang || "en", key = lang + " " + digits;
    if (!formats[key]) formats[key] = new Intl.NumberFormat(lang, { maximumFractionDigits: digits });
    return formats[key];
  }
  /* A number for reading (2 decimals); a typed number written back the page's way. */
  function fmt(x) { return numberFormat(2).format(Math.round(x * 100) / 100); }
  function fmtExact(x) { return numberFormat(12).format(x); }

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

  /* What the page keeps in the browser: state.js's, the only code that touches it. */
  var state = window.konumState;
  var store = { get: state.get, set: state.set, del: state.remove };

  /* "0.84", ".84", "8.4e-1", "-0.84", "0,84" (comma decimal mark), "−0.84" -> number; else NaN */
  /* A typed number as the page's language writes it: its decimal mark ("0.5"; Turkish
   * "0,5"), its digit grouping ("1,000"; Turkish "2.048"; spaces anywhere), either minus
   * sign (- or the page's −) and an exponent. {value} when it reads the page's way; {ask}
   * when it reads only the other way ("0,5" on an English page: the number it would be),
   * to be asked back rather than judged; {} when it is no number. */
  function numberMarks() {
    var comma = numberFormat(12).formatToParts(1.5).some(function (p) {
      return p.type === "decimal" && p.value === ",";
    });
    return comma ? [",", "."] : [".", ","];
  }
  /* body (digits, points, commas) read with these marks, as JavaScript's number text. */
  function readAs(body, decimal, group) {
    var at = body.lastIndexOf(decimal), whole = at < 0 ? body : body.slice(0, at);
    var fraction = at < 0 ? "" : body.slice(at + 1);
    if (!/^\d*$/.test(fraction)) return null;
    if (whole.indexOf(group) >= 0) {
      if (!new RegExp("^[1-9]\\d{0,2}(\\" + group + "\\d{3})+$").test(whole)) return null;
      whole = whole.split(group).join("");
    }
    if (!/^\d*$/.test(whole) || !(whole + fraction)) return null;
    return (whole || "0") + (fraction ? "." + fraction : "");
  }
  function readNumber(text) {
    var s = String(text).replace(/[\s\u00a0\u202f]/g, "").replace(/[\u2212\u2013]/g, "-");
    var found = /^([+-]?)([\d.,]+)(e[+-]?\d+)?$/i.exec(s);
    if (!found) return {};
    var m = numberMarks(), sign = found[1], tail = found[3] || "";
    var mine = readAs(found[2], m[0], m[1]);
    if (mine !== null) return { value: parseFloat(sign + mine + tail) };
    var theirs = readAs(found[2], m[1], m[0]);
    return theirs !== null ? { ask: parseFloat(sign + theirs + tail) } : {};
  }
  function parseNumber(text) {
    var r = readNumber(text);
    return r.value === undefined ? NaN : r.value;
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

  /* The types' front-end parts: each type's own file (templates/assets/types/<type>.js, or
   * a plugin type's SCRIPT) comes after this one and calls konumQuiz.define(name, factory);
   * the factory is given KIT (below) and returns the part: read(scope) gives the answer from
   * the form (as the "konum:submit" event and the stored record carry it), answered(answer)
   * says whether anything was entered, grade(spec, answer, salt) judges it and touches no page
   * (tests/grading runs it in Node against the Python graders' vectors), show(scope, result,
   * spec) marks the form, interaction(answer) gives SCORM's {type, response: [item or [row,
   * item]]}; optional mount(el, status, onMove) adds controls of the part's own and returns
   * {set(answer), reset(), disable(on)}. grade returns
   * {ok, say: [catalogue key, fields], retry (nothing entered or not readable: no attempt,
   * nothing revealed), share (of the points), marks (per control: true, false or null)}. The
   * page's controls below call these and branch on no type's name. A name is defined once. */
  var PARTS = {};
  function verdict(ok, say, share, marks) {
    return { ok: ok, say: say, retry: false, share: share === undefined ? (ok ? 1 : 0) : share, marks: marks || [] };
  }
  function retry(say, marks) { return { ok: false, say: say, retry: true, share: 0, marks: marks || [] }; }
  function values(scope, sel) {
    return $$(scope, sel).map(function (c) { return c.type === "radio" || c.type === "checkbox" ? c.checked : c.value; });
  }
  function anyText(answer) { return answer.some(function (v) { return String(v).trim() !== ""; }); }
  function markAll(scope, sel, marks) {
    $$(scope, sel).forEach(function (c, i) { mark(c, marks[i] === undefined ? null : marks[i]); });
  }

  /* A grader's [key, fields] as the page's text; a list of such in fields.parts is joined. */
  function say(message) {
    var fields = message[1] || {}, out = {};
    Object.keys(fields).forEach(function (k) {
      var v = fields[k];
      out[k] = k === "parts" ? v.map(say).join(t("quiz.list_separator"))
        : Array.isArray(v) ? v.join(t("quiz.list_separator")) : v;
    });
    return t(message[0], out);
  }

  /* Chromium leaves MathML out of accessible names ("whatever  and  are", or nothing for a
   * label that is all math): name such controls with the math's spoken form (its aria-label,
   * written at build time by konum.spoken), else its alttext (TeX) or its characters. */
  function nameMath(el) {
    $$(el, "label").forEach(function (label) {
      if (!label.querySelector("math")) return;
      var control = label.htmlFor && label.control;
      if (!control || control.hasAttribute("aria-label")) return;
      control.setAttribute("aria-label", spoken(label));
    });
  }
  function spoken(node) {
    var copy = node.cloneNode(true);
    $$(copy, "math").forEach(function (m) {
      var said = m.getAttribute("aria-label");
      m.replaceWith(" " + (said || (m.getAttribute("alttext") || m.textContent).replace(/\\/g, "")) + " ");
    });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  /* A question's script of its own (inside its <template>), parsed as JSON. */
  function scriptData(q, cls) {
    var box = q.querySelector(":scope > template");
    var script = (box ? box.content : q).querySelector("script." + cls);
    return script ? JSON.parse(script.textContent) : null;
  }

  /* The HTML shown later, parsed when first needed (most questions never need it). */
  function laterOf(q) {
    if (!q.konumLater) {
      var later = scriptData(q, "konum-later") || {};
      if (later.sealed) {
        var open = JSON.parse(unseal(q.konumSeal, later.sealed));
        Object.keys(open).forEach(function (k) { later[k] = open[k]; });
        delete later.sealed;
      }
      q.konumLater = later;
    }
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

  /* opts: onChange(), onCheck(api) after a reader's check, attempts (the quiz's), exam. */
  function mountQuestion(el, opts) {
    if (el.konum) return el.konum;
    opts = opts || {};
    var data = scriptData(el, "konum-data");
    $$(el, "[data-konum-made]").forEach(function (n) { n.remove(); });  /* a copy's chrome */
    el.konumSalt = data.salt;
    el.konumSeal = data.seal;
    /* A question with variants (a computed one) has a form and a grader's spec per variant. */
    var id = el.id, computed = Array.isArray(data.variants);
    var count = computed ? data.variants.length : 1;
    var forms = computed ? [el.querySelector(':scope > [data-variant="0"]')] : [el];
    var answers = computed ? [variantAnswers(id, 0)] : [{ konumAnswer: lazyBox("konum-answer", "answer", id + "-answer") }];
    var points = data.worth || 1, costs = data.hint_shares || [], limit = opts.exam ? 0 : data.attempts || opts.attempts || 0;

    var row = make("div", { "class": "konum-buttons" });
    var checkBtn = row.appendChild(button("konum-check", t("quiz.check")));
    var showBtn = row.appendChild(button("konum-show", t("quiz.show_answer"), { "aria-expanded": "false", "aria-controls": answers[0].konumAnswer.id }));
    var hintBtn = costs.length && row.appendChild(button("konum-hint-button", t("quiz.hint"), { "aria-expanded": "false", "aria-controls": id + "-hint" }));
    var newBtn = count > 1 && row.appendChild(button("konum-new", t("quiz.new_numbers")));
    var feedback = make("div", { "class": "konum-feedback", id: id + "-feedback", "aria-live": "polite" });
    var hint = costs.length && make("div", { "class": "konum-hints", id: id + "-hint" });
    var explanation = data.explanation && lazyBox("konum-explanation", "explanation");
    var tries = limit && make("p", { "class": "konum-attempts" }, t("quiz.attempts_limit", { n: limit }));
    if (opts.exam) row.hidden = true;
    [row, tries, feedback, hint, computed ? answers[0] : answers[0].konumAnswer, explanation].forEach(function (p) {
      if (p) el.appendChild(p);
    });
    if (hint) hint.hidden = true;
    /* A part with controls of its own (Move up / Move down) mounts them: their state is the answer. */
    var order = null, own = PARTS[computed ? data.variants[0].form : data.type];
    if (own.mount) {
      var moved = el.appendChild(make("div", { "class": "konum-order-status", "aria-live": "polite" }));
      order = own.mount(el, moved, function () {
        clearMarks();
        save();
      });
    }
    nameMath(el);

    var quiz = el.closest("[data-konum-quiz]");
    var key = "konum:" + location.pathname + ":" + (quiz ? quiz.getAttribute("data-quiz-id") : "") +
      ":" + el.getAttribute("data-question-id");
    /* The question's progress as state.js's rules keep it: best (the best share of a
     * check), hints, tries, paid (the hints taken when the best was earned), seen (the
     * variants whose answer has been shown), variant, revealed, checked, ok. */
    var api = { key: key, max: points, seen: [] }, rules = state.rules, showing = 0;
    var limits = { points: points, costs: costs, variants: count, attempts: limit };
    rules.reset(api);

    function scope() { return forms[api.variant]; }
    function answerBox() { return answers[api.variant].konumAnswer; }
    function controls() { return $$(scope(), "input, select, textarea"); }
    /* [part name, the grader's spec, salt]; the spec gains the prefix of its option notes'
     * keys in the later HTML. */
    function spec() {
      var v = computed ? data.variants[api.variant] : data, notes = computed ? api.variant + "-" : "";
      var salt = computed ? data.salt + "\x1f" + api.variant : data.salt;
      return [computed ? v.form : data.type, Object.assign({ notes: notes }, v), salt];
    }
    /* A check: the grader also learns which options have a note (the later HTML is parsed
     * then, not before). */
    function judge() {
      var s = spec(), part = PARTS[s[0]], notes = s[1].notes;
      s[1].noted = Object.keys(laterOf(el)).map(function (k) {
        return k.indexOf(notes + "note-") === 0 ? Number(k.slice(notes.length + 5)) : -1;
      }).filter(function (i) { return i >= 0; });
      var result = part.grade(s[1], part.read(scope()), s[2]);
      part.show(scope(), result, s[1]);
      return result;
    }
    function record() {
      return {
        v: api.variant, c: api.checked, ok: api.ok, r: api.revealed, a: api.answer(),
        b: api.best, h: api.hints, n: api.tries, p: api.paid, s: api.seen,
        m: opts.exam ? "exam" : undefined,
        l: document.documentElement.lang || "en"  /* the edition: its overview counts its own */
      };
    }
    api.score = function () { return rules.credit(api, limits); };
    api.hintsTook = function () { return rules.took(api, limits); };
    api.answer = function () { return PARTS[spec()[0]].read(scope()); };
    api.answered = function () { return PARTS[spec()[0]].answered(api.answer()); };
    api.interaction = function () {
      var part = PARTS[spec()[0]];
      return part.interaction ? part.interaction(api.answer()) : null;
    };

    /* The variants shown in another tab count here too (state.js keeps them on writing). */
    function seenElsewhere() {
      var stored = state.question(key, limits);
      if (stored) state.join(api.seen, stored.s);
    }
    function save() {
      seenElsewhere();
      state.saveQuestion(key, record(), limits);
      showLabel();
    }
    /* Show answer says what it costs while the points are still to be earned. */
    function showLabel() {
      var costly = !opts.exam && rules.showCosts(api, limits);
      showBtn.textContent = t(costly ? "quiz.show_answer_costs" : "quiz.show_answer");
    }

    function clearMarks() {
      $$(el, "input, select, textarea, li[data-item] > span").forEach(function (c) {
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
      if (on) rules.show(api); else api.revealed = false;
      show(answerBox(), on);
      showBtn.setAttribute("aria-expanded", on ? "true" : "false");
      showBtn.setAttribute("aria-controls", answerBox().id);
      afterAnswer();
    }

    /* The explanation and worked solution: after a right answer, the last attempt or a
     * reveal; never after a wrong try. */
    function afterAnswer() {
      var done = (api.checked && api.ok) || api.revealed || !!locked();
      show(explanation, done);
      if (computed) show(answers[api.variant].konumSolution, done);
      freeze();
    }
    /* Attempts used up (practice): the answer stays as it was checked, nothing can move. */
    function freeze() {
      if (opts.exam) return;
      var on = !!locked();
      checkBtn.disabled = on;
      $$(el, "input, select, textarea").forEach(function (c) { c.disabled = on; });
      if (order) order.disable(on);
    }

    /* The hint button takes the next hint (its cost in its name), then hides and shows. */
    function hintLabel() {
      if (!hintBtn) return;
      var next = hint.hidden ? api.hints === 0 : api.hints < costs.length;
      var label = next && costs.length > 1 ? t("quiz.hint_number", { number: api.hints + 1, total: costs.length }) : t("quiz.hint");
      var cost = next ? rules.hintCost(api, limits) : 0;
      hintBtn.textContent = cost > 0 ? t("quiz.hint_costs", { label: label, n: cost }) : label;
    }
    function showHints(taken, open) {
      for (var i = hint.children.length; i < taken; i++) hint.appendChild(lazyBox("konum-hint", "hint-" + i));
      $$(hint, ":scope > div").forEach(function (box) { show(box, open); });
      hint.hidden = !open;
      hintBtn.setAttribute("aria-expanded", open ? "true" : "false");
      hintLabel();
    }

    function locked() { return rules.locked(api, limits); }

    function check(restoring) {
      if (!restoring && locked()) return;
      var result = judge(), share = result.share, text = say(result.say);
      if (result.retry) {  /* nothing entered yet: no attempt, nothing revealed or saved */
        feedback.textContent = text;
        feedback.className = "konum-feedback is-wrong";
        return false;
      }
      if (!restoring) seenElsewhere();
      var told = rules.check(api, limits, share, result.ok, restoring);
      /* The message tells what this check earns, and what is kept from an earlier one. */
      if (told.instead) text = t(told.instead);
      if (told.earned !== null) text += t("quiz.credit", { score: told.earned, n: points });
      if (told.kept) text += " " + t("quiz.kept", { score: told.kept, n: points });
      if (told.left !== null) text += " " + (told.left ? t("quiz.attempts_left", { n: told.left }) : t("quiz.attempts_over"));
      feedback.textContent = text;
      feedback.className = "konum-feedback " + (api.ok ? "is-right" : "is-wrong");
      hintLabel();
      if (told.reveal) setRevealed(true);
      afterAnswer();
      if (!restoring) save();
      if (opts.onChange) opts.onChange();
      if (!restoring && opts.onCheck) opts.onCheck(api);
      return true;
    }

    /* Variant k's form and answer boxes, made the first time it is shown (hidden), in
     * place of those shown (the rules may have moved api.variant already). */
    function setVariant(k) {
      show(forms[showing], false);
      show(answers[showing], false);
      if (!forms[k]) {
        var form = lazyBox("konum-variant", "variant-" + k), wrap = variantAnswers(id, k);
        form.setAttribute("data-variant", String(k));
        wrap.hidden = true;
        last(forms).after(form);
        last(answers).after(wrap);
        forms[k] = form;
        answers[k] = wrap;
      }
      api.variant = showing = k;
      show(scope(), true);
      show(answers[k], true);
      showBtn.setAttribute("aria-controls", answerBox().id);
    }

    /* The answer given, cleared; what the question earned and used (credit, hints,
     * attempts) is kept: "New numbers" asks the same question again. */
    function clearAnswer() {
      clearMarks();
      $$(el, "input, select, textarea").forEach(function (c) {
        if (c.type === "radio" || c.type === "checkbox") c.checked = false; else c.value = "";
      });
      if (order) order.reset();
      setRevealed(false);
    }

    /* The variants whose answer was shown stay shown (a reveal is never undone). */
    function reset(keepStore) {
      rules.reset(api);
      if (count > 1) setVariant(0);
      clearAnswer();
      if (hint) showHints(0, false);
      if (!keepStore) state.resetQuestion(key, limits);
      seenElsewhere();
      showLabel();
      if (opts.onChange) opts.onChange();
    }

    function restore(saved) {
      if (!saved) return;
      if (saved.v) setVariant(saved.v);  /* cleaned: one of the variants */
      rules.restore(api, saved);
      if (order && saved.a) order.set(saved.a);
      else controls().forEach(function (c, i) {
        var v = saved.a && saved.a[i];
        if (v === undefined || v === null) return;
        if (c.type === "radio" || c.type === "checkbox") c.checked = !!v; else c.value = v;
      });
      if (hint && api.hints) showHints(api.hints, true);
      if (saved.c) check(true);
      if (saved.r) setRevealed(true);
      showLabel();
    }

    /* Exam mode: grade (feedback and the answer shown), then nothing can change. */
    api.grade = function (restoring) {
      /* Unanswered, or unreadable ("abc" for a number): nothing earned, nothing to ask. */
      if (!(api.answered() && check(restoring))) {
        api.best = api.best || 0;
        feedback.textContent = t("quiz.not_answered");
        feedback.className = "konum-feedback is-wrong";
      }
      setRevealed(true);
      $$(el, "input, select, textarea").forEach(function (c) { c.disabled = true; });
      if (order) order.disable(true);
      if (!restoring) save();
    };

    el.addEventListener("click", function (ev) {
      var b = ev.target.closest("button");
      if (b === checkBtn) check(false);
      else if (b === showBtn) { setRevealed(!api.revealed); save(); }
      else if (b === hintBtn) {
        var open = !hint.hidden;
        if (open ? api.hints < costs.length : api.hints === 0) {
          rules.hint(api, limits);
          showHints(api.hints, true);
        }
        else showHints(api.hints, !open);
        save();
        if (opts.onChange) opts.onChange();
      } else if (b === newBtn) {
        clearAnswer();
        rules.next(api, limits);
        setVariant(api.variant);
        afterAnswer();
        save();
        if (opts.onChange) opts.onChange();
      }
    });
    el.addEventListener("keydown", function (ev) {
      var target = ev.target;
      if (ev.key === "Enter" && !ev.isComposing && target.matches("input[type=text]") && el.contains(target)) {
        ev.preventDefault();
        if (!opts.exam) check(false);
      }
    });
    el.addEventListener("change", save);

    hintLabel();
    restore(state.question(key, limits));
    showLabel();
    api.reset = reset;
    api.restore = function (saved) { restore(state.clean(saved, limits)); };
    /* Exam mode, before submitting: the message of an answer given but not readable
     * ("32,0" on an English page), or null. */
    api.unreadable = function () {
      if (!api.answered()) return null;
      var result = judge();
      if (!result.retry) {
        clearMarks();
        return null;
      }
      feedback.textContent = say(result.say);
      feedback.className = "konum-feedback is-wrong";
      return feedback.textContent;
    };
    el.konum = api;
    el.setAttribute("data-konum-mounted", "");
    return api;
  }

  /* Whether every part the quiz's questions use (data-parts: a type's, or each variant's
   * form) is defined: a quiz is mounted once its types' scripts have run. */
  function ready(quiz) {
    return $$(quiz, ":scope > [data-question-id]").every(function (el) {
      return (el.getAttribute("data-parts") || "").split(" ").every(function (name) { return !name || PARTS[name]; });
    });
  }

  /* The questions a pool shows: `draw` of `total`, from `seed` (kept in page order). */
  function drawFrom(seed, total, draw) {
    var next = mulberry(seed), idx = [];
    for (var i = 0; i < total; i++) idx.push(i);
    for (var j = total - 1; j > 0; j--) {
      var k = next() % (j + 1), x = idx[j];
      idx[j] = idx[k];
      idx[k] = x;
    }
    return idx.slice(0, draw).sort(function (a, b) { return a - b; });
  }

  /* The score line and Reset, which asks first and can be undone until the page is left;
   * "New questions" for a pool; quiz-exam.js takes over the head of an exam. */
  function mountQuiz(quiz) {
    if (quiz.konum || !ready(quiz)) return;
    var head = quiz.querySelector(":scope > .konum-quiz-head");
    if (!head) head = quiz.insertBefore(make("div", { "class": "konum-quiz-head" }), quiz.firstChild);
    $$(quiz, ":scope > [data-konum-made]").forEach(function (n) { n.remove(); });
    $$(head, "[data-konum-made]").forEach(function (n) { n.remove(); });
    var els = $$(quiz, ":scope > [data-question-id]");
    var exam = quiz.getAttribute("data-mode") === "exam" && window.konumExam;
    var quizId = quiz.getAttribute("data-quiz-id");
    var draw = Math.min(Number(quiz.getAttribute("data-draw")) || 0, els.length);
    var drawKey = "konum:draw:" + location.pathname + ":" + quizId;
    var line = head.appendChild(make("p", { "class": "konum-score" }));
    var resetBtn = head.appendChild(button("konum-reset", t("quiz.reset")));
    var againBtn = draw && head.appendChild(button("konum-again", t("quiz.new_questions")));
    var ask = head.appendChild(make("span", { "class": "konum-confirm", role: "group", "aria-label": t("quiz.reset") }));
    var status = head.appendChild(make("span", { "class": "konum-reset-status", role: "status" }));
    var drawn = draw && head.appendChild(make("p", { "class": "konum-drawn" }, t("quiz.drawn", { n: draw, total: els.length })));
    var questions = [], active = [], snapshot = null, hooks = {};
    function update() {
      var total = 0, got = 0, hints = 0;
      active.forEach(function (q) {
        total += q.max;
        got += q.score();
        hints += q.hintsTook();
      });
      line.textContent = t("quiz.score_points", { score: got, total: total }) + (hints > 0 ? t("quiz.score_hints", { cost: hints }) : "");
      if (draw) active.forEach(function (q, j) {
        $$(q.el, ".konum-legend > .konum-number").forEach(function (n) {
          n.textContent = t("quiz.question_number", { number: j + 1, total: active.length });
        });
      });
    }
    /* "konum:submit" from the quiz: who answered what, and the points (practice: after
     * each check, for that question; exam: once, for every question). */
    function emit(list, mode) {
      var detail = {
        quiz: quizId, page: location.pathname, mode: mode,
        questions: list.map(function (q) {
          return { id: q.el.getAttribute("data-question-id"), type: q.el.getAttribute("data-type"),
            answer: q.answer(), interaction: q.interaction(), correct: q.ok, points: q.score(), max: q.max,
            hints: q.hints, attempts: q.tries };
        }),
        score: active.reduce(function (a, q) { return a + q.score(); }, 0),
        total: active.reduce(function (a, q) { return a + q.max; }, 0)
      };
      quiz.dispatchEvent(new CustomEvent("konum:submit", { bubbles: true, detail: detail }));
    }
    function applyDraw(fresh) {
      if (!draw) { active = questions.slice(); return; }
      var seed = fresh ? null : store.get(drawKey);
      if (typeof seed !== "number") {
        seed = crypto.getRandomValues(new Uint32Array(1))[0];
        store.set(drawKey, seed);
      }
      var pick = drawFrom(seed, questions.length, draw);
      active = pick.map(function (i) { return questions[i]; });
      questions.forEach(function (q, i) { q.el.hidden = pick.indexOf(i) < 0; });
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
    var again = button("konum-again-yes", t("quiz.again_yes"));
    var undo = button("konum-undo", t("quiz.undo"));
    var attempts = Number(quiz.getAttribute("data-attempts")) || 0;
    function mountAt(i) {
      var el = els[i], before = questions[i];
      if (el.konum) return;
      var api = mountQuestion(el, {
        onChange: update, attempts: attempts, exam: !!exam,
        onCheck: exam ? null : function (q) { emit([q], "practice"); }
      });
      api.el = el;
      questions[i] = api;
      if (active.indexOf(before) >= 0) active[active.indexOf(before)] = api;
    }
    /* Until a practice question mounts (mountLater), a stand-in gives the score line its
     * points and credit, and Reset and other tabs their key, all through state.js. An
     * exam mounts every question at once: quiz-exam.js reads their answers. */
    els.forEach(function (el, i) {
      if (exam) return mountAt(i);
      var data = scriptData(el, "konum-data") || {}, points = data.worth || 1, costs = data.hint_shares || [];
      var limits = { costs: costs, variants: Array.isArray(data.variants) ? data.variants.length : 1, attempts: data.attempts || attempts };
      var key = "konum:" + location.pathname + ":" + quizId + ":" + el.getAttribute("data-question-id");
      var credit = function () { return state.share(state.question(key, limits), costs) * points; };
      questions.push({
        el: el, key: key, max: points, score: credit,
        hintsTook: function () { return ((state.question(key, limits) || {}).b || 0) * points - credit(); },
        reset: function (keep) {
          if (!keep) state.resetQuestion(key, limits);
          update();
        },
        restore: function () { /* mounting reads the stored record */ }
      });
    });
    applyDraw(false);
    if (!exam) mountLater(quiz, els, mountAt);
    quiz.addEventListener("click", function (ev) {
      var b = ev.target.closest("button");
      if (b === resetBtn) {
        status.textContent = "";
        offer(t("quiz.reset_ask"), [yes, no], no);
      } else if (b === no) {
        offer("", [], resetBtn);
      } else if (b === yes) {
        snapshot = questions.map(function (q) { return state.question(q.key); });
        snapshot.hooks = hooks.save ? hooks.save() : null;
        if (hooks.reset) hooks.reset();
        questions.forEach(function (q) { q.reset(false); });
        status.textContent = t("quiz.cleared");
        offer("", [undo], undo);
        resetBtn.hidden = false;
      } else if (b === undo && snapshot) {
        questions.forEach(function (q, i) {
          q.reset(true);
          if (snapshot[i]) state.restoreQuestion(q.key, snapshot[i]);
          q.restore(snapshot[i]);
        });
        if (hooks.restore) hooks.restore(snapshot.hooks);
        snapshot = null;
        update();
        status.textContent = t("quiz.restored");
        offer("", [], resetBtn);
      } else if (b === againBtn) {
        status.textContent = "";
        offer(t("quiz.again_ask"), [again, no], no);
      } else if (b === again) {
        offer("", [], againBtn);
        if (hooks.again) hooks.again();
        questions.forEach(function (q) { q.reset(false); });
        applyDraw(true);
        if (hooks.layout) hooks.layout();
        update();
        /* The line under the head already says how many were drawn. */
        status.textContent = t("quiz.drawn_again");
      }
    });
    offer("", [], null);
    quiz.konum = true;
    /* Another tab's write: its questions show what it wrote (one learner, one state). */
    state.follow(function (changed, other) {
      if (!other || !quiz.isConnected) return;
      questions.forEach(function (q) {
        if (changed !== null && changed !== q.key) return;
        q.reset(true);
        q.restore(state.question(q.key));
      });
      update();
    });
    if (exam) hooks = exam.mount(quiz, { head: head, questions: function () { return active; }, update: update, emit: emit, t: t, make: make, button: button, state: state, fmt: fmt }) || {};
    update();
    if (drawn) drawn.hidden = false;
  }

  /* Mounts a quiz's questions (mount(i)) without a long task: those near the viewport
   * first, one the reader reaches at once (focus or pointer inside it, the page's anchor),
   * the rest when the page is idle, in slices of a few milliseconds. An unmounted question
   * is the page's own HTML, so find-in-page reads it and scrolls it into mounting. */
  function mountLater(quiz, els, mount) {
    var near = [], queued = { soon: false, idle: false }, slice = 8;
    var watch = "IntersectionObserver" in window && new IntersectionObserver(function (seen) {
      seen.forEach(function (e) { if (e.isIntersecting) near.push(e.target); });
      run(true);
    }, { rootMargin: "150% 0px" });
    function now(el) {
      var i = els.indexOf(el);
      if (i < 0 || el.konum) return;
      if (watch) watch.unobserve(el);
      mount(i);
    }
    function reach(ev) { if (ev.target.closest) now(question(ev.target)); }
    function anchor() {
      var id = decodeURIComponent(location.hash.slice(1)), target = id && document.getElementById(id);
      if (target && quiz.contains(target)) now(question(target) || els[0]);
    }
    /* A slice: the questions near the viewport (soon) or any left (idle), for a few ms. */
    function work(soon) {
      queued[soon ? "soon" : "idle"] = false;
      if (!quiz.isConnected) return stop();
      var start = performance.now(), el;
      while (performance.now() - start < slice) {
        el = soon ? near.shift() : els.filter(function (q) { return !q.konum; })[0];
        if (!el) break;
        now(el);
      }
      if (els.every(function (q) { return q.konum; })) return stop();
      run(soon && near.length > 0);
    }
    function run(soon) {
      var kind = soon ? "soon" : "idle";
      if (queued[kind]) return;
      queued[kind] = true;
      if (soon) setTimeout(function () { work(true); }, 0);
      else if (window.requestIdleCallback) window.requestIdleCallback(function () { work(false); }, { timeout: 3000 });
      else setTimeout(function () { work(false); }, 50);
    }
    function stop() {
      if (watch) watch.disconnect();
      quiz.removeEventListener("focusin", reach, true);
      quiz.removeEventListener("pointerdown", reach, true);
      window.removeEventListener("hashchange", anchor);
    }
    quiz.addEventListener("focusin", reach, true);
    quiz.addEventListener("pointerdown", reach, true);
    window.addEventListener("hashchange", anchor);
    anchor();
    if (watch) els.forEach(function (el) { if (!el.konum) watch.observe(el); });
    run(false);
  }

  function mountAll(root) { $$(root, "[data-konum-quiz]").forEach(mountQuiz); }

  /* What a type's part is made with: handed to its factory, never a global of the page. */
  var KIT = {
    t: t, fmt: fmt, fmtExact: fmtExact, $$: $$, make: make, button: button, show: show,
    mark: mark, markAll: markAll, values: values, anyText: anyText, verdict: verdict,
    retry: retry, hashOf: hashOf, unseal: unseal, normal: normal, readNumber: readNumber,
    noteBox: noteBox, spoken: spoken, letter: function (i) { return "abcdefghijklmnopqrstuvwxyz".charAt(i); }
  };
  function define(name, factory) {
    if (!PARTS[name]) PARTS[name] = typeof factory === "function" ? factory(KIT) : factory;
    mountAll(document);
  }

  /* Nothing here mounts a question, unseals or hashes: the page offers no tool that
   * decodes its answers (a part's factory is given the graders' helpers, as the page's own
   * source gives them to whoever reads it). */
  window.konumQuiz = { define: define, mountAll: mountAll, parseNumber: parseNumber, normal: normal };

  /* Mount now: this script comes after the page's quizzes, so their score lines are there
   * before Material's own start-up and each question mounts as the reader nears or reaches
   * it, or when the page is idle (mountLater). Then again on each of Material's page
   * changes (document$, there once its bundle has run), and by the copy of this script each
   * new page carries (from file:// Material completes document$ without a value). */
  function follow() {
    var d$ = window.document$;
    mountAll(document);
    if (d$ && typeof d$.subscribe === "function") d$.subscribe(function () { mountAll(document); });
  }
  mountAll(document);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", follow);
  else follow();
})();
