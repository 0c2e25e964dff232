/* konum explorer "sinusoidal": the table PE[p, j] as a heatmap, one cell read out (position,
 * column, pair, frequency, wavelength, value), and PE[p] · PE[p + o] against the offset o.
 * Arithmetic ported from konum_pe.pe (interleaved layout: sine of pair k in column 2k, cosine in
 * 2k + 1; omega_k = base^(-2k/d)); the browser tests compare it with the core.
 */
(function () {
  "use strict";
  var K = window.konumExplorers;
  if (!K || K.sinusoidal) { if (K) K.mountAll(); return; }
  var kit = K.kit, svg = kit.svg, fmt = kit.fmt, t = kit.t;

  /* pe.sinusoidal_frequencies(d, base): ceil(d/2) angular frequencies, radians per position. */
  function frequencies(d, base) {
    var out = [];
    for (var k = 0; k < (d + 1) >> 1; k++) out.push(Math.pow(base, -2 * k / d));
    return out;
  }
  /* pe.sinusoidal_wavelengths(d, base): 2π / omega_k, in positions. */
  function wavelengths(d, base) {
    return frequencies(d, base).map(function (w) { return 2 * Math.PI / w; });
  }
  /* pe.sinusoidal(n, d, base): n rows of d values. */
  function table(n, d, base) {
    var w = frequencies(d, base), rows = [];
    for (var p = 0; p < n; p++) {
      var row = [];
      for (var j = 0; j < d; j++) row.push(j % 2 ? Math.cos(p * w[j >> 1]) : Math.sin(p * w[j >> 1]));
      rows.push(row);
    }
    return rows;
  }
  /* PE[p] · PE[p + o] for even d: the sum over pairs of cos(omega_k o), for every p. */
  function dot(d, base, o) {
    return frequencies(d, base).reduce(function (s, w) { return s + Math.cos(w * o); }, 0);
  }

  function mount(ui) {
    var v = ui.v, rows, W = 320, X0 = 34, PW = 280, PH = 200;
    ui.slider("n", t("sin_n"));
    ui.slider("d", t("sin_d"));
    ui.select("base", t("sin_base"), kit.num);
    ui.slider("position", t("sin_position"));
    ui.slider("column", t("sin_column"));
    ui.slider("offset", t("sin_offset"));
    var heat = ui.view(W, PH + 34, t("sin_heat_label"));
    var cells = svg("g", {}, heat), marks = svg("g", {}, heat);
    svg("text", { x: X0 + PW / 2, y: PH + 30, "text-anchor": "middle" }, heat, t("sin_axis_column"));
    svg("text", { x: 10, y: PH / 2, transform: "rotate(-90 10 " + PH / 2 + ")", "text-anchor": "middle" }, heat, t("sin_axis_position"));
    var plot = ui.view(W, PH + 34, t("sin_plot_label"));
    var curve = svg("g", {}, plot);

    function cell(evt) {
      var box = heat.getBoundingClientRect(), s = W / box.width;
      var x = (evt.clientX - box.left) * s - X0, y = (evt.clientY - box.top) * s - 4;
      if (x < 0 || y < 0 || x >= PW || y >= PH) return;
      ui.set("column", Math.floor(x / PW * v.d));
      ui.set("position", Math.floor(y / PH * v.n));
      draw("cell");
    }
    heat.addEventListener("pointermove", cell);
    heat.addEventListener("click", cell);

    function draw(key) {
      var n = v.n, d = v.d, cw = PW / d, ch = PH / n;
      ui.range("position", 0, n - 1);
      ui.range("column", 0, d - 1);
      ui.range("offset", 1 - n, n - 1);
      if (key !== "cell" && key !== "position" && key !== "column" && key !== "offset" || !rows) {
        rows = table(n, d, v.base);
        cells.textContent = "";
        rows.forEach(function (row, p) {
          row.forEach(function (x, j) {
            svg("rect", { x: X0 + j * cw, y: 4 + p * ch, width: cw + 0.2, height: ch + 0.2, "class": x < 0 ? "kx-neg" : "kx-pos", "fill-opacity": Math.abs(x).toFixed(3) }, cells);
          });
        });
      }
      var p = v.position, j = v.column, o = v.offset, q = p + o;
      marks.textContent = "";
      svg("rect", { x: X0, y: 4 + p * ch, width: PW, height: ch, "class": "kx-mark", "stroke-dasharray": "3 2" }, marks);
      if (q >= 0 && q < n) svg("rect", { x: X0, y: 4 + q * ch, width: PW, height: ch, "class": "kx-mark", "stroke-dasharray": "1 2" }, marks);
      svg("rect", { x: X0 + j * cw, y: 4 + p * ch, width: cw, height: ch, "class": "kx-mark" }, marks);

      var ks = [], lo = 1 - n, hi = n - 1, top = d / 2;
      for (var i = lo; i <= hi; i++) ks.push(i);
      var sx = kit.scale(lo, hi, X0, X0 + PW), sy = kit.scale(-top, top, PH + 4, 4);
      curve.textContent = "";
      svg("path", { d: kit.line([[X0, sy(0)], [X0 + PW, sy(0)]]), "class": "kx-grid" }, curve);
      svg("path", { d: kit.line([[sx(0), 4], [sx(0), PH + 4]]), "class": "kx-grid" }, curve);
      svg("path", { d: kit.line(ks.map(function (i) { return [sx(i), sy(dot(d, v.base, i))]; })), "class": "kx-line" }, curve);
      ks.forEach(function (i) {  // the table's own rows: p fixed, p + o inside the table
        if (p + i >= 0 && p + i < n) {
          var s = rows[p].reduce(function (t, x, c) { return t + x * rows[p + i][c]; }, 0);
          svg("circle", { cx: sx(i), cy: sy(s), r: 2, "class": "kx-dot" }, curve);
        }
      });
      svg("circle", { cx: sx(o), cy: sy(dot(d, v.base, o)), r: 4, "class": "kx-mark" }, curve);
      svg("text", { x: X0 + 4, y: 14 }, curve, "d/2 = " + top);
      svg("text", { x: X0 - 4, y: sy(0) + 4, "text-anchor": "end" }, curve, "0");
      svg("text", { x: X0 + PW / 2, y: PH + 30, "text-anchor": "middle" }, curve, t("sin_axis_offset", { p: p }));

      var pair = j >> 1, w = frequencies(d, v.base)[pair];
      ui.say(t("sin_readout", {
        p: p, j: j, kind: t(j % 2 ? "sin_cosine" : "sin_sine"), pair: pair, frequency: fmt(w),
        wavelength: fmt(2 * Math.PI / w), value: kit.fixed(rows[p][j], 4), o: o, dot: fmt(dot(d, v.base, o)), minus_o: -o
      }));
    }
    ui.changed = draw;
    draw();
  }

  K.define("sinusoidal", { frequencies: frequencies, wavelengths: wavelengths, table: table, dot: dot, mount: mount });
})();
