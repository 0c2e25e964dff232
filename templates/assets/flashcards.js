/* konum study widget: one flashcard at a time with a five-box Leitner scheme.
 *
 * Mounts on every [data-konum-study] element, reading the cards from the JSON in its
 * <script type="application/json" class="konum-cards"> (written by konum.render.render_study
 * into the page, so the page works from file:// and under any server): {decks: [...], cards:
 * [{key, kind, deck, front, back}]} with front/back as sanitised HTML (MathML for math).
 *
 * Leitner: every card starts in box 1; "Good" moves it up one box (at most 5), "Again" sends
 * it back to box 1. The next card comes from the lowest non-empty box (of the chosen lesson),
 * the one graded longest ago first. The progress line counts the chosen lesson's cards that
 * are seen (graded at least once) and known (last graded Good, so in box 2 or higher). Boxes live in localStorage under "konum-study-v1",
 * keyed by the card's stable key, so regenerated decks keep their progress.
 *
 * Keys: Space flips (unless a button, link or field has focus: those keep their own Space),
 * 1 = Again and 2 = Good once the answer shows. Mounting is idempotent; under Material's
 * instant navigation the script re-runs and mounts through document$.
 */
(function () {
  "use strict";

  if (window.konumStudy) {
    window.konumStudy.mountAll();
    return;
  }

  var STORE = "konum-study-v1";
  var BOXES = 5;
  var memory = null; // used when localStorage is unavailable
  var active = null; // the widget on the current page (for the keyboard)

  function readState() {
    var state = memory;
    try {
      state = JSON.parse(window.localStorage.getItem(STORE) || "null") || memory;
    } catch (e) { /* private mode or corrupt data: start afresh */ }
    if (!state || typeof state !== "object" || !state.cards) state = { n: 0, cards: {}, lesson: "" };
    return state;
  }

  function writeState(state) {
    memory = state;
    try {
      window.localStorage.setItem(STORE, JSON.stringify(state));
    } catch (e) { /* keep it in memory for this page */ }
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function button(className, label, key) {
    var b = el("button", "konum-study__button " + className, label + " ");
    b.type = "button";
    b.setAttribute("aria-keyshortcuts", key);
    b.appendChild(el("kbd", "", key));
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
        "The flashcards could not be read (" + error.message + ")." + downloads(root)));
      return;
    }
    build(root, data);
  }

  /* Where the page's flashcard downloads are, as seen from the widget, if it has any. */
  function downloads(root) {
    var link = document.querySelector('a[href$=".apkg"], a[href*="downloads/"]');
    if (!link) return "";
    var after = root.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING;
    return " Use the downloads " + (after ? "below" : "above") + " instead.";
  }

  function build(root, data) {
    var cards = (data && data.cards) || [];
    var decks = (data && data.decks) || [];
    var state = readState();
    var current = null;
    var flipped = false;

    root.textContent = "";
    var bar = el("div", "konum-study__bar");
    var label = el("label", "konum-study__label", "Lesson ");
    var select = el("select", "konum-study__filter");
    select.appendChild(new Option("All lessons (" + cards.length + ")", ""));
    decks.forEach(function (deck) {
      var count = cards.filter(function (c) { return c.deck === deck; }).length;
      select.appendChild(new Option(deck + " (" + count + ")", deck));
    });
    select.value = decks.indexOf(state.lesson) >= 0 ? state.lesson : "";
    label.appendChild(select);
    var progress = el("p", "konum-study__progress");
    bar.appendChild(label);
    bar.appendChild(progress);

    var card = el("section", "konum-study__card");
    card.setAttribute("aria-label", "Flashcard");
    card.tabIndex = -1;
    var meta = el("p", "konum-study__meta");
    var front = el("div", "konum-study__front");
    var back = el("div", "konum-study__back");
    back.hidden = true;
    card.appendChild(meta);
    card.appendChild(front);
    card.appendChild(back);

    var actions = el("div", "konum-study__actions");
    var flip = button("konum-study__flip", "Show answer", "Space");
    var again = button("konum-study__again", "Again", "1");
    var good = button("konum-study__good", "Good", "2");
    actions.appendChild(flip);
    actions.appendChild(again);
    actions.appendChild(good);

    var status = el("p", "konum-study__status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    var footer = el("p", "konum-study__help",
      "Space shows the answer, 1 means again, 2 means good. Seen counts the cards you have " +
      "graded, known those you last graded Good. Progress stays in this browser. ");
    var reset = el("button", "konum-study__reset", "Reset progress");
    reset.type = "button";
    footer.appendChild(reset);

    [bar, card, actions, status, footer].forEach(function (node) { root.appendChild(node); });

    function box(c) {
      var entry = state.cards[c.key];
      return entry ? entry[0] : 1;
    }

    function seq(c) {
      var entry = state.cards[c.key];
      return entry ? entry[1] : 0;
    }

    function pool() {
      return cards.filter(function (c) { return !select.value || c.deck === select.value; });
    }

    function pick() {
      var best = null;
      pool().forEach(function (c) {
        if (!best || box(c) < box(best) || (box(c) === box(best) && seq(c) < seq(best))) best = c;
      });
      return best;
    }

    /* Seen: cards graded at least once. Known: cards whose last grade was Good (box 2+).
     * Both move from the first card on; the title has the count per box. */
    function showProgress(list) {
      var seen = list.filter(function (c) { return !!state.cards[c.key]; }).length;
      var known = list.filter(function (c) { return box(c) >= 2; }).length;
      var counts = [];
      for (var b = 1; b <= BOXES; b++) {
        counts.push(b + ": " + list.filter(function (c) { return box(c) === b; }).length);
      }
      progress.textContent = seen + " of " + list.length + " seen, " + known + " known";
      progress.title = "Cards per box: " + counts.join(", ");
    }

    function setFlipped(value, announce) {
      flipped = value && !!current;
      back.hidden = !flipped;
      // A cloze card's back repeats its text with the blanks filled: show it instead.
      front.hidden = flipped && current.kind === "cloze";
      flip.firstChild.textContent = flipped ? "Hide answer " : "Show answer ";
      flip.setAttribute("aria-expanded", String(flipped));
      again.disabled = good.disabled = !flipped;
      card.setAttribute("data-side", flipped ? "answer" : "question");
      if (announce && current) status.textContent = flipped ? "Answer side." : "Question side.";
    }

    function show(prefix) {
      var list = pool();
      current = pick();
      showProgress(list);
      if (!current) {
        meta.textContent = "";
        front.textContent = "No cards in this lesson.";
        back.textContent = "";
        flip.disabled = true;
        setFlipped(false, false);
        status.textContent = (prefix || "") + "No cards.";
        return;
      }
      flip.disabled = false;
      meta.textContent = current.deck + " · box " + box(current);
      front.innerHTML = current.front; // generated by konum and sanitised at build time
      back.innerHTML = current.back;
      card.setAttribute("data-key", current.key);
      setFlipped(false, false);
      status.textContent = (prefix || "") + "New card from " + current.deck + ", box " +
        box(current) + ". Question side.";
    }

    function grade(ok) {
      if (!current || !flipped) return;
      var next = ok ? Math.min(box(current) + 1, BOXES) : 1;
      state.n = (state.n || 0) + 1;
      state.cards[current.key] = [next, state.n];
      writeState(state);
      var hadFocus = root.contains(document.activeElement);
      show((ok ? "Good: box " : "Again: box ") + next + ". ");
      if (hadFocus) flip.focus();
    }

    flip.addEventListener("click", function () { setFlipped(!flipped, true); });
    again.addEventListener("click", function () { grade(false); });
    good.addEventListener("click", function () { grade(true); });
    select.addEventListener("change", function () {
      state.lesson = select.value;
      writeState(state);
      show("");
    });
    reset.addEventListener("click", function () {
      if (!window.confirm("Put every card back in box 1?")) return;
      state = { n: 0, cards: {}, lesson: select.value };
      writeState(state);
      show("Progress reset. ");
    });

    active = {
      root: root,
      flip: function () { if (current) setFlipped(!flipped, true); },
      grade: grade
    };
    show("");
  }

  function onKey(event) {
    if (!active || !document.body.contains(active.root)) return;
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var tag = target && target.tagName;
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || (target && target.isContentEditable)) return;
    if (event.key === " " || event.key === "Spacebar") {
      if (/^(BUTTON|A|SUMMARY)$/.test(tag)) return; // their own Space activates them
      event.preventDefault();
      active.flip();
    } else if (event.key === "1" || event.key === "2") {
      active.grade(event.key === "2");
    }
  }

  function mountAll() {
    var roots = document.querySelectorAll("[data-konum-study]");
    for (var i = 0; i < roots.length; i++) mount(roots[i]);
  }

  window.konumStudy = { mountAll: mountAll };
  document.addEventListener("keydown", onKey);
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(mountAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mountAll);
  } else {
    mountAll();
  }
})();
