/* konum explorers, the shared part: the registry, mounting, controls and SVG helpers.
 *
 * A page with an explorer block (konum.explorer) carries this file, then the file of each
 * explorer it shows; that file calls konumExplorers.define(name, spec), and spec.mount(ui, v)
 * builds the explorer in every element whose data-explorer names it, not yet mounted, with v the
 * starting values from data-explorer-params (JSON: {values, limits}). Mounting hides the
 * fallback figure and marks the element data-explorer-mounted, so running the scripts again
 * (Material's instant navigation re-runs the scripts in the content, and calls document$ on
 * each page change) mounts only what is new. The spec's other functions (its arithmetic, for
 * tests to compare with the plugin's Python) stay reachable as konumExplorers[name].
 * Every text comes from the interface catalogue's section "explorer" in the page's language
 * (konum.messages, JSON in <template data-konum-messages>): kit.t(key, fields); numbers are
 * written in the page's language by Intl (kit.fmt, kit.num), so a Turkish page shows 0,841.
 * No network requests, no dependencies.
 */
(function () {
  "use strict";
  if (window.konumExplorers) {
    window.konumExplorers.mountAll();
    return;
  }
  var SVG = "http://www.w3.org/2000/svg", made = 0, K;

  /* The interface's texts in the page's language (messages.js). */
  function t(key, fields) { return window.konumText("explorer." + key, fields); }
  function locale() { return document.documentElement.lang || "en"; }
  /* An exact number (a count, a base, a context length) in the page's digit grouping. */
  function num(x) { return x.toLocaleString(locale(), { maximumFractionDigits: 12 }); }
  // A log axis's tick, short as the language writes it (10K, 1M; 10 B, 1 Mn in Turkish).
  function short(x) { return x.toLocaleString(locale(), { notation: "compact" }); }

  function attrs(node, a) {
    Object.keys(a || {}).forEach(function (k) { node.setAttribute(k, a[k]); });
    return node;
  }
  function el(tag, a, text, parent) {
    var node = attrs(document.createElement(tag), a);
    if (text != null) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  function svg(tag, a, parent, text) {
    var node = attrs(document.createElementNS(SVG, tag), a);
    if (text != null) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  /* A number for reading: about `digits` significant digits, no exponent below 1e21. */
  function fmt(x, digits) {
    if (!isFinite(x)) return x < 0 ? "-∞" : "∞";
    var r = Number(x.toPrecision(digits || 4));
    return num(Math.abs(r) < 1e-12 ? 0 : r);
  }
  /* A number with exactly `decimals` decimals, as the course's questions round it. */
  function fixed(x, decimals) {
    var r = Number(x.toFixed(decimals));
    return (r === 0 ? 0 : r).toLocaleString(locale(), { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  }
  function scale(d0, d1, r0, r1) {
    return function (x) { return r0 + (x - d0) * (r1 - r0) / (d1 - d0 || 1); };
  }
  function line(points) {
    return points.map(function (p, i) { return (i ? "L" : "M") + p[0].toFixed(1) + " " + p[1].toFixed(1); }).join("");
  }

  /* The controls, views and read-out of one mounted explorer. */
  function UI(root, data) {
    this.root = root;
    this.id = "konum-x" + (++made);
    this.limits = data.limits;
    this.v = data.values;
    this.inputs = {};
    this.controls = el("div", { "class": "konum-explorer__controls", role: "group", "aria-label": t("settings") }, null, root);
    this.views = el("div", { "class": "konum-explorer__views" }, null, root);
    this.out = el("p", { "class": "konum-explorer__readout", "aria-live": "polite" }, null, root);
    this.changed = function () {};
  }
  UI.prototype.field = function (key, label, node, show) {
    var ui = this, box = el("div", { "class": "konum-explorer__field" }, null, this.controls);
    var id = this.id + "-" + key;
    el("label", { "for": id }, label, box);
    attrs(node, { id: id, name: key });
    box.appendChild(node);
    var shown = show ? el("output", { "for": id }, null, box) : null;
    function sync() { if (shown) shown.textContent = show(ui.v[key]); }
    node.addEventListener("input", function () {
      ui.v[key] = node.tagName === "SELECT" && typeof ui.limits[key].choices[0] === "string" ? node.value : Number(node.value);
      sync();
      ui.changed(key);
    });
    this.inputs[key] = { node: node, sync: sync };
    sync();
    return node;
  };
  /* A range input for `key` within its limits; `show` formats the value beside it. */
  UI.prototype.slider = function (key, label, show) {
    var lim = this.limits[key];
    var node = el("input", { type: "range", min: lim.min, max: lim.max, step: lim.step, value: this.v[key] });
    return this.field(key, label, node, show || String);
  };
  /* A select of the key's choices; `name` gives each choice's text. */
  UI.prototype.select = function (key, label, name) {
    var node = el("select"), ui = this;
    this.limits[key].choices.forEach(function (c) {
      var o = el("option", { value: c }, name ? name(c) : String(c), node);
      if (c === ui.v[key]) o.selected = true;
    });
    return this.field(key, label, node);
  };
  /* Set the value of `key` (clamped to the input's range when it is a range input). */
  UI.prototype.set = function (key, value) {
    var input = this.inputs[key];
    if (input.node.type === "range") value = Math.max(+input.node.min, Math.min(+input.node.max, value));
    this.v[key] = value;
    input.node.value = value;
    input.sync();
  };
  UI.prototype.range = function (key, min, max) {
    var node = this.inputs[key].node;
    node.min = min;
    node.max = max;
    this.set(key, this.v[key]);
  };
  /* An SVG view, width x height user units, that scales to the column; `label` names it. */
  UI.prototype.view = function (width, height, label) {
    var box = el("figure", { "class": "konum-explorer__view" }, null, this.views);
    var root = svg("svg", { viewBox: "0 0 " + width + " " + height, role: "img", "aria-label": label }, box);
    return root;
  };
  UI.prototype.say = function (text) { this.out.textContent = text; };

  function mount(root) {
    var spec = K[root.getAttribute("data-explorer")];
    if (!spec || !spec.mount || root.hasAttribute("data-explorer-mounted")) return;
    root.setAttribute("data-explorer-mounted", "");
    var fallback = root.querySelector(".konum-explorer__fallback");
    if (fallback) fallback.hidden = true;
    spec.mount(new UI(root, JSON.parse(root.getAttribute("data-explorer-params"))));
  }
  function mountAll() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-explorer]"), mount);
  }

  K = window.konumExplorers = {
    define: function (name, spec) {
      if (!K[name]) K[name] = spec;
      mountAll();
    },
    mountAll: mountAll,
    kit: { el: el, svg: svg, fmt: fmt, fixed: fixed, num: num, short: short, t: t, scale: scale, line: line }
  };
  function start() {
    var d$ = window.document$;
    mountAll();
    if (d$ && typeof d$.subscribe === "function") d$.subscribe(mountAll);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
