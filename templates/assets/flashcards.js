/* konum study widget: one flashcard at a time, scheduled by FSRS-6 as Anki schedules it.
 *
 * Mounts on every [data-konum-study] element, reading the cards from the JSON in its
 * <script type="application/json" class="konum-cards"> (written by konum.render.render_study
 * into the page, so the page works from file:// and under any server): {version: 2, decks:
 * [...], cards: [{key, deck, front, back}]} with deck an index into decks and front/back as
 * sanitised HTML (MathML for math). A cloze card has no front but `cloze`, its text with
 * each answer in <mark class="konum-cloze">: its front is that text with each mark shown as
 * "[…]" (konum.exports.cards.display_sides), its answer side the text, then `back`.
 *
 * Scheduling: a port of the FSRS-6 equations with the default parameters, following the
 * Python reference (py-fsrs 6, Scheduler with its defaults: desired retention 0.9, learning
 * steps 1 and 10 minutes, relearning step 10 minutes, maximum interval 36,500 days) without
 * fuzz, so a history gives the same due dates and stabilities in both
 * (tests/browser/test_study_browser.py). Grades are Anki's: 1 Again, 2 Hard, 3 Good, 4 Easy.
 * The queue: cards that are due (earliest first), then new cards in the course's order, at
 * most "new cards a day" first seen since local midnight; when nothing is left, a learning
 * card due within 20 minutes comes early, as Anki's learn-ahead limit has it.
 *
 * State lives in localStorage under "konum-study-v2": {version: 2, newPerDay, lesson, cards:
 * {<card key>: {state, step, s, d, due, last, first, log: [[time, grade], ...]}}} with
 * times in ms since the epoch, state 1 learning, 2 review, 3 relearning. Keys are the cards'
 * stable keys (konum.exports.cards), so a rebuild with another seed keeps each card's history;
 * entries of cards the page no longer has are ignored, not shown. progress.js reads this
 * format for the home page and exports and imports it.
 *
 * Keys: Space flips (unless a button, link or field has focus: those keep their own Space),
 * 1-4 grade once the answer shows. Mounting is idempotent; under Material's instant
 * navigation the script re-runs and mounts through document$.
 */
(function () {
  "use strict";

  if (window.konumStudy) {
    window.konumStudy.mountAll();
    return;
  }

  var fsrs = (function () {
    /* FSRS-6 default parameters (py-fsrs DEFAULT_PARAMETERS). */
    var W = [0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666,
      0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542];
    var MINUTE = 6e4, DAY = 864e5, RETENTION = 0.9, MAX_DAYS = 36500;
    var LEARNING = [MINUTE, 10 * MINUTE], RELEARNING = [10 * MINUTE];
    var DECAY = -W[20], FACTOR = Math.pow(0.9, 1 / DECAY) - 1;

    // Math.pow(Math.E, x), not Math.exp: the reference computes math.e ** x.
    function exp(x) { return Math.pow(Math.E, x); }
    function clampD(d) { return Math.min(Math.max(d, 1), 10); }
    function clampS(s) { return Math.max(s, 0.001); }
    // Python's round(): halves go to the even neighbour.
    function roundEven(x) {
      var r = Math.round(x);
      return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
    }
    function initD(g) { return W[4] - exp(W[5] * (g - 1)) + 1; }
    function nextD(d, g) {
      var delta = -(W[6] * (g - 3));
      return clampD(W[7] * initD(4) + (1 - W[7]) * (d + (10 - d) * delta / 9));
    }
    function shortS(s, g) {
      var up = exp(W[17] * (g - 3 + W[18])) * Math.pow(s, -W[19]);
      if (g > 1) up = Math.max(up, 1);
      return clampS(s * up);
    }
    function retrievability(c, now) {
      if (c.last == null || c.s == null) return 0;
      var days = Math.max(0, Math.floor((now - c.last) / DAY));
      return Math.pow(1 + FACTOR * days / c.s, DECAY);
    }
    function nextS(d, s, r, g) {
      if (g === 1) {
        return clampS(Math.min(
          W[11] * Math.pow(d, -W[12]) * (Math.pow(s + 1, W[13]) - 1) * exp((1 - r) * W[14]),
          s / exp(W[17] * W[18])));
      }
      var hard = g === 2 ? W[15] : 1, easy = g === 4 ? W[16] : 1;
      return clampS(s * (1 + exp(W[8]) * (11 - d) * Math.pow(s, -W[9]) *
        (exp((1 - r) * W[10]) - 1) * hard * easy));
    }
    function days(s) {
      var n = roundEven((s / FACTOR) * (Math.pow(RETENTION, 1 / DECAY) - 1));
      return Math.min(Math.max(n, 1), MAX_DAYS) * DAY;
    }
    function toReview(c) { c.state = 2; c.step = null; return days(c.s); }
    /* The next interval (ms) of a learning or relearning card graded g, moving its step. */
    function stepped(c, g, steps) {
      if (!steps.length || (c.step >= steps.length && g > 1)) return toReview(c);
      if (g === 1) { c.step = 0; return steps[0]; }
      if (g === 2) {
        if (c.step === 0) return steps.length === 1 ? steps[0] * 1.5 : (steps[0] + steps[1]) / 2;
        return steps[c.step];
      }
      if (g === 3 && c.step + 1 < steps.length) { c.step += 1; return steps[c.step]; }
      return toReview(c);
    }

    /* The card (null: new) after grade g (1-4) at time now (ms): a new object. */
    function review(card, g, now) {
      var c = card ? {
        state: card.state, step: card.step, s: card.s, d: card.d, due: card.due, last: card.last
      } : { state: 1, step: 0, s: null, d: null, due: now, last: null };
      var elapsed = c.last == null ? null : Math.floor((now - c.last) / DAY);
      var short = elapsed !== null && elapsed < 1, interval;
      if (c.state === 1 && (c.s == null || c.d == null)) {
        c.s = clampS(W[g - 1]);
        c.d = clampD(initD(g));
      } else {
        c.s = short ? shortS(c.s, g) : nextS(c.d, c.s, retrievability(c, now), g);
        c.d = nextD(c.d, g);
      }
      if (c.state === 1) interval = stepped(c, g, LEARNING);
      else if (c.state === 3) interval = stepped(c, g, RELEARNING);
      else if (g === 1 && RELEARNING.length) { c.state = 3; c.step = 0; interval = RELEARNING[0]; }
      else interval = days(c.s);
      c.due = now + interval;
      c.last = now;
      return c;
    }

    return { review: review, parameters: W.slice() };
  })();

  var STORE = "konum-study-v2";
  var GRADES = ["again", "hard", "good", "easy"];
  var LEARN_AHEAD = 20 * 6e4;
  var memory = null; // used when localStorage is unavailable
  var active = null; // the widget on the current page (for the keyboard)

  /* The interface's texts in the page's language (messages.js). */
  function t(key, fields) { return window.konumText("study." + key, fields); }

  /* An interval in ms as "10 min", "3 d" (short) or "10 minutes" (long). */
  function span(ms, long) {
    var minutes = Math.max(1, Math.round(ms / 6e4)), unit = "min", n = minutes;
    if (minutes >= 60 * 24 * 365) { unit = "year"; n = minutes / (60 * 24 * 365); }
    else if (minutes >= 60 * 24 * 30) { unit = "month"; n = minutes / (60 * 24 * 30); }
    else if (minutes >= 60 * 24) { unit = "day"; n = minutes / (60 * 24); }
    else if (minutes >= 60) { unit = "hour"; n = minutes / 60; }
    n = n >= 10 || unit === "min" || unit === "day" ? Math.round(n) : Math.round(n * 10) / 10;
    return t(unit + (long ? "_long" : "_short"), { n: n });
  }

  function emptyState() { return { version: 2, newPerDay: 20, lesson: "", cards: {} }; }

  function readState() {
    var state = memory;
    try {
      state = JSON.parse(window.localStorage.getItem(STORE) || "null") || memory;
    } catch (e) { /* private mode or corrupt data: start afresh */ }
    if (!state || typeof state !== "object" || !state.cards || state.version !== 2) {
      state = emptyState();
    }
    return state;
  }

  function writeState(state) {
    memory = state;
    try {
      window.localStorage.setItem(STORE, JSON.stringify(state));
    } catch (e) { /* keep it in memory for this page */ }
  }

  function startOfDay(now) {
    var day = new Date(now);
    day.setHours(0, 0, 0, 0);
    return day.getTime();
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function button(className, label, key) {
    var b = el("button", "konum-study__button " + className);
    b.type = "button";
    b.appendChild(el("span", "konum-study__name", label));
    b.setAttribute("aria-keyshortcuts", key);
    b.appendChild(el("kbd", "", key === "Space" ? t("space_key") : key));  /* named as the page's keyboard names it */
    return b;
  }

  function mount(root) {
    if (root.hasAttribute("data-konum-mounted")) return;
    root.setAttribute("data-konum-mounted", "");
    var data = null;
    try {
      var host = root.querySelector("template.konum-cards-host");
      data = JSON.parse(host.content.querySelector("script.konum-cards").textContent);
    } catch (error) {
      root.textContent = "";
      root.appendChild(el("p", "konum-study__error",
        t("unreadable", { error: error.message }) + downloads(root)));
      return;
    }
    build(root, data);
  }

  /* Where the page's flashcard downloads are, as seen from the widget, if it has any. */
  function downloads(root) {
    var link = document.querySelector('a[href$=".apkg"], a[href*="downloads/"]');
    if (!link) return "";
    var after = root.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING;
    return t(after ? "downloads_below" : "downloads_above");
  }

  function build(root, data) {
    var cards = (data && data.cards) || [];
    var decks = (data && data.decks) || [];
    cards.forEach(function (c) { c.deck = decks[c.deck]; });
    var state = readState();
    var current = null;
    var flipped = false;

    root.textContent = "";
    var bar = el("div", "konum-study__bar");
    var label = el("label", "konum-study__label", t("lesson"));
    var select = el("select", "konum-study__filter");
    select.appendChild(new Option(t("all_lessons", { n: cards.length }), ""));
    var perDeck = {};
    cards.forEach(function (c) { perDeck[c.deck] = (perDeck[c.deck] || 0) + 1; });
    decks.forEach(function (deck) {
      select.appendChild(new Option(t("deck_option", { deck: deck, n: perDeck[deck] || 0 }), deck));
    });
    select.value = decks.indexOf(state.lesson) >= 0 ? state.lesson : "";
    label.appendChild(select);
    var limitLabel = el("label", "konum-study__label", t("new_per_day"));
    var limit = el("input", "konum-study__limit");
    limit.type = "number";
    limit.min = "0";
    limit.max = "9999";
    limit.value = String(state.newPerDay);
    limitLabel.appendChild(limit);
    var progress = el("p", "konum-study__progress");
    [label, limitLabel, progress].forEach(function (node) { bar.appendChild(node); });

    var card = el("section", "konum-study__card");
    card.setAttribute("aria-label", t("card"));
    card.tabIndex = -1;
    var meta = el("p", "konum-study__meta");
    var front = el("div", "konum-study__front");
    var back = el("div", "konum-study__back");
    back.hidden = true;
    card.appendChild(meta);
    card.appendChild(front);
    card.appendChild(back);

    var actions = el("div", "konum-study__actions");
    var flip = button("konum-study__flip", t("show_answer"), "Space");
    actions.appendChild(flip);
    var grades = GRADES.map(function (name, i) {
      var b = button("konum-study__grade konum-study__" + name, t(name), String(i + 1));
      b.insertBefore(el("span", "konum-study__interval"), b.lastChild);
      actions.appendChild(b);
      return b;
    });

    var status = el("p", "konum-study__status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    var help = el("p", "konum-study__help", t("help"));
    var holds = el("p", "konum-study__help", t("holds_answers"));

    [bar, card, actions, status, help, holds].forEach(function (node) { root.appendChild(node); });

    function entry(c) { return state.cards[c.key] || null; }
    function pool() {
      return cards.filter(function (c) { return !select.value || c.deck === select.value; });
    }
    function newToday(now) {
      var since = startOfDay(now), n = 0;
      cards.forEach(function (c) {
        var e = entry(c);
        if (e && e.first >= since) n++;
      });
      return n;
    }

    /* The next card: due ones first (earliest due), then new ones while today's limit allows,
     * then a learning card within the learn-ahead limit. */
    function queue(now) {
      var list = pool(), due = [], fresh = [], ahead = [];
      list.forEach(function (c) {
        var e = entry(c);
        if (!e) fresh.push(c);
        else if (e.due <= now) due.push(c);
        else if (e.state !== 2 && e.due <= now + LEARN_AHEAD) ahead.push(c);
      });
      var byDue = function (a, b) { return entry(a).due - entry(b).due; };
      due.sort(byDue);
      ahead.sort(byDue);
      var left = Math.max(0, state.newPerDay - newToday(now));
      return { list: list, due: due, fresh: fresh.slice(0, left), ahead: ahead };
    }

    function pick(q) { return q.due[0] || q.fresh[0] || q.ahead[0] || null; }

    function showProgress(q) {
      var seen = q.list.filter(function (c) { return !!entry(c); }).length;
      progress.textContent = t("progress", {
        due: q.due.length, "new": q.fresh.length, seen: seen, total: q.list.length
      });
    }

    function kind(c) {
      var e = entry(c);
      return !e ? "new" : e.state === 2 ? "review" : "learning";
    }

    function setFlipped(value, announce) {
      flipped = value && !!current;
      back.hidden = !flipped;
      // A cloze card's back repeats its text with the blanks filled: show it instead.
      front.hidden = flipped && current.cloze !== undefined;
      flip.firstChild.textContent = t(flipped ? "hide_answer" : "show_answer");
      flip.setAttribute("aria-expanded", String(flipped));
      card.setAttribute("data-side", flipped ? "answer" : "question");
      var now = Date.now(), choices = [];
      grades.forEach(function (b, i) {
        b.disabled = !flipped;
        var when = "";
        if (flipped) {
          var ms = fsrs.review(entry(current), i + 1, now).due - now;
          when = span(ms, false);
          choices.push(t("choice", { grade: t(GRADES[i]), interval: span(ms, true) }));
          b.setAttribute("data-interval", String(ms));
        }
        b.querySelector(".konum-study__interval").textContent = when;
      });
      if (announce && current) {
        status.textContent = flipped
          ? t("answer_side", { choices: choices.join(", ") }) : t("question_side");
      }
    }

    function show(prefix) {
      var now = Date.now(), q = queue(now);
      current = pick(q);
      showProgress(q);
      prefix = prefix || "";
      if (!current) {
        card.removeAttribute("data-key");
        meta.textContent = "";
        back.textContent = "";
        flip.disabled = true;
        setFlipped(false, false);
        var next = null;
        q.list.forEach(function (c) {
          var e = entry(c);
          if (e && (next === null || e.due < next)) next = e.due;
        });
        var text = !q.list.length ? t("no_cards")
          : next !== null && (!q.fresh.length) && next > now
            ? t("done_next", { interval: span(next - now, true) }) : t("done");
        front.textContent = text;
        status.textContent = prefix + text;
        return;
      }
      flip.disabled = false;
      meta.textContent = t("meta_" + kind(current), { deck: current.deck });
      // generated by konum and sanitised at build time
      if (current.cloze === undefined) {
        front.innerHTML = current.front;
        back.innerHTML = current.back;
      } else {
        front.innerHTML = current.cloze;
        front.querySelectorAll("mark.konum-cloze").forEach(function (mark) {
          mark.replaceWith(el("span", "konum-cloze", "[…]"));
        });
        back.innerHTML = current.cloze + current.back;
      }
      card.setAttribute("data-key", current.key);
      setFlipped(false, false);
      status.textContent = prefix + t("shown", { kind: t("kind_" + kind(current)), deck: current.deck });
    }

    function grade(g) {
      if (!current || !flipped) return;
      var now = Date.now(), old = entry(current), next = fsrs.review(old, g, now);
      next.first = old ? old.first : now;
      next.log = (old && old.log ? old.log : []).concat([[now, g]]);
      state = readState(); // another tab or an import may have written meanwhile
      state.cards[current.key] = next;
      writeState(state);
      var hadFocus = root.contains(document.activeElement);
      show(t("graded", { grade: t(GRADES[g - 1]), interval: span(next.due - now, true) }));
      if (hadFocus) flip.focus();
    }

    flip.addEventListener("click", function () { setFlipped(!flipped, true); });
    grades.forEach(function (b, i) {
      b.addEventListener("click", function () { grade(i + 1); });
    });
    select.addEventListener("change", function () {
      state.lesson = select.value;
      writeState(state);
      show("");
    });
    limit.addEventListener("change", function () {
      var n = parseInt(limit.value, 10);
      if (!(n >= 0)) n = 0;
      state.newPerDay = Math.min(n, 9999);
      limit.value = String(state.newPerDay);
      writeState(state);
      show("");
    });

    active = {
      root: root,
      flip: function () { if (current) setFlipped(!flipped, true); },
      grade: grade
    };
    show("");
    /* The card takes the keyboard when nothing else has it: Space then flips it, and once
     * the reader clicks elsewhere on the page, Space scrolls again. */
    if (!document.activeElement || document.activeElement === document.body) {
      card.focus({ preventScroll: true });
    }
  }

  function onKey(event) {
    if (!active || !document.body.contains(active.root)) return;
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var tag = target && target.tagName;
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || (target && target.isContentEditable)) return;
    if (event.key === " " || event.key === "Spacebar") {
      if (/^(BUTTON|A|SUMMARY)$/.test(tag)) return; // their own Space activates them
      if (!active.root.contains(target)) return; // Space scrolls the page
      event.preventDefault();
      active.flip();
    } else if (/^[1-4]$/.test(event.key)) {
      active.grade(Number(event.key));
    }
  }

  function mountAll() {
    var roots = document.querySelectorAll("[data-konum-study]");
    for (var i = 0; i < roots.length; i++) mount(roots[i]);
  }

  window.konumStudy = { mountAll: mountAll, fsrs: fsrs, store: STORE };
  document.addEventListener("keydown", onKey);
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(mountAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mountAll);
  } else {
    mountAll();
  }
})();
