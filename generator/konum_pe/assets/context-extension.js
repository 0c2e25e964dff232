/* konum explorer "context-extension": the wavelength of every RoPE pair, unscaled and under
 * position interpolation ("linear"), NTK-aware scaling (the base times factor^(d/(d-2)), as
 * lesson 6 computes it), Llama 3 (low and high frequency factors 1 and 4) and YaRN (the
 * paper's betas 32 and 1, its reference code's ramp over the pair index), against the
 * original and the extended context.
 * Arithmetic ported from konum_pe.pe.rope_frequencies (Hugging Face's rope_scaling semantics);
 * the browser tests compare it with the core.
 */
(function () {
  "use strict";
  var K = window.konumExplorers;
  if (!K || K["context-extension"]) { if (K) K.mountAll(); return; }
  var kit = K.kit, svg = kit.svg, fmt = kit.fmt, t = kit.t;
  /* Method, its name's catalogue key, line class and dashes. */
  var METHODS = [["none", "ctx_none", "kx-ink", ""], ["linear", "ctx_linear", "kx-line", ""],
    ["ntk", "ctx_ntk", "kx-line2", "6 3"], ["llama3", "ctx_llama3", "kx-line", "2 3"],
    ["yarn", "ctx_yarn", "kx-line2", "1 2"]];

  /* pe.yarn_ramp: the pair index that makes `turns` turns in the original context, rounded
   * outward, and a linear ramp between (0 keeps a pair, 1 divides it by the factor). */
  function yarnRamp(d, base, original, k) {
    var at = function (turns) { return d * Math.log(original / (turns * 2 * Math.PI)) / (2 * Math.log(base)); };
    var low = Math.max(Math.floor(at(32)), 0), high = Math.min(Math.ceil(at(1)), d - 1);
    return Math.min(1, Math.max(0, (k - low) / (high === low ? 0.001 : high - low)));
  }

  /* pe.rope_frequencies for method none, linear (scaling factor), ntk (base * factor^(d/(d-2))),
   * llama3 (factor, low 1, high 4, original_max_position_embeddings = original) or yarn
   * (factor, original_max_position_embeddings = original). */
  function frequencies(d, base, method, factor, original) {
    var grown = method === "ntk" ? base * Math.pow(factor, d / (d - 2)) : base, out = [];
    for (var k = 0; k < d / 2; k++) {
      var inv = Math.pow(grown, -2 * k / d);
      if (method === "linear") inv = inv / factor;
      if (method === "llama3") {
        var wave = 2 * Math.PI / inv, smooth = (original / wave - 1) / (4 - 1);
        if (wave > original) inv = inv / factor;
        else if (wave >= original / 4) inv = (1 - smooth) * inv / factor + smooth * inv;
      }
      if (method === "yarn") {
        var ramp = yarnRamp(d, base, original, k);
        inv = (1 - ramp) * inv + ramp * inv / factor;
      }
      out.push(inv);
    }
    return out;
  }
  function wavelengths(d, base, method, factor, original) {
    return frequencies(d, base, method, factor, original).map(function (w) { return 2 * Math.PI / w; });
  }

  function mount(ui) {
    var v = ui.v;
    ui.slider("d", t("ctx_d"));
    ui.select("base", t("ctx_base"), kit.num);
    ui.select("factor", t("ctx_factor"), function (x) { return "× " + kit.num(x); });
    ui.select("original", t("ctx_original"), kit.num);
    ui.slider("pair", t("ctx_pair"));
    var plot = svg("g", {}, ui.view(320, 310, t("ctx_plot_label")));

    function draw() {
      var h = v.d / 2, longer = v.factor * v.original;
      ui.range("pair", 0, h - 1);
      var curves = METHODS.map(function (m) { return wavelengths(v.d, v.base, m[0], v.factor, v.original); });
      var at = curves.map(function (c) { return c[v.pair]; });
      var top = Math.ceil(Math.log10(Math.max.apply(null, curves[1]))), sx = kit.scale(0, h - 1, 44, 312), sy = kit.scale(0, top, 210, 10);
      var ly = function (x) { return sy(Math.log10(x)); };
      plot.textContent = "";
      for (var e = 0; e <= top; e += Math.max(1, Math.round(top / 5))) {
        svg("path", { d: kit.line([[44, sy(e)], [312, sy(e)]]), "class": "kx-grid" }, plot);
        svg("text", { x: 40, y: sy(e) + 4, "text-anchor": "end" }, plot, kit.short(Math.pow(10, e)));
      }
      [[v.original, "ctx_original_line"], [longer, "ctx_extended_line"]].forEach(function (c) {
        svg("path", { d: kit.line([[44, ly(c[0])], [312, ly(c[0])]]), "class": "kx-mark", "stroke-dasharray": "1 3" }, plot);
        svg("text", { x: 48, y: ly(c[0]) - 4, "class": "kx-muted" }, plot, t(c[1], { n: kit.num(c[0]) }));
      });
      curves.forEach(function (c, i) {
        svg("path", { d: kit.line(c.map(function (x, k) { return [sx(k), ly(x)]; })), "class": METHODS[i][2], "stroke-dasharray": METHODS[i][3] }, plot);
        var lx = 20 + 150 * (i % 2), y = 252 + 20 * (i >> 1);
        svg("path", { d: kit.line([[lx, y], [lx + 24, y]]), "class": METHODS[i][2], "stroke-dasharray": METHODS[i][3] }, plot);
        svg("text", { x: lx + 30, y: y + 4 }, plot, t(METHODS[i][1]));
      });
      svg("path", { d: kit.line([[sx(v.pair), 10], [sx(v.pair), 210]]), "class": "kx-grid" }, plot);
      at.forEach(function (x) { svg("circle", { cx: sx(v.pair), cy: ly(x), r: 3.5, "class": "kx-mark" }, plot); });
      svg("text", { x: 178, y: 230, "text-anchor": "middle" }, plot, t("ctx_axis"));

      ui.say(t("ctx_readout", {
        pair: v.pair, unscaled: fmt(at[0]), turns: fmt(v.original / at[0], 3), original: kit.num(v.original),
        linear: fmt(at[1]), ntk: fmt(at[2]), llama3: fmt(at[3]), yarn: fmt(at[4])
      }));
    }
    ui.changed = draw;
    draw();
  }

  K.define("context-extension", { frequencies: frequencies, wavelengths: wavelengths, mount: mount });
})();
